/**
 * The simulated clock: `advance` moves it forward and runs, in time order, what falls due on the
 * way: an incomplete subscription's first invoice unpaid for 23 hours, a period end (renewal, or
 * the end of a subscription scheduled to cancel), an open Checkout Session's 24 hours.
 */
import type { Billing } from "./billing.ts";
import { expireCheckoutSession } from "./checkout.ts";

export const INCOMPLETE_EXPIRES_AFTER_S = 23 * 60 * 60;

type Due = { at: number; run: () => void };

/** Moves the clock to now + seconds (whole seconds ≥ 0). */
export function advance(billing: Billing, seconds: number): void {
  const { store } = billing;
  const target = store.now + seconds;
  for (let due = nextDue(billing, target); due; due = nextDue(billing, target)) {
    store.now = Math.max(store.now, due.at);
    due.run();
  }
  store.now = Math.max(store.now, target);
}

function nextDue(billing: Billing, target: number): Due | undefined {
  let next: Due | undefined;
  const consider = (at: number, run: () => void) => {
    if (at <= target && (!next || at < next.at)) next = { at, run };
  };
  for (const sub of billing.store.subscriptions.values()) {
    if (sub.status === "incomplete") consider(sub.created + INCOMPLETE_EXPIRES_AFTER_S, () => billing.expire(sub));
    if (sub.status === "active" || sub.status === "past_due") {
      const ends = sub.cancelAtPeriodEnd || (sub.cancelAt !== null && sub.cancelAt <= sub.periodEnd);
      consider(sub.periodEnd, ends ? () => billing.end(sub, sub.periodEnd) : () => billing.renew(sub));
    }
  }
  for (const session of billing.store.checkoutSessions.values()) {
    if (session.status === "open") consider(session.expiresAt, () => expireCheckoutSession(billing, session));
  }
  return next;
}
