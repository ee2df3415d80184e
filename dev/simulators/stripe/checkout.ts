/**
 * Checkout Sessions in subscription mode: created open (its url is the hosted page, pages.ts),
 * completed when the customer pays there (or through the test helper): an active, paid
 * subscription, then `checkout.session.completed`; left open for 24 hours, expired.
 */
import type { Billing } from "./billing.ts";
import { chargeDecline, checkCard, DEFAULT_TEST_CARD, type Card } from "./cards.ts";
import { cardError, invalidRequest } from "./errors.ts";
import { checkoutSessionJson } from "./render-sessions.ts";
import { newId, type CheckoutSessionState } from "./store.ts";

export const CHECKOUT_EXPIRES_AFTER_S = 24 * 60 * 60;

export type NewCheckoutSession = Omit<
  CheckoutSessionState,
  "id" | "created" | "expiresAt" | "status" | "paymentStatus" | "lineItemId" | "subscription" | "invoice"
>;

export function createCheckoutSession({ store }: Billing, fields: NewCheckoutSession): CheckoutSessionState {
  const now = store.now;
  const session: CheckoutSessionState = {
    id: newId("cs_test", 58),
    created: now,
    expiresAt: now + CHECKOUT_EXPIRES_AFTER_S,
    status: "open",
    paymentStatus: "unpaid",
    lineItemId: newId("li"),
    subscription: null,
    invoice: null,
    ...fields,
  };
  store.checkoutSessions.set(session.id, session);
  return session;
}

/** The customer paid on the hosted page with `card` (a decline throws Stripe's 402 and changes nothing). */
export function completeCheckoutSession(billing: Billing, session: CheckoutSessionState, card: Card): void {
  if (session.status !== "open") {
    throw invalidRequest(`This Checkout Session is ${session.status === "complete" ? "already complete" : "expired"}.`, { code: "checkout_session_not_open" });
  }
  const decline = chargeDecline(card, "first");
  if (decline) throw cardError(decline);
  const { store } = billing;
  const customer = session.customer
    ? store.customers.lookup(session.customer)
    : billing.createCustomer({ email: session.customerEmail, name: null, description: null, phone: null, metadata: {} });
  const sub = billing.createSubscription({
    customer,
    price: session.price,
    quantity: session.quantity,
    paymentBehavior: "default_incomplete",
    saveDefaultPaymentMethod: "on_subscription",
    defaultPaymentMethod: null,
    metadata: { ...session.subscriptionMetadata },
    description: null,
  });
  const invoice = store.invoices.lookup(sub.latestInvoice ?? "");
  billing.confirm(invoice, billing.createPaymentMethod(card, null));
  Object.assign(session, {
    status: "complete",
    paymentStatus: "paid",
    customer: customer.id,
    subscription: sub.id,
    invoice: invoice.id,
  } satisfies Partial<CheckoutSessionState>);
  billing.hooks.emit("checkout.session.completed", checkoutSessionJson(store, session, billing.origin));
}

/** As if the customer paid with 4242 4242 4242 4242 (the test helpers). */
export function completeWithTestCard(billing: Billing, session: CheckoutSessionState): void {
  const checked = checkCard(DEFAULT_TEST_CARD, billing.store.now);
  if ("error" in checked) throw cardError(checked.error);
  completeCheckoutSession(billing, session, checked.card);
}

export function expireCheckoutSession(billing: Billing, session: CheckoutSessionState): void {
  session.status = "expired";
  billing.hooks.emit("checkout.session.expired", checkoutSessionJson(billing.store, session, billing.origin));
}
