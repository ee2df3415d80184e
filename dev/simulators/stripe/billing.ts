/**
 * What Stripe Billing does with a subscription, one state change at a time, each announced as an
 * Event: creation (an open invoice and its PaymentIntent), payment (card saved as the default,
 * subscription active) or decline, cancelation now or at the period end, renewal on the
 * simulated clock (a new invoice charged to the saved card; a decline makes it past_due; clock.ts
 * decides when), expiry of an unpaid first invoice. Arguments arrive validated (the routes read
 * the parameters).
 */
import { chargeDecline, type Card } from "./cards.ts";
import { cardError, invalidRequest, noSuch, type CardErrorSpec } from "./errors.ts";
import { addInterval } from "./periods.ts";
import { customerJson, paymentMethodJson } from "./render.ts";
import { paymentIntentJson, subscriptionJson } from "./render-billing.ts";
import { invoiceJson } from "./render-invoice.ts";
import {
  newId,
  type CustomerState,
  type InvoiceState,
  type Metadata,
  type PaymentIntentState,
  type PaymentMethodState,
  type Store,
  type SubscriptionState,
} from "./store.ts";
import { previousAttributes, type Webhooks } from "./webhooks.ts";

export type NewSubscription = {
  customer: CustomerState;
  price: string;
  quantity: number;
  paymentBehavior: SubscriptionState["paymentBehavior"];
  saveDefaultPaymentMethod: SubscriptionState["saveDefaultPaymentMethod"];
  defaultPaymentMethod: string | null;
  metadata: Metadata;
  description: string | null;
};

export type SubscriptionChanges = { cancelAtPeriodEnd?: boolean; metadata?: Metadata; defaultPaymentMethod?: string; description?: string | null };

export class Billing {
  constructor(
    readonly store: Store,
    readonly hooks: Webhooks,
    readonly origin: string,
  ) {}

  createCustomer(fields: Pick<CustomerState, "email" | "name" | "description" | "phone" | "metadata">): CustomerState {
    const customer: CustomerState = {
      id: newId("cus", 14),
      created: this.store.now,
      ...fields,
      defaultPaymentMethod: null,
      invoicePrefix: newId("X", 7).slice(2).toUpperCase(),
      invoiceCount: 0,
    };
    this.store.customers.set(customer.id, customer);
    this.hooks.emit("customer.created", customerJson(customer));
    return customer;
  }

  updateCustomer(
    customer: CustomerState,
    fields: Partial<Pick<CustomerState, "email" | "name" | "description" | "phone" | "metadata" | "defaultPaymentMethod">>,
  ): void {
    const before = customerJson(customer);
    Object.assign(customer, fields);
    const after = customerJson(customer);
    const previous = previousAttributes(before, after);
    if (previous) this.hooks.emit("customer.updated", after, previous);
  }

  createPaymentMethod(card: Card, customer: string | null): PaymentMethodState {
    const method: PaymentMethodState = { id: newId("pm"), created: this.store.now, customer, card };
    this.store.paymentMethods.set(method.id, method);
    return method;
  }

  /** An incomplete subscription with an open first invoice; paid at once from a saved card unless `default_incomplete`. */
  createSubscription(input: NewSubscription): SubscriptionState {
    const { store } = this;
    const savedMethod = input.defaultPaymentMethod ?? input.customer.defaultPaymentMethod;
    const payNow = input.paymentBehavior !== "default_incomplete" && savedMethod !== null;
    if (payNow && input.paymentBehavior === "error_if_incomplete") {
      const decline = chargeDecline(store.paymentMethods.lookup(savedMethod).card, "first");
      if (decline) throw cardError(decline);
    }
    const price = store.prices.lookup(input.price);
    const sub: SubscriptionState = {
      id: newId("sub"),
      created: store.now,
      customer: input.customer.id,
      price: price.id,
      quantity: input.quantity,
      itemId: newId("si", 14),
      status: "incomplete",
      periodStart: store.now,
      periodEnd: addInterval(store.now, store.now, price.interval),
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      cancellationReason: null,
      latestInvoice: null,
      defaultPaymentMethod: input.defaultPaymentMethod,
      saveDefaultPaymentMethod: input.saveDefaultPaymentMethod,
      paymentBehavior: input.paymentBehavior,
      metadata: input.metadata,
      description: input.description,
    };
    store.subscriptions.set(sub.id, sub);
    const invoice = this.openInvoice(sub, "subscription_create");
    sub.latestInvoice = invoice.id;
    this.hooks.emit("customer.subscription.created", subscriptionJson(store, sub));
    if (payNow) this.changing(sub, () => this.pay(invoice, savedMethod, "first"));
    return sub;
  }

  /** Confirms an invoice's PaymentIntent with a card the customer entered; a decline throws Stripe's 402. */
  confirm(invoice: InvoiceState, method: PaymentMethodState): void {
    const sub = this.store.subscriptions.lookup(invoice.subscription);
    const decline = this.changing(sub, () => this.pay(invoice, method.id, "first"));
    if (decline) {
      const intent = this.store.paymentIntents.lookup(invoice.paymentIntent);
      throw cardError(decline, { payment_intent: paymentIntentJson(this.store, intent), payment_method: paymentMethodJson(method) });
    }
  }

  updateSubscription(sub: SubscriptionState, update: SubscriptionChanges): void {
    const ended = sub.status === "canceled" || sub.status === "incomplete_expired";
    if (ended && (update.cancelAtPeriodEnd !== undefined || update.defaultPaymentMethod !== undefined)) {
      throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
    }
    this.changing(sub, () => {
      if (update.metadata) sub.metadata = update.metadata;
      if (update.description !== undefined) sub.description = update.description;
      if (update.defaultPaymentMethod !== undefined) sub.defaultPaymentMethod = update.defaultPaymentMethod;
      if (update.cancelAtPeriodEnd === true && !sub.cancelAtPeriodEnd) {
        Object.assign(sub, {
          cancelAtPeriodEnd: true,
          cancelAt: sub.periodEnd,
          canceledAt: this.store.now,
          cancellationReason: "cancellation_requested",
        } satisfies Partial<SubscriptionState>);
      } else if (update.cancelAtPeriodEnd === false) {
        Object.assign(sub, { cancelAtPeriodEnd: false, cancelAt: null, canceledAt: null, cancellationReason: null } satisfies Partial<SubscriptionState>);
      }
    });
  }

  /** Cancels now (DELETE): an unpaid invoice is voided. A canceled subscription is gone for this endpoint (Stripe's 404). */
  cancelSubscription(sub: SubscriptionState): void {
    if (sub.status === "canceled" || sub.status === "incomplete_expired") throw noSuch("subscription", sub.id);
    this.voidOpenInvoice(sub);
    this.end(sub, this.store.now);
  }

  /** The period ended: a new invoice for the next period, charged to the saved card (a decline makes it past_due). */
  renew(sub: SubscriptionState): void {
    const interval = this.store.prices.lookup(sub.price).interval;
    this.changing(sub, () => {
      sub.periodStart = sub.periodEnd;
      sub.periodEnd = addInterval(sub.created, sub.periodEnd, interval);
      const invoice = this.openInvoice(sub, "subscription_cycle");
      sub.latestInvoice = invoice.id;
      const method = sub.defaultPaymentMethod ?? this.store.customers.lookup(sub.customer).defaultPaymentMethod;
      if (this.pay(invoice, method, "renewal")) sub.status = "past_due";
    });
  }

  /** The first invoice went unpaid for 23 hours. */
  expire(sub: SubscriptionState): void {
    this.changing(sub, () => {
      this.voidOpenInvoice(sub);
      sub.status = "incomplete_expired";
      sub.endedAt = this.store.now;
    });
  }

  /** Canceled now, or at the period end it was scheduled for. */
  end(sub: SubscriptionState, at: number): void {
    Object.assign(sub, {
      status: "canceled",
      endedAt: at,
      canceledAt: sub.canceledAt ?? at,
      cancellationReason: sub.cancellationReason ?? "cancellation_requested",
    } satisfies Partial<SubscriptionState>);
    this.hooks.emit("customer.subscription.deleted", subscriptionJson(this.store, sub));
  }

  private openInvoice(sub: SubscriptionState, billingReason: InvoiceState["billingReason"]): InvoiceState {
    const { store } = this;
    const customer = store.customers.lookup(sub.customer);
    const price = store.prices.lookup(sub.price);
    customer.invoiceCount++;
    const invoice: InvoiceState = {
      id: newId("in"),
      number: `${customer.invoicePrefix}-${String(customer.invoiceCount).padStart(4, "0")}`,
      created: store.now,
      customer: customer.id,
      subscription: sub.id,
      billingReason,
      status: "open",
      price: price.id,
      quantity: sub.quantity,
      amount: price.unitAmount * sub.quantity,
      currency: price.currency,
      periodStart: sub.periodStart,
      periodEnd: sub.periodEnd,
      paymentIntent: newId("pi"),
      invoicePaymentId: newId("inpay"),
      lineId: newId("il"),
      attemptCount: 0,
      paidAt: null,
      voidedAt: null,
    };
    store.invoices.set(invoice.id, invoice);
    store.paymentIntents.set(invoice.paymentIntent, {
      id: invoice.paymentIntent,
      created: store.now,
      clientSecret: `${invoice.paymentIntent}_secret_${newId("x", 25).slice(2)}`,
      amount: invoice.amount,
      currency: invoice.currency,
      customer: customer.id,
      invoice: invoice.id,
      description: billingReason === "subscription_create" ? "Subscription creation" : "Subscription update",
      status: "requires_payment_method",
      paymentMethod: null,
      lastError: null,
      latestCharge: null,
      setupFutureUsage: sub.saveDefaultPaymentMethod === "on_subscription" ? "off_session" : null,
      canceledAt: null,
    });
    return invoice;
  }

  /**
   * Charges an open invoice to a card: paid (the card becomes the subscription's and the
   * customer's default, the subscription active) or declined (the decline is returned).
   */
  private pay(invoice: InvoiceState, methodId: string | null, charge: "first" | "renewal"): CardErrorSpec | undefined {
    const { store } = this;
    const intent = store.paymentIntents.lookup(invoice.paymentIntent);
    const method = methodId === null ? undefined : store.paymentMethods.lookup(methodId);
    const decline = method ? chargeDecline(method.card, charge) : { code: "payment_method_missing", message: "The customer has no default payment method." };
    invoice.attemptCount++;
    if (decline) {
      Object.assign(intent, {
        status: "requires_payment_method",
        paymentMethod: null,
        lastError: { ...decline, paymentMethod: method?.id ?? null },
      } satisfies Partial<PaymentIntentState>);
      this.hooks.emit("payment_intent.payment_failed", paymentIntentJson(store, intent));
      this.hooks.emit("invoice.payment_failed", invoiceJson(store, invoice));
      return decline;
    }
    const card = method as PaymentMethodState;
    Object.assign(intent, { status: "succeeded", paymentMethod: card.id, lastError: null, latestCharge: newId("ch") } satisfies Partial<PaymentIntentState>);
    Object.assign(invoice, { status: "paid", paidAt: store.now } satisfies Partial<InvoiceState>);
    card.customer ??= invoice.customer;
    const sub = store.subscriptions.lookup(invoice.subscription);
    sub.defaultPaymentMethod = card.id;
    const unpaid = [...store.invoices.values()].some((other) => other.subscription === sub.id && other.status === "open");
    if ((sub.status === "incomplete" || sub.status === "past_due") && !unpaid) sub.status = "active";
    this.hooks.emit("payment_intent.succeeded", paymentIntentJson(store, intent));
    this.hooks.emit("invoice.paid", invoiceJson(store, invoice));
    this.hooks.emit("invoice.payment_succeeded", invoiceJson(store, invoice));
    const customer = store.customers.lookup(invoice.customer);
    if (customer.defaultPaymentMethod === null) this.updateCustomer(customer, { defaultPaymentMethod: card.id });
    return undefined;
  }

  private voidOpenInvoice(sub: SubscriptionState): void {
    for (const invoice of this.store.invoices.values()) {
      if (invoice.subscription !== sub.id || invoice.status !== "open") continue;
      Object.assign(invoice, { status: "void", voidedAt: this.store.now } satisfies Partial<InvoiceState>);
      Object.assign(this.store.paymentIntents.lookup(invoice.paymentIntent), {
        status: "canceled",
        canceledAt: this.store.now,
      } satisfies Partial<PaymentIntentState>);
    }
  }

  /** Runs `work` on a subscription, then announces `customer.subscription.updated` with what changed. */
  private changing<T>(sub: SubscriptionState, work: () => T): T {
    const before = subscriptionJson(this.store, sub);
    const result = work();
    const after = subscriptionJson(this.store, sub);
    const previous = previousAttributes(before, after);
    if (previous) this.hooks.emit("customer.subscription.updated", after, previous);
    return result;
  }
}
