/**
 * `expand[]=latest_invoice.confirmation_secret`: dotted paths whose steps name an id (swapped for
 * the object it names), a nested object, a list (`items.data.price.product`) or an includable
 * field that is only sent when asked for (an invoice's `confirmation_secret` and `payments`, a
 * Checkout Session's `line_items`). Anything else is Stripe's 400 "This property cannot be
 * expanded (x)." Expanding a null leaves it null, as Stripe does.
 */
import { cannotExpand, invalidRequest } from "./errors.ts";
import { customerJson, paymentMethodJson, priceJson, productJson } from "./render.ts";
import { paymentIntentJson, subscriptionJson } from "./render-billing.ts";
import { confirmationSecretJson, invoiceJson, invoicePaymentsJson } from "./render-invoice.ts";
import { checkoutLineItemsJson, checkoutSessionJson } from "./render-sessions.ts";
import type { Store } from "./store.ts";

type Json = Record<string, unknown>;

const MAX_LEVELS = 4;

export function expand<T>(value: T, paths: readonly string[], store: Store, origin: string): T {
  for (const path of new Set(paths)) {
    const steps = path.split(".");
    if (steps.length > MAX_LEVELS)
      throw invalidRequest(`You cannot expand more than ${MAX_LEVELS} levels of a property. Property: ${path}`, { param: "expand" });
    if (steps.some((step) => step === "")) throw cannotExpand(path);
    walk(value as Json, steps, store, origin);
  }
  return value;
}

function walk(node: Json, steps: string[], store: Store, origin: string): void {
  const [key, ...rest] = steps as [string, ...string[]];
  let value = node[key];
  if (value === undefined) {
    value = includable(node, key, store);
    if (value === undefined) throw cannotExpand(key);
    node[key] = value;
    if (rest.length === 0) return;
  }
  if (typeof value === "string") {
    value = byId(value, store, origin);
    if (value === undefined) throw cannotExpand(key);
    node[key] = value;
  }
  if (value === null) return;
  if (rest.length === 0) {
    if (!isObject(value) || typeof value.object !== "string") throw cannotExpand(key);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) if (isObject(item)) walk(item, rest, store, origin);
    return;
  }
  if (!isObject(value)) throw cannotExpand(rest[0] ?? key);
  walk(value, rest, store, origin);
}

/** The object an id names, rendered afresh; undefined for ids of objects the simulator does not keep. */
function byId(id: string, store: Store, origin: string): Json | undefined {
  const price = store.prices.get(id);
  if (price) return render(price, priceJson);
  const [prefix] = id.split("_");
  switch (prefix) {
    case "cus":
      return render(store.customers.get(id), customerJson);
    case "sub":
      return render(store.subscriptions.get(id), (sub) => subscriptionJson(store, sub));
    case "in":
      return render(store.invoices.get(id), (invoice) => invoiceJson(store, invoice));
    case "pi":
      return render(store.paymentIntents.get(id), (intent) => paymentIntentJson(store, intent));
    case "pm":
      return render(store.paymentMethods.get(id), paymentMethodJson);
    case "cs":
      return render(store.checkoutSessions.get(id), (session) => checkoutSessionJson(store, session, origin));
    case "prod":
      return render(
        [...store.prices.values()].find((p) => p.productId === id),
        productJson,
      );
    default:
      return undefined;
  }
}

function includable(node: Json, key: string, store: Store): unknown {
  const id = typeof node.id === "string" ? node.id : "";
  if (node.object === "invoice") {
    const invoice = store.invoices.get(id);
    if (invoice && key === "confirmation_secret") return confirmationSecretJson(store, invoice);
    if (invoice && key === "payments") return invoicePaymentsJson(store, invoice);
  }
  if (node.object === "checkout.session" && key === "line_items") {
    const session = store.checkoutSessions.get(id);
    if (session) return checkoutLineItemsJson(store, session);
  }
  return undefined;
}

function render<S>(state: S | undefined, json: (state: S) => object): Json | undefined {
  return state === undefined ? undefined : (json(state) as Json);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null;
}
