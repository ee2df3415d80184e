import { eq } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import { BrandEntry } from "#src/contract/lens.ts";
import { historyRange } from "#src/contract/history.ts";
import { MAX_SUMMARY_DAYS, withinBound, type SummaryQuery, type TrackerSummary } from "#src/contract/summary.ts";
import { inWindow, spanOf, summarize, summaryPeriod } from "#src/core/summary.ts";
import { DomainError } from "../errors.ts";
import type { Rollups } from "./rollups.ts";

/**
 * A tracker's headline for a period (src/core/summary.ts), read from its rollups as the trend
 * reads them: the runs and each provider's dispersion over all questions (the trend's bands), and
 * the per-question points of the period and the one before it (the alerts' comparison).
 */
export async function trackerSummary(
  rollups: Pick<Rollups, "read">,
  tracker: { id: string; brand: string; tracked: number },
  query: v.InferOutput<typeof SummaryQuery>,
  now: Date,
): Promise<TrackerSummary> {
  const asked = historyRange(query);
  // An open end is now: a range from long ago to now is as long as one asked with both ends.
  if (!withinBound({ from: asked.from, until: asked.until ?? now }))
    throw new DomainError("INVALID_INPUT", `from and to must be at most ${MAX_SUMMARY_DAYS} days apart`);
  const end = asked.until && !query.period ? asked.until : now;
  const whole = await rollups.read(tracker.id, { metric: "mention", to: lastMoment(end) });
  const runs = [...new Map(whole.points.map((point) => [point.runId, { runId: point.runId, at: point.at }])).values()];
  const period = summaryPeriod({ period: query.period, from: asked.from, until: asked.until }, now, runs);

  const read = await rollups.read(tracker.id, {
    metric: "mention",
    perQuery: true,
    from: period.previous.from.toISOString(),
    to: lastMoment(period.current.until, period.kind === "run"),
  });
  const current = read.points.filter((point) => inWindow(point, period.current));
  const previous = read.points.filter((point) => inWindow(point, period.previous));
  const figures = summarize({ brand: tracker.brand, tracked: tracker.tracked, period, current, previous, dispersion: whole.dispersions });
  return {
    period: { kind: period.kind, ...spanOf(period.current, current), previous: spanOf(period.previous, previous) },
    ...figures,
  };
}

/** A range's end as the trend's `to` reads a moment (included): the last millisecond before `until`, or `until` itself for a run's own time. */
function lastMoment(until: Date, included = false): string {
  return new Date(until.getTime() - (included ? 0 : 1)).toISOString();
}

/** What a summary needs of a tracker's row: its brand's name, and how many brands it tracks (the brand and its competitors). */
export function summarySubject(row: { id: string; brand: unknown; competitors: unknown }): { id: string; brand: string; tracked: number } {
  return { id: row.id, brand: v.parse(BrandEntry, row.brand).name, tracked: 1 + v.parse(v.array(BrandEntry), row.competitors).length };
}

/**
 * The sentence of a tracker's newest run against the one before, which its webhook's messages
 * open on; undefined when the tracker is gone or the headline cannot be read (a delivery never
 * waits on it).
 */
export function createRunHeadline({ db, rollups, clock }: { db: Db; rollups: Pick<Rollups, "read">; clock: () => Date }) {
  return async (trackerId: string): Promise<string | undefined> => {
    try {
      const [row] = await db
        .select({ id: trackers.id, brand: trackers.brand, competitors: trackers.competitors })
        .from(trackers)
        .where(eq(trackers.id, trackerId))
        .limit(1);
      return row ? (await trackerSummary(rollups, summarySubject(row), { period: "run" }, clock())).sentence : undefined;
    } catch (error) {
      console.warn(`the headline of tracker ${trackerId} was not read: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
}
