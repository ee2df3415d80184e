/**
 * The Stripe simulator: one loopback Bun.serve that speaks the slice of Stripe's REST API the
 * billing code calls (under /v1, so the official `stripe` SDK works against it unchanged),
 * serves a Stripe.js stand-in at /js/v3.js, hosts the Checkout and customer portal pages, and
 * delivers signed webhooks. Time is simulated: `advanceClock` runs renewals, expiries and
 * scheduled cancelations. Not a mock of our code: a fake Stripe.
 *
 *   const sim = startStripeSimulator({ webhook: { deliver: (request) => app.handle(request) } });
 *   const stripe = new Stripe(sim.secretKey, { host: "127.0.0.1", port: sim.port, protocol: "http", maxNetworkRetries: 0 });
 */
import { createApi } from "./api.ts";
import { Billing } from "./billing.ts";
import { completeWithTestCard } from "./checkout.ts";
import { advance } from "./clock.ts";
import { hostedPage } from "./pages.ts";
import { restoreState, serializeState, type SimulatorStateStore } from "./state.ts";
import { Store, newId, type PriceConfig } from "./store.ts";
import { STRIPE_JS_PATH, stripeJsSource } from "./stripe-js.ts";
import { Webhooks, type Delivery, type StripeEvent, type WebhookTarget } from "./webhooks.ts";

export type { SimulatorStateStore } from "./state.ts";
export type { Delivery, StripeEvent, WebhookTarget } from "./webhooks.ts";

export type StripeSimulatorOptions = {
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Where signed webhooks go: a URL, or a function (tests deliver straight into app.handle). Settable later. */
  webhook?: WebhookTarget;
  /** Default: a generated "whsec_…". */
  webhookSecret?: string;
  /** Default "sk_test_simulated"; requests must carry `Authorization: Bearer <it>`. */
  secretKey?: string;
  /** Default "pk_test_simulated"; accepted only by the PaymentIntent retrieve and confirm endpoints, with the client_secret. */
  publishableKey?: string;
  /** The price the product sells. Default: "price_pro_monthly", 1900 usd per month, "AI Search Comparison Pro". */
  price?: PriceConfig;
  /** Seconds between webhook retries, default [1, 2, 4, 8] (real Stripe retries for days). */
  webhookRetryDelaysS?: number[];
  /**
   * Where its objects and clock are kept across restarts (state.ts): loaded at start, saved after
   * each change. Default: nowhere, everything is forgotten at stop.
   */
  state?: SimulatorStateStore;
};

export interface StripeSimulator {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  readonly port: number;
  /** What STRIPE_API_BASE is set to (the SDK's host/port/protocol come from it). */
  readonly apiBase: string;
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  readonly priceId: string;
  setWebhook(target: WebhookTarget | undefined): void;
  /** Simulated time, unix seconds (starts at real now). */
  now(): number;
  /**
   * Moves simulated time forward and runs what falls due: period ends (scheduled cancelations →
   * customer.subscription.deleted; renewals → a new invoice charged to the saved card →
   * invoice.paid + customer.subscription.updated, or invoice.payment_failed → past_due), unpaid
   * first invoices (23 h → incomplete_expired), open Checkout Sessions (24 h → expired).
   * Resolves when the webhooks are delivered.
   */
  advanceClock(seconds: number): Promise<void>;
  /** Every event created so far, newest last. */
  readonly events: readonly StripeEvent[];
  /** Each delivery attempt. */
  readonly deliveries: readonly Delivery[];
  /** Resolves once no webhook delivery is pending. */
  idle(): Promise<void>;
  /** Completes an open Checkout Session as if the customer paid with 4242 on Stripe's page; resolves when the webhooks are delivered. */
  completeCheckoutSession(id: string): Promise<void>;
  stop(): Promise<void>;
}

export const DEFAULT_PRICE: PriceConfig = {
  id: "price_pro_monthly",
  unitAmount: 1900,
  currency: "usd",
  interval: "month",
  productName: "AI Search Comparison Pro",
};

export function startStripeSimulator(options: StripeSimulatorOptions = {}): StripeSimulator {
  const secretKey = options.secretKey ?? "sk_test_simulated";
  const publishableKey = options.publishableKey ?? "pk_test_simulated";
  const webhookSecret = options.webhookSecret ?? newId("whsec", 32);
  const price = options.price ?? DEFAULT_PRICE;
  const store = new Store(price);
  const save = options.state ? keepState(store, price, options.state) : () => {};
  const hooks = new Webhooks(webhookSecret, options.webhookRetryDelaysS ?? [1, 2, 4, 8], options.webhook, () => store.now);
  let handle: (request: Request) => Promise<Response> | Response = () => new Response("starting", { status: 503 });

  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    // The clock endpoint answers once webhooks are delivered, retries included: no idle cut-off.
    idleTimeout: 0,
    development: false,
    fetch: (request) => handle(request),
    error: (error) => Response.json({ error: { type: "api_error", message: `The Stripe simulator failed: ${error.message}` } }, { status: 500 }),
  });
  const origin = `http://${server.hostname === "::1" ? "[::1]" : server.hostname}:${server.port}`;
  const billing = new Billing(store, hooks, origin);

  const advanceClock = async (seconds: number) => {
    if (!Number.isFinite(seconds) || seconds < 0) throw new Error(`advanceClock expects a number of seconds ≥ 0, got ${seconds}`);
    hooks.during(null, () => advance(billing, Math.floor(seconds)));
    save();
    await hooks.idle();
  };
  const api = createApi({ billing, store, origin, secretKey, publishableKey, advanceClock });

  // Only a request that posts (the API's writes, the hosted pages' forms) changes the state.
  handle = async (request) => {
    const response = await route(request);
    if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "OPTIONS") save();
    return response;
  };
  const route = (request: Request): Promise<Response> | Response => {
    const url = new URL(request.url);
    if (url.pathname.startsWith("/v1/")) return api(request, url);
    if (url.pathname === STRIPE_JS_PATH) {
      return new Response(stripeJsSource, {
        headers: { "content-type": "application/javascript; charset=utf-8", "access-control-allow-origin": "*", "cache-control": "no-cache" },
      });
    }
    const page = hostedPage(billing, request, url);
    if (page) return page;
    if (url.pathname === "/") return Response.json({ simulator: "stripe", apiBase: origin, stripeJs: `${origin}${STRIPE_JS_PATH}`, now: store.now });
    return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
  };

  return {
    origin,
    port: server.port ?? 0,
    apiBase: origin,
    secretKey,
    publishableKey,
    webhookSecret,
    priceId: price.id,
    setWebhook: (target) => hooks.setTarget(target),
    now: () => store.now,
    advanceClock,
    events: hooks.events,
    deliveries: hooks.deliveries,
    idle: () => hooks.idle(),
    completeCheckoutSession: async (id) => {
      hooks.during(null, () => completeWithTestCard(billing, store.checkoutSessions.lookup(id)));
      save();
      await hooks.idle();
    },
    stop: async () => {
      hooks.stop();
      await server.stop(true);
    },
  };
}

/**
 * Loads the saved state into `store` and returns the function that saves it (only when it
 * changed). A document it cannot read is said in one line and replaced at the first change: the
 * simulator starts empty. A failed save is said and the
 * simulator goes on from memory.
 */
function keepState(store: Store, price: PriceConfig, state: SimulatorStateStore): () => void {
  const saved = state.load();
  if (saved !== undefined) {
    try {
      restoreState(store, saved, price);
    } catch (error) {
      console.error(`Stripe simulator: ignoring ${state.where}: ${(error as Error).message}; starting with no customers or subscriptions`);
    }
  }
  let last = saved;
  return () => {
    const document = serializeState(store);
    if (document === last) return;
    try {
      state.save(document);
      last = document;
    } catch (error) {
      console.error(`Stripe simulator: could not save ${state.where} (${(error as Error).message}); its state lives in memory until the next save`);
    }
  };
}
