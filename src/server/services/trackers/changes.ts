import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerRunQueries, trackerRuns } from "#db/schema.ts";
import type { TrackerChanges } from "#src/contract/changes.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { RunRecord } from "#src/contract/search-result.ts";
import { providerChanges } from "#src/core/changes.ts";
import { displayedRuns, keptRuns } from "#src/core/runs.ts";
import type { SearchStore } from "../search/store.ts";
import { scheduledBy } from "./runs.ts";

/**
 * What changed between a tracker's last two windows of runs (issue 26): the latest `alertWindow`
 * runs that answered in the current series segment against the ones before them, as the alerts
 * compare them, as of `asOf` when given (a frozen link). Read from those runs' saved searches only (at most 2 × alertWindow runs), since the
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
        .limit(2 * window);
      if (runs.length < 2 * window) return { ready: false, window, providers: {} };
      const runIds = runs.map((run) => run.id).reverse();
      const windows = { before: runIds.slice(0, window), after: runIds.slice(window) };

      const items = await db
        .select({ runId: trackerRunQueries.runId, searchId: trackerRunQueries.searchId })
        .from(trackerRunQueries)
        .where(inArray(trackerRunQueries.runId, runIds));
      const owner = { userId: tracker.userId, anonymousId: `tracker:${tracker.id}` };
      const results = await Promise.all(
        items.map(async (item) => ({ runId: item.runId, result: item.searchId ? await store.get(owner, item.searchId) : null })),
      );
      const answers = (window: string[], provider: ProviderId): RunRecord[] =>
        results.flatMap(({ runId, result }) => (result && window.includes(runId) ? (keptRuns(result, provider) ?? displayedRuns(result, provider)) : []));

      const providers: TrackerChanges["providers"] = {};
      for (const provider of providerIds) {
        if (!tracker.providers.includes(provider) || (filters.provider && filters.provider !== provider)) continue;
        providers[provider] = providerChanges(
          { runIds: windows.before, answers: answers(windows.before, provider) },
          { runIds: windows.after, answers: answers(windows.after, provider) },
        );
      }
      return { ready: true, window, providers };
    },
  };
}

export type Changes = ReturnType<typeof createChanges>;
