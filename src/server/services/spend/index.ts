import { randomUUID } from "node:crypto";
import { and, eq, gt, gte, lte, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { searches, spend, spendHolds } from "#db/schema.ts";
import type { SpendSummary } from "#src/contract/spend.ts";
import { formatCents, formatUsd } from "#src/core/cost.ts";
import { DomainError } from "../errors.ts";

/**
 * The daily spend limits, in USD (ACCOUNT_DAILY_SPEND_USD, DAILY_SPEND_USD), and the share of the
 * deployment's that trackers together may use (TRACKER_SPEND_SHARE, 0 to 1).
 */
export type SpendLimits = { account: number; deployment: number; trackerShare: number };

/** What spent it: an interactive search (a person, the CLI, MCP) or a tracker's run. */
export type SpendSource = "search" | "tracker";

/** What an admitted search or run holds of the limits until it ends (ADR 052); `id` is the spend_holds row's. */
export type SpendHold = { id: string };

/** A running search's allowance: calls start only while it lasts; each answer's charge is recorded as it lands. */
export type SpendBudget = {
  /** Why no further call may start (a limit or the tracker's monthly budget reached), or null while the budget lasts. */
  exhausted(): string | null;
  /** Records an answer's charge (USD: its cost, or the ceiling for a model without a price), draws the hold down by it and checks the limits again. */
  spend(usd: number): Promise<void>;
};

export type AdmitRequest = {
  userId: string | undefined;
  source: SpendSource;
  /** What it is held at: its estimate, models without a price at the ceiling. */
  usd: number;
  /** How long the hold lasts if nobody releases it (a process that died): the search's deadline and a margin, a run's worst case. */
  holdForMs: number;
  /** The hold's id (a tracker run's id: admitting the same run again replaces its hold, never adds one); a new one by default. */
  holdId?: string;
  /** How the refusal names it: "this search, about $0.46". */
  describe: string;
  /** Its last words: what to do instead. */
  advice?: string;
};

export type BudgetOptions = {
  userId: string | undefined;
  source: SpendSource;
  /** Its hold: drawn down as answers land, and left out of the others' totals. */
  hold: SpendHold;
  /** The saved search its answers belong to (written once the search has its row). */
  searchId: () => Promise<string>;
  /** A tracker's run: its monthly budget is checked before each call too. */
  tracker?: { id: string; monthlyBudgetUsd: number | null };
};

/** Every admission takes this transaction-scoped advisory lock first, so admissions run one at a time (MIGRATION_LOCK_KEY's neighbour). */
export const SPEND_ADMISSION_LOCK_KEY = 727_411_900_002;

type Totals = { account: number; deployment: number; trackers: number };
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Reader = Db | Tx;

const ZERO: Totals = { account: 0, deployment: 0, trackers: 0 };

/**
 * What provider calls cost against the daily limits (ADR 041, ADR 052). A search or a tracker's run
 * is admitted by holding its estimate (`spend_holds`) in the same transaction as the check, under
 * one advisory lock: the totals a limit is checked against are the spend recorded today and the
 * holds not yet lapsed, so runs admitted together cannot all pass a limit. As answers land their
 * charge is recorded and the hold shrinks by as much; the hold is released when the search or run
 * ends, and one left by a process that died lapses at its `expires_at`.
 */
export function createSpend({ db, limits, clock = () => new Date() }: { db: Db; limits: SpendLimits; clock?: () => Date }) {
  const trackerLimit = () => limits.deployment * limits.trackerShare;

  /** Recorded today (UTC): by the account, by the deployment, and by trackers. */
  const spentToday = (q: Reader, userId: string | undefined) => sums(q, spend, userId, gte(spend.at, startOfDay(clock())));

  /** Held now by admitted searches and runs (holds not lapsed), but for `except`. */
  const heldNow = (q: Reader, userId: string | undefined, except?: string) =>
    sums(q, spendHolds, userId, and(gt(spendHolds.expiresAt, clock()), except ? ne(spendHolds.id, except) : undefined));

  /** What a tracker's saved searches have been charged this calendar month (UTC), its monthly budget's measure. */
  async function trackerMonth(q: Reader, userId: string | undefined, trackerId: string): Promise<number> {
    const now = clock();
    const [row] = await q
      .select({ usd: sql<number>`coalesce(sum(${spend.usd}), 0)` })
      .from(spend)
      .innerJoin(searches, eq(searches.id, spend.searchId))
      .where(
        and(
          userId ? eq(spend.userId, userId) : undefined,
          gte(spend.at, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
          eq(searches.trackerId, trackerId),
        ),
      );
    return Number(row?.usd ?? 0);
  }

  /**
   * The words of a refusal or a stop, or null: which limit `spent + held + adding` goes past (about
   * to start), or, adding nothing, meets (running: its next answer would go past it).
   */
  function limitReached(userId: string | undefined, source: SpendSource, spent: Totals, held: Totals, adding: number): string | null {
    const past = (total: number, limit: number) => (adding > 0 ? total + adding > limit : total >= limit);
    const heldWords = (usd: number, by: string) => (usd > 0 ? `, with ${formatUsd(usd)} more held by ${by} still running` : "");
    if (userId && past(spent.account + held.account, limits.account))
      return `Your searches have spent ${formatUsd(spent.account)} of today's ${formatCents(limits.account)} limit per account (ACCOUNT_DAILY_SPEND_USD)${heldWords(held.account, "your searches")}`;
    if (past(spent.deployment + held.deployment, limits.deployment))
      return `This service's searches have spent ${formatUsd(spent.deployment)} of today's ${formatCents(limits.deployment)} limit (DAILY_SPEND_USD)${heldWords(held.deployment, "searches")}`;
    if (source === "tracker" && past(spent.trackers + held.trackers, trackerLimit()))
      return `Trackers on this service have spent ${formatUsd(spent.trackers)} of today's ${formatCents(trackerLimit())} for trackers (TRACKER_SPEND_SHARE, ${limits.trackerShare} of DAILY_SPEND_USD; the rest is kept for searches)${heldWords(held.trackers, "trackers' runs")}`;
    return null;
  }

  async function release(hold: SpendHold | string): Promise<void> {
    await db.delete(spendHolds).where(eq(spendHolds.id, typeof hold === "string" ? hold : hold.id));
  }

  return {
    /**
     * Admits a search or run: under the admission lock, checks today's spend and the live holds
     * plus `usd` against the limits, and holds `usd` until it ends. Refuses with SPEND_LIMIT in
     * the limit's words. Nothing to hold ($0: simulated) checks only that no limit is reached.
     */
    async admit({ userId, source, usd, holdForMs, holdId, describe, advice = "Try fewer iterations, or tomorrow (UTC)." }: AdmitRequest): Promise<SpendHold> {
      const id = holdId ?? randomUUID();
      const refuse = (reached: string) => new DomainError("SPEND_LIMIT", `${reached}: ${describe}, would go past it. ${advice}`);
      if (usd <= 0) {
        const reached = limitReached(userId, source, await spentToday(db, userId), await heldNow(db, userId, id), 0);
        if (reached) throw refuse(reached);
        return { id };
      }
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(SPEND_ADMISSION_LOCK_KEY))})`);
        await tx.delete(spendHolds).where(lte(spendHolds.expiresAt, clock()));
        const reached = limitReached(userId, source, await spentToday(tx, userId), await heldNow(tx, userId, id), usd);
        if (reached) throw refuse(reached);
        await tx
          .insert(spendHolds)
          .values({ id, userId: userId ?? null, source, usd, at: clock(), expiresAt: new Date(clock().getTime() + holdForMs) })
          .onConflictDoUpdate({ target: spendHolds.id, set: { usd, at: clock(), expiresAt: new Date(clock().getTime() + holdForMs) } });
      });
      return { id };
    },

    /** Gives back what is left of a hold: its search or run has ended (whatever its end). */
    release,

    /**
     * The allowance of a search or run starting now. Its own answers count at once (synchronously,
     * so an iteration about to start sees the one just read); the others' spend and holds are read
     * again after each of its answers is recorded. Its own hold is not counted: what it spends is.
     */
    async budget({ userId, source, hold, searchId, tracker }: BudgetOptions): Promise<SpendBudget> {
      const monthly = tracker?.monthlyBudgetUsd ?? null;
      const read = async (recorded: number) => {
        const [spent, held, month] = await Promise.all([
          spentToday(db, userId),
          heldNow(db, userId, hold.id),
          tracker && monthly !== null ? trackerMonth(db, userId, tracker.id) : Promise.resolve(0),
        ]);
        const mine = { account: recorded, deployment: recorded, trackers: source === "tracker" ? recorded : 0 };
        return { spent: minus(spent, mine), held, month: month - recorded };
      };
      let others = await read(0);
      let own = 0;
      let recorded = 0;
      return {
        exhausted() {
          const mine = { account: own, deployment: own, trackers: source === "tracker" ? own : 0 };
          const reached = limitReached(userId, source, plus(others.spent, mine), others.held, 0);
          if (reached) return reached;
          if (monthly !== null && others.month + own >= monthly)
            return `The tracker's monthly budget of ${formatUsd(monthly)} is reached: ${formatUsd(others.month + own)} charged this month`;
          return null;
        },
        async spend(usd) {
          // An answer that cost nothing (simulated, or no usage) records nothing and changes no total.
          if (!(usd > 0)) return;
          own += usd;
          // Recorded, then the hold drawn down: a check in between counts the answer twice, never not at all.
          await db.insert(spend).values({ userId: userId ?? null, searchId: await searchId(), usd, source, at: clock() });
          await db
            .update(spendHolds)
            .set({ usd: sql`greatest(${spendHolds.usd} - ${usd}, 0)` })
            .where(eq(spendHolds.id, hold.id));
          recorded += usd;
          others = await read(recorded);
        },
      };
    },

    /**
     * The deployment's spend today (UTC) by source, recorded and held now: the totals the limits are
     * checked against, for operators (src/server/metrics).
     */
    async today(): Promise<Record<"recorded" | "held", Record<SpendSource, number>>> {
      const bySource = ({ deployment, trackers }: Totals) => ({ search: deployment - trackers, tracker: trackers });
      const [spent, held] = await Promise.all([spentToday(db, undefined), heldNow(db, undefined)]);
      return { recorded: bySource(spent), held: bySource(held) };
    },

    /** What a tracker has been charged this month (UTC): models without a price at the ceiling. */
    trackerMonth: (userId: string, trackerId: string) => trackerMonth(db, userId, trackerId),

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

/** "this search, about $0.46"; "this run, $1.20 at the price table's highest rates (no price for gemini-9)". */
export function describeCharge(what: string, usd: number, unpriced: readonly string[]): string {
  return unpriced.length
    ? `${what}, ${formatUsd(usd)} at the price table's highest rates (no price for ${unpriced.join(", ")})`
    : `${what}, about ${formatUsd(usd)}`;
}

/** The USD in `table`'s rows matching `where`: all of them, the account's, and trackers'. */
async function sums(q: Reader, table: typeof spend | typeof spendHolds, userId: string | undefined, where: SQL | undefined): Promise<Totals> {
  const [row] = await q
    .select({
      deployment: sql<number>`coalesce(sum(${table.usd}), 0)`,
      account: userId ? sql<number>`coalesce(sum(${table.usd}) filter (where ${table.userId} = ${userId}), 0)` : sql<number>`0`,
      trackers: sql<number>`coalesce(sum(${table.usd}) filter (where ${table.source} = 'tracker'), 0)`,
    })
    .from(table as typeof spend)
    .where(where);
  return totalsOf(row);
}

function totalsOf(row: { account: number; deployment: number; trackers: number } | undefined): Totals {
  return row ? { account: Number(row.account), deployment: Number(row.deployment), trackers: Number(row.trackers) } : ZERO;
}

function plus(a: Totals, b: Totals): Totals {
  return { account: a.account + b.account, deployment: a.deployment + b.deployment, trackers: a.trackers + b.trackers };
}

function minus(a: Totals, b: Totals): Totals {
  return { account: a.account - b.account, deployment: a.deployment - b.deployment, trackers: a.trackers - b.trackers };
}

function startOfDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}
