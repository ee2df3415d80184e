import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { stripeEvents, subscriptions } from "#db/schema.ts";
import { formatDate } from "#src/core/dates.ts";
import { startStripeSimulator, type StripeSimulator } from "#dev/simulators/stripe.ts";
import { signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, WEBHOOK_URL } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { incompleteSubscription } from "#tests/support/stripe.ts";

type Agent = ReturnType<typeof createAgent>;

const MONTH_S = 31 * 24 * 3600;

/** The browser's part: Stripe.js confirms the PaymentIntent with the publishable key and the card. */
async function pay(
  stripe: StripeSimulator,
  clientSecret: string,
  card: string,
): Promise<{ status: number; json: { error?: { code?: string; decline_code?: string; message?: string }; status?: string } }> {
  const id = clientSecret.split("_secret_")[0] ?? "";
  const body = new URLSearchParams({
    client_secret: clientSecret,
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": card,
    "payment_method_data[card][exp_month]": "12",
    "payment_method_data[card][exp_year]": String(new Date().getFullYear() + 3),
    "payment_method_data[card][cvc]": "123",
  });
  const response = await fetch(`${stripe.apiBase}/v1/payment_intents/${id}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${stripe.publishableKey}`, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: response.status, json: (await response.json()) as never };
}

/** A signed-in free user and the app's answers to create-subscription. */
async function subscriber(agent: Agent) {
  const created = await agent.request("POST", "/api/create-subscription");
  expect(created.status).toBe(200);
  return created.json as { status: string; clientSecret: string; subscriptionId: string };
}

async function isPro(agent: Agent): Promise<boolean> {
  return (await agent.api.proStatus()).isPro;
}

describeEachDatabase("billing: Stripe subscriptions through the official SDK", (getDb) => {
  let stripe: StripeSimulator;
  beforeAll(() => {
    stripe = startStripeSimulator({ webhookRetryDelaysS: [0.05, 0.1] });
  });
  afterAll(async () => {
    await stripe.stop();
  });

  async function signedIn() {
    const { app } = await createTestApp(getDb(), { stripe });
    const agent = createAgent(app);
    const account = await signUp(agent, getDb());
    return { app, agent, account };
  }

  test("upgrade: create → the card pays → Stripe's webhook → Pro, with every detail of the subscription", async () => {
    const { agent } = await signedIn();
    expect(await isPro(agent)).toBe(false);
    const created = await subscriber(agent);
    expect(created.status).toBe("incomplete");
    expect(created.clientSecret).toStartWith("pi_");
    expect(created.subscriptionId).toStartWith("sub_");

    const paid = await pay(stripe, created.clientSecret, "4242424242424242");
    expect(paid.json.status).toBe("succeeded");
    await stripe.idle();
    expect(await isPro(agent)).toBe(true);

    const details = await agent.api.subscriptionDetails();
    expect(details.isPro).toBe(true);
    expect(details.subscriptionDetails).toMatchObject({
      id: created.subscriptionId,
      status: "active",
      planAmount: 1900,
      planCurrency: "usd",
      planInterval: "month",
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
    });
    const periodEnd = Date.parse(details.subscriptionDetails?.currentPeriodEnd ?? "");
    expect(periodEnd - stripe.now() * 1000).toBeGreaterThan(27 * 24 * 3600 * 1000);
    expect(periodEnd - stripe.now() * 1000).toBeLessThan(MONTH_S * 1000 + 60_000);

    // Pro unlocks iterations: a 5-iteration search is admitted.
    const search = await agent.request("POST", "/api/search", { query: "best crm", iterations: 5 });
    expect(search.status).toBe(200);
    expect((await agent.request("POST", "/api/create-subscription")).json).toEqual({ status: "active" });
  });

  test("asking twice before paying hands out the same subscription; one Stripe customer per user", async () => {
    const { agent, account } = await signedIn();
    const first = await subscriber(agent);
    const second = await subscriber(agent);
    expect(second.subscriptionId).toBe(first.subscriptionId);
    expect(second.clientSecret).toBe(first.clientSecret);
    const rows = await getDb().db.select().from(subscriptions).where(eq(subscriptions.userId, account.id));
    expect(rows.map((row) => row.id)).toEqual([first.subscriptionId]);
    const sdk = new Stripe(stripe.secretKey, { host: "127.0.0.1", port: stripe.port, protocol: "http", maxNetworkRetries: 0 });
    const listed = await sdk.subscriptions.list({ customer: rows[0]?.stripeCustomerId ?? "" });
    expect(listed.data.map((s) => s.id)).toEqual([first.subscriptionId]);
  });

  test("a declined card is Stripe's 402 with its message; nobody becomes Pro; a good card then works", async () => {
    const { agent } = await signedIn();
    const created = await subscriber(agent);
    const declined = await pay(stripe, created.clientSecret, "4000000000000002");
    expect(declined.status).toBe(402);
    expect(declined.json.error).toMatchObject({ code: "card_declined", message: "Your card was declined." });
    const poor = await pay(stripe, created.clientSecret, "4000000000009995");
    expect(poor.json.error).toMatchObject({ decline_code: "insufficient_funds" });
    await stripe.idle();
    expect(await isPro(agent)).toBe(false);
    expect((await agent.request("POST", "/api/verify-subscription", { sessionId: created.subscriptionId })).json).toEqual({ success: false });

    expect((await pay(stripe, created.clientSecret, "4242424242424242")).json.status).toBe("succeeded");
    await stripe.idle();
    expect(await isPro(agent)).toBe(true);
  });

  test("verify reads the subscription from Stripe: without webhooks, the returned subscription or payment id makes the payer Pro", async () => {
    const { agent } = await signedIn();
    stripe.setWebhook(undefined);
    const created = await subscriber(agent);
    await pay(stripe, created.clientSecret, "4242424242424242");
    expect(await isPro(agent)).toBe(false);
    const paymentIntent = created.clientSecret.split("_secret_")[0] ?? "";
    expect((await agent.request("POST", "/api/verify-subscription", { sessionId: paymentIntent })).json).toEqual({ success: true });
    expect(await isPro(agent)).toBe(true);
  });

  test("nobody is made Pro, or loses a plan, by naming someone else's subscription", async () => {
    const { app, agent: owner } = await signedIn();
    const created = await subscriber(owner);
    await pay(stripe, created.clientSecret, "4242424242424242");
    await stripe.idle();

    const stranger = createAgent(app);
    await signUp(stranger, getDb());
    expect((await stranger.request("POST", "/api/verify-subscription", { sessionId: created.subscriptionId })).status).toBe(404);
    expect(await isPro(stranger)).toBe(false);
    // Even with a Stripe customer of their own.
    await subscriber(stranger);
    expect((await stranger.request("POST", "/api/verify-subscription", { sessionId: created.subscriptionId })).status).toBe(404);
    expect((await stranger.request("POST", "/api/cancel-subscription", { subscriptionId: created.subscriptionId })).status).toBe(404);
    expect((await stranger.request("POST", "/api/resume-subscription", { subscriptionId: created.subscriptionId })).status).toBe(404);
    expect(await isPro(stranger)).toBe(false);
    expect((await owner.api.subscriptionDetails()).subscriptionDetails?.cancelAtPeriodEnd).toBe(false);

    const anonymous = createAgent(app);
    for (const [path, body] of [
      ["/api/create-subscription", undefined],
      ["/api/verify-subscription", { sessionId: created.subscriptionId }],
      ["/api/cancel-subscription", { subscriptionId: created.subscriptionId }],
    ] as const) {
      expect((await anonymous.request("POST", path, body)).status).toBe(401);
    }
    expect((await anonymous.request("GET", "/api/subscription-details")).status).toBe(401);
  });

  test("cancel schedules the end: Pro until the period ends, then Stripe deletes it and the user is free again; resume undoes it", async () => {
    const { agent } = await signedIn();
    const created = await subscriber(agent);
    await pay(stripe, created.clientSecret, "4242424242424242");
    await stripe.idle();

    const cancelled = await agent.request("POST", "/api/cancel-subscription", { subscriptionId: created.subscriptionId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ success: true });
    expect((cancelled.json as { message: string }).message).toContain("remains active until the end of the billing period");
    const scheduled = (await agent.api.subscriptionDetails()).subscriptionDetails;
    expect(scheduled).toMatchObject({ status: "active", cancelAtPeriodEnd: true });
    expect(scheduled?.cancelAt).toBe(scheduled?.currentPeriodEnd ?? "missing");
    expect(scheduled?.canceledAt).toBeString();
    // The toast shows this message beside the page's "Dec 26, 2026": one way to write the date.
    const message = (cancelled.json as { message: string }).message;
    expect(message).toEndWith(` on ${formatDate(scheduled?.currentPeriodEnd, { time: false })}.`);
    expect(message).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await isPro(agent)).toBe(true);

    expect((await agent.request("POST", "/api/resume-subscription", { subscriptionId: created.subscriptionId })).json).toMatchObject({ success: true });
    expect((await agent.api.subscriptionDetails()).subscriptionDetails).toMatchObject({ cancelAtPeriodEnd: false, cancelAt: null });

    await agent.request("POST", "/api/cancel-subscription", { subscriptionId: created.subscriptionId });
    await stripe.advanceClock(MONTH_S + 3600);
    await stripe.idle();
    expect(await isPro(agent)).toBe(false);
    expect((await agent.api.subscriptionDetails()).subscriptionDetails?.status).toBe("canceled");
    expect((await agent.request("POST", "/api/search", { query: "best crm", iterations: 5 })).status).toBe(403);
  });

  test("a renewal is charged when the period ends; a card that fails it leaves the user past due, Pro only for the grace", async () => {
    const { agent } = await signedIn();
    const created = await subscriber(agent);
    await pay(stripe, created.clientSecret, "4000000000000341");
    await stripe.idle();
    expect(await isPro(agent)).toBe(true);
    await stripe.advanceClock(MONTH_S + 3600);
    await stripe.idle();
    expect((await agent.api.subscriptionDetails()).subscriptionDetails?.status).toBe("past_due");
  });

  test("Stripe forgetting everything (test data cleared) costs nobody a billing action: an ended subscription grants nothing, a new checkout makes a new customer", async () => {
    const { app, agent: pro } = await signedIn();
    const paid = await subscriber(pro);
    await pay(stripe, paid.clientSecret, "4242424242424242");
    await stripe.idle();
    expect(await isPro(pro)).toBe(true);
    const opener = createAgent(app);
    await signUp(opener, getDb());
    const opened = await subscriber(opener);
    await stripe.idle();

    // The same Stripe address and keys, none of its objects.
    const port = stripe.port;
    await stripe.stop();
    stripe = startStripeSimulator({
      port,
      webhookSecret: stripe.webhookSecret,
      webhookRetryDelaysS: [0.05, 0.1],
      webhook: { deliver: (request) => app.handle(request), url: WEBHOOK_URL },
    });

    const resumed = await pro.request("POST", "/api/resume-subscription", { subscriptionId: paid.subscriptionId });
    expect(resumed.status).toBe(400);
    expect((resumed.json as { message: string }).message).toContain("subscribe again");
    expect(await isPro(pro)).toBe(false);
    const cancelled = await pro.request("POST", "/api/cancel-subscription", { subscriptionId: paid.subscriptionId });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ success: true, message: expect.stringContaining("nothing more will be charged") });
    expect((await pro.api.subscriptionDetails()).subscriptionDetails).toMatchObject({ id: paid.subscriptionId, status: "canceled" });
    const portal = await pro.request("POST", "/api/billing-portal", {});
    expect(portal.status).toBe(404);
    expect((portal.json as { message: string }).message).toContain("no longer has your billing account");

    // Both upgrade again, on a new customer.
    for (const agent of [pro, opener]) {
      const created = await subscriber(agent);
      expect(created.status).toBe("incomplete");
      expect(created.subscriptionId).not.toBe(opened.subscriptionId);
      expect((await pay(stripe, created.clientSecret, "4242424242424242")).json.status).toBe("succeeded");
      await stripe.idle();
      expect(await isPro(agent)).toBe(true);
    }
    expect((await pro.request("POST", "/api/billing-portal", {})).status).toBe(200);
  });

  describe("webhooks", () => {
    const sdk = () => new Stripe(stripe.secretKey, { host: "127.0.0.1", port: stripe.port, protocol: "http", maxNetworkRetries: 0 });
    const send = async (agent: Agent, payload: string, secret = stripe.webhookSecret) => {
      const header = await sdk().webhooks.generateTestHeaderStringAsync({ payload, secret });
      return agent.request("POST", "/api/stripe/webhook", payload, { "content-type": "application/json", "stripe-signature": header });
    };

    test("a bad or missing signature is 400 and changes nothing", async () => {
      const { agent } = await signedIn();
      stripe.setWebhook(undefined);
      const created = await subscriber(agent);
      await pay(stripe, created.clientSecret, "4242424242424242");
      const forged = JSON.stringify({
        id: "evt_forged",
        object: "event",
        type: "customer.subscription.updated",
        created: 1,
        data: { object: { id: created.subscriptionId, object: "subscription" } },
      });
      expect((await send(agent, forged, "whsec_not_the_secret")).status).toBe(400);
      expect((await agent.request("POST", "/api/stripe/webhook", forged, { "content-type": "application/json" })).status).toBe(400);
      expect(
        (await agent.request("POST", "/api/stripe/webhook", forged, { "content-type": "application/json", "stripe-signature": "t=1,v1=abc" })).status,
      ).toBe(400);
      expect(await isPro(agent)).toBe(false);
      expect(await getDb().db.select().from(stripeEvents).where(eq(stripeEvents.id, "evt_forged"))).toEqual([]);
    });

    test("the same event twice is applied once; `updated` before `created` ends in the true state", async () => {
      const { agent } = await signedIn();
      stripe.setWebhook(undefined);
      const created = await subscriber(agent);
      await pay(stripe, created.clientSecret, "4242424242424242");
      const subscription = await sdk().subscriptions.retrieve(created.subscriptionId);
      const event = (id: string, type: string, status: string) =>
        JSON.stringify({ id, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object: { ...subscription, status } } });

      // Out of order: the update (active) arrives before the creation (incomplete); each is read again from Stripe.
      expect((await send(agent, event("evt_updated_1", "customer.subscription.updated", "active"))).json).toEqual({ received: true, duplicate: false });
      expect((await send(agent, event("evt_created_1", "customer.subscription.created", "incomplete"))).json).toEqual({ received: true, duplicate: false });
      expect(await isPro(agent)).toBe(true);

      const again = await send(agent, event("evt_updated_1", "customer.subscription.updated", "active"));
      expect(again.json).toEqual({ received: true, duplicate: true });
      expect(await getDb().db.select().from(stripeEvents).where(eq(stripeEvents.id, "evt_updated_1"))).toHaveLength(1);
    });

    test("a signed event about a subscription Stripe does not have makes nobody Pro, whatever its body says", async () => {
      const { app, agent: victim } = await signedIn();
      stripe.setWebhook(undefined);
      const waiting = await subscriber(victim);
      const real = await sdk().subscriptions.retrieve(waiting.subscriptionId);
      const sender = createAgent(app);
      const forged = JSON.stringify({
        id: "evt_unknown_subscription",
        object: "event",
        type: "customer.subscription.updated",
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...real, id: "sub_nobodyknowsthis0000000000", status: "active" } },
      });
      const answer = await send(sender, forged);
      expect(answer.status).toBe(200);
      expect(await isPro(victim)).toBe(false);
      expect(await getDb().db.select().from(subscriptions).where(eq(subscriptions.id, "sub_nobodyknowsthis0000000000"))).toEqual([]);
    });

    test("a subscription Stripe returns is applied only to the user whose customer it is", async () => {
      const { agent, account } = await signedIn();
      stripe.setWebhook(undefined);
      // Someone else's paid subscription at Stripe, and a copy of it here that names this user.
      const { subscription, clientSecret } = await incompleteSubscription(sdk(), stripe, "someone@example.com");
      await pay(stripe, clientSecret, "4242424242424242");
      await getDb()
        .db.insert(subscriptions)
        .values({
          id: subscription.id,
          userId: account.id,
          stripeCustomerId: `cus_not_${account.id.slice(0, 8)}`,
          status: "incomplete",
          syncedAt: new Date(0),
        });
      const event = JSON.stringify({
        id: "evt_other_customer",
        object: "event",
        type: "customer.subscription.updated",
        created: Math.floor(Date.now() / 1000),
        data: { object: { id: subscription.id, object: "subscription" } },
      });
      expect((await send(agent, event)).status).toBe(200);
      expect(await isPro(agent)).toBe(false);
    });

    test("the simulator's own signed webhooks are accepted, and a failed delivery is retried", async () => {
      const { app, agent } = await signedIn();
      let refused = 0;
      stripe.setWebhook({ deliver: async (request) => (refused++ < 1 ? new Response("try later", { status: 500 }) : app.handle(request)), url: WEBHOOK_URL });
      const created = await subscriber(agent);
      await pay(stripe, created.clientSecret, "4242424242424242");
      await stripe.idle();
      expect(refused).toBeGreaterThan(1);
      expect(await isPro(agent)).toBe(true);
      expect(stripe.deliveries.some((d) => d.status === 500)).toBe(true);
    });
  });
});

describe("billing: modes", () => {
  test("with STRIPE_SECRET_KEY and STRIPE_API_BASE the same code path runs against any Stripe-compatible server", async () => {
    const { openTestDatabase } = await import("#tests/support/databases.ts");
    const database = await openTestDatabase("pglite");
    const stripe = startStripeSimulator({ secretKey: "sk_test_elsewhere", publishableKey: "pk_test_elsewhere", webhookSecret: "whsec_elsewhere" });
    try {
      const env = {
        STRIPE_SECRET_KEY: "sk_test_elsewhere",
        STRIPE_PUBLISHABLE_KEY: "pk_test_elsewhere",
        STRIPE_WEBHOOK_SECRET: "whsec_elsewhere",
        STRIPE_PRICE_ID: stripe.priceId,
        STRIPE_API_BASE: stripe.apiBase,
      };
      const { app } = await createTestApp(database, { env, stripe });
      const agent = createAgent(app);
      expect((await agent.api.status()).billing).toBe("live");
      const plan = await agent.api.billingPlan();
      expect(plan).toMatchObject({
        mode: "live",
        testMode: true,
        publishableKey: "pk_test_elsewhere",
        price: { amount: 1900, currency: "usd", interval: "month" },
      });
      expect(plan.stripeJsUrl).toBeUndefined();
      await signUp(agent, database);
      const created = await subscriber(agent);
      await pay(stripe, created.clientSecret, "4242424242424242");
      await stripe.idle();
      expect(await isPro(agent)).toBe(true);
    } finally {
      await stripe.stop();
      await database.close();
    }
  });

  test("in production without Stripe keys Pro is not offered: billing is off, its calls answer 503 naming what is missing", async () => {
    const { openTestDatabase } = await import("#tests/support/databases.ts");
    const database = await openTestDatabase("pglite");
    try {
      const { app } = await createTestApp(database, { env: { NODE_ENV: "production", SIMULATE_PROVIDERS: "on" } });
      const agent = createAgent(app);
      expect((await agent.api.status()).billing).toBe("off");
      const plan = await agent.api.billingPlan();
      expect(plan).toMatchObject({
        mode: "off",
        testMode: false,
        missing: ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_PRICE_ID", "STRIPE_WEBHOOK_SECRET"],
      });
      await signUp(agent, database);
      const refused = await agent.request("POST", "/api/create-subscription");
      expect(refused.status).toBe(503);
      expect((refused.json as { message: string }).message).toContain("STRIPE_SECRET_KEY");
      expect((await agent.request("POST", "/api/stripe/webhook", "{}", { "content-type": "application/json", "stripe-signature": "t=1,v1=x" })).status).toBe(
        503,
      );
      expect(await isPro(agent)).toBe(false);
    } finally {
      await database.close();
    }
  });
});
