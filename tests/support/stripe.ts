import Stripe from "stripe";
import type { StripeSimulator } from "#dev/simulators/stripe.ts";

/** The official SDK pointed at the simulator, without retries. */
export function stripeFor(sim: StripeSimulator, key = sim.secretKey): Stripe {
  const base = new URL(sim.apiBase);
  return new Stripe(key, { host: base.hostname, port: Number(base.port), protocol: "http", maxNetworkRetries: 0 });
}

export const CARDS = {
  visa: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
  failsRenewals: "4000000000000341",
  badNumber: "4242424242424241",
} as const;

/** A PaymentIntent, or Stripe's error body. */
export type ConfirmAnswer = Partial<Stripe.PaymentIntent> & {
  error?: { type: string; code?: string; decline_code?: string; message: string; param?: string; payment_intent?: Stripe.PaymentIntent };
};

export type CardFields = { number: string; expMonth?: string; expYear?: string; cvc?: string };

/** POST /v1/payment_intents/:id/confirm with the publishable key and the client secret, as Stripe.js does. */
export async function confirmWithCard(
  sim: StripeSimulator,
  clientSecret: string,
  card: CardFields,
  key = sim.publishableKey,
): Promise<{ status: number; body: ConfirmAnswer }> {
  const body = new URLSearchParams({
    client_secret: clientSecret,
    "payment_method_data[type]": "card",
    "payment_method_data[card][number]": card.number,
    "payment_method_data[card][exp_month]": card.expMonth ?? "12",
    "payment_method_data[card][exp_year]": card.expYear ?? "34",
  });
  if (card.cvc !== "") body.set("payment_method_data[card][cvc]", card.cvc ?? "123");
  const response = await fetch(`${sim.apiBase}/v1/payment_intents/${clientSecret.split("_secret_")[0]}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  return { status: response.status, body: (await response.json()) as ConfirmAnswer };
}

/** A customer and an incomplete subscription made as the Payment Element flow makes them; its confirmation secret. */
export async function incompleteSubscription(
  stripe: Stripe,
  sim: StripeSimulator,
  email = "pro@example.com",
): Promise<{ subscription: Stripe.Subscription; invoice: Stripe.Invoice; clientSecret: string }> {
  const customer = await stripe.customers.create({ email, metadata: { userId: "u1" } });
  const subscription = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: sim.priceId }],
    payment_behavior: "default_incomplete",
    payment_settings: { save_default_payment_method: "on_subscription" },
    metadata: { userId: "u1" },
    expand: ["latest_invoice.confirmation_secret"],
  });
  const invoice = subscription.latest_invoice as Stripe.Invoice;
  const clientSecret = invoice.confirmation_secret?.client_secret;
  if (!clientSecret) throw new Error("no confirmation secret");
  return { subscription, invoice, clientSecret };
}
