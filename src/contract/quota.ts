import * as v from "valibot";

import { FREE_DAILY_SEARCHES } from "./constants.ts";

export { DAILY_LIMIT_MESSAGE, FREE_DAILY_SEARCHES, PRO_REQUIRED } from "./constants.ts";

/** Every /api/search answer to a free caller carries the searches left today in this header. */
export const REMAINING_HEADER = "X-Searches-Remaining";

/**
 * Spec §9 cookie: `{ date: "YYYY-MM-DD" (UTC day), count: searches used that day }` as URL-encoded
 * JSON, Max-Age 2 days, path /, readable by scripts. The server writes it in step with its own
 * count; it is only a display (clearing or editing it changes nothing on the server).
 */
export const QUOTA_COOKIE = "daily_searches";
export const QUOTA_COOKIE_MAX_AGE_S = 172_800;

export const QuotaCookie = v.object({
  date: v.pipe(v.string(), v.isoDate()),
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type QuotaCookie = v.InferOutput<typeof QuotaCookie>;

/** GET /api/quota: the caller's standing today (UTC). `used`, `limit` and `remaining` are null for Pro. */
export const QuotaStatus = v.object({
  isPro: v.boolean(),
  day: v.string(),
  used: v.nullable(v.number()),
  limit: v.nullable(v.number()),
  remaining: v.nullable(v.number()),
});
export type QuotaStatus = v.InferOutput<typeof QuotaStatus>;

/** The UTC day a search counts toward, as the server and the cookie write it. */
export function utcDay(at: Date = new Date()): string {
  return at.toISOString().slice(0, 10);
}

export function remainingSearches(used: number): number {
  return Math.max(0, FREE_DAILY_SEARCHES - used);
}

/**
 * Searches used today according to the cookie, from a `document.cookie` string (or a Cookie
 * header). A missing, malformed or stale (other day) cookie counts as none used (spec §9 reset).
 */
export function readQuotaCookie(cookieString: string, today: string = utcDay()): QuotaCookie {
  const fresh = { date: today, count: 0 };
  for (const part of cookieString.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== QUOTA_COOKIE) continue;
    try {
      const parsed = v.safeParse(QuotaCookie, JSON.parse(decodeURIComponent(part.slice(eq + 1).trim())));
      return parsed.success && parsed.output.date === today ? parsed.output : fresh;
    } catch {
      return fresh;
    }
  }
  return fresh;
}
