/**
 * Invoices as Stripe answers them since API 2025-03-31.basil: no `payment_intent` (nor `paid`,
 * `charge`); the subscription is under `parent.subscription_details`; `confirmation_secret`
 * (the PaymentIntent's client secret, for the Payment Element) and `payments` are includable,
 * only sent when expanded (expand.ts).
 */
import type Stripe from "stripe";
import { decimal, formatAmount, list } from "./render.ts";
import type { InvoiceState, Store } from "./store.ts";

export function invoiceJson(store: Store, invoice: InvoiceState): Stripe.Invoice {
  const customer = store.customers.lookup(invoice.customer);
  const sub = store.subscriptions.lookup(invoice.subscription);
  const paid = invoice.status === "paid";
  const remaining = invoice.status === "open" ? invoice.amount : 0;
  return {
    id: invoice.id,
    object: "invoice",
    account_country: "US",
    account_name: "AI Search Comparison (simulated)",
    account_tax_ids: null,
    amount_due: invoice.amount,
    amount_overpaid: 0,
    amount_paid: paid ? invoice.amount : 0,
    amount_remaining: remaining,
    amount_shipping: 0,
    application: null,
    attempt_count: invoice.attemptCount,
    attempted: invoice.attemptCount > 0,
    auto_advance: invoice.status === "open",
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: invoice.billingReason,
    collection_method: "charge_automatically",
    created: invoice.created,
    currency: invoice.currency,
    custom_fields: null,
    customer: invoice.customer,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: invoice.created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: list([invoiceLineJson(store, invoice)], `/v1/invoices/${invoice.id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: invoice.number,
    on_behalf_of: null,
    parent: { quote_details: null, subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id }, type: "subscription_details" },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: invoice.periodEnd,
    period_start: invoice.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: invoice.status,
    status_transitions: { finalized_at: invoice.created, marked_uncollectible_at: null, paid_at: invoice.paidAt, voided_at: invoice.voidedAt },
    subtotal: invoice.amount,
    subtotal_excluding_tax: invoice.amount,
    test_clock: null,
    total: invoice.amount,
    total_discount_amounts: [],
    total_excluding_tax: invoice.amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: invoice.created,
  };
}

function invoiceLineJson(store: Store, invoice: InvoiceState): Stripe.InvoiceLineItem {
  const price = store.prices.lookup(invoice.price);
  const sub = store.subscriptions.lookup(invoice.subscription);
  return {
    id: invoice.lineId,
    object: "line_item",
    amount: invoice.amount,
    currency: invoice.currency,
    description: `${invoice.quantity} × ${price.productName} (at ${formatAmount(price.unitAmount, price.currency)} / ${price.interval})`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: invoice.id,
    livemode: false,
    metadata: { ...sub.metadata },
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: sub.id,
        subscription_item: sub.itemId,
      },
      type: "subscription_item_details",
    },
    period: { end: invoice.periodEnd, start: invoice.periodStart },
    pretax_credit_amounts: [],
    pricing: { price_details: { price: price.id, product: price.productId }, type: "price_details", unit_amount_decimal: decimal(price.unitAmount) },
    quantity: invoice.quantity,
    quantity_decimal: decimal(invoice.quantity),
    subscription: sub.id,
    subtotal: invoice.amount,
    taxes: [],
  };
}

/** Includable `invoice.confirmation_secret`. */
export function confirmationSecretJson(store: Store, invoice: InvoiceState): Stripe.Invoice.ConfirmationSecret {
  return { client_secret: store.paymentIntents.lookup(invoice.paymentIntent).clientSecret, type: "payment_intent" };
}

/** Includable `invoice.payments`: the invoice's default payment, its PaymentIntent. */
export function invoicePaymentsJson(store: Store, invoice: InvoiceState): Stripe.ApiList<Stripe.InvoicePayment> {
  const intent = store.paymentIntents.lookup(invoice.paymentIntent);
  const status = intent.status === "succeeded" ? "paid" : intent.status === "canceled" ? "canceled" : "open";
  const payment: Stripe.InvoicePayment = {
    id: invoice.invoicePaymentId,
    object: "invoice_payment",
    amount_paid: status === "paid" ? invoice.amount : null,
    amount_requested: invoice.amount,
    created: invoice.created,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    livemode: false,
    payment: { payment_intent: intent.id, type: "payment_intent" },
    status,
    status_transitions: { canceled_at: intent.canceledAt, paid_at: invoice.paidAt },
  };
  return list([payment], `/v1/invoice_payments?invoice=${invoice.id}`);
}
