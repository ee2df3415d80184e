/**
 * Subscriptions and PaymentIntents as Stripe answers them (API 2026-10-28.endive): the billing
 * period lives on the subscription item, not on the subscription. Invoices: render-invoice.ts.
 */
import type Stripe from "stripe";
import { docUrl } from "./errors.ts";
import { list, paymentMethodJson, planJson, priceJson } from "./render.ts";
import type { PaymentIntentState, PriceState, Store, SubscriptionState } from "./store.ts";

export function subscriptionJson(store: Store, sub: SubscriptionState): Stripe.Subscription {
  const price = store.prices.lookup(sub.price);
  return {
    id: sub.id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: sub.created,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: "classic" },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: sub.cancelAt,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    canceled_at: sub.canceledAt,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: sub.cancellationReason },
    collection_method: "charge_automatically",
    created: sub.created,
    currency: price.currency,
    customer: sub.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: sub.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: sub.description,
    discounts: [],
    ended_at: sub.endedAt,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: "self" } },
    items: list([subscriptionItemJson(sub, price)], `/v1/subscription_items?subscription=${sub.id}`),
    latest_invoice: sub.latestInvoice,
    livemode: false,
    managed_payments: null,
    metadata: { ...sub.metadata },
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: sub.saveDefaultPaymentMethod },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: sub.created,
    status: sub.status,
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}

/** The subscription's one item: its price, and (since basil) its billing period. */
function subscriptionItemJson(sub: SubscriptionState, price: PriceState): Stripe.SubscriptionItem {
  return {
    id: sub.itemId,
    object: "subscription_item",
    billing_thresholds: null,
    created: sub.created,
    current_period_end: sub.periodEnd,
    current_period_start: sub.periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planJson(price),
    price: priceJson(price),
    quantity: sub.quantity,
    subscription: sub.id,
    tax_rates: [],
  };
}

export function paymentIntentJson(store: Store, intent: PaymentIntentState): Stripe.PaymentIntent {
  const error = intent.lastError;
  return {
    id: intent.id,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: intent.amount,
    amount_capturable: 0,
    amount_received: intent.status === "succeeded" ? intent.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: intent.canceledAt,
    cancellation_reason: intent.canceledAt === null ? null : "automatic",
    capture_method: "automatic",
    client_secret: intent.clientSecret,
    confirmation_method: "automatic",
    created: intent.created,
    currency: intent.currency,
    customer: intent.customer,
    customer_account: null,
    description: intent.description,
    excluded_payment_method_types: null,
    last_payment_error: error && {
      type: "card_error",
      code: error.code,
      ...(error.decline_code ? { decline_code: error.decline_code } : {}),
      doc_url: docUrl(error.code),
      message: error.message,
      ...(error.param ? { param: error.param } : {}),
      ...(error.paymentMethod ? { payment_method: paymentMethodJson(store.paymentMethods.lookup(error.paymentMethod)) } : {}),
    },
    latest_charge: intent.latestCharge,
    livemode: false,
    managed_payments: null,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: intent.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: intent.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: intent.status,
    transfer_group: null,
  };
}
