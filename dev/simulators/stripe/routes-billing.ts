/**
 * The REST slice for customers, the price, subscriptions, invoices and PaymentIntents: read the
 * parameters, act through Billing, answer the object (api.ts adds auth, idempotency, `expand[]`
 * and the error shape). The two PaymentIntent endpoints also take the publishable key with the
 * `client_secret`, as Stripe.js calls them.
 */
import type { Call, Route } from "./call.ts";
import { page } from "./call.ts";
import { checkCard } from "./cards.ts";
import { cardError, invalidRequest, noSuch, parameterMissing } from "./errors.ts";
import type { Params } from "./forms.ts";
import { customerJson, paymentMethodJson, priceJson, productJson } from "./render.ts";
import { paymentIntentJson, subscriptionJson } from "./render-billing.ts";
import { invoiceJson } from "./render-invoice.ts";
import type { PaymentIntentState, PaymentMethodState } from "./store.ts";

const SUBSCRIPTION_STATUSES = ["active", "all", "canceled", "ended", "incomplete", "incomplete_expired", "past_due", "paused", "trialing", "unpaid"] as const;

export const billingRoutes: Route[] = [
  {
    method: "POST",
    path: "/v1/customers",
    handle: ({ params, billing }) =>
      customerJson(
        billing.createCustomer({ email: null, name: null, description: null, phone: null, ...customerFields(params), metadata: params.metadata() ?? {} }),
      ),
  },
  {
    method: "GET",
    path: "/v1/customers",
    handle: ({ params, store }) => {
      const email = params.optional("email");
      return page(
        params,
        "/v1/customers",
        [...store.customers.values()].filter((c) => email === undefined || c.email === email),
        customerJson,
      );
    },
  },
  { method: "GET", path: "/v1/customers/:id", handle: ({ store, id }) => customerJson(store.customers.lookup(id)) },
  {
    method: "POST",
    path: "/v1/customers/:id",
    handle: ({ params, store, billing, id }) => {
      const customer = store.customers.lookup(id);
      const methodId = params.child("invoice_settings")?.optional("default_payment_method");
      const method = methodId === undefined ? undefined : store.paymentMethods.lookup(methodId, "invoice_settings[default_payment_method]");
      if (method) method.customer ??= customer.id;
      billing.updateCustomer(customer, {
        ...customerFields(params),
        ...(method ? { defaultPaymentMethod: method.id } : {}),
        metadata: params.metadata(customer.metadata) ?? customer.metadata,
      });
      return customerJson(customer);
    },
  },
  { method: "GET", path: "/v1/prices/:id", handle: ({ store, id }) => priceJson(store.prices.lookup(id)) },
  { method: "GET", path: "/v1/products/:id", handle: ({ store, id }) => productJson(store.product(id)) },
  { method: "GET", path: "/v1/payment_methods/:id", handle: ({ store, id }) => paymentMethodJson(store.paymentMethods.lookup(id)) },

  {
    method: "POST",
    path: "/v1/subscriptions",
    handle: ({ params, store, billing }) => {
      const customer = store.customers.lookup(params.required("customer"), "customer");
      const items = params.list("items");
      if (!items || items.length === 0) throw parameterMissing("items");
      if (items.length > 1) throw invalidRequest("The Stripe simulator sells one price: pass exactly one item.", { param: "items" });
      const item = items[0] as Params;
      const methodId = params.optional("default_payment_method");
      const sub = billing.createSubscription({
        customer,
        price: store.prices.lookup(item.required("price"), item.name("price")).id,
        quantity: item.integer("quantity", { min: 1 }) ?? 1,
        paymentBehavior:
          params.oneOf("payment_behavior", ["allow_incomplete", "default_incomplete", "error_if_incomplete", "pending_if_incomplete"]) ?? "allow_incomplete",
        saveDefaultPaymentMethod: params.child("payment_settings")?.oneOf("save_default_payment_method", ["off", "on_subscription"]) ?? "off",
        defaultPaymentMethod: methodId === undefined ? null : store.paymentMethods.lookup(methodId, "default_payment_method").id,
        metadata: params.metadata() ?? {},
        description: params.optional("description") ?? null,
      });
      return subscriptionJson(store, sub);
    },
  },
  {
    method: "GET",
    path: "/v1/subscriptions",
    handle: ({ params, store }) => {
      const customer = params.optional("customer");
      const price = params.optional("price");
      const status = params.oneOf("status", SUBSCRIPTION_STATUSES);
      const matches = [...store.subscriptions.values()].filter(
        (sub) =>
          (customer === undefined || sub.customer === customer) &&
          (price === undefined || sub.price === price) &&
          (status === "all" ||
            (status === undefined && sub.status !== "canceled") ||
            (status === "ended" && (sub.status === "canceled" || sub.status === "incomplete_expired")) ||
            sub.status === status),
      );
      return page(params, "/v1/subscriptions", matches, (sub) => subscriptionJson(store, sub));
    },
  },
  { method: "GET", path: "/v1/subscriptions/:id", handle: ({ store, id }) => subscriptionJson(store, store.subscriptions.lookup(id)) },
  {
    method: "POST",
    path: "/v1/subscriptions/:id",
    handle: ({ params, store, billing, id }) => {
      const sub = store.subscriptions.lookup(id);
      const methodId = params.optional("default_payment_method");
      billing.updateSubscription(sub, {
        cancelAtPeriodEnd: params.boolean("cancel_at_period_end"),
        metadata: params.metadata(sub.metadata),
        defaultPaymentMethod: methodId === undefined ? undefined : store.paymentMethods.lookup(methodId, "default_payment_method").id,
        description: params.has("description") ? (params.optional("description") ?? null) : undefined,
      });
      return subscriptionJson(store, sub);
    },
  },
  {
    method: "DELETE",
    path: "/v1/subscriptions/:id",
    handle: ({ store, billing, id }) => {
      const sub = store.subscriptions.lookup(id);
      billing.cancelSubscription(sub);
      return subscriptionJson(store, sub);
    },
  },

  { method: "GET", path: "/v1/invoices/:id", handle: ({ store, id }) => invoiceJson(store, store.invoices.lookup(id)) },
  {
    method: "GET",
    path: "/v1/invoices",
    handle: ({ params, store }) => {
      const customer = params.optional("customer");
      const subscription = params.optional("subscription");
      const status = params.oneOf("status", ["draft", "open", "paid", "uncollectible", "void"]);
      const matches = [...store.invoices.values()].filter(
        (invoice) =>
          (customer === undefined || invoice.customer === customer) &&
          (subscription === undefined || invoice.subscription === subscription) &&
          (status === undefined || invoice.status === status),
      );
      return page(params, "/v1/invoices", matches, (invoice) => invoiceJson(store, invoice));
    },
  },

  {
    method: "GET",
    path: "/v1/payment_intents/:id",
    client: true,
    handle: (call) => paymentIntentJson(call.store, clientIntent(call)),
  },
  {
    method: "POST",
    path: "/v1/payment_intents/:id/confirm",
    client: true,
    handle: (call) => {
      const intent = clientIntent(call);
      if (intent.status === "succeeded") {
        throw invalidRequest("You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.", {
          code: "payment_intent_unexpected_state",
        });
      }
      if (intent.status === "canceled") {
        throw invalidRequest(
          "You cannot confirm this PaymentIntent because it has a status of canceled. Only a PaymentIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.",
          { code: "payment_intent_unexpected_state" },
        );
      }
      call.params.url("return_url"); // checked as Stripe does; with no 3-D Secure step, nothing returns there
      call.billing.confirm(call.store.invoices.lookup(intent.invoice), paymentMethodFor(call, intent));
      return paymentIntentJson(call.store, intent);
    },
  },
];

/** The customer's text fields that were sent ("" unsets one: null). */
function customerFields(params: Params): Partial<Record<"email" | "name" | "description" | "phone", string | null>> {
  const fields: Partial<Record<"email" | "name" | "description" | "phone", string | null>> = {};
  for (const key of ["email", "name", "description", "phone"] as const) if (params.has(key)) fields[key] = params.optional(key) ?? null;
  return fields;
}

/** The PaymentIntent of the path; with the publishable key, only with its client_secret. */
function clientIntent({ params, store, id, publishable }: Call): PaymentIntentState {
  const intent = store.paymentIntents.lookup(id);
  const secret = params.optional("client_secret");
  if (publishable && secret === undefined) throw parameterMissing("client_secret");
  if (secret !== undefined && secret !== intent.clientSecret) {
    throw invalidRequest("The client_secret provided does not match the client_secret associated with the PaymentIntent.", {
      code: "payment_intent_invalid_parameter",
      param: "client_secret",
    });
  }
  return intent;
}

/** `payment_method=pm_…` (a saved card) or `payment_method_data[type]=card&payment_method_data[card][number]=…`. */
function paymentMethodFor({ params, store, billing, publishable }: Call, intent: PaymentIntentState): PaymentMethodState {
  const saved = params.optional("payment_method");
  if (saved !== undefined) {
    const method = store.paymentMethods.lookup(saved, "payment_method");
    // The browser may only use a card already saved to the PaymentIntent's customer.
    if (publishable && method.customer !== intent.customer) throw noSuch("PaymentMethod", saved, "payment_method");
    return method;
  }
  const data = params.child("payment_method_data");
  if (!data) {
    throw invalidRequest(
      `You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with ${intent.customer}, specify a payment method attached to this customer along with the customer ID.`,
      { code: "payment_intent_unexpected_state" },
    );
  }
  if (data.oneOf("type", ["card"]) === undefined) throw parameterMissing(data.name("type"));
  const card = data.child("card");
  if (!card) throw parameterMissing(data.name("card"));
  const checked = checkCard(
    { number: card.required("number"), expMonth: card.required("exp_month"), expYear: card.required("exp_year"), cvc: card.string("cvc") },
    store.now,
  );
  if ("error" in checked) throw cardError(checked.error);
  return billing.createPaymentMethod(checked.card, null);
}
