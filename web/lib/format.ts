import { hostOf, isGroundingRedirect } from "#src/core/urls.ts";

/**
 * Display formatting shared by the results view and the history lists. Everything here is
 * deterministic (no Intl, no locale, UTC unless told otherwise) so that the server-rendered
 * HTML and the hydrating browser always produce the same text.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

/** Spec §2: the search time in seconds with one decimal, e.g. 12345 → "12.3s". */
export function formatSeconds(ms: number): string {
  const seconds = Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
  return `${seconds.toFixed(1)}s`;
}

export type DateInput = string | number | Date | null | undefined;

/**
 * Spec §8: 'Not available' when there is no value, 'Date information unavailable' when it does
 * not parse. Otherwise "Nov 21, 2026, 14:03 UTC" (or without the zone suffix, in the browser's
 * own time zone, with `{ timeZone: "local" }` — only safe after hydration).
 */
export function formatDate(value: DateInput, options: { timeZone?: "UTC" | "local"; time?: boolean } = {}): string {
  if (value === null || value === undefined || (typeof value === "string" && value.trim() === "")) return "Not available";
  const date = toDate(value);
  if (!date) return "Date information unavailable";
  const local = options.timeZone === "local";
  const year = local ? date.getFullYear() : date.getUTCFullYear();
  const month = local ? date.getMonth() : date.getUTCMonth();
  const day = local ? date.getDate() : date.getUTCDate();
  const text = `${MONTHS[month]} ${day}, ${year}`;
  if (options.time === false) return text;
  const hours = local ? date.getHours() : date.getUTCHours();
  const minutes = local ? date.getMinutes() : date.getUTCMinutes();
  return `${text}, ${pad2(hours)}:${pad2(minutes)}${local ? "" : " UTC"}`;
}

/**
 * For history lists: "just now", "5 minutes ago", "2 hours ago", "yesterday", "3 days ago",
 * then the date ("Nov 21, 2026"). 'Unknown date' when empty or invalid (spec §2 profile). A
 * time slightly in the future (clock skew) counts as "just now".
 */
export function relativeTime(date: DateInput, now: DateInput = new Date()): string {
  const then = date === null || date === undefined || date === "" ? null : toDate(date);
  const reference = toDate(now ?? new Date());
  if (!then || !reference) return "Unknown date";
  const seconds = Math.floor((reference.getTime() - then.getTime()) / 1000);
  if (seconds < 45) return "just now";
  const minutes = Math.max(1, Math.floor(seconds / 60));
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, "hour");
  const days = Math.floor(hours / 24);
  if (days === 1) return "yesterday";
  if (days < 30) return plural(days, "day");
  return formatDate(then, { time: false });
}

/**
 * What a source is shown as (spec §2): its host name without "www."; the title for a Gemini
 * redirect we could not resolve (its host would only say "vertexaisearch.cloud.google.com");
 * the raw text for anything that is not a valid http(s) URL.
 */
export function sourceLabel(source: { url: string; title?: string | undefined }): string {
  const title = source.title?.trim();
  if (isGroundingRedirect(source.url) && title) return title;
  return hostOf(source.url) ?? source.url.trim();
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

/** A URL without its scheme, for compact lists: "https://www.a.com/x" → "www.a.com/x". */
export function compactUrl(url: string): string {
  return url.trim().replace(/^https?:\/\//i, "");
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"} ago`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

// Stripe's zero-decimal currencies: their amounts are already whole units.
const ZERO_DECIMAL = new Set(["bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga", "pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"]);

/** Spec §2 subscription price: the amount, the currency upper-cased, a slash and the interval ("19.00 USD/month"). */
export function formatPrice(amount: number | null, currency: string | null, interval?: string | null): string {
  if (amount === null || !currency) return "Not available";
  const value = ZERO_DECIMAL.has(currency.toLowerCase()) ? String(amount) : (amount / 100).toFixed(2);
  return `${value} ${currency.toUpperCase()}${interval ? `/${interval}` : ""}`;
}
