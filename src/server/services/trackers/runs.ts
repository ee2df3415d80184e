import { and, asc, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { searches, trackerCalls, trackerRunQueries, trackerRuns, trackers } from "#db/schema.ts";
import { BrandEntry } from "#src/contract/lens.ts";
import { Location } from "#src/contract/location.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { StoredSearchResult } from "#src/contract/search-wire.ts";
import { RunDefinition, type TrackerRun, type TrackerRunQuery } from "#src/contract/trackers.ts";
import { clusteredInterval, DISPERSION_PRIOR, effectiveDispersion, type Dispersion } from "#src/core/dispersion.ts";
import { brandLens, type LensSettings } from "#src/core/lens.ts";

type RunRow = typeof trackerRuns.$inferSelect;

/** A run's row with its tracker's (undefined when the run is gone): where starting a run, its rollups and its alerts begin. */
export async function runWithTracker(db: Db, runId: string) {
  const [found] = await db
    .select({ run: trackerRuns, tracker: trackers })
    .from(trackerRuns)
    .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
    .where(eq(trackerRuns.id, runId))
    .limit(1);
  return found;
}
/**
 * What a run asks and counts: its own definition, kept when it was made, or (a run made before
 * definitions were kept) the tracker's as it stands.
 */
export function definitionOf(run: Pick<RunRow, "definition">, tracker: typeof trackers.$inferSelect): RunDefinition {
  const kept = v.safeParse(RunDefinition, run.definition);
  return kept.success ? kept.output : currentDefinition(tracker);
}

/** The tracker's definition as it stands: what a run made now asks and counts. */
export function currentDefinition(tracker: typeof trackers.$inferSelect): RunDefinition {
  const location = v.safeParse(Location, tracker.location);
  return {
    queries: tracker.queries,
    providers: tracker.providers as ProviderId[],
    iterations: tracker.iterations,
    ...(location.success ? { location: location.output } : {}),
    brand: v.parse(BrandEntry, tracker.brand),
    competitors: v.parse(v.array(BrandEntry), tracker.competitors),
  };
}

type Tally = { done: number; failed: number; usd: number; unknown: number; simulated: number };

/** A run as its owner reads it: its row, its queries, and the counts and cost its call ledger adds up to. */
export function createRunViews(db: Db) {
  async function views(rows: RunRow[]): Promise<TrackerRun[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [queries, tallies] = await Promise.all([
      db.select().from(trackerRunQueries).where(inArray(trackerRunQueries.runId, ids)).orderBy(asc(trackerRunQueries.position)),
      db
        .select({
          runId: trackerCalls.runId,
          position: trackerCalls.position,
          done: sql<number>`count(*) filter (where ${trackerCalls.status} = 'done')`,
          failed: sql<number>`count(*) filter (where ${trackerCalls.status} in ('failed', 'lost'))`,
          usd: sql<number>`coalesce(sum(${trackerCalls.costUsd}), 0)`,
          // An answer of a model without a price: the run's cost is unknown (ADR 041).
          unknown: sql<number>`count(*) filter (where ${trackerCalls.status} = 'done' and ${trackerCalls.costUsd} is null and not ${trackerCalls.simulated})`,
          simulated: sql<number>`count(*) filter (where ${trackerCalls.status} = 'done' and ${trackerCalls.simulated})`,
        })
        .from(trackerCalls)
        .where(inArray(trackerCalls.runId, ids))
        .groupBy(trackerCalls.runId, trackerCalls.position),
    ]);
    const tallyOf = new Map(tallies.map((t) => [`${t.runId}/${t.position}`, numbers(t)]));
    return rows.map((row) => {
      const own = queries.filter((query) => query.runId === row.id);
      const perQuery = own.length ? row.expected / own.length : 0;
      const counted = own.map((query) => ({ query, tally: tallyOf.get(`${row.id}/${query.position}`) ?? ZERO }));
      const total = counted.reduce<Tally>((sum, { tally }) => add(sum, tally), ZERO);
      return {
        id: row.id,
        trackerId: row.trackerId,
        status: row.status,
        ...(row.reason ? { reason: row.reason } : {}),
        trigger: row.trigger,
        segment: row.segment,
        scheduledFor: row.scheduledFor.toISOString(),
        startedAt: row.startedAt?.toISOString() ?? null,
        finishedAt: row.finishedAt?.toISOString() ?? null,
        answers: { expected: row.expected, done: total.done, failed: total.failed },
        cost: { usd: total.unknown > 0 ? null : total.usd, simulated: total.done > 0 && total.simulated === total.done },
        queries: counted.map(({ query, tally }) => ({
          query: query.query,
          searchId: query.searchId,
          expected: perQuery,
          done: tally.done,
          failed: tally.failed,
        })),
      };
    });
  }

  /**
   * Per query, how often each provider's answers named the brand, read from its saved search as the
   * brand lens reads any search (ADR 014). One run's searches only: a list of runs leaves it out.
   */
  async function withMentions(run: TrackerRun, lens: LensSettings, dispersion: ReadonlyMap<string, Dispersion>): Promise<TrackerRun> {
    const ids = run.queries.flatMap((query) => (query.searchId ? [query.searchId] : []));
    if (ids.length === 0) return run;
    const rows = await db.select({ id: searches.id, result: searches.result }).from(searches).where(inArray(searches.id, ids));
    const results = new Map(rows.map((row) => [row.id, v.safeParse(StoredSearchResult, row.result)]));
    return {
      ...run,
      queries: run.queries.map((query): TrackerRunQuery => {
        const parsed = query.searchId ? results.get(query.searchId) : undefined;
        if (!parsed?.success) return query;
        const report = brandLens(parsed.output, lens);
        const brandMentions: NonNullable<TrackerRunQuery["brandMentions"]> = {};
        for (const id of providerIds) {
          const rate = report.providers[id]?.mentionRate;
          if (!rate || rate.n === 0) continue;
          // The band is for the tracker's rate on this question, widened by how much its runs vary there (ADR 050).
          const { low, high } = clusteredInterval(rate.count, rate.n, effectiveDispersion(dispersion.get(id) ?? DISPERSION_PRIOR, 0.05));
          brandMentions[id] = { ...rate, low: Math.round(low * 10) / 10, high: Math.round(high * 10) / 10 };
        }
        return { ...query, brandMentions };
      }),
    };
  }

  return {
    /**
     * One run; with the tracker's brand, each query's brand mentions per provider, their bands
     * widened by `dispersion` (each provider's, per question; the prior without). `asOf`: none
     * scheduled after it (a frozen link).
     */
    async one(
      trackerId: string,
      runId: string,
      lens?: LensSettings,
      asOf?: Date,
      dispersion: ReadonlyMap<string, Dispersion> = new Map(),
    ): Promise<TrackerRun | null> {
      const rows = await db
        .select()
        .from(trackerRuns)
        .where(and(eq(trackerRuns.id, runId), eq(trackerRuns.trackerId, trackerId), scheduledBy(asOf)))
        .limit(1);
      const [run] = await views(rows);
      if (!run) return null;
      return lens ? withMentions(run, lens, dispersion) : run;
    },

    /** Newest first; `before` is a run id of the previous page; `asOf`: none scheduled after it. */
    async page(trackerId: string, { before, limit, asOf }: { before?: string; limit: number; asOf?: Date }): Promise<TrackerRun[]> {
      const [cursor] = before
        ? await db
            .select({ createdAt: trackerRuns.createdAt, id: trackerRuns.id })
            .from(trackerRuns)
            .where(and(eq(trackerRuns.id, before), eq(trackerRuns.trackerId, trackerId)))
            .limit(1)
        : [];
      const rows = await db
        .select()
        .from(trackerRuns)
        .where(
          and(
            eq(trackerRuns.trackerId, trackerId),
            scheduledBy(asOf),
            cursor
              ? or(lt(trackerRuns.createdAt, cursor.createdAt), and(eq(trackerRuns.createdAt, cursor.createdAt), lt(trackerRuns.id, cursor.id)))
              : undefined,
          ),
        )
        .orderBy(desc(trackerRuns.createdAt), desc(trackerRuns.id))
        .limit(limit);
      return views(rows);
    },
  };
}

/** The runs a reader as of `asOf` sees: those scheduled by then (every run without it). */
export function scheduledBy(asOf: Date | undefined) {
  return asOf ? lte(trackerRuns.scheduledFor, asOf) : undefined;
}

const ZERO: Tally = { done: 0, failed: 0, usd: 0, unknown: 0, simulated: 0 };

function add(a: Tally, b: Tally): Tally {
  return { done: a.done + b.done, failed: a.failed + b.failed, usd: a.usd + b.usd, unknown: a.unknown + b.unknown, simulated: a.simulated + b.simulated };
}

/** Aggregates come back as strings from PostgreSQL's bigint and numeric. */
function numbers(t: Tally): Tally {
  return { done: Number(t.done), failed: Number(t.failed), usd: Number(t.usd), unknown: Number(t.unknown), simulated: Number(t.simulated) };
}
