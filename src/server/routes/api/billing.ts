import { Elysia } from "elysia";
import {
  BillingPlan,
  BillingPortal,
  BillingPortalResult,
  CreateSubscriptionResult,
  ProStatus,
  SubscriptionAction,
  SubscriptionActionResult,
  SubscriptionDetailsResult,
  VerifySubscription,
  VerifySubscriptionResult,
  WebhookReceipt,
} from "#src/contract/billing.ts";
import { rawBody } from "#src/server/http/body-limit.ts";
import { parseInput } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import type { Billing } from "#src/server/services/billing/index.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Owner } from "#src/server/services/owner.ts";
import { jsonBody } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** Spec §7 subscription calls, the plan for the pricing page, and Stripe's webhook. */
export function billingRoutes(billing: Billing, who: ReturnType<typeof identity>) {
  const signedIn = (owner: Owner): string => {
    if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
    return owner.userId;
  };

  return new Elysia()
    .use(who)
    .get("/api/pro-status", async ({ owner }) => ({ isPro: await billing.isPro(owner.userId) }), {
      response: ProStatus,
      detail: forTokens("account:read", {
        tags: ["billing"],
        summary: "Whether the caller is Pro",
        description: "`{ isPro }`: true while the user has an active or trialing subscription (or one past due by less than 3 days after its period ended); false for anonymous callers.",
      }),
    })
    .get("/api/billing/plan", () => billing.plan(), {
      response: BillingPlan,
      detail: forTokens("public", {
        tags: ["billing"],
        summary: "What Pro costs and how to pay",
        description: "The price from Stripe's price object, the publishable key, the billing mode (`live`, `simulated`, `off`) and whether cards are really charged. When off, `missing` names the variables to set.",
      }),
    })
    .post("/api/create-subscription", ({ owner }) => billing.subscribe(signedIn(owner)), {
      response: CreateSubscriptionResult,
      detail: forTokens("session", {
        tags: ["billing"],
        summary: "Start a Pro subscription",
        description:
          "Signed in only. `{ status: \"active\" }` when already Pro; otherwise `{ status, clientSecret, subscriptionId }` for Stripe's Payment Element (a recent subscription still waiting for payment is reused). 503 when payments are not configured.",
      }),
    })
    .post("/api/verify-subscription", ({ owner, body }) => billing.verify(signedIn(owner), parseInput(VerifySubscription, body).sessionId), {
      response: VerifySubscriptionResult,
      detail: forTokens("session", {
        tags: ["billing"],
        summary: "Check a finished payment with Stripe",
        description: "`{ sessionId }` is the subscription, PaymentIntent or Checkout Session id the browser came back with. The caller's subscription is read from Stripe (never taken from the request); `{ success }` says whether they are Pro now.",
        requestBody: jsonBody(VerifySubscription),
      }),
    })
    .get("/api/subscription-details", ({ owner }) => billing.details(signedIn(owner)), {
      response: SubscriptionDetailsResult,
      detail: forTokens("session", { tags: ["billing"], summary: "The caller's subscription", description: "`{ isPro, subscriptionDetails }` (spec §3 names); amounts in the currency's smallest unit, dates ISO 8601." }),
    })
    .post("/api/cancel-subscription", ({ owner, body }) => billing.cancel(signedIn(owner), parseInput(SubscriptionAction, body).subscriptionId), {
      response: SubscriptionActionResult,
      detail: forTokens("session", {
        tags: ["billing"],
        summary: "Cancel at the end of the billing period",
        description: "The caller's own subscription only (any other id is 404). Pro stays until the period ends.",
        requestBody: jsonBody(SubscriptionAction),
      }),
    })
    .post("/api/resume-subscription", ({ owner, body }) => billing.resume(signedIn(owner), parseInput(SubscriptionAction, body).subscriptionId), {
      response: SubscriptionActionResult,
      detail: forTokens("session", { tags: ["billing"], summary: "Undo a scheduled cancel", description: "While the period lasts; the caller's own subscription only.", requestBody: jsonBody(SubscriptionAction) }),
    })
    .post(
      "/api/billing-portal",
      ({ owner, body, request }) => {
        const { returnUrl } = parseInput(BillingPortal, body ?? {});
        return billing.portal(signedIn(owner), returnUrl ?? new URL("/user/subscription", request.url).toString());
      },
      {
        response: BillingPortalResult,
        detail: forTokens("session", { tags: ["billing"], summary: "Stripe's customer portal", description: "A portal session URL for the caller's invoices and payment method.", requestBody: jsonBody(BillingPortal) }),
      },
    )
    // The signature is over the raw bytes: the handler reads them, not the parsed body.
    .post("/api/stripe/webhook", ({ request }) => billing.webhook(rawBody(request), request.headers.get("stripe-signature") ?? undefined), {
      response: WebhookReceipt,
      detail: forTokens("public", {
        tags: ["billing"],
        summary: "Stripe webhooks",
        description: "Checked against STRIPE_WEBHOOK_SECRET (a bad or missing signature is 400 and changes nothing); each event is applied once; the subscription it names is read again from Stripe.",
      }),
    });
}
