import type { ApiClient } from "#src/client/api.ts";
import { sharedKey } from "#web/lib/shared-queries.ts";

/** What a tracker's report reads: the answers of /api/trackers/{id}/… for its owner, of /api/shared/{token}/… for a link's visitor. */
export type TrackerReads = ReturnType<ApiClient["shared"]>;

/**
 * Where a tracker's report (its trend, sources, alerts, changes and runs) reads from:
 * the owner's own tracker, or a share link's. The same components draw both; only this differs.
 */
export type TrackerSource = {
  /** Every read's query key starts so: one tracker's, or one link's. */
  key: readonly unknown[];
  /** What a run that finishes on the page makes stale (the tracker itself, its list, its runs). */
  staleOnRunEnd: readonly unknown[];
  reads: TrackerReads;
  /** The owner may open the saved searches behind a run or an alert; a link's visitor may not. */
  linksToSearches: boolean;
};

/** Every key of the owner's trackers starts so: one person's data (personalQueryKeys' "workbench"). */
export const TRACKERS_KEY = ["workbench", "trackers"] as const;

/** The owner's tracker `id`, through their session or token. */
export function ownerTrackerSource(api: ApiClient, id: string): TrackerSource {
  return {
    key: [...TRACKERS_KEY, "of", id],
    staleOnRunEnd: TRACKERS_KEY,
    linksToSearches: true,
    reads: {
      runs: (page) => api.listTrackerRuns(id, page),
      run: (runId) => api.getTrackerRun(id, runId),
      trend: (query) => api.getTrackerTrend(id, query),
      sources: (query) => api.getTrackerSources(id, query),
      alerts: () => api.listTrackerAlerts(id),
      changes: (query) => api.getTrackerChanges(id, query),
      summary: (query) => api.getTrackerSummary(id, query),
    },
  };
}

/** The tracker a share link shows, as anyone holding the link reads it: not one person's data, kept across sign-ins. */
export function sharedTrackerSource(api: ApiClient, token: string): TrackerSource {
  const key = sharedKey(token);
  // Awaited: the browser's client (web/lib/api.ts) hands every method's answer back as a promise, `shared`'s too.
  const shared = async () => api.shared(token);
  return {
    key,
    staleOnRunEnd: key,
    linksToSearches: false,
    reads: {
      runs: async (page) => (await shared()).runs(page),
      run: async (runId) => (await shared()).run(runId),
      trend: async (query) => (await shared()).trend(query),
      sources: async (query) => (await shared()).sources(query),
      alerts: async () => (await shared()).alerts(),
      changes: async (query) => (await shared()).changes(query),
      summary: async (query) => (await shared()).summary(query),
    },
  };
}
