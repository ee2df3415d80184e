import { and, asc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { trackerRollups, trackerRunQueries, trackerRuns, trackerSourceRollups, trackers } from "#db/schema.ts";
import { definitionOf, runWithTracker } from "./runs.ts";
import { historyRange } from "#src/contract/history.ts";
import { BrandEntry } from "#src/contract/lens.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { sourceTypes, type SourcesReport, type SourceType, type TrendDispersion, type TrendMetric, type TrendPoint } from "#src/contract/trend.ts";
import { displayedRuns, keptRuns } from "#src/core/runs.ts";
import { citationGap, sourceCounts, sourceType } from "#src/core/sources.ts";
import { modelIdentity, versionSet } from "#src/core/model-identity.ts";
import { addCounts, metricOf, subjectCounts, trendDispersions, type SubjectCounts, type TrendSeries } from "#src/core/trend.ts";
import type { Dispersion } from "#src/core/dispersion.ts";
import type { SearchStore } from "../search/store.ts";
import { answersRead } from "../../young-garbage.ts";

/** The row of the run over all its queries. */
const ALL_QUERIES = "";

type RollupRow = typeof trackerRollups.$inferInsert;

/** A rollup row as the trend reads it (json_build_array's order): `at` in epoch milliseconds; its query is the one asked for. */
type RollupTuple = [
  runId: string,
  at: number,
  provider: ProviderId,
  subject: string,
  isBrand: boolean,
  modelVersion: string,
  answers: number,
  mentions: number,
  allMentions: number,
  cited: number,
  ranked: number,
  positionSum: number,
  positionSquares: number,
  query: string,
  coMentions: number | null,
  mentionSquares: number | null,
  segment: number,
];

/**
 * A tracker's rollups: when a run ends, each of its queries' saved searches is counted
 * per provider and subject (src/core/trend.ts), and the run over all its queries as their sum. The
 * trend is read from these rows alone.
 */
export function createRollups({ db, store }: { db: Db; store: SearchStore }) {
  return {
    /** Writes the run's rollups; a second call (two instances ending the run together) adds nothing. */
    async write(runId: string): Promise<void> {
      const found = await runWithTracker(db, runId);
      if (!found) return;
      const { run, tracker } = found;
      const { brand, competitors, providers } = definitionOf(run, tracker);
      const owner = { userId: tracker.userId, anonymousId: `tracker:${tracker.id}` };
      const items = await db.select().from(trackerRunQueries).where(eq(trackerRunQueries.runId, runId)).orderBy(asc(trackerRunQueries.position));

      const rows: RollupRow[] = [];
      const total = new Map<string, { counts: SubjectCounts; versions: Set<string> }>();
      const sources = new Map<string, typeof trackerSourceRollups.$inferInsert>();
      for (const item of items) {
        const result = item.searchId ? await store.get(owner, item.searchId) : null;
        if (!result) continue;
        answersRead(Object.values(result.runs ?? {}).reduce((n, runs) => n + (runs?.length ?? 0), 1));
        for (const provider of providerIds) {
          const model = result.models[provider];
          if (!model || !providers.includes(provider)) continue;
          const runs = keptRuns(result, provider) ?? displayedRuns(result, provider);
          if (runs.length === 0) continue;
          for (const counts of sourceCounts(runs, brand, competitors)) {
            const key = `${provider}\u0000${counts.domain}`;
            const sum = sources.get(key) ?? {
              runId,
              trackerId: tracker.id,
              at: run.scheduledFor,
              provider,
              domain: counts.domain,
              answers: 0,
              withBrand: 0,
              withCompetitor: 0,
            };
            sum.answers += counts.answers;
            sum.withBrand += counts.withBrand;
            sum.withCompetitor += counts.withCompetitor;
            sources.set(key, sum);
          }
          // The provider's identity: every model version that answered, with the web-search tool it used.
          const versions = versionSet([modelIdentity(model.modelVersion, model.searchTool)]);
          for (const counts of subjectCounts(runs, brand, competitors)) {
            rows.push(rowOf(counts, { runId, trackerId: tracker.id, at: run.scheduledFor, query: item.query, provider, modelVersion: versions.join(", ") }));
            const key = `${provider}\u0000${counts.subject}`;
            const sum = total.get(key);
            if (sum) {
              sum.counts = addCounts(sum.counts, counts);
              for (const version of versions) sum.versions.add(version);
            } else total.set(key, { counts, versions: new Set(versions) });
          }
        }
      }
      for (const [key, { counts, versions }] of total) {
        const provider = key.slice(0, key.indexOf("\u0000")) as ProviderId;
        rows.push(
          rowOf(counts, {
            runId,
            trackerId: tracker.id,
            at: run.scheduledFor,
            query: ALL_QUERIES,
            provider,
            modelVersion: versionSet([...versions]).join(", "),
          }),
        );
      }
      // A tracker's queries can repeat a query's text only across segments, never in one run; chunks keep each insert's parameters bounded.
      for (let i = 0; i < rows.length; i += 500)
        await db
          .insert(trackerRollups)
          .values(rows.slice(i, i + 500))
          .onConflictDoNothing();
      const cited = [...sources.values()];
      for (let i = 0; i < cited.length; i += 500)
        await db
          .insert(trackerSourceRollups)
          .values(cited.slice(i, i + 500))
          .onConflictDoNothing();
    },

    /** The cited domains by type per run and provider, and the citation gap over the same runs. */
    async sources(
      tracker: { id: string; brand: BrandEntry; competitors: BrandEntry[] },
      filters: { provider?: ProviderId; from?: string; to?: string },
    ): Promise<SourcesReport> {
      const range = historyRange(filters);
      const rows = await db
        .select()
        .from(trackerSourceRollups)
        .where(
          and(
            eq(trackerSourceRollups.trackerId, tracker.id),
            filters.provider ? eq(trackerSourceRollups.provider, filters.provider) : undefined,
            range.from ? gte(trackerSourceRollups.at, range.from) : undefined,
            range.until ? lt(trackerSourceRollups.at, range.until) : undefined,
          ),
        )
        .orderBy(asc(trackerSourceRollups.at), asc(trackerSourceRollups.runId), asc(trackerSourceRollups.provider));
      const typeOf = new Map<string, SourceType>();
      const type = (domain: string) => {
        let known = typeOf.get(domain);
        if (!known) typeOf.set(domain, (known = sourceType(domain, tracker.brand, tracker.competitors)));
        return known;
      };
      const byRun = new Map<string, { runId: string; at: string; provider: ProviderId; counts: Map<SourceType, number>; total: number }>();
      for (const row of rows) {
        const provider = row.provider as ProviderId;
        const key = `${row.runId}\u0000${provider}`;
        const group = byRun.get(key) ?? { runId: row.runId, at: row.at.toISOString(), provider, counts: new Map(), total: 0 };
        group.counts.set(type(row.domain), (group.counts.get(type(row.domain)) ?? 0) + row.answers);
        group.total += row.answers;
        byRun.set(key, group);
      }
      return {
        byType: [...byRun.values()].flatMap(({ runId, at, provider, counts, total }) =>
          sourceTypes
            .filter((kind) => counts.has(kind))
            .map((kind) => ({ runId, at, provider, type: kind, citations: counts.get(kind)!, share: round1((counts.get(kind)! / total) * 100) })),
        ),
        gap: citationGap(
          rows.map((row) => ({ ...row, provider: row.provider as ProviderId })),
          type,
        ),
      };
    },

    /**
     * The trend's points, oldest first: the run over all its queries, or one query's; and the
     * dispersion each provider's intervals count with (ADR 050), read from every series at that
     * level up to the range's end, so a point's interval does not change with the provider, subject
     * or start asked for.
     */
    async trend(trackerId: string, filters: TrendFilters): Promise<{ points: TrendPoint[]; dispersion: TrendDispersion[] }> {
      const { points, dispersions } = await read(trackerId, filters);
      const shown = new Set(points.map((point) => point.provider));
      return {
        points,
        dispersion: providerIds.flatMap((provider) => {
          const used = dispersions.get(provider);
          return used && shown.has(provider) ? [{ provider, phi: round2(used.phi), df: round1(used.df) }] : [];
        }),
      };
    },

    /** The trend's points as `trend` reads them, with each provider's dispersion unrounded (the summary's intervals are the trend's to the digit). */
    read,
  };

  async function read(trackerId: string, filters: TrendFilters): Promise<{ points: TrendPoint[]; dispersions: Map<ProviderId, Dispersion> }> {
    const range = historyRange(filters);
    // A year of daily runs is thousands of rows: read as one JSON array of arrays, which costs a
    // fraction of as many rows through the driver (PGlite most of all: ~5× less, bench/trend.ts).
    const [found] = await db
      .select({
        json: sql<string | null>`json_agg(json_build_array(
            ${trackerRollups.runId}, (extract(epoch from ${trackerRollups.at}) * 1000)::bigint, ${trackerRollups.provider},
            ${trackerRollups.subject}, ${trackerRollups.isBrand}, ${trackerRollups.modelVersion}, ${trackerRollups.answers}, ${trackerRollups.mentions},
            ${trackerRollups.allMentions}, ${trackerRollups.cited}, ${trackerRollups.ranked}, ${trackerRollups.positionSum}, ${trackerRollups.positionSquares},
            ${trackerRollups.query}, ${trackerRollups.coMentions}, ${trackerRollups.mentionSquares}, ${trackerRuns.segment})
            order by ${trackerRollups.at}, ${trackerRollups.runId}, ${trackerRollups.provider}, ${trackerRollups.isBrand} desc, ${trackerRollups.subject}, ${trackerRollups.query})::text`,
      })
      .from(trackerRollups)
      .innerJoin(trackerRuns, eq(trackerRuns.id, trackerRollups.runId))
      .where(
        and(
          eq(trackerRollups.trackerId, trackerId),
          filters.queries
            ? inArray(trackerRollups.query, filters.queries)
            : filters.perQuery
              ? ne(trackerRollups.query, ALL_QUERIES)
              : eq(trackerRollups.query, filters.query ?? ALL_QUERIES),
        ),
      );
    // Nothing after the range's end counts, not even for the dispersion: a frozen link's bands do not move with later runs.
    const kept = (JSON.parse(found?.json ?? "[]") as RollupTuple[]).map(readTuple).filter((row) => !range.until || row.at < range.until.getTime());
    const rows = filters.queries ? pooled(kept) : kept;

    const series = new Map<string, TrendSeries & { runs: Array<{ segment: number; counts: SubjectCounts }> }>();
    for (const row of rows) {
      const key = `${row.provider}\u0000${row.counts.subject.toLowerCase()}\u0000${row.query}`;
      const one = series.get(key) ?? { provider: row.provider, runs: [] };
      one.runs.push({ segment: row.segment, counts: row.counts });
      series.set(key, one);
    }
    const dispersions = trendDispersions(filters.metric, [...series.values()]);

    const subject = filters.subject?.toLowerCase();
    const points = rows
      .filter(
        (row) =>
          (!filters.provider || row.provider === filters.provider) &&
          (!subject || row.counts.subject.toLowerCase() === subject) &&
          (!range.from || row.at >= range.from.getTime()),
      )
      .map(
        ({ runId, at, provider, query, counts, modelVersion }): TrendPoint => ({
          runId,
          at: new Date(at).toISOString(),
          provider,
          ...(query ? { query } : {}),
          subject: counts.subject,
          isBrand: counts.isBrand,
          ...metricOf(filters.metric, counts, dispersions.get(provider)),
          modelVersion,
        }),
      );
    return { points, dispersions };
  }
}

type TrendFilters = {
  metric: TrendMetric;
  provider?: ProviderId;
  query?: string;
  /** Several questions pooled into one series (a tag's, ADR 068), as the all-questions row pools every question. */
  queries?: readonly string[];
  subject?: string;
  from?: string;
  to?: string;
  perQuery?: boolean;
};

type ReadRow = ReturnType<typeof readTuple>;

/**
 * Per-question rows summed per run, provider and subject, as `write` sums a run's questions into its
 * all-questions row: the pooled rows are then read exactly as that row is (same intervals, same
 * dispersion method, estimated from the pooled series' own runs). Rows come ordered by run, so the
 * pooled ones keep that order.
 */
export function pooled(rows: readonly ReadRow[]): ReadRow[] {
  const sums = new Map<string, ReadRow & { versions: Set<string> }>();
  for (const row of rows) {
    const key = `${row.runId}\u0000${row.provider}\u0000${row.counts.subject.toLowerCase()}`;
    const sum = sums.get(key);
    if (sum) {
      sum.counts = addCounts(sum.counts, row.counts);
      for (const version of row.modelVersion.split(", ")) sum.versions.add(version);
    } else sums.set(key, { ...row, query: ALL_QUERIES, versions: new Set(row.modelVersion.split(", ")) });
  }
  return [...sums.values()].map(({ versions, ...row }) => ({ ...row, modelVersion: versionSet([...versions]).join(", ") }));
}

/** A rollup tuple read: its run, when, provider, question ('' over all), counts and model identity, and its run's segment. */
function readTuple([
  runId,
  at,
  provider,
  subject,
  isBrand,
  modelVersion,
  answers,
  mentions,
  allMentions,
  cited,
  ranked,
  positionSum,
  positionSquares,
  query,
  coMentions,
  mentionSquares,
  segment,
]: RollupTuple) {
  return {
    runId,
    at,
    provider,
    query,
    modelVersion,
    segment,
    counts: { subject, isBrand, answers, mentions, allMentions, cited, ranked, positionSum, positionSquares, coMentions, mentionSquares },
  };
}

export type Rollups = ReturnType<typeof createRollups>;

function rowOf(
  counts: SubjectCounts,
  where: { runId: string; trackerId: string; at: Date; query: string; provider: ProviderId; modelVersion: string },
): RollupRow {
  return { ...where, ...counts };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
