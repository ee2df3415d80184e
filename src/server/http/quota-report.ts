import type { Context } from "elysia";
import { QUOTA_COOKIE, QUOTA_COOKIE_MAX_AGE_S, REMAINING_HEADER } from "#src/contract/quota.ts";
import type { Standing } from "#src/server/services/owner.ts";
import { isHttps } from "./forwarded.ts";

type ReportContext = Pick<Context, "set" | "cookie" | "request">;

/**
 * Tells a free caller where they stand, on every answer that changes or reads their count: the
 * X-Searches-Remaining header and the spec §9 display cookie, so the page follows the server.
 */
export function reportQuota({ set, cookie, request }: ReportContext, quota: Standing, trustProxy: number): void {
  if (quota.isPro) return;
  set.headers[REMAINING_HEADER.toLowerCase()] = String(quota.remaining);
  // Readable by scripts on purpose: it is the client's display of the count (spec §7, §9).
  cookie[QUOTA_COOKIE]?.set({
    value: { date: quota.day, count: quota.used },
    httpOnly: false,
    sameSite: "lax",
    secure: isHttps(request, trustProxy),
    path: "/",
    maxAge: QUOTA_COOKIE_MAX_AGE_S,
  });
}

/** `remainingSearches` for a response body or event: absent for Pro. */
export function remainingOf(quota: Standing): { remainingSearches?: number } {
  return quota.isPro ? {} : { remainingSearches: quota.remaining };
}
