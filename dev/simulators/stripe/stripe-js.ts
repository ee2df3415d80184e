import { bundleStripeJs } from "./stripe-js/bundle.ts" with { type: "macro" };

/** Where the simulator serves its Stripe.js stand-in (./stripe-js/client.ts), as js.stripe.com does. */
export const STRIPE_JS_PATH = "/js/v3.js";

/** The stand-in as the browser gets it: bundled at build time (a macro), not at each request. */
export const stripeJsSource: string = bundleStripeJs();
