/**
 * A loopback Stripe for offline development and tests (no STRIPE_SECRET_KEY): the REST slice
 * our billing code calls, a Stripe.js stand-in, hosted Checkout and portal pages, signed
 * webhooks and a simulated clock. The modules are in ./stripe/ (index.ts assembles them).
 * It is separate from the AI provider simulators in ./index.ts.
 *
 *   bun dev/simulators/stripe.ts [--port N] [--hostname H] [--webhook-url URL] [--webhook-secret S]
 *                                [--secret-key K] [--publishable-key K] [--advance-clock-endpoint]
 *
 * prints the STRIPE_* environment lines to point the app at it. Endpoints (all JSON, form
 * parameters, `Authorization: Bearer <secret key>`):
 *   customers        POST /v1/customers, GET /v1/customers?email=, GET|POST /v1/customers/:id
 *   catalogue        GET /v1/prices/:id, GET /v1/products/:id, GET /v1/payment_methods/:id
 *   subscriptions    POST /v1/subscriptions, GET /v1/subscriptions?customer=&status=&price=,
 *                    GET|POST|DELETE /v1/subscriptions/:id
 *   invoices         GET /v1/invoices/:id, GET /v1/invoices?customer=&subscription=&status=
 *   payment intents  GET /v1/payment_intents/:id, POST /v1/payment_intents/:id/confirm
 *                    (these two also take the publishable key with `client_secret`)
 *   checkout         POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id; the session's
 *                    url is the hosted page /c/pay/:id
 *   portal           POST /v1/billing_portal/sessions; the url is the page /p/session/:id
 *   events           GET /v1/events?type=, GET /v1/events/:id
 *   Stripe.js        GET /js/v3.js
 * Test helpers of ours (real Stripe's test clocks are objects of their own; this is simpler):
 *   POST /v1/test_helpers/simulator/advance  seconds=N → advances the simulated clock like
 *        advanceClock, answers {"now"} once the webhooks are delivered. Always on: the
 *        --advance-clock-endpoint flag is accepted for scripts that pass it, and changes nothing.
 *   GET  /v1/test_helpers/simulator → {"now"}
 *   POST /v1/test_helpers/checkout/sessions/:id/complete → pays an open session with 4242.
 */
import { startStripeSimulator } from "./stripe/index.ts";

export { DEFAULT_PRICE, startStripeSimulator } from "./stripe/index.ts";
export type { Delivery, SimulatorStateStore, StripeEvent, StripeSimulator, StripeSimulatorOptions, WebhookTarget } from "./stripe/index.ts";
export { signatureHeader } from "./stripe/webhooks.ts";

if (import.meta.main) {
  const arg = (name: string): string | undefined => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const port = arg("--port");
  if (port !== undefined && !/^\d+$/.test(port)) throw new Error(`--port expects a number, got ${JSON.stringify(port)}`);
  const webhookUrl = arg("--webhook-url");
  const sim = startStripeSimulator({
    port: port === undefined ? 0 : Number(port),
    hostname: arg("--hostname"),
    webhook: webhookUrl ? { url: webhookUrl } : undefined,
    webhookSecret: arg("--webhook-secret"),
    secretKey: arg("--secret-key"),
    publishableKey: arg("--publishable-key"),
  });
  console.log(`STRIPE_API_BASE=${sim.apiBase}`);
  console.log(`STRIPE_SECRET_KEY=${sim.secretKey}`);
  console.log(`STRIPE_PUBLISHABLE_KEY=${sim.publishableKey}`);
  console.log(`STRIPE_WEBHOOK_SECRET=${sim.webhookSecret}`);
  console.log(`STRIPE_PRICE_ID=${sim.priceId}`);
  console.error(`Stripe simulator on ${sim.origin}${webhookUrl ? `, webhooks to ${webhookUrl}` : ", no webhook URL"}. Ctrl-C to stop.`);
  const shutdown = () => void sim.stop().then(() => process.exit(0));
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
