/*
 * Whether this page load may be the return from a payment that left the page (spec §4): the
 * checkout's session keys, and the cheap check the first page makes before it loads the code that
 * verifies (web/components/billing/return-verification.tsx), so that a first visit does not carry it (ADR 006).
 */

export const PENDING_CHECKOUT = "pendingCheckout";
export const COMPLETED_CHECKOUT = "subscriptionCompleted";

export function mayBeReturning(url: URL): boolean {
  return url.searchParams.get("checkout_success") === "true" || sessionStorage.getItem(COMPLETED_CHECKOUT) !== null;
}
