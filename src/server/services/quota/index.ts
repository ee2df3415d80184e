import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users, type UsageCharge } from "#db/schema.ts";
import { DAILY_LIMIT_MESSAGE, FREE_DAILY_SEARCHES, PRO_REQUIRED, utcDay } from "#src/contract/quota.ts";
import { FREE_ITERATIONS, PRO_ITERATION_CHOICES } from "#src/contract/constants.ts";
import { proOnlyOption, type SearchOptions } from "#src/contract/search-request.ts";
import type { Billing } from "../billing/index.ts";
import { DomainError } from "../errors.ts";
import type { DomainEvents } from "../events.ts";
import type { Caller, Standing } from "../owner.ts";
import { defaultFreeTierPolicy, ipHashKey, NEWCOMER_MS, subjectsOf, type FreeTierPolicy, type Subject } from "./subjects.ts";
import { createUsageCounters } from "./usage.ts";

/**
 * A search taken from the caller's allowance, to give back if the search produced nothing.
 * `charge` names the counters taken (null for Pro), kept with the running search so the sweep can
 * give it back if the instance running it dies; the address in it is already a keyed hash.
 */
export type Admission = { quota: Standing; charge: UsageCharge | null; refund(): Promise<Standing> };

export type QuotaDeps = { db: Db; secret: string; billing: Billing; policy?: FreeTierPolicy; clock?: () => Date };

/**
 * Tiers and the free daily quota, enforced here whatever the client shows: the counts live in
 * `daily_usage` (shared by every app instance) and are taken before a search runs. A free search
 * counts against the caller (5 a day) and against a pool of the network it comes from (ADR 015).
 */
export function createQuotaService({ db, secret, billing, policy = defaultFreeTierPolicy, clock = () => new Date() }: QuotaDeps) {
  const counters = createUsageCounters(db);
  const ipKey = ipHashKey(secret);

  /** An account younger than a day shares its network's pool with anonymous visitors. */
  async function isNewcomer(userId: string | undefined): Promise<boolean> {
    if (!userId) return true;
    const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId)).limit(1);
    return !user || clock().getTime() - user.createdAt.getTime() < NEWCOMER_MS;
  }

  async function subjects(caller: Caller, day: string): Promise<Subject[]> {
    return subjectsOf({ ...caller, newcomer: await isNewcomer(caller.owner.userId) }, day, ipKey, policy);
  }

  /** The free standing the counts leave: the tightest of the caller's own 5 and the network's pool. */
  function freeStanding(day: string, list: Subject[], counts: number[]): Standing {
    const remaining = Math.max(0, Math.min(FREE_DAILY_SEARCHES, ...list.map((s, i) => s.limit - (counts[i] ?? 0))));
    return { isPro: false, day, used: FREE_DAILY_SEARCHES - remaining, remaining };
  }

  async function standing(caller: Caller, day = utcDay(clock())): Promise<Standing> {
    if (await billing.isPro(caller.owner.userId)) return { isPro: true, day };
    const list = await subjects(caller, day);
    return freeStanding(day, list, await counters.counts(list, day));
  }

  return {
    standing,

    /**
     * Checks what the tier allows (spec §5–§6: free = 1 iteration, Pro = 1, 5, 10, 25, 50 or 100;
     * the costliest provider options are Pro too) and, for a free caller, takes one search from
     * today's allowance. Throws DomainError (INVALID_INPUT, PRO_REQUIRED, DAILY_LIMIT_REACHED)
     * carrying the standing. The day is fixed here, so a refund after midnight goes back to the
     * day that was charged.
     */
    async admit(caller: Caller, { iterations, options }: { iterations: number; options: SearchOptions }): Promise<Admission> {
      const day = utcDay(clock());
      if (await billing.isPro(caller.owner.userId)) {
        const pro: Standing = { isPro: true, day };
        if (!(PRO_ITERATION_CHOICES as readonly number[]).includes(iterations)) {
          throw new DomainError(
            "INVALID_INPUT",
            `Iterations must be one of ${PRO_ITERATION_CHOICES.slice(0, -1).join(", ")} or ${PRO_ITERATION_CHOICES.at(-1)}`,
            { quota: pro },
          );
        }
        return { quota: pro, charge: null, refund: async () => pro };
      }
      if (iterations > FREE_ITERATIONS) throw new DomainError("PRO_REQUIRED", PRO_REQUIRED, { quota: await standing(caller, day) });
      const proOption = proOnlyOption(options);
      if (proOption) throw new DomainError("PRO_REQUIRED", `${PRO_REQUIRED} for ${proOption}`, { quota: await standing(caller, day) });
      const list = await subjects(caller, day);
      const counts = await counters.reserve(list, day);
      if (counts === null)
        throw new DomainError("DAILY_LIMIT_REACHED", DAILY_LIMIT_MESSAGE, { quota: { isPro: false, day, used: FREE_DAILY_SEARCHES, remaining: 0 } });
      let refunded = false;
      return {
        quota: freeStanding(day, list, counts),
        charge: { day, subjects: list.map(({ kind, key }) => ({ kind, key })) },
        async refund() {
          if (!refunded) await counters.release(list, day);
          refunded = true;
          return standing(caller);
        },
      };
    },

    /** Subscribes to sign-in: today's anonymous count moves to the account. */
    async adopt({ anonymousId, userId }: DomainEvents["signedIn"]): Promise<void> {
      const day = utcDay(clock());
      await counters.transfer({ kind: "anon", key: anonymousId }, { kind: "user", key: userId, limit: FREE_DAILY_SEARCHES }, day);
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
