import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import type { TrendMetric } from "#src/contract/trend.ts";
import type { SummaryPeriodName } from "#src/contract/summary.ts";
import type { TrackerShape } from "#web/lib/tracker-form.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { listPollInterval, pollInterval, type PollFacts } from "#web/lib/live-poll.ts";
import { isLive } from "#web/lib/trackers.ts";
import { TRACKERS_KEY, type TrackerSource } from "#web/lib/tracker-source.ts";

export { TRACKERS_KEY };

/** Every workspace's trackers list starts so. */
export const LIST_KEY = [...TRACKERS_KEY, "list"] as const;

/** The runs a tracker's page shows at a time. */
export const RUNS_PAGE = 10;

/** How often the header's bell reads the inbox again while the page is open (and on coming back to it, once this old). */
export const INBOX_REFRESH_MS = 5 * 60_000;

/**
 * The trackers' queries, for the server's prefetch and the browser alike. A Pro tool's
 * keys, under "workbench": one person's data, dropped on sign-in and sign-out (personalQueryKeys).
 * A tracker's report reads from its source: the owner's tracker, or a share link's,
 * under the source's own keys.
 * Runs start and finish in the background, on whichever instance: while a page is visible the list,
 * a tracker and its runs are read again on a short poll (web/lib/live-poll.ts, ADR 067), and on coming
 * back to the tab. Those are the cheap reads; what a run's end changes (a run's results, the trend,
 * the headline, sources, alerts) is read once when it ends (useRunEnds).
 */
export const trackerQueries = {
  /** One workspace's trackers (ADR 071); under LIST_KEY, which a change to any tracker makes stale. */
  list: (api: ApiClient, workspaceId: string) =>
    queryOptions({
      queryKey: [...LIST_KEY, workspaceId],
      queryFn: async () => (await api.listTrackers({ workspaceId })).trackers,
      staleTime: 0,
      refetchOnWindowFocus: true,
      refetchInterval: (query) => listPollInterval((query.state.data ?? []).map(pollFacts), Date.now()),
    }),
  one: (api: ApiClient, id: string) =>
    queryOptions({
      queryKey: [...TRACKERS_KEY, "one", id],
      queryFn: () => api.getTracker(id),
      staleTime: 0,
      refetchOnWindowFocus: true,
      refetchInterval: (query) => (query.state.data ? pollInterval(pollFacts(query.state.data), Date.now()) : false),
    }),
  /** What change a tracker of this shape could tell: the server's simulation, the same for a shape until it is redeployed. */
  detectability: (api: ApiClient, shape: TrackerShape) =>
    queryOptions({
      queryKey: [...TRACKERS_KEY, "detectability", shape.questions, shape.iterations, shape.providers, shape.competitors],
      queryFn: () => api.estimateTracker(shape),
      staleTime: Number.POSITIVE_INFINITY,
    }),
  /** A tracker's newest runs (`limit` of them: the page asks for more with "Older runs"); the page polls them (its interval knows the tracker). */
  runs: (source: TrackerSource, limit = RUNS_PAGE) =>
    queryOptions({
      queryKey: [...source.key, "runs", limit],
      queryFn: () => source.reads.runs({ limit }),
      staleTime: 0,
      refetchOnWindowFocus: true,
      placeholderData: keepPreviousData,
    }),
  /** One run with the brand's mentions per question: read once it has ended (the runs list carries a live run's progress). */
  run: (source: TrackerSource, runId: string) => queryOptions({ queryKey: [...source.key, "run", runId], queryFn: () => source.reads.run(runId) }),
  /** A tracker's trend for one metric: every run's rollups, oldest first; with a tag, over its questions only (ADR 068). */
  trend: (source: TrackerSource, metric: TrendMetric, tag?: string) =>
    queryOptions({
      queryKey: [...source.key, "trend", metric, ...(tag ? [tag] : [])],
      queryFn: () => source.reads.trend({ metric, ...(tag ? { tag } : {}) }),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  /** The brand's headline for a period (the page opens on 7 days). */
  summary: (source: TrackerSource, period: SummaryPeriodName = "7d") =>
    queryOptions({
      queryKey: [...source.key, "summary", period],
      queryFn: () => source.reads.summary({ period }),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  /** The brand's figure per question and provider: the trend's small multiples. */
  trendPerQuery: (source: TrackerSource, metric: TrendMetric) =>
    queryOptions({
      queryKey: [...source.key, "trend-per-query", metric],
      queryFn: () => source.reads.trend({ metric, perQuery: true }),
      staleTime: 0,
      placeholderData: keepPreviousData,
    }),
  /** What entered and left the top 10s between the latest window of runs and up to 7 before it, beyond the run-to-run noise. */
  changes: (source: TrackerSource) => queryOptions({ queryKey: [...source.key, "changes"], queryFn: () => source.reads.changes(), staleTime: 0 }),
  /** A tracker's cited sources by type per run and provider, and its citation gap. */
  sources: (source: TrackerSource) => queryOptions({ queryKey: [...source.key, "sources"], queryFn: () => source.reads.sources(), staleTime: 0 }),
  /** A tracker's alerts, newest first. */
  alerts: (source: TrackerSource) =>
    queryOptions({ queryKey: [...source.key, "alerts"], queryFn: async () => (await source.reads.alerts()).alerts, staleTime: 0 }),
  /**
   * The header's bell: the newest alerts across the user's trackers. Alerts come when runs end, a
   * few times a day at most: read every INBOX_REFRESH_MS, on coming back to the tab once that old,
   * and when the panel opens; never in a background tab.
   */
  inbox: (api: ApiClient) =>
    queryOptions({
      queryKey: [...TRACKERS_KEY, "inbox"],
      queryFn: () => api.listUserAlerts(),
      staleTime: INBOX_REFRESH_MS,
      refetchInterval: INBOX_REFRESH_MS,
      refetchOnWindowFocus: true,
    }),
};

/** What a tracker's poll interval depends on. */
export function pollFacts(tracker: { lastRun: { status: TrackerRun["status"] } | null; nextRunAt: string | null; paused: boolean }): PollFacts {
  return { live: isLive(tracker.lastRun), nextRunAt: tracker.nextRunAt, paused: tracker.paused };
}
