/**
 * The one way a date is written for people — the web's pages and toasts, and the server's
 * messages they show. Deterministic (no Intl, no locale, UTC unless told otherwise) so that the
 * server-rendered HTML and the hydrating browser always produce the same text.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

export type DateInput = string | number | Date | null | undefined;

/**
 * Spec §8: 'Not available' when there is no value, 'Date information unavailable' when it does
 * not parse. Otherwise "Nov 21, 2026, 14:03 UTC", "Nov 21, 2026" with `{ time: false }` (or
 * without the zone suffix, in the browser's own time zone, with `{ timeZone: "local" }` — only
 * safe after hydration).
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
