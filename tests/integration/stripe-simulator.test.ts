// The Stripe simulator, driven through the official `stripe` SDK (and, for what the browser
// does, through fetch with the publishable key, as Stripe.js would). What is asserted here is
// what the billing code may rely on offline.
import { afterEach, describe, expect, test } from "bun:test";
import type Stripe from "stripe";
import { startStripeSimulator, type SimulatorStateStore, type StripeEvent, type StripeSimulator, type StripeSimulatorOptions } from "#dev/simulators/stripe.ts";
import { CARDS, confirmWithCard, incompleteSubscription, stripeFor } from "#tests/support/stripe.ts";

type Harness = { sim: StripeSimulator; stripe: Stripe; received: Stripe.Event[]; answer: (event: Stripe.Event) => number };

const running: StripeSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.stop()));
});

/** A simulator whose webhooks are verified with the SDK and collected, answered 200 unless `answer` says otherwise. */
function start(options: StripeSimulatorOptions = {}): Harness {
  const sim = startStripeSimulator({
    webhookRetryDelaysS: [0.02, 0.02],
    webhook: {
      deliver: async (request) => {
        const event = await harness.stripe.webhooks.constructEventAsync(await request.text(), request.headers.get("stripe-signature") ?? "", sim.webhookSecret);
        const status = harness.answer(event);
        if (status < 300) harness.received.push(event);
        return new Response(null, { status });
      },
    },
    ...options,
  });
  running.push(sim);
  const harness: Harness = { sim, stripe: stripeFor(sim), received: [], answer: () => 200 };
  return harness;
}

async function rejection(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error("expected the call to fail");
}

/** Types of the events about these objects (by id, or by the invoice's subscription), in order. */
function typesFor(events: readonly (Stripe.Event | StripeEvent)[], ...ids: string[]): string[] {
  return events
    .filter((event) => {
      const object = event.data.object as { id?: string; parent?: { subscription_details?: { subscription?: string } } };
      return ids.includes(object.id ?? "") || ids.includes(object.parent?.subscription_details?.subscription ?? "");
    })
    .map((event) => event.type);
}

async function activeSubscription(h: Harness, card: string = CARDS.visa): Promise<Stripe.Subscription> {
  const { subscription, clientSecret } = await incompleteSubscription(h.stripe, h.sim);
  const paid = await confirmWithCard(h.sim, clientSecret, { number: card });
  expect(paid.status).toBe(200);
  return h.stripe.subscriptions.retrieve(subscription.id);
}

const periodEnd = (sub: Stripe.Subscription) => sub.items.data[0]?.current_period_end ?? 0;
const piOf = (clientSecret: string) => clientSecret.split("_secret_")[0] ?? "";

describe("the Payment Element flow", () => {
  test("a default_incomplete subscription is incomplete, with an open invoice and its confirmation secret", async () => {
    const h = start();
    const before = h.sim.now();
    const { subscription, invoice, clientSecret } = await incompleteSubscription(h.stripe, h.sim);
    expect(subscription.id).toMatch(/^sub_/);
    expect(subscription.status).toBe("incomplete");
    expect(subscription.metadata).toEqual({ userId: "u1" });
    const item = subscription.items.data[0];
    expect(item?.price.id).toBe(h.sim.priceId);
    expect(item?.price.unit_amount).toBe(1900);
    expect(item?.price.currency).toBe("usd");
    expect(item?.price.recurring?.interval).toBe("month");
    expect(item?.current_period_start).toBe(before);
    expect(item?.current_period_end).toBeGreaterThanOrEqual(before + 28 * 86400);
    expect(item?.current_period_end).toBeLessThanOrEqual(before + 31 * 86400);
    expect(invoice.status).toBe("open");
    expect(invoice.amount_due).toBe(1900);
    expect(invoice.confirmation_secret).toEqual({ client_secret: clientSecret, type: "payment_intent" });
    expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    expect(invoice).not.toHaveProperty("payment_intent");

    // Includable: absent unless expanded.
    const plain = await h.stripe.invoices.retrieve(invoice.id);
    expect(plain.confirmation_secret).toBeUndefined();
    expect(plain.parent?.subscription_details?.subscription).toBe(subscription.id);
    const intent = await h.stripe.paymentIntents.retrieve(piOf(clientSecret));
    expect(intent.status).toBe("requires_payment_method");
    expect(intent.amount).toBe(1900);
    expect(intent.client_secret).toBe(clientSecret);
  });

  test("confirming with 4242 pays the invoice, saves the card and activates the subscription; the webhooks come in order, signed", async () => {
    const h = start();
    const { subscription, invoice, clientSecret } = await incompleteSubscription(h.stripe, h.sim);
    const { status, body } = await confirmWithCard(h.sim, clientSecret, { number: CARDS.visa });
    expect(status).toBe(200);
    expect(body.object).toBe("payment_intent");
    expect(body.status).toBe("succeeded");
    expect(body.payment_method).toMatch(/^pm_/);

    const active = await h.stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice.payments", "customer"] });
    expect(active.status).toBe("active");
    expect(active.default_payment_method).toBe(body.payment_method as string);
    expect(periodEnd(active)).toBe(periodEnd(subscription));
    const paid = active.latest_invoice as Stripe.Invoice;
    expect(paid.id).toBe(invoice.id);
    expect(paid.status).toBe("paid");
    expect(paid.amount_paid).toBe(1900);
    expect(paid.amount_remaining).toBe(0);
    expect(paid.status_transitions.paid_at).toBe(h.sim.now());
    expect(paid.payments?.data[0]?.payment.payment_intent).toBe(piOf(clientSecret));
    expect(paid.payments?.data[0]?.status).toBe("paid");
    expect((active.customer as Stripe.Customer).invoice_settings.default_payment_method).toBe(body.payment_method as string);
    const card = await h.stripe.paymentMethods.retrieve(body.payment_method as string);
    expect(card.card?.last4).toBe("4242");
    expect(card.card?.brand).toBe("visa");

    await h.sim.idle();
    expect(typesFor(h.received, subscription.id, piOf(clientSecret))).toEqual([
      "customer.subscription.created",
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    expect(h.received.map((event) => event.id)).toEqual(h.sim.events.map((event) => event.id));
    const updated = h.received.at(-1);
    expect(updated?.type).toBe("customer.subscription.updated");
    expect(updated?.data.previous_attributes).toMatchObject({ status: "incomplete", default_payment_method: null });
    expect((updated?.data.object as Stripe.Subscription).status).toBe("active");
    expect(updated?.api_version).toBe("2026-10-28.endive");
    expect(updated?.livemode).toBe(false);
    expect(updated?.request?.id).toMatch(/^req_/);
    expect(h.sim.deliveries.every((delivery) => delivery.status === 200 && delivery.attempt === 1)).toBe(true);
  });

  test("signatures are HMAC-SHA256 over t.body: the SDK accepts them, and rejects a changed body", async () => {
    const h = start();
    const bodies: Array<{ body: string; header: string }> = [];
    h.sim.setWebhook({
      deliver: async (request) => {
        bodies.push({ body: await request.text(), header: request.headers.get("stripe-signature") ?? "" });
        return new Response("ok");
      },
    });
    await h.stripe.customers.create({ email: "sig@example.com" });
    await h.sim.idle();
    const [first] = bodies;
    if (!first) throw new Error("nothing delivered");
    expect(first.header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const event = await h.stripe.webhooks.constructEventAsync(first.body, first.header, h.sim.webhookSecret);
    expect(event.type).toBe("customer.created");
    expect(JSON.parse(first.body)).toEqual(h.sim.events[0]);
    const error = await rejection(h.stripe.webhooks.constructEventAsync(first.body.replace("sig@", "sog@"), first.header, h.sim.webhookSecret));
    expect(error.type).toBe("StripeSignatureVerificationError");
  });

  test("declines answer 402 with Stripe's codes; the subscription stays incomplete and pays with 4242 afterwards", async () => {
    const h = start();
    const { subscription, invoice, clientSecret } = await incompleteSubscription(h.stripe, h.sim);
    const cases = [
      { card: { number: CARDS.declined }, code: "card_declined", decline: "generic_decline", message: "Your card was declined." },
      { card: { number: CARDS.insufficientFunds }, code: "card_declined", decline: "insufficient_funds", message: "Your card has insufficient funds." },
      { card: { number: CARDS.badNumber }, code: "incorrect_number", decline: undefined, message: "Your card number is incorrect." },
      { card: { number: CARDS.visa, expYear: "20" }, code: "expired_card", decline: undefined, message: "Your card has expired." },
      { card: { number: CARDS.visa, cvc: "" }, code: "incomplete_cvc", decline: undefined, message: "Your card's security code is incomplete." },
      { card: { number: CARDS.visa, cvc: "12" }, code: "invalid_cvc", decline: undefined, message: "Your card's security code is invalid." },
    ];
    for (const { card, code, decline, message } of cases) {
      const { status, body } = await confirmWithCard(h.sim, clientSecret, card);
      expect(status).toBe(402);
      expect(body.error).toMatchObject({ type: "card_error", code, message });
      expect(body.error?.decline_code).toBe(decline);
    }
    const declined = await confirmWithCard(h.sim, clientSecret, { number: CARDS.declined });
    expect(declined.body.error?.payment_intent?.status).toBe("requires_payment_method");
    expect(declined.body.error?.payment_intent?.last_payment_error?.decline_code).toBe("generic_decline");
    expect((await h.stripe.subscriptions.retrieve(subscription.id)).status).toBe("incomplete");
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe("open");

    expect((await confirmWithCard(h.sim, clientSecret, { number: CARDS.visa })).body.status).toBe("succeeded");
    expect((await h.stripe.subscriptions.retrieve(subscription.id)).status).toBe("active");
    await h.sim.idle();
    // Declines of a card (three of them) leave failure events; invalid card details never reach a charge.
    expect(typesFor(h.received, subscription.id, piOf(clientSecret))).toEqual([
      "customer.subscription.created",
      ...Array(3).fill(["payment_intent.payment_failed", "invoice.payment_failed"]).flat(),
      "payment_intent.succeeded",
      "invoice.paid",
      "invoice.payment_succeeded",
      "customer.subscription.updated",
    ]);
    const again = await confirmWithCard(h.sim, clientSecret, { number: CARDS.visa });
    expect(again.status).toBe(400);
    expect(again.body.error?.code).toBe("payment_intent_unexpected_state");
  });

  test("a first invoice left unpaid for 23 hours expires the subscription", async () => {
    const h = start();
    const { subscription, invoice, clientSecret } = await incompleteSubscription(h.stripe, h.sim);
    await h.sim.advanceClock(22 * 3600);
    expect((await h.stripe.subscriptions.retrieve(subscription.id)).status).toBe("incomplete");
    await h.sim.advanceClock(3600);
    const expired = await h.stripe.subscriptions.retrieve(subscription.id);
    expect(expired.status).toBe("incomplete_expired");
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe("void");
    expect((await confirmWithCard(h.sim, clientSecret, { number: CARDS.visa })).body.error?.code).toBe("payment_intent_unexpected_state");
    expect(h.received.at(-1)?.data.previous_attributes).toMatchObject({ status: "incomplete" });
  });
});

describe("idempotency", () => {
  test("the same key twice answers the same subscription and creates one; the key with other parameters is refused", async () => {
    const h = start();
    const customer = await h.stripe.customers.create({ email: "twice@example.com" });
    const params: Stripe.SubscriptionCreateParams = { customer: customer.id, items: [{ price: h.sim.priceId }], payment_behavior: "default_incomplete" };
    const first = await h.stripe.subscriptions.create(params, { idempotencyKey: "sub-create-1" });
    const second = await h.stripe.subscriptions.create(params, { idempotencyKey: "sub-create-1" });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.idempotencyKey).toBe("sub-create-1");
    expect(h.sim.events.filter((event) => event.type === "customer.subscription.created")).toHaveLength(1);
    const listed = await h.stripe.subscriptions.list({ customer: customer.id, status: "all" });
    expect(listed.data.map((sub) => sub.id)).toEqual([first.id]);
    const error = await rejection(h.stripe.subscriptions.create({ ...params, metadata: { other: "yes" } }, { idempotencyKey: "sub-create-1" }));
    expect(error.type).toBe("StripeIdempotencyError");
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("Keys for idempotent requests can only be used with the same parameters");
    const elsewhere = await rejection(h.stripe.customers.create({ email: "x@example.com" }, { idempotencyKey: "sub-create-1" }));
    expect(elsewhere.type).toBe("StripeIdempotencyError");
  });
});

describe("the period end and the clock", () => {
  test("cancel_at_period_end sets cancel_at and canceled_at; past the period end the subscription is canceled", async () => {
    const h = start();
    const active = await activeSubscription(h);
    const canceling = await h.stripe.subscriptions.update(active.id, { cancel_at_period_end: true });
    expect(canceling.status).toBe("active");
    expect(canceling.cancel_at_period_end).toBe(true);
    expect(canceling.cancel_at).toBe(periodEnd(active));
    expect(canceling.canceled_at).toBe(h.sim.now());
    expect(canceling.cancellation_details?.reason).toBe("cancellation_requested");
    await h.sim.idle();
    expect(h.received.at(-1)?.data.previous_attributes).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null });

    const resumed = await h.stripe.subscriptions.update(active.id, { cancel_at_period_end: false });
    expect([resumed.cancel_at_period_end, resumed.cancel_at, resumed.canceled_at]).toEqual([false, null, null]);
    await h.stripe.subscriptions.update(active.id, { cancel_at_period_end: true });

    await h.sim.advanceClock(periodEnd(active) - h.sim.now() - 60);
    expect((await h.stripe.subscriptions.retrieve(active.id)).status).toBe("active");
    await h.sim.advanceClock(120);
    const ended = await h.stripe.subscriptions.retrieve(active.id);
    expect(ended.status).toBe("canceled");
    expect(ended.ended_at).toBe(periodEnd(active));
    const deleted = h.received.at(-1);
    expect(deleted?.type).toBe("customer.subscription.deleted");
    expect((deleted?.data.object as Stripe.Subscription).id).toBe(active.id);
    expect(deleted?.request).toEqual({ id: null, idempotency_key: null });
    expect((await h.stripe.subscriptions.list({ customer: ended.customer as string })).data).toEqual([]);
  });

  test("canceling now (DELETE) ends the subscription at once", async () => {
    const h = start();
    const active = await activeSubscription(h);
    const canceled = await h.stripe.subscriptions.cancel(active.id);
    expect(canceled.status).toBe("canceled");
    expect(canceled.ended_at).toBe(h.sim.now());
    await h.sim.idle();
    expect(h.received.at(-1)?.type).toBe("customer.subscription.deleted");
    // As Stripe: a canceled subscription can still be read, but not canceled or rescheduled again.
    expect((await h.stripe.subscriptions.retrieve(active.id)).status).toBe("canceled");
    expect((await rejection(h.stripe.subscriptions.cancel(active.id))).statusCode).toBe(404);
    const update = await rejection(h.stripe.subscriptions.update(active.id, { cancel_at_period_end: true }));
    expect(update.message).toBe("A canceled subscription can only update its cancellation_details and metadata.");
  });

  test("a renewal charges the saved card: a new paid invoice and the next period", async () => {
    const h = start();
    const active = await activeSubscription(h);
    const firstEnd = periodEnd(active);
    await h.sim.advanceClock(firstEnd - h.sim.now() + 3600);
    const renewed = await h.stripe.subscriptions.retrieve(active.id, { expand: ["latest_invoice"] });
    expect(renewed.status).toBe("active");
    expect(renewed.items.data[0]?.current_period_start).toBe(firstEnd);
    expect(periodEnd(renewed)).toBeGreaterThan(firstEnd + 27 * 86400);
    const invoice = renewed.latest_invoice as Stripe.Invoice;
    expect(invoice.id).not.toBe(active.latest_invoice);
    expect(invoice.billing_reason).toBe("subscription_cycle");
    expect(invoice.status).toBe("paid");
    expect(invoice.amount_paid).toBe(1900);
    expect(invoice.period_start).toBe(firstEnd);
    const renewal = h.received.filter((event) => event.created === firstEnd).map((event) => event.type);
    expect(renewal).toEqual(["payment_intent.succeeded", "invoice.paid", "invoice.payment_succeeded", "customer.subscription.updated"]);
    const updated = h.received.at(-1);
    expect(updated?.data.previous_attributes).toHaveProperty("latest_invoice", active.latest_invoice);
    expect(h.sim.now()).toBe(firstEnd + 3600);
  });

  test("4000 0000 0000 0341 pays now and fails the renewal: invoice.payment_failed and past_due; a new card pays the open invoice", async () => {
    const h = start();
    const active = await activeSubscription(h, CARDS.failsRenewals);
    expect(active.status).toBe("active");
    await h.sim.advanceClock(periodEnd(active) - h.sim.now() + 10);
    const pastDue = await h.stripe.subscriptions.retrieve(active.id, { expand: ["latest_invoice.confirmation_secret"] });
    expect(pastDue.status).toBe("past_due");
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe("open");
    expect(invoice.attempt_count).toBe(1);
    const types = h.received.filter((event) => event.created === periodEnd(active)).map((event) => event.type);
    expect(types).toEqual(["payment_intent.payment_failed", "invoice.payment_failed", "customer.subscription.updated"]);
    expect(h.received.at(-1)?.data.previous_attributes).toMatchObject({ status: "active" });

    const secret = invoice.confirmation_secret?.client_secret ?? "";
    expect((await confirmWithCard(h.sim, secret, { number: CARDS.visa })).status).toBe(200);
    expect((await h.stripe.subscriptions.retrieve(active.id)).status).toBe("active");
  });

  test("the clock is also an HTTP test helper (secret key only)", async () => {
    const h = start();
    const start0 = h.sim.now();
    const response = await fetch(`${h.sim.apiBase}/v1/test_helpers/simulator/advance`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.secretKey}`, "content-type": "application/x-www-form-urlencoded" },
      body: "seconds=3600",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ now: start0 + 3600 });
    const refused = await fetch(`${h.sim.apiBase}/v1/test_helpers/simulator/advance`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.publishableKey}` },
      body: "seconds=1",
    });
    expect(refused.status).toBe(401);
    await expect(h.sim.advanceClock(-1)).rejects.toThrow();
  });
});

describe("webhook delivery", () => {
  test("an answer of 500 is retried, then delivered; a network error is retried too", async () => {
    const h = start();
    let failures = 1;
    h.answer = () => (failures-- > 0 ? 500 : 200);
    const customer = await h.stripe.customers.create({ email: "retry@example.com" });
    await h.sim.idle();
    expect(h.sim.deliveries.map(({ status, attempt }) => ({ status, attempt }))).toEqual([
      { status: 500, attempt: 1 },
      { status: 200, attempt: 2 },
    ]);
    expect(h.received.map((event) => (event.data.object as Stripe.Customer).id)).toEqual([customer.id]);

    const closed = Bun.serve({ port: 0, fetch: () => new Response("unused") });
    const url = `http://127.0.0.1:${closed.port}/webhooks`;
    await closed.stop(true);
    h.sim.setWebhook({ url });
    await h.stripe.customers.create({ email: "down@example.com" });
    await h.sim.idle();
    expect(h.sim.deliveries.slice(2).map(({ status, attempt }) => ({ status, attempt }))).toEqual([
      { status: "error", attempt: 1 },
      { status: "error", attempt: 2 },
      { status: "error", attempt: 3 },
    ]);
  });

  test("a URL target receives the signed JSON body", async () => {
    const h = start();
    const got: Stripe.Event[] = [];
    const server = Bun.serve({
      port: 0,
      fetch: async (request) => {
        got.push(await h.stripe.webhooks.constructEventAsync(await request.text(), request.headers.get("stripe-signature") ?? "", h.sim.webhookSecret));
        return new Response(null, { status: 204 });
      },
    });
    try {
      h.sim.setWebhook({ url: `http://127.0.0.1:${server.port}/api/billing/webhook` });
      const customer = await h.stripe.customers.create({ email: "url@example.com", metadata: { userId: "u9" } });
      await h.sim.idle();
      expect(got.map((event) => event.type)).toEqual(["customer.created"]);
      expect((got[0]?.data.object as Stripe.Customer).metadata).toEqual({ userId: "u9" });
      expect(got[0]?.data.object as unknown).toEqual({ ...(await h.stripe.customers.retrieve(customer.id)) });
    } finally {
      await server.stop(true);
    }
  });
});

describe("expand", () => {
  test("latest_invoice.confirmation_secret, customer, items.data.price.product and latest_invoice.payments", async () => {
    const h = start();
    const { subscription } = await incompleteSubscription(h.stripe, h.sim);
    const expanded = await h.stripe.subscriptions.retrieve(subscription.id, {
      expand: ["latest_invoice.confirmation_secret", "latest_invoice.payments", "customer", "items.data.price.product"],
    });
    const invoice = expanded.latest_invoice as Stripe.Invoice;
    expect(invoice.confirmation_secret?.type).toBe("payment_intent");
    expect(invoice.payments?.data[0]?.status).toBe("open");
    expect((expanded.customer as Stripe.Customer).email).toBe("pro@example.com");
    expect((expanded.items.data[0]?.price.product as Stripe.Product).name).toBe("AI Search Comparison Pro");
    const price = await h.stripe.prices.retrieve(h.sim.priceId, { expand: ["product"] });
    expect((price.product as Stripe.Product).default_price).toBe(h.sim.priceId);
    const listed = await h.stripe.subscriptions.list({
      customer: expanded.customer ? (expanded.customer as Stripe.Customer).id : "",
      status: "incomplete",
      expand: ["data.latest_invoice"],
    });
    expect((listed.data[0]?.latest_invoice as Stripe.Invoice).object).toBe("invoice");
  });

  test("a property that cannot be expanded is a 400, as payment_intent on an invoice is since basil", async () => {
    const h = start();
    const { subscription } = await incompleteSubscription(h.stripe, h.sim);
    const error = await rejection(h.stripe.subscriptions.retrieve(subscription.id, { expand: ["latest_invoice.payment_intent"] }));
    expect(error.type).toBe("StripeInvalidRequestError");
    expect(error.message).toBe("This property cannot be expanded (payment_intent).");
    expect((await rejection(h.stripe.subscriptions.retrieve(subscription.id, { expand: ["status"] }))).statusCode).toBe(400);
  });
});

describe("errors", () => {
  test("unknown ids are 404 resource_missing, named per object", async () => {
    const { stripe } = start();
    const cases: Array<[Promise<unknown>, string]> = [
      [stripe.subscriptions.retrieve("sub_x"), "No such subscription: 'sub_x'"],
      [stripe.customers.retrieve("cus_x"), "No such customer: 'cus_x'"],
      [stripe.invoices.retrieve("in_x"), "No such invoice: 'in_x'"],
      [stripe.prices.retrieve("price_x"), "No such price: 'price_x'"],
      [stripe.paymentIntents.retrieve("pi_x"), "No such payment_intent: 'pi_x'"],
      [stripe.checkout.sessions.retrieve("cs_x"), "No such checkout.session: 'cs_x'"],
      [stripe.subscriptions.update("sub_x", { cancel_at_period_end: true }), "No such subscription: 'sub_x'"],
    ];
    for (const [call, message] of cases) {
      const error = await rejection(call);
      expect(error.statusCode).toBe(404);
      expect(error.type).toBe("StripeInvalidRequestError");
      expect(error.code).toBe("resource_missing");
      expect(error.message).toBe(message);
      expect(error.requestId).toMatch(/^req_/);
    }
    const missingCustomer = await rejection(stripe.subscriptions.create({ customer: "cus_gone", items: [{ price: "price_pro_monthly" }] }));
    expect([missingCustomer.statusCode, missingCustomer.param]).toEqual([404, "customer"]);
  });

  test("bad or missing parameters are 400s naming the parameter", async () => {
    const h = start();
    const customer = await h.stripe.customers.create({});
    const noCustomer = await rejection(h.stripe.subscriptions.create({ items: [{ price: h.sim.priceId }] }));
    expect([noCustomer.statusCode, noCustomer.code, noCustomer.param, noCustomer.message]).toEqual([
      400,
      "parameter_missing",
      "customer",
      "Missing required param: customer.",
    ]);
    const noItems = await rejection(h.stripe.subscriptions.create({ customer: customer.id }));
    expect([noItems.code, noItems.param]).toEqual(["parameter_missing", "items"]);
    const badPrice = await rejection(h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: "price_nope" }] }));
    expect([badPrice.statusCode, badPrice.param]).toEqual([404, "items[0][price]"]);
    const badBehavior = await rejection(
      h.stripe.subscriptions.create({ customer: customer.id, items: [{ price: h.sim.priceId }], payment_behavior: "sometimes" as "allow_incomplete" }),
    );
    expect([badBehavior.statusCode, badBehavior.param]).toEqual([400, "payment_behavior"]);
    const raw = await fetch(`${h.sim.apiBase}/v1/subscriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.secretKey}`, "content-type": "application/x-www-form-urlencoded" },
      body: `customer=${customer.id}&items[0][price]=${h.sim.priceId}&items[0][quantity]=lots`,
    });
    expect(raw.status).toBe(400);
    expect(raw.headers.get("content-type")).toBe("application/json");
    expect(((await raw.json()) as { error: { code: string; param: string } }).error).toMatchObject({
      code: "parameter_invalid_integer",
      param: "items[0][quantity]",
    });
    const garbage = await fetch(`${h.sim.apiBase}/v1/customers`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.secretKey}` },
      body: "%%%&&&[[[=]]]&a[b]=1&a=2",
    });
    expect(garbage.status).toBe(400);
    const unknown = await fetch(`${h.sim.apiBase}/v1/charges`, { headers: { authorization: `Bearer ${h.sim.secretKey}` } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toStartWith("Unrecognized request URL (GET: /v1/charges).");
  });

  test("keys: none or a wrong one is 401; the publishable key only works on the PaymentIntent with its client secret", async () => {
    const h = start();
    const wrong = await rejection(stripeFor(h.sim, "sk_test_not_the_right_key_1234").customers.create({}));
    expect(wrong.type).toBe("StripeAuthenticationError");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.message).toMatch(/^Invalid API Key provided: sk_test_\*+1234$/);
    const none = await fetch(`${h.sim.apiBase}/v1/customers`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toStartWith("You did not provide an API key.");
    const publishable = await rejection(stripeFor(h.sim, h.sim.publishableKey).customers.create({}));
    expect(publishable.statusCode).toBe(401);
    expect(publishable.message).toStartWith("This API call cannot be made with a publishable API key.");

    const { clientSecret } = await incompleteSubscription(h.stripe, h.sim);
    const browser = stripeFor(h.sim, h.sim.publishableKey);
    expect((await browser.paymentIntents.retrieve(piOf(clientSecret), { client_secret: clientSecret })).status).toBe("requires_payment_method");
    const noSecret = await rejection(browser.paymentIntents.retrieve(piOf(clientSecret)));
    expect([noSecret.statusCode, noSecret.param]).toEqual([400, "client_secret"]);
    const otherSecret = await rejection(browser.paymentIntents.retrieve(piOf(clientSecret), { client_secret: `${piOf(clientSecret)}_secret_wrong` }));
    expect([otherSecret.statusCode, otherSecret.param]).toEqual([400, "client_secret"]);
    expect((await rejection(browser.subscriptions.list())).statusCode).toBe(401);
  });
});

describe("Checkout and the customer portal", () => {
  test("a Checkout Session opens, completes (test helper) into an active paid subscription, and retrieves with expand", async () => {
    const h = start();
    const customer = await h.stripe.customers.create({ email: "checkout@example.com" });
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: h.sim.priceId, quantity: 1 }],
      success_url: "http://localhost:3000/billing/success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/billing",
      client_reference_id: "user-42",
      metadata: { userId: "user-42" },
      subscription_data: { metadata: { userId: "user-42" } },
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect([session.status, session.payment_status, session.mode]).toEqual(["open", "unpaid", "subscription"]);
    expect(session.url).toBe(`${h.sim.origin}/c/pay/${session.id}`);
    expect(session.amount_total).toBe(1900);

    await h.sim.completeCheckoutSession(session.id);
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription", "customer", "line_items"] });
    expect([done.status, done.payment_status, done.client_reference_id]).toEqual(["complete", "paid", "user-42"]);
    const sub = done.subscription as Stripe.Subscription;
    expect(sub.status).toBe("active");
    expect(sub.metadata).toEqual({ userId: "user-42" });
    expect((done.customer as Stripe.Customer).id).toBe(customer.id);
    expect(done.line_items?.data[0]?.price?.id).toBe(h.sim.priceId);
    expect(h.received.at(-1)?.type).toBe("checkout.session.completed");
    expect((h.received.at(-1)?.data.object as Stripe.Checkout.Session).subscription).toBe(sub.id);
    expect(typesFor(h.received, sub.id)).toContain("invoice.paid");
    await expect(h.sim.completeCheckoutSession(session.id)).rejects.toThrow("already complete");

    // The HTTP test helper, for a session without a customer (one is created from customer_email).
    const anonymous = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      customer_email: "new@example.com",
      line_items: [{ price: h.sim.priceId, quantity: 1 }],
      success_url: "http://localhost/ok",
    });
    const helper = await fetch(`${h.sim.apiBase}/v1/test_helpers/checkout/sessions/${anonymous.id}/complete`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.secretKey}` },
    });
    const completed = (await helper.json()) as Stripe.Checkout.Session;
    expect([completed.status, completed.customer_details?.email]).toEqual(["complete", "new@example.com"]);
  });

  test("the hosted checkout page takes a card and redirects to success_url with the session id", async () => {
    const h = start();
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: h.sim.priceId, quantity: 1 }],
      success_url: "http://localhost/done?id={CHECKOUT_SESSION_ID}",
    });
    const page = await fetch(session.url ?? "");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<label for="number">Card number</label>');
    const pay = (number: string) =>
      fetch(session.url ?? "", {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ number, expiry: "12 / 34", cvc: "123" }),
      });
    const declined = await pay(CARDS.declined);
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    const paid = await pay(CARDS.visa);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://localhost/done?id=${session.id}`);
    expect((await h.stripe.checkout.sessions.retrieve(session.id)).status).toBe("complete");
  });

  test("an open session expires after 24 hours", async () => {
    const h = start();
    const session = await h.stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: h.sim.priceId, quantity: 1 }],
      success_url: "http://localhost/ok",
    });
    await h.sim.advanceClock(24 * 3600);
    const expired = await h.stripe.checkout.sessions.retrieve(session.id);
    expect([expired.status, expired.url]).toEqual(["expired", null]);
    expect(h.received.at(-1)?.type).toBe("checkout.session.expired");
  });

  test("a portal session's url is a page about the customer's subscription, linking back to return_url", async () => {
    const h = start();
    const active = await activeSubscription(h);
    const portal = await h.stripe.billingPortal.sessions.create({ customer: active.customer as string, return_url: "http://localhost:3000/account" });
    expect(portal.object).toBe("billing_portal.session");
    expect(portal.url).toStartWith(`${h.sim.origin}/p/session/bps_`);
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain("Simulated Stripe customer portal");
    expect(html).toContain('href="http://localhost:3000/account"');
    expect(html).toContain("visa •••• 4242");
    const cancel = await fetch(portal.url, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: active.id, action: "cancel" }) });
    expect(cancel.status).toBe(303);
    expect((await h.stripe.subscriptions.retrieve(active.id)).cancel_at_period_end).toBe(true);
    const missing = await rejection(h.stripe.billingPortal.sessions.create({ customer: "cus_nobody" }));
    expect(missing.statusCode).toBe(404);
  });
});

describe("the Stripe.js stand-in", () => {
  test("is served as JavaScript, open to any origin, and defines window.Stripe", async () => {
    const { sim } = start();
    const response = await fetch(`${sim.origin}/js/v3.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toStartWith("application/javascript");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const source = await response.text();
    expect(source).toContain("window.Stripe = Stripe");
    expect(() => new Function(source)).not.toThrow();
  });
});

describe("state kept across a restart", () => {
  /** A place to keep the state (the server's is a file in DATA_DIR), and what was said about it. */
  function memoryState(initial?: string) {
    const kept = { document: initial, saves: 0 };
    const state: SimulatorStateStore = {
      where: "memory",
      load: () => kept.document,
      save: (document) => {
        kept.document = document;
        kept.saves++;
      },
    };
    return { kept, state };
  }

  test("customers, subscriptions and the clock are there after a restart; a renewal then runs as before", async () => {
    const { kept, state } = memoryState();
    const first = start({ state });
    const active = await activeSubscription(first);
    const { subscription: waiting } = await incompleteSubscription(first.stripe, first.sim, "waiting@example.com");
    await first.sim.advanceClock(3600);
    const clock = first.sim.now();
    await first.sim.stop();
    const saves = kept.saves;

    const second = start({ state });
    expect(second.sim.now()).toBe(clock);
    expect(await second.stripe.subscriptions.retrieve(active.id)).toMatchObject({ status: "active", customer: active.customer });
    expect((await second.stripe.subscriptions.retrieve(waiting.id)).status).toBe("incomplete");
    expect((await second.stripe.customers.retrieve(active.customer as string)) as Stripe.Customer).toMatchObject({ email: "pro@example.com" });
    const cancelled = await second.stripe.subscriptions.update(active.id, { cancel_at_period_end: true });
    expect(cancelled.cancel_at_period_end).toBe(true);
    expect(kept.saves).toBeGreaterThan(saves);
    // The saved card pays the next period, the same as without a restart.
    await second.stripe.subscriptions.update(active.id, { cancel_at_period_end: false });
    await second.sim.advanceClock(periodEnd(active) - clock + 60);
    const renewed = await second.stripe.subscriptions.retrieve(active.id);
    expect(renewed.status).toBe("active");
    expect(periodEnd(renewed)).toBeGreaterThan(periodEnd(active));
  });

  test("a document it did not write is ignored with one line, and replaced at the first change", async () => {
    const { kept, state } = memoryState(JSON.stringify({ version: 99 }));
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(" "));
    try {
      const h = start({ state });
      expect(errors).toEqual([expect.stringContaining("Stripe simulator: ignoring memory: it is not a state this simulator wrote (version:")]);
      await h.stripe.customers.create({ email: "new@example.com" });
      expect(JSON.parse(kept.document ?? "{}")).toMatchObject({ version: 1 });
    } finally {
      console.error = original;
    }
  });
});
