import { and, eq, gte, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { spend } from "#db/schema.ts";
import type { SpendSummary } from "#src/contract/spend.ts";
import { formatUsd } from "#src/core/cost.ts";
import { DomainError } from "../errors.ts";

/** The daily spend limits, in USD (ACCOUNT_DAILY_SPEND_USD, DAILY_SPEND_USD). */
export type SpendLimits = { account: number; deployment: number };

/** A running search's allowance: calls start only while it lasts; each answer's cost is recorded as it lands. */
export type SpendBudget = {
  /** Why no further call may start (a limit reached), or null while the budget lasts. */
  exhausted(): string | null;
  /** Records an answer's cost (USD; null = unknown, recorded as nothing) and checks the limits again. */
  spend(usd: number | null): Promise<void>;
};

/**
 * What provider calls cost, recorded as each answer lands (ADR 041): a search whose estimate would
 * take the account's or the deployment's spend today (UTC) past its limit is refused before any
 * call, and a running one starts no call once a limit is reached.
 */
export function createSpend({ db, limits, clock = () => new Date() }: { db: Db; limits: SpendLimits; clock?: () => Date }) {
  /** Spent since `from`: by the account, and by the deployment. */
  async function spentSince(from: Date, userId: string | undefined): Promise<{ account: number; deployment: number }> {
    const [row] = await db
      .select({
        deployment: sql<number>`coalesce(sum(${spend.usd}), 0)`,
        account: userId ? sql<number>`coalesce(sum(${spend.usd}) filter (where ${spend.userId} = ${userId}), 0)` : sql<number>`0`,
      })
      .from(spend)
      .where(gte(spend.at, from));
    return { account: Number(row?.account ?? 0), deployment: Number(row?.deployment ?? 0) };
  }

  /**
   * The words of a refusal or a stop, or null: which limit `spent + adding` goes past (a search
   * about to start), or, adding nothing, meets (a running one: its next answer would go past it).
   */
  function limitReached(userId: string | undefined, spent: { account: number; deployment: number }, adding: number): string | null {
    const past = (total: number, limit: number) => (adding > 0 ? total + adding > limit : total >= limit);
    if (userId && past(spent.account, limits.account))
      return `Your searches have spent ${formatUsd(spent.account)} of today's $${limits.account.toFixed(2)} limit per account (ACCOUNT_DAILY_SPEND_USD)`;
    if (past(spent.deployment, limits.deployment))
      return `This service's searches have spent ${formatUsd(spent.deployment)} of today's $${limits.deployment.toFixed(2)} limit (DAILY_SPEND_USD)`;
    return null;
  }

  return {
    /** Refuses (SPEND_LIMIT) a search whose estimate would cross a limit today; an unknown estimate is checked as $0 more. */
    async admit(userId: string | undefined, estimateUsd: number | null): Promise<void> {
      const spent = await spentSince(startOfDay(clock()), userId);
      const reached = limitReached(userId, spent, estimateUsd ?? 0);
      if (reached)
        throw new DomainError(
          "SPEND_LIMIT",
          `${reached}: this search, about ${formatUsd(estimateUsd)}, would go past it. Try fewer iterations, or tomorrow (UTC).`,
        );
    },

    /**
     * The allowance of a search starting now. Its own answers count at once (synchronously, so an
     * iteration about to start sees the one just read); the others' spend is read again after each
     * of its answers is recorded.
     */
    async budget(userId: string | undefined, searchId: () => Promise<string>): Promise<SpendBudget> {
      let others = await spentSince(startOfDay(clock()), userId);
      let own = 0;
      let recorded = 0;
      const totals = () => ({ account: others.account + own, deployment: others.deployment + own });
      return {
        exhausted: () => limitReached(userId, totals(), 0),
        async spend(usd) {
          // An answer that cost nothing (simulated, or unknown) records nothing and changes no total.
          if (usd === null || usd <= 0) return;
          own += usd;
          await db.insert(spend).values({ userId: userId ?? null, searchId: await searchId(), usd, at: clock() });
          recorded += usd;
          const now = await spentSince(startOfDay(clock()), userId);
          others = { account: now.account - recorded, deployment: now.deployment - recorded };
        },
      };
    },

    /** What an account has spent today and this month (UTC), for its profile. */
    async summary(userId: string): Promise<SpendSummary> {
      const now = clock();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const [row] = await db
        .select({
          today: sql<number>`coalesce(sum(${spend.usd}) filter (where ${spend.at} >= ${startOfDay(now).toISOString()}::timestamptz), 0)`,
          month: sql<number>`coalesce(sum(${spend.usd}), 0)`,
        })
        .from(spend)
        .where(and(eq(spend.userId, userId), gte(spend.at, month)));
      return { todayUsd: Number(row?.today ?? 0), monthUsd: Number(row?.month ?? 0), dailyLimitUsd: limits.account };
    },
  };
}

export type SpendService = ReturnType<typeof createSpend>;

function startOfDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
