import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerRunQueries, trackerRuns } from "#db/schema.ts";
import type { TrackerChanges } from "#src/contract/changes.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerChanges } from "#src/core/changes.ts";
import { displayedRuns, keptRuns } from "#src/core/runs.ts";
import type { SearchStore } from "../search/store.ts";
import { scheduledBy } from "./runs.ts";

/** The runs before the latest window that "what changed" compares it with: a week of daily runs. */
const BASELINE_RUNS = 7;

/**
 * What changed between a tracker's latest window of runs and the runs before it (issue
 * 33): the latest `alertWindow` runs that answered in the current series segment against up to
 * BASELINE_RUNS before them, as of `asOf` when given (a frozen link); only what moved beyond the
 * run-to-run noise is listed (src/core/changes.ts). Read from those runs' saved searches, since the
 * rollups keep no products or companies.
 */
export function createChanges({ db, store }: { db: Db; store: SearchStore }) {
  return {
    async latest(
      tracker: { id: string; userId: string; segment: number; alertWindow: number; providers: string[] },
      filters: { provider?: ProviderId },
      asOf?: Date,
    ): Promise<TrackerChanges> {
      const window = tracker.alertWindow;
      // As of a past time, the series segment then: that of the newest run scheduled by it.
      const [then] = asOf
        ? await db
            .select({ segment: trackerRuns.segment })
            .from(trackerRuns)
            .where(and(eq(trackerRuns.trackerId, tracker.id), scheduledBy(asOf)))
            .orderBy(desc(trackerRuns.scheduledFor))
            .limit(1)
        : [];
      const segment = then?.segment ?? tracker.segment;
      const runs = await db
        .select({ id: trackerRuns.id })
        .from(trackerRuns)
        .where(
          and(
            eq(trackerRuns.trackerId, tracker.id),
            eq(trackerRuns.segment, segment),
            inArray(trackerRuns.status, ["completed", "partial"]),
            scheduledBy(asOf),
          ),
        )
        .orderBy(desc(trackerRuns.createdAt))
        .limit(BASELINE_RUNS + window);
      if (runs.length < 2 * window) return { ready: false, window, providers: {} };
      const runIds = runs.map((run) => run.id).reverse();
      const windows = { before: runIds.slice(0, -window), after: runIds.slice(-window) };

      const items = await db
        .select({ runId: trackerRunQueries.runId, searchId: trackerRunQueries.searchId })
        .from(trackerRunQueries)
        .where(inArray(trackerRunQueries.runId, runIds));
      const owner = { userId: tracker.userId, anonymousId: `tracker:${tracker.id}` };
      const results = await Promise.all(
        items.map(async (item) => ({ runId: item.runId, result: item.searchId ? await store.get(owner, item.searchId) : null })),
      );
      const runsOf = (window: string[], provider: ProviderId) =>
        window.map((runId) => ({
          runId,
          answers: results.flatMap((item) =>
            item.result && item.runId === runId ? (keptRuns(item.result, provider) ?? displayedRuns(item.result, provider)) : [],
          ),
        }));

      const providers: TrackerChanges["providers"] = {};
      for (const provider of providerIds) {
        if (!tracker.providers.includes(provider) || (filters.provider && filters.provider !== provider)) continue;
        providers[provider] = providerChanges(runsOf(windows.before, provider), runsOf(windows.after, provider));
      }
      return { ready: true, window, providers };
    },
  };
}

export type Changes = ReturnType<typeof createChanges>;
