/**
 * What the upgrade flow carries between pages (spec §4): the payment the checkout page is to
 * confirm, and, while Stripe may send the browser away and back, that a payment was made and
 * which id to verify. Session storage: per tab, gone when it closes.
 */
import { COMPLETED_CHECKOUT, PENDING_CHECKOUT } from "./checkout-return.ts";

export type PendingCheckout = { clientSecret: string; subscriptionId: string };

export function rememberCheckout(checkout: PendingCheckout): void {
  sessionStorage.setItem(PENDING_CHECKOUT, JSON.stringify(checkout));
}

export function pendingCheckout(): PendingCheckout | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(PENDING_CHECKOUT) ?? "null");
    if (
      value &&
      typeof value === "object" &&
      "clientSecret" in value &&
      "subscriptionId" in value &&
      typeof value.clientSecret === "string" &&
      typeof value.subscriptionId === "string"
    ) {
      return { clientSecret: value.clientSecret, subscriptionId: value.subscriptionId };
    }
  } catch {
    // unreadable: none
  }
  return null;
}

/** Just before the payment is confirmed: if Stripe redirects, the return knows what to verify. */
export function rememberCompleted(sessionId: string): void {
  sessionStorage.setItem(COMPLETED_CHECKOUT, sessionId);
}

/**
 * The id to verify after a return from payment (spec §4 return verification): `checkout_success=true`
 * or the stored flag, with a session id from the address (a Checkout Session, a subscription, or
 * the PaymentIntent Stripe.js appends) or from storage. Null when there is nothing to verify.
 */
export function verificationPending(url: URL): string | null {
  const fromUrl = url.searchParams.get("session_id") ?? url.searchParams.get("subscription_id") ?? url.searchParams.get("payment_intent");
  const stored = sessionStorage.getItem(COMPLETED_CHECKOUT);
  if (url.searchParams.get("checkout_success") !== "true" && !stored) return null;
  return fromUrl ?? stored;
}

/** A verification was made, or a payment failed in the page: nothing to verify on the next visit. */
export function forgetCompleted(): void {
  sessionStorage.removeItem(COMPLETED_CHECKOUT);
}

/** The upgrade is done (or abandoned for good): nothing left to confirm or verify. */
export function clearCheckout(): void {
  sessionStorage.removeItem(PENDING_CHECKOUT);
  sessionStorage.removeItem(COMPLETED_CHECKOUT);
}
