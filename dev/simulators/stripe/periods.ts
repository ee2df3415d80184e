/** Billing periods: whole months or years from the subscription's start, keeping its day of the month. */
import type { Interval } from "./store.ts";

/**
 * The period end after `from`: the anchor plus whole intervals (a subscription started on
 * Jan 31 renews on Feb 28, then Mar 31, as Stripe keeps the anchor day).
 */
export function addInterval(anchor: number, from: number, interval: Interval): number {
  for (let n = 1; ; n++) {
    const next = shift(anchor, interval === "month" ? n : 12 * n);
    if (next > from) return next;
  }
}

function shift(unix: number, months: number): number {
  const date = new Date(unix * 1000);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return Math.floor(date.getTime() / 1000);
}
