import * as v from "valibot";

/**
 * How payments run: `live` with Stripe keys (test or live keys: `testMode` tells), `simulated` on
 * the loopback Stripe simulator (no key, outside production), `off` in production without keys.
 */
export const BillingMode = v.picklist(["live", "simulated", "off"]);
export type BillingMode = v.InferOutput<typeof BillingMode>;

/** Every billing screen says so when no real card can be charged. */
export const TEST_MODE_NOTICE = "Test mode: no card is charged";

/** GET /api/pro-status. */
export const ProStatus = v.object({ isPro: v.boolean() });
export type ProStatus = v.InferOutput<typeof ProStatus>;

/** GET /api/billing/plan: what Pro costs and how the page pays for it. */
export const BillingPlan = v.object({
  mode: BillingMode,
  /** No real card is charged (the simulator, or Stripe test keys). */
  testMode: v.boolean(),
  /** What is missing when `mode` is off (variable names). */
  missing: v.array(v.string()),
  /** For Stripe.js; absent when billing is off. */
  publishableKey: v.optional(v.string()),
  /** Where the page loads Stripe.js from when it is not js.stripe.com (the simulator's stand-in). */
  stripeJsUrl: v.optional(v.string()),
  price: v.optional(
    v.object({
      /** In the currency's smallest unit (cents). */
      amount: v.number(),
      currency: v.string(),
      interval: v.string(),
      productName: v.string(),
    }),
  ),
});
export type BillingPlan = v.InferOutput<typeof BillingPlan>;

/** POST /api/create-subscription (spec §7): `active` when already Pro; otherwise what the payment form needs. */
export const CreateSubscriptionResult = v.object({
  status: v.string(),
  clientSecret: v.optional(v.string()),
  subscriptionId: v.optional(v.string()),
});
export type CreateSubscriptionResult = v.InferOutput<typeof CreateSubscriptionResult>;

/** A Stripe id the browser came back with: a subscription, a PaymentIntent or a Checkout Session. */
const StripeObjectId = v.pipe(
  v.string("sessionId is required"),
  v.trim(),
  v.regex(/^(sub|pi|cs)_[A-Za-z0-9_]{1,200}$/, "sessionId must be a Stripe subscription, payment or checkout id"),
);

/** POST /api/verify-subscription. */
export const VerifySubscription = v.object({ sessionId: StripeObjectId }, "The body must be a JSON object with a sessionId");
export const VerifySubscriptionResult = v.object({ success: v.boolean() });

const SubscriptionId = v.pipe(
  v.string("subscriptionId is required"),
  v.trim(),
  v.regex(/^sub_[A-Za-z0-9_]{1,200}$/, "subscriptionId must be a Stripe subscription id"),
);

/** POST /api/cancel-subscription and /api/resume-subscription. */
export const SubscriptionAction = v.object({ subscriptionId: SubscriptionId }, "The body must be a JSON object with a subscriptionId");
export const SubscriptionActionResult = v.object({ success: v.boolean(), message: v.string() });

/** Spec §3 "subscriptionDetails". Amounts in the currency's smallest unit; dates ISO 8601 or null. */
export const SubscriptionDetails = v.object({
  id: v.string(),
  status: v.string(),
  planAmount: v.nullable(v.number()),
  planCurrency: v.nullable(v.string()),
  planInterval: v.nullable(v.string()),
  cancelAtPeriodEnd: v.boolean(),
  cancelAt: v.nullable(v.string()),
  canceledAt: v.nullable(v.string()),
  currentPeriodEnd: v.nullable(v.string()),
});
export type SubscriptionDetails = v.InferOutput<typeof SubscriptionDetails>;

/** GET /api/subscription-details. */
export const SubscriptionDetailsResult = v.object({ isPro: v.boolean(), subscriptionDetails: v.nullable(SubscriptionDetails) });
export type SubscriptionDetailsResult = v.InferOutput<typeof SubscriptionDetailsResult>;

/** POST /api/stripe/webhook: received; `duplicate` when the event had been applied before. */
export const WebhookReceipt = v.object({ received: v.literal(true), duplicate: v.boolean() });

/** POST /api/billing-portal: Stripe's customer portal (invoices, payment method), live mode only. */
export const BillingPortal = v.object({ returnUrl: v.optional(v.pipe(v.string(), v.url("returnUrl must be a URL"))) });
export const BillingPortalResult = v.object({ url: v.string() });
