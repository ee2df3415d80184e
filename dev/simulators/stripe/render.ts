/**
 * Our records as the JSON Stripe answers, field for field as the installed SDK types them
 * (`Stripe.Customer`, `Stripe.Price`, …, API 2026-10-28.endive), so the compiler catches a
 * missing or misnamed field. Ids stay ids (expand.ts swaps in objects on request).
 * Subscriptions and invoices are in render-billing.ts, sessions in render-sessions.ts.
 */
import type Stripe from "stripe";
import type { CustomerState, PaymentMethodState, PriceState } from "./store.ts";

/** Stripe sends decimals as strings; the SDK's type is its parsed Decimal class. */
export const decimal = (value: number) => String(value) as unknown as Stripe.Decimal;

export const list = <T>(data: T[], url: string): Stripe.ApiList<T> => ({ object: "list", data, has_more: false, url });

export function customerJson(customer: CustomerState): Stripe.Customer {
  return {
    id: customer.id,
    object: "customer",
    address: null,
    balance: 0,
    created: customer.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: customer.description,
    discount: null,
    email: customer.email,
    invoice_prefix: customer.invoicePrefix,
    invoice_settings: { custom_fields: null, default_payment_method: customer.defaultPaymentMethod, footer: null, rendering_options: null },
    livemode: false,
    metadata: { ...customer.metadata },
    name: customer.name,
    next_invoice_sequence: customer.invoiceCount + 1,
    phone: customer.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

export function priceJson(price: PriceState): Stripe.Price {
  return {
    id: price.id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: price.productId,
    recurring: { interval: price.interval, interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: price.unitAmount,
    unit_amount_decimal: decimal(price.unitAmount),
  };
}

/** The legacy Plan that Stripe still sends beside each subscription item's price. */
export function planJson(price: PriceState): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: true,
    amount: price.unitAmount,
    amount_decimal: decimal(price.unitAmount),
    billing_scheme: "per_unit",
    created: price.created,
    currency: price.currency,
    interval: price.interval,
    interval_count: 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: null,
    product: price.productId,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

export function productJson(price: PriceState): Stripe.Product {
  return {
    id: price.productId,
    object: "product",
    active: true,
    created: price.created,
    default_price: price.id,
    description: null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: {},
    name: price.productName,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: "service",
    unit_label: null,
    updated: price.created,
    url: null,
  };
}

export function paymentMethodJson(method: PaymentMethodState): Stripe.PaymentMethod {
  const { card } = method;
  return {
    id: method.id,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: null,
      name: null,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
      country: "US",
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: card.fingerprint,
      funding: "credit",
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: "unregulated",
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: method.created,
    customer: method.customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

export function formatAmount(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);
}
