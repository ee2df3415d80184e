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
import * as v from "valibot";
import { rawBody } from "#src/server/http/body-limit.ts";
import type { Guards } from "#src/server/http/guards.ts";
import type { Billing } from "#src/server/services/billing/index.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** Spec §7 subscription calls, the plan for the pricing page, and Stripe's webhook. */
export function billingRoutes(billing: Billing, guards: Guards) {
  return (
    new Elysia()
      .use(guards)
      .get("/api/pro-status", async ({ owner }) => ({ isPro: await billing.isPro(owner.userId) }), {
        response: ProStatus,
        detail: forTokens("account:read", {
          tags: ["billing"],
          summary: "Whether the caller is Pro",
          description:
            "`{ isPro }`: true while the user has an active or trialing subscription (or one past due by less than 3 days after its period ended); false for anonymous callers.",
        }),
      })
      .get("/api/billing/plan", () => billing.plan(), {
        response: BillingPlan,
        detail: forTokens("public", {
          tags: ["billing"],
          summary: "What Pro costs and how to pay",
          description:
            "The price from Stripe's price object, the publishable key, the billing mode (`live`, `simulated`, `off`) and whether cards are really charged. When off, `missing` names the variables to set.",
        }),
      })
      .post("/api/create-subscription", ({ userId }) => billing.subscribe(userId), {
        signedIn: true,
        response: CreateSubscriptionResult,
        detail: forTokens("session", {
          tags: ["billing"],
          summary: "Start a Pro subscription",
          description:
            'Signed in only. `{ status: "active" }` when already Pro; otherwise `{ status, clientSecret, subscriptionId }` for Stripe\'s Payment Element (a recent subscription still waiting for payment is reused). 503 when payments are not configured.',
        }),
      })
      .post("/api/verify-subscription", ({ userId, body }) => billing.verify(userId, body.sessionId), {
        signedIn: true,
        body: VerifySubscription,
        parse: "json",
        response: VerifySubscriptionResult,
        detail: forTokens("session", {
          tags: ["billing"],
          summary: "Check a finished payment with Stripe",
          description:
            "`{ sessionId }` is the subscription, PaymentIntent or Checkout Session id the browser came back with. The caller's subscription is read from Stripe (never taken from the request); `{ success }` says whether they are Pro now.",
        }),
      })
      .get("/api/subscription-details", ({ userId }) => billing.details(userId), {
        signedIn: true,
        response: SubscriptionDetailsResult,
        detail: forTokens("session", {
          tags: ["billing"],
          summary: "The caller's subscription",
          description: "`{ isPro, subscriptionDetails }` (spec §3 names); amounts in the currency's smallest unit, dates ISO 8601.",
        }),
      })
      .post("/api/cancel-subscription", ({ userId, body }) => billing.cancel(userId, body.subscriptionId), {
        signedIn: true,
        body: SubscriptionAction,
        parse: "json",
        response: SubscriptionActionResult,
        detail: forTokens("session", {
          tags: ["billing"],
          summary: "Cancel at the end of the billing period",
          description: "The caller's own subscription only (any other id is 404). Pro stays until the period ends.",
        }),
      })
      .post("/api/resume-subscription", ({ userId, body }) => billing.resume(userId, body.subscriptionId), {
        signedIn: true,
        body: SubscriptionAction,
        parse: "json",
        response: SubscriptionActionResult,
        detail: forTokens("session", {
          tags: ["billing"],
          summary: "Undo a scheduled cancel",
          description: "While the period lasts; the caller's own subscription only.",
        }),
      })
      .post(
        "/api/billing-portal",
        ({ userId, body, request }) => billing.portal(userId, body.returnUrl ?? new URL("/user/subscription", request.url).toString()),
        {
          signedIn: true,
          // The body is optional: a call without one opens the portal to come back to the subscription page.
          body: v.nullish(BillingPortal, {}),
          parse: "json",
          response: BillingPortalResult,
          detail: forTokens("session", {
            tags: ["billing"],
            summary: "Stripe's customer portal",
            description: "A portal session URL for the caller's invoices and payment method.",
          }),
        },
      )
      // The signature is over the raw bytes: the handler reads them, not the parsed body.
      .post("/api/stripe/webhook", ({ request }) => billing.webhook(rawBody(request), request.headers.get("stripe-signature") ?? undefined), {
        response: WebhookReceipt,
        detail: forTokens("public", {
          tags: ["billing"],
          summary: "Stripe webhooks",
          description:
            "Checked against STRIPE_WEBHOOK_SECRET (a bad or missing signature is 400 and changes nothing); each event is applied once; the subscription it names is read again from Stripe.",
        }),
      })
  );
}
