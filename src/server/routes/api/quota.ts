import { Elysia, type Context } from "elysia";
import { QUOTA_COOKIE, QUOTA_COOKIE_MAX_AGE_S, REMAINING_HEADER, utcDay, FREE_DAILY_SEARCHES, type QuotaStatus } from "#src/contract/quota.ts";
import { clientIp, isHttps } from "#src/server/forwarded.ts";
import type { identity, Owner } from "#src/server/services/auth/identity.ts";
import { QuotaRefusal, type Admission, type Caller, type Quota, type QuotaService } from "#src/server/services/quota/index.ts";

/** The parts of a request's context the quota needs (the identity plugin adds `owner`). */
type QuotaContext = Pick<Context, "request" | "server" | "set" | "cookie"> & { owner: Owner };

/** GET /api/quota, for the quota alert before any search has been made in this browser. */
export function quotaRoutes(meter: Meter, who: ReturnType<typeof identity>) {
  return new Elysia().use(who).get(
    "/api/quota",
    async (context): Promise<QuotaStatus> => {
      const quota = await meter.standing(context);
      return quota.isPro
        ? { isPro: true, day: utcDay(), used: null, limit: null, remaining: null }
        : { isPro: false, day: quota.day, used: quota.used, limit: FREE_DAILY_SEARCHES, remaining: quota.remaining };
    },
    {
      detail: {
        tags: ["quota"],
        summary: "The caller's free searches today",
        description:
          `Free callers get ${FREE_DAILY_SEARCHES} searches per UTC day, counted by account, or for anonymous visitors by anonymous id and network. ` +
          "Also refreshes the `daily_searches` cookie and the `X-Searches-Remaining` header. `used`, `limit` and `remaining` are null for Pro.",
      },
    },
  );
}

/**
 * The quota as the search routes meet it: admission and refund, each reported to the caller in
 * the X-Searches-Remaining header and the spec §9 cookie, so the display follows the server.
 */
export function createMeter(quota: QuotaService, { trustProxy }: { trustProxy: number }) {
  const callerOf = ({ owner, request, server }: QuotaContext): Caller => ({ owner, ip: clientIp({ request, server }, trustProxy) });

  function report({ set, cookie, request }: QuotaContext, standing: Quota): void {
    if (standing.isPro) return;
    set.headers[REMAINING_HEADER.toLowerCase()] = String(standing.remaining);
    // Readable by scripts on purpose: it is the client's display of the count (spec §7, §9).
    cookie[QUOTA_COOKIE]?.set({
      value: { date: standing.day, count: standing.used },
      httpOnly: false,
      sameSite: "lax",
      secure: isHttps(request, trustProxy),
      path: "/",
      maxAge: QUOTA_COOKIE_MAX_AGE_S,
    });
  }

  return {
    async standing(context: QuotaContext): Promise<Quota> {
      const standing = await quota.standing(callerOf(context));
      report(context, standing);
      return standing;
    },

    /** Throws QuotaRefusal (403, 429) or HttpError (400) with the standing already reported. */
    async admit(context: QuotaContext, iterations: number): Promise<Admission> {
      try {
        const admission = await quota.admit(callerOf(context), { iterations });
        report(context, admission.quota);
        return admission;
      } catch (error) {
        if (error instanceof QuotaRefusal) report(context, error.quota);
        throw error;
      }
    },

    /** Gives the search back; reports the new standing when the response has not started yet. */
    async refund(context: QuotaContext, admission: Admission): Promise<Quota> {
      const standing = await admission.refund();
      report(context, standing);
      return standing;
    },
  };
}

export type Meter = ReturnType<typeof createMeter>;

/** `remainingSearches` for a response body: absent for Pro. */
export function remainingOf(quota: Quota): { remainingSearches?: number } {
  return quota.isPro ? {} : { remainingSearches: quota.remaining };
}
