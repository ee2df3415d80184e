/** Checkout Sessions (hosted, subscription mode) and customer portal sessions as Stripe answers them. */
import type Stripe from "stripe";
import { list, priceJson } from "./render.ts";
import type { CheckoutSessionState, PortalSessionState, Store } from "./store.ts";

export function checkoutSessionJson(store: Store, session: CheckoutSessionState, origin: string): Stripe.Checkout.Session {
  const price = store.prices.lookup(session.price);
  const amount = price.unitAmount * session.quantity;
  const customer = session.customer ? store.customers.lookup(session.customer) : undefined;
  const complete = session.status === "complete";
  return {
    id: session.id,
    object: "checkout.session",
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: amount,
    amount_total: amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: session.cancelUrl,
    client_reference_id: session.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: session.created,
    currency: price.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: session.customer,
    customer_account: null,
    customer_creation: session.customer ? null : "always",
    customer_details:
      complete && customer
        ? {
            address: null,
            business_name: null,
            email: customer.email,
            individual_name: null,
            name: customer.name,
            phone: null,
            tax_exempt: "none",
            tax_ids: [],
          }
        : null,
    customer_email: session.customerEmail,
    discounts: [],
    expires_at: session.expiresAt,
    integration_identifier: null,
    invoice: session.invoice,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: { ...session.metadata },
    mode: "subscription",
    optional_items: null,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_status: session.paymentStatus,
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: session.status,
    submit_type: null,
    subscription: session.subscription,
    success_url: session.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted_page",
    url: session.status === "open" ? `${origin}/c/pay/${session.id}` : null,
    wallet_options: null,
  };
}

/** Includable `line_items` of a Checkout Session: its one recurring price. */
export function checkoutLineItemsJson(store: Store, session: CheckoutSessionState): Stripe.ApiList<Stripe.LineItem> {
  const price = store.prices.lookup(session.price);
  const amount = price.unitAmount * session.quantity;
  const item: Stripe.LineItem = {
    id: session.lineItemId,
    object: "item",
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description: price.productName,
    metadata: {},
    price: priceJson(price),
    quantity: session.quantity,
  };
  return list([item], `/v1/checkout/sessions/${session.id}/line_items`);
}

export function portalSessionJson(session: PortalSessionState, origin: string): Stripe.BillingPortal.Session {
  return {
    id: session.id,
    object: "billing_portal.session",
    configuration: session.configuration,
    created: session.created,
    customer: session.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: session.returnUrl,
    url: `${origin}/p/session/${session.id}`,
  };
}
