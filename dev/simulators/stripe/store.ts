/**
 * What the simulator remembers: one record per Stripe object, in our own compact shape (render.ts
 * turns each into the JSON Stripe answers), and the simulated clock. Lookups throw Stripe's 404.
 */
import type Stripe from "stripe";
import { randomToken } from "../random.ts";
import type { Card } from "./cards.ts";
import { noSuch, type CardErrorSpec } from "./errors.ts";

export type Metadata = Record<string, string>;
export type Interval = "month" | "year";

export type PriceConfig = { id: string; unitAmount: number; currency: string; interval: Interval; productName: string };

export type PriceState = PriceConfig & { created: number; productId: string };

export type CustomerState = {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Metadata;
  defaultPaymentMethod: string | null;
  invoicePrefix: string;
  invoiceCount: number;
};

export type PaymentMethodState = { id: string; created: number; customer: string | null; card: Card };

export type SubscriptionState = {
  id: string;
  created: number;
  customer: string;
  price: string;
  quantity: number;
  itemId: string;
  status: Stripe.Subscription.Status;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationReason: "cancellation_requested" | "payment_failed" | null;
  latestInvoice: string | null;
  defaultPaymentMethod: string | null;
  saveDefaultPaymentMethod: "off" | "on_subscription";
  paymentBehavior: "allow_incomplete" | "default_incomplete" | "error_if_incomplete" | "pending_if_incomplete";
  metadata: Metadata;
  description: string | null;
};

export type InvoiceState = {
  id: string;
  number: string;
  created: number;
  customer: string;
  subscription: string;
  billingReason: "subscription_create" | "subscription_cycle";
  status: "open" | "paid" | "void";
  price: string;
  quantity: number;
  amount: number;
  currency: string;
  periodStart: number;
  periodEnd: number;
  paymentIntent: string;
  invoicePaymentId: string;
  lineId: string;
  attemptCount: number;
  paidAt: number | null;
  voidedAt: number | null;
};

/** The last failed attempt on a PaymentIntent (a card_error), with the PaymentMethod it was made with. */
export type PaymentError = CardErrorSpec & { paymentMethod: string | null };

export type PaymentIntentState = {
  id: string;
  created: number;
  clientSecret: string;
  amount: number;
  currency: string;
  customer: string;
  invoice: string;
  description: string;
  status: Stripe.PaymentIntent.Status;
  paymentMethod: string | null;
  lastError: PaymentError | null;
  latestCharge: string | null;
  setupFutureUsage: "off_session" | null;
  canceledAt: number | null;
};

export type CheckoutSessionState = {
  id: string;
  created: number;
  expiresAt: number;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid";
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Metadata;
  subscriptionMetadata: Metadata;
  price: string;
  quantity: number;
  lineItemId: string;
  successUrl: string | null;
  cancelUrl: string | null;
  subscription: string | null;
  invoice: string | null;
};

export type PortalSessionState = { id: string; created: number; customer: string; returnUrl: string | null; configuration: string };

/** A Stripe-looking id: `sub_` and 24 random characters. */
export const newId = (prefix: string, length = 24) => `${prefix}_${randomToken(length)}`;

export class Store {
  /** Simulated time, unix seconds. */
  now: number;
  readonly prices = new Table<PriceState>("price");
  readonly customers = new Table<CustomerState>("customer");
  readonly paymentMethods = new Table<PaymentMethodState>("PaymentMethod");
  readonly subscriptions = new Table<SubscriptionState>("subscription");
  readonly invoices = new Table<InvoiceState>("invoice");
  readonly paymentIntents = new Table<PaymentIntentState>("payment_intent");
  readonly checkoutSessions = new Table<CheckoutSessionState>("checkout.session");
  readonly portalSessions = new Table<PortalSessionState>("billing_portal.session");
  /** The one customer portal configuration (kept across restarts, state.ts). */
  portalConfiguration = newId("bpc");

  constructor(price: PriceConfig, now = Math.floor(Date.now() / 1000)) {
    this.now = now;
    this.prices.set(price.id, { ...price, created: now, productId: newId("prod", 14) });
  }

  /** The product of our one price. */
  product(id: string, param = "id"): PriceState {
    const price = [...this.prices.values()].find((p) => p.productId === id);
    if (!price) throw noSuch("product", id, param);
    return price;
  }
}

/** A Map of one kind of object whose `lookup` answers Stripe's 404 for an unknown id. */
export class Table<T> extends Map<string, T> {
  constructor(private readonly kind: string) {
    super();
  }

  /** `param` names where the id came from ("customer", "items[0][price]"); "id" for the path. */
  lookup(id: string, param = "id"): T {
    const value = this.get(id);
    if (value === undefined) throw noSuch(this.kind, id, param);
    return value;
  }
}
