import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import Stripe from "stripe";
import type { Db } from "#db/client.ts";
import { stripeEvents, subscriptions, users } from "#db/schema.ts";
import type { BillingPlan, CreateSubscriptionResult, SubscriptionDetailsResult } from "#src/contract/billing.ts";
import { PRO_REQUIRED } from "#src/contract/constants.ts";
import { formatDate } from "#src/core/dates.ts";
import { DomainError } from "../errors.ts";
import type { BillingConfig } from "./config.ts";
import { detailsOf, endSubscription, findSubscription, forgetCustomer, rowOf, saveSubscription, type SubscriptionRow } from "./mirror.ts";

/** Spec §6: Pro is a subscription Stripe calls active or trialing. */
export const PRO_STATUSES = ["active", "trialing"];
/**
 * A renewal that failed leaves the subscription `past_due` while Stripe retries the card: Pro
 * stays on for this long after the period ended, then goes until the payment succeeds.
 */
export const PAST_DUE_GRACE_MS = 3 * 24 * 3600 * 1000;
/** Stripe lets an unpaid first invoice stand this long before the subscription expires. */
const INCOMPLETE_REUSE_MS = 23 * 3600 * 1000;
const PRICE_CACHE_MS = 5 * 60 * 1000;

export type BillingDeps = { db: Db; config: BillingConfig; stripe: Stripe | null; clock?: () => Date };

/**
 * Subscriptions, through Stripe's official SDK (the real service, or the simulator at a base
 * URL). The one place that answers "is this user Pro?". Pro state only ever comes from Stripe:
 * a row is written from a subscription retrieved from Stripe, never from what a browser says.
 */
export function createBilling({ db, config, stripe, clock = () => new Date() }: BillingDeps) {
  let price: { at: number; value: NonNullable<BillingPlan["price"]> } | undefined;

  function grantsPro(row: SubscriptionRow, now = clock()): boolean {
    if (PRO_STATUSES.includes(row.status)) return true;
    return row.status === "past_due" && row.currentPeriodEnd !== null && now.getTime() < row.currentPeriodEnd.getTime() + PAST_DUE_GRACE_MS;
  }

  async function isPro(userId: string | undefined): Promise<boolean> {
    if (!userId) return false;
    const rows = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...PRO_STATUSES, "past_due"])));
    return rows.some((row) => grantsPro(row));
  }

  function client(): Stripe {
    if (stripe) return stripe;
    const missing = config.missing;
    throw new DomainError(
      "BILLING_UNAVAILABLE",
      `Pro subscriptions are not available here: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set`,
    );
  }

  /** Keeps the local copy of a subscription just read from Stripe. */
  async function sync(subscription: Stripe.Subscription, userId: string): Promise<ReturnType<typeof rowOf>> {
    const row = rowOf(subscription, userId, new Date());
    await saveSubscription(db, row);
    return row;
  }

  /** The user's Stripe customer; `create` makes one when there is none (`replaces`: the one Stripe no longer has). */
  async function customerOf(userId: string, create: boolean, replaces?: string): Promise<string | undefined> {
    const [user] = await db
      .select({ email: users.email, username: users.username, customer: users.stripeCustomerId })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!user) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
    if (user.customer || !create) return user.customer ?? undefined;
    // One customer per user: the idempotency key makes a double click one customer too. A
    // replacement gets a key of its own, or Stripe would answer with the customer it replaces.
    const idempotencyKey = replaces ? `customer:${userId}:after:${replaces}` : `customer:${userId}`;
    const customer = await stripeCall(() => client().customers.create({ email: user.email, name: user.username, metadata: { userId } }, { idempotencyKey }));
    await db
      .update(users)
      .set({ stripeCustomerId: customer.id })
      .where(and(eq(users.id, userId), isNull(users.stripeCustomerId)));
    const [stored] = await db.select({ customer: users.stripeCustomerId }).from(users).where(eq(users.id, userId)).limit(1);
    return stored?.customer ?? customer.id;
  }

  /**
   * Retrieves a subscription that must belong to the customer; anyone else's reads like a missing
   * one. One of the user's that Stripe no longer has is ended here (undefined).
   */
  async function ownedSubscription(id: string, customer: string | undefined, userId: string): Promise<Stripe.Subscription | undefined> {
    const subscription = await unlessMissing(
      () => client().subscriptions.retrieve(id, { expand: ["latest_invoice.confirmation_secret"] }),
      "id",
      async () => {
        if (await endSubscription(db, userId, id, clock())) return undefined;
        throw new DomainError("NOT_FOUND", "Subscription not found");
      },
    );
    if (!subscription) return undefined;
    if (!customer || customerId(subscription.customer) !== customer) throw new DomainError("NOT_FOUND", "Subscription not found");
    return subscription;
  }

  /**
   * Updates the user's subscription at Stripe and keeps the result; undefined when Stripe no
   * longer has it (it is ended here, and grants nothing).
   */
  async function updateOwn(userId: string, subscriptionId: string, changes: Stripe.SubscriptionUpdateParams): Promise<ReturnType<typeof rowOf> | undefined> {
    const updated = await unlessMissing(
      () => client().subscriptions.update(subscriptionId, changes),
      "id",
      async () => void (await endSubscription(db, userId, subscriptionId, clock())),
    );
    return updated && sync(updated, userId);
  }

  /** A subscription for Pro, waiting for its first payment. */
  function createSubscription(userId: string, customer: string, attempt: number): Promise<Stripe.Subscription> {
    return client().subscriptions.create(
      {
        customer,
        items: [{ price: config.priceId as string }],
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        expand: ["latest_invoice.confirmation_secret"],
        metadata: { userId },
      },
      // The same request twice at once (a double click) makes one subscription.
      { idempotencyKey: `subscription:${userId}:${customer}:${attempt}` },
    );
  }

  return {
    isPro,
    config,

    /** The door of every Pro tool: a DomainError (403 'Pro subscription required') unless the caller is Pro. */
    async requirePro(userId: string | undefined): Promise<string> {
      if (!userId || !(await isPro(userId))) throw new DomainError("PRO_REQUIRED", PRO_REQUIRED);
      return userId;
    },

    /** What Pro costs (Stripe's price object, cached a few minutes) and how the page pays. */
    async plan(): Promise<BillingPlan> {
      const base = { mode: config.mode, testMode: config.testMode, missing: config.missing };
      if (config.mode === "off" || !config.priceId) return base;
      if (!price || clock().getTime() - price.at > PRICE_CACHE_MS) {
        const found = await stripeCall(() => client().prices.retrieve(config.priceId as string, { expand: ["product"] }));
        const product = typeof found.product === "object" && found.product && "name" in found.product ? found.product.name : "Pro";
        price = {
          at: clock().getTime(),
          value: { amount: found.unit_amount ?? 0, currency: found.currency, interval: found.recurring?.interval ?? "month", productName: product },
        };
      }
      return { ...base, publishableKey: config.publishableKey, ...(config.stripeJsUrl ? { stripeJsUrl: config.stripeJsUrl } : {}), price: price.value };
    },

    /**
     * Spec §7 create-subscription. Already Pro: `active`. Otherwise a subscription waiting for its
     * first payment (the Payment Element confirms it with `clientSecret`); a recent one that is
     * still waiting is handed out again rather than stacking new ones.
     */
    async subscribe(userId: string): Promise<CreateSubscriptionResult> {
      if (await isPro(userId)) return { status: "active" };
      let customer = (await customerOf(userId, true)) as string;
      const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt));
      const since = new Date(clock().getTime() - INCOMPLETE_REUSE_MS);
      for (const row of rows.filter((r) => r.status === "incomplete" && r.createdAt > since)) {
        const waiting = await ownedSubscription(row.id, customer, userId);
        if (!waiting) continue;
        await sync(waiting, userId);
        const secret = confirmationSecret(waiting);
        if (waiting.status === "incomplete" && secret) return { status: waiting.status, clientSecret: secret, subscriptionId: waiting.id };
      }
      const created = await unlessMissing(
        () => createSubscription(userId, customer, rows.length),
        "customer",
        // Stripe no longer has the customer: a new one pays, the old one's subscriptions are over.
        async () => {
          await forgetCustomer(db, userId, customer, clock());
          customer = (await customerOf(userId, true, customer)) as string;
          return stripeCall(() => createSubscription(userId, customer, rows.length));
        },
      );
      await sync(created, userId);
      if (PRO_STATUSES.includes(created.status)) return { status: "active", subscriptionId: created.id };
      const secret = confirmationSecret(created);
      if (!secret) throw new DomainError("BILLING_FAILED", "Stripe returned no payment to confirm for the new subscription");
      return { status: created.status, clientSecret: secret, subscriptionId: created.id };
    },

    /**
     * Spec §7 verify-subscription: the id the browser came back with (a subscription, a
     * PaymentIntent or a Checkout Session) is only a hint of what to read from Stripe; the
     * caller's own subscriptions are read there and stored. Success = Pro now.
     */
    async verify(userId: string, sessionId: string): Promise<{ success: boolean }> {
      const customer = await customerOf(userId, false);
      if (!customer) throw new DomainError("NOT_FOUND", "Subscription not found");
      let ids: string[];
      if (sessionId.startsWith("cs_")) {
        const session = await stripeCall(() => client().checkout.sessions.retrieve(sessionId));
        if (customerId(session.customer) !== customer || !session.subscription) throw new DomainError("NOT_FOUND", "Subscription not found");
        ids = [typeof session.subscription === "string" ? session.subscription : session.subscription.id];
      } else if (sessionId.startsWith("pi_")) {
        await stripeCall(() => client().paymentIntents.retrieve(sessionId));
        // Which subscription a payment belongs to is not on the PaymentIntent: read the caller's open ones.
        const rows = await db
          .select({ id: subscriptions.id })
          .from(subscriptions)
          .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ["incomplete", "active", "trialing", "past_due"])));
        ids = rows.map((row) => row.id);
      } else {
        ids = [sessionId];
      }
      for (const id of ids) {
        const subscription = await ownedSubscription(id, customer, userId);
        if (subscription) await sync(subscription, userId);
      }
      return { success: await isPro(userId) };
    },

    /** Spec §7 subscription-details: the subscription that decides the caller's tier, from the local copy. */
    async details(userId: string): Promise<SubscriptionDetailsResult> {
      const rows = await db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt));
      const now = clock();
      const current = rows.find((row) => grantsPro(row, now)) ?? rows.find((row) => !["incomplete", "incomplete_expired"].includes(row.status));
      return { isPro: rows.some((row) => grantsPro(row, now)), subscriptionDetails: current ? detailsOf(current) : null };
    },

    /** Spec §7 cancel-subscription: at the period's end, so Pro stays until then. The caller's own subscription only. */
    async cancel(userId: string, subscriptionId: string): Promise<{ success: boolean; message: string }> {
      const row = await findSubscription(db, userId, subscriptionId);
      if (!row) throw new DomainError("NOT_FOUND", "Subscription not found");
      const updated = await updateOwn(userId, subscriptionId, { cancel_at_period_end: true });
      // What the person asked for holds: nothing more is charged.
      if (!updated) return { success: true, message: "Your subscription has ended: Stripe no longer has it, and nothing more will be charged." };
      const until = updated.currentPeriodEnd ? ` on ${formatDate(updated.currentPeriodEnd, { time: false })}` : "";
      return { success: true, message: `Your subscription has been canceled. It remains active until the end of the billing period${until}.` };
    },

    /** Beyond the spec: undoes a scheduled cancel while the period lasts. */
    async resume(userId: string, subscriptionId: string): Promise<{ success: boolean; message: string }> {
      const row = await findSubscription(db, userId, subscriptionId);
      if (!row) throw new DomainError("NOT_FOUND", "Subscription not found");
      if (!grantsPro(row)) throw new DomainError("INVALID_INPUT", "Only an active subscription can be resumed");
      const resumed = await updateOwn(userId, subscriptionId, { cancel_at_period_end: false });
      if (!resumed) throw new DomainError("INVALID_INPUT", "This subscription has ended (Stripe no longer has it): subscribe again to get Pro back");
      return { success: true, message: "Your subscription will renew as usual." };
    },

    /** Stripe's customer portal (invoices, payment method) for the caller's customer. */
    async portal(userId: string, returnUrl: string): Promise<{ url: string }> {
      const customer = await customerOf(userId, false);
      if (!customer) throw new DomainError("NOT_FOUND", "You have no subscription yet");
      const session = await unlessMissing(
        () => client().billingPortal.sessions.create({ customer, return_url: returnUrl }),
        "customer",
        async () => {
          await forgetCustomer(db, userId, customer, clock());
          throw new DomainError("NOT_FOUND", "You have no subscription yet (Stripe no longer has your billing account)");
        },
      );
      return { url: session.url };
    },

    /**
     * A webhook: the signature over the raw body is checked, each event is applied once, and the
     * subscription it concerns is read again from Stripe, so an old or repeated event can only
     * ever write what is true now. The event's body is never applied: a subscription Stripe does
     * not return is made nothing (the user's copy of it, if any, is ended), and one is applied only
     * to the user whose customer it is.
     */
    async webhook(rawBody: string, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
      const stripeClient = client();
      if (!signature) throw new DomainError("INVALID_INPUT", "The Stripe-Signature header is missing");
      let event: Stripe.Event;
      try {
        event = await stripeClient.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret as string);
      } catch {
        throw new DomainError("INVALID_INPUT", "The webhook signature does not match");
      }
      const [seen] = await db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)).limit(1);
      if (seen) return { received: true, duplicate: true };
      const id = subscriptionIdOf(event);
      const subscription = id ? await currentSubscription(stripeClient, id) : null;
      if (id && !subscription)
        console.log(`Stripe webhook ${event.id} (${event.type}): Stripe has no subscription ${id}; nothing is made active from the event`);
      const owner = subscription ? await ownerOf(subscription) : id ? await holderOf(id) : undefined;
      if (subscription && !owner)
        console.log(
          `Stripe webhook ${event.id} (${event.type}): subscription ${subscription.id} belongs to no user here (customer ${customerId(subscription.customer)}); ignored`,
        );
      let applied = false;
      await db.transaction(async (tx) => {
        const [recorded] = await tx
          .insert(stripeEvents)
          .values({ id: event.id, type: event.type, payload: event })
          .onConflictDoNothing()
          .returning({ id: stripeEvents.id });
        if (!recorded) return;
        applied = true;
        if (!owner) return;
        if (subscription) await saveSubscription(tx, rowOf(subscription, owner, new Date()));
        else if (id) await endSubscription(tx, owner, id, clock());
      });
      return { received: true, duplicate: !applied };
    },
  };

  /** A subscription as Stripe has it now; null when Stripe has no such subscription. */
  function currentSubscription(stripeClient: Stripe, id: string): Promise<Stripe.Subscription | null> {
    return unlessMissing(
      () => stripeClient.subscriptions.retrieve(id),
      "id",
      async () => null,
    );
  }

  /**
   * Whose subscription, by its customer as Stripe says: the stored copy's user when the copy has
   * that customer, else the user with that customer.
   */
  async function ownerOf(subscription: Stripe.Subscription): Promise<string | undefined> {
    const customer = customerId(subscription.customer);
    const stored = await storedCopy(subscription.id);
    if (stored) return stored.customer === customer ? stored.userId : undefined;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.stripeCustomerId, customer)).limit(1);
    return user?.id;
  }

  /** The user who has a copy of this subscription. */
  async function holderOf(subscriptionId: string): Promise<string | undefined> {
    return (await storedCopy(subscriptionId))?.userId;
  }

  /** Our copy of a subscription: whose it is, and the customer it was made for. */
  async function storedCopy(subscriptionId: string) {
    const [stored] = await db
      .select({ userId: subscriptions.userId, customer: subscriptions.stripeCustomerId })
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId))
      .limit(1);
    return stored;
  }
}

export type Billing = ReturnType<typeof createBilling>;

/** Calls Stripe; its failures become the product's errors (a decline is a 402 with Stripe's message, never a 500). */
async function stripeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw mapStripeError(error);
  }
}

/**
 * Calls Stripe; when it answers "No such …" (resource_missing) about `param` (the object in the
 * path is "id", a parameter its name), `gone` answers instead: the object was deleted or the
 * test data cleared, which the callers recover from. Other failures as stripeCall.
 */
async function unlessMissing<T, U>(call: () => Promise<T>, param: string, gone: () => Promise<U>): Promise<T | U> {
  try {
    return await call();
  } catch (error) {
    if (!isMissing(error) || ((error as Stripe.errors.StripeError).param ?? "id") !== param) throw mapStripeError(error);
  }
  return gone();
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === "resource_missing";
}

function mapStripeError(error: unknown): unknown {
  if (error instanceof DomainError || !(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeCardError) return new DomainError("PAYMENT_FAILED", error.message);
  if (isMissing(error)) return new DomainError("NOT_FOUND", "Subscription not found");
  return new DomainError("BILLING_FAILED", `The payment service could not complete the request: ${error.message}`);
}

function subscriptionIdOf(event: Stripe.Event): string | undefined {
  const object = event.data.object as {
    object?: string;
    id?: string;
    subscription?: unknown;
    parent?: { subscription_details?: { subscription?: unknown } | null } | null;
  };
  const idOf = (value: unknown) =>
    typeof value === "string" ? value : typeof value === "object" && value && "id" in value && typeof value.id === "string" ? value.id : undefined;
  if (event.type.startsWith("customer.subscription.")) return object.id;
  // Invoices name their subscription under parent.subscription_details since API 2025-03-31.
  if (event.type.startsWith("invoice.")) return idOf(object.parent?.subscription_details?.subscription) ?? idOf(object.subscription);
  if (event.type === "checkout.session.completed") return idOf(object.subscription);
  return undefined;
}

function customerId(customer: string | Stripe.Customer | Stripe.DeletedCustomer | null): string {
  return typeof customer === "string" ? customer : (customer?.id ?? "");
}

function confirmationSecret(subscription: Stripe.Subscription): string | undefined {
  const invoice = subscription.latest_invoice;
  return typeof invoice === "object" && invoice ? (invoice.confirmation_secret?.client_secret ?? undefined) : undefined;
}
