import type { SharedTracker, SharedTrackerRun, SharedTrackerRunList } from "#src/contract/shares.ts";
import type { Tracker, TrackerRun, TrackerRunList } from "#src/contract/trackers.ts";
import type { TrackerAlertList } from "#src/contract/trend.ts";

/*
 * What a link's visitor never sees of a tracker (ADR 048): its webhook, budget, cost estimate, runs' costs,
 * how many saved searches its runs made, which workspace it is in, why it is paused ("paused" is all a link tells, not a lapsed subscription nor a limit), why a run
 * was skipped (the same words: a lapse, the budget, the owner's spend), and the owner's saved
 * searches its runs and alerts point to (/search/{id} opens for the owner only, and the ids are
 * theirs). The same answers as the owner's otherwise.
 */

export function sharedTracker({
  webhook: _webhook,
  monthlyBudgetUsd: _budget,
  pausedReason: _reason,
  estimate: _estimate,
  savedSearches: _searches,
  workspaceId: _workspace,
  ...tracker
}: Tracker): SharedTracker {
  return { ...tracker, lastRun: tracker.lastRun && sharedRun(tracker.lastRun) };
}

/** A run without its cost and skip reason; a frozen link's kept last run may predate the cost's stripping. */
export function sharedRun({ reason, ...kept }: TrackerRun | SharedTrackerRun): SharedTrackerRun {
  const { cost: _cost, ...run } = kept as Partial<Pick<TrackerRun, "cost">> & SharedTrackerRun;
  return { ...run, ...(reason && run.status !== "skipped" ? { reason } : {}), queries: run.queries.map((query) => ({ ...query, searchId: null })) };
}

export function sharedRuns(list: TrackerRunList): SharedTrackerRunList {
  return { ...list, runs: list.runs.map(sharedRun) };
}

export function sharedAlerts(list: TrackerAlertList): TrackerAlertList {
  return { alerts: list.alerts.map((alert) => ({ ...alert, searchIds: [] })) };
}
