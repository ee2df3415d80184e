import { hostOf } from "#src/core/urls.ts";

/**
 * Display formatting shared by the results view and the billing pages (dates are
 * src/core/dates.ts, source names src/core/urls.ts's sourceLabel). Deterministic: money is
 * written in the product's one locale, so the server-rendered HTML and the hydrating browser
 * always produce the same text.
 */

/** Spec §2: the search time in seconds with one decimal, e.g. 12345 → "12.3s". */
export function formatSeconds(ms: number): string {
  const seconds = Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
  return `${seconds.toFixed(1)}s`;
}

/** The URL to link to, or null when it must be shown as text (not http(s), unparsable). */
export function safeHref(url: string): string | null {
  return hostOf(url) === null ? null : url.trim();
}

/** "80%" or "83.3%": percentages arrive rounded to one decimal. */
export function formatPercent(value: number): string {
  if (!Number.isFinite(value)) return "0%";
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)}%`;
}

/** The product's locale: its every text is US English. */
const LOCALE = "en-US";

// Stripe's zero-decimal currencies: their amounts are already whole units.
const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);

/**
 * Every price the web shows (spec §2 subscription: the amount, the currency upper-cased and a
 * slash interval): Stripe's amount in the currency's smallest unit, written as the locale writes
 * money, then its currency code — "$19.00 USD/month", "€9.50 EUR/year", "¥1,900 JPY/month" (a
 * "$" alone does not say which dollar). A currency code Intl does not know is written once
 * ("19.00 XYZ/month").
 */
export function formatPrice(amount: number | null, currency: string | null, interval?: string | null): string {
  if (amount === null || !currency) return "Not available";
  const units = ZERO_DECIMAL.has(currency.toLowerCase()) ? amount : amount / 100;
  return `${money(units, currency.toUpperCase())}${interval ? `/${interval}` : ""}`;
}

/** "$19.00 USD"; "19.00 XYZ" for a code Intl does not know. */
function money(units: number, currency: string): string {
  try {
    return `${new Intl.NumberFormat(LOCALE, { style: "currency", currency }).format(units)} ${currency}`;
  } catch {
    return `${ZERO_DECIMAL.has(currency.toLowerCase()) ? String(units) : units.toFixed(2)} ${currency}`;
  }
}
