/**
 * The REST slice for Checkout Sessions, customer portal sessions and events, and our test
 * helpers (the clock, completing a Checkout Session).
 */
import type { Route } from "./call.ts";
import { page } from "./call.ts";
import { completeWithTestCard, createCheckoutSession } from "./checkout.ts";
import { invalidRequest, parameterMissing } from "./errors.ts";
import type { Params } from "./forms.ts";
import { checkoutSessionJson, portalSessionJson } from "./render-sessions.ts";
import { newId } from "./store.ts";

export const sessionRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/checkout/sessions",
    handle: ({ params, store, billing, origin }) => {
      const mode = params.oneOf("mode", ["payment", "setup", "subscription"]);
      if (mode === undefined) throw parameterMissing("mode");
      if (mode !== "subscription") throw invalidRequest("The Stripe simulator only supports mode=subscription.", { param: "mode" });
      const items = params.list("line_items");
      if (!items || items.length === 0) throw parameterMissing("line_items");
      if (items.length > 1) throw invalidRequest("The Stripe simulator sells one price: pass exactly one line item.", { param: "line_items" });
      const item = items[0] as Params;
      const customer = params.optional("customer");
      const customerEmail = params.optional("customer_email");
      if (customer !== undefined && customerEmail !== undefined)
        throw invalidRequest("You may only specify one of these parameters: customer, customer_email.", { code: "parameters_exclusive", param: "customer" });
      const clientReferenceId = params.optional("client_reference_id") ?? null;
      if (clientReferenceId !== null && clientReferenceId.length > 200)
        throw invalidRequest("client_reference_id can be at most 200 characters.", { param: "client_reference_id" });
      const session = createCheckoutSession(billing, {
        customer: customer === undefined ? null : store.customers.lookup(customer, "customer").id,
        customerEmail: customerEmail ?? null,
        clientReferenceId,
        metadata: params.metadata() ?? {},
        subscriptionMetadata: params.child("subscription_data")?.metadata() ?? {},
        price: store.prices.lookup(item.required("price"), item.name("price")).id,
        quantity: item.integer("quantity", { min: 1 }) ?? 1,
        successUrl: params.url("success_url") ?? null,
        cancelUrl: params.url("cancel_url") ?? null,
      });
      return checkoutSessionJson(store, session, origin);
    },
  },
  {
    method: "GET",
    path: "/v1/checkout/sessions/:id",
    handle: ({ store, id, origin }) => checkoutSessionJson(store, store.checkoutSessions.lookup(id), origin),
  },

  {
    method: "POST",
    path: "/v1/billing_portal/sessions",
    handle: ({ params, store, origin }) => {
      const customer = store.customers.lookup(params.required("customer"), "customer");
      const session = {
        id: newId("bps"),
        created: store.now,
        customer: customer.id,
        returnUrl: params.url("return_url") ?? null,
        configuration: store.portalConfiguration,
      };
      store.portalSessions.set(session.id, session);
      return portalSessionJson(session, origin);
    },
  },

  {
    method: "GET",
    path: "/v1/events",
    handle: ({ params, billing }) => {
      const type = params.optional("type");
      const pattern = type === undefined ? undefined : new RegExp(`^${type.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`);
      return page(
        params,
        "/v1/events",
        billing.hooks.events.filter((event) => !pattern || pattern.test(event.type)),
        (event) => event,
      );
    },
  },
  {
    method: "GET",
    path: "/v1/events/:id",
    handle: ({ billing, id }) => {
      const event = billing.hooks.events.find((e) => e.id === id);
      if (!event) throw invalidRequest(`No such event: '${id}'`, { code: "resource_missing", param: "id", status: 404 });
      return event;
    },
  },

  // Test helpers of our own (real Stripe's test clocks are objects of their own; this is simpler).
  { method: "GET", path: "/v1/test_helpers/simulator", handle: ({ store }) => ({ now: store.now }) },
  {
    method: "POST",
    path: "/v1/test_helpers/simulator/advance",
    clock: true,
    handle: async ({ params, store, advanceClock }) => {
      const seconds = params.integer("seconds", { min: 0, max: 10 * 366 * 24 * 60 * 60 });
      if (seconds === undefined) throw parameterMissing("seconds");
      await advanceClock(seconds);
      return { now: store.now };
    },
  },
  {
    method: "POST",
    path: "/v1/test_helpers/checkout/sessions/:id/complete",
    handle: ({ store, billing, id, origin }) => {
      const session = store.checkoutSessions.lookup(id);
      completeWithTestCard(billing, session);
      return checkoutSessionJson(store, session, origin);
    },
  },
];
