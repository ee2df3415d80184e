import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { subscriptions } from "#db/schema.ts";
import { DAILY_LIMIT_MESSAGE, FREE_DAILY_SEARCHES, PRO_REQUIRED, remainingSearches, utcDay } from "#src/contract/quota.ts";
import { FREE_ITERATIONS, PRO_ITERATION_CHOICES } from "#src/contract/search.ts";
import { HttpError } from "#src/server/http-error.ts";
import type { Owner } from "#src/server/services/auth/identity.ts";
import { ipHashKey, subjectsOf } from "./subjects.ts";
import { createUsageCounters } from "./usage.ts";

/** Who is searching: the owner (user or anonymous id) and the client address (src/server/forwarded.ts). */
export type Caller = { owner: Owner; ip: string };

/** The caller's standing today: Pro has no count. */
export type Quota = { isPro: true } | { isPro: false; day: string; used: number; remaining: number };

/** Spec §6: Pro is a subscription Stripe calls active or trialing. */
export const PRO_STATUSES = ["active", "trialing"];

/** A refusal that still tells the caller where they stand (403 Pro-only, 429 limit reached). */
export class QuotaRefusal extends HttpError {
  override name = "QuotaRefusal";
  constructor(
    status: number,
    message: string,
    readonly quota: Quota,
  ) {
    super(status, message, quota.isPro ? {} : { remainingSearches: quota.remaining });
  }
}

/** A search taken from the caller's allowance, to give back if the search produced nothing. */
export type Admission = { quota: Quota; refund(): Promise<Quota> };

export type QuotaDeps = { db: Db; secret: string; clock?: () => Date };

/**
 * Tiers and the free daily quota, enforced here whatever the client shows: the count lives in
 * `daily_usage` (shared by every app instance) and is taken before a search runs.
 */
export function createQuotaService({ db, secret, clock = () => new Date() }: QuotaDeps) {
  const counters = createUsageCounters(db);
  const ipKey = ipHashKey(secret);

  async function isPro(userId: string | undefined): Promise<boolean> {
    if (!userId) return false;
    const [row] = await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, PRO_STATUSES)))
      .limit(1);
    return row !== undefined;
  }

  async function standing(caller: Caller, day = utcDay(clock())): Promise<Quota> {
    if (await isPro(caller.owner.userId)) return { isPro: true };
    const used = Math.min(FREE_DAILY_SEARCHES, await counters.used(subjectsOf(caller.owner, caller.ip, day, ipKey), day));
    return { isPro: false, day, used, remaining: remainingSearches(used) };
  }

  return {
    isPro,
    standing,

    /**
     * Checks what the tier allows (spec §5–§6: free = 1 iteration, Pro = 1, 5, 10, 25, 50 or 100)
     * and, for a free caller, takes one search from today's allowance. Throws QuotaRefusal (403,
     * 429) or HttpError (400). The day is fixed here, so a refund after midnight goes back to the
     * day that was charged.
     */
    async admit(caller: Caller, { iterations }: { iterations: number }): Promise<Admission> {
      const day = utcDay(clock());
      if (await isPro(caller.owner.userId)) {
        if (!(PRO_ITERATION_CHOICES as readonly number[]).includes(iterations)) {
          throw new HttpError(400, `Iterations must be one of ${PRO_ITERATION_CHOICES.slice(0, -1).join(", ")} or ${PRO_ITERATION_CHOICES.at(-1)}`);
        }
        const pro: Quota = { isPro: true };
        return { quota: pro, refund: async () => pro };
      }
      if (iterations > FREE_ITERATIONS) throw new QuotaRefusal(403, PRO_REQUIRED, await standing(caller, day));
      const subjects = subjectsOf(caller.owner, caller.ip, day, ipKey);
      const used = await counters.reserve(subjects, day, FREE_DAILY_SEARCHES);
      if (used === null) throw new QuotaRefusal(429, DAILY_LIMIT_MESSAGE, { isPro: false, day, used: FREE_DAILY_SEARCHES, remaining: 0 });
      let refunded = false;
      return {
        quota: { isPro: false, day, used, remaining: remainingSearches(used) },
        async refund() {
          if (!refunded) await counters.release(subjects, day);
          refunded = true;
          return standing(caller);
        },
      };
    },

    /** When an anonymous visitor signs in, today's anonymous count moves to the account. */
    async adopt(anonymousId: string, userId: string): Promise<void> {
      const day = utcDay(clock());
      await counters.transfer({ kind: "anon", key: anonymousId }, { kind: "user", key: userId }, day, FREE_DAILY_SEARCHES);
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
