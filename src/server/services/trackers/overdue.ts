import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerRuns, trackers } from "#db/schema.ts";
import type { TrackerRun, TrackerStall } from "#src/contract/trackers.ts";
import { nextRun } from "./schedule.ts";

/*
 * When a tracker's due run has not happened. Today the occurrence a tracker is due for is worked out
 * from its cron: the first after its latest scheduled run (or after it was last saved: created,
 * edited, resumed, paused or resumed by a lapse). A scheduler keeping each tracker's `next_run_at`
 * replaces `dueOccurrence` and `lastScheduled` with a read of that column; the rest stays.
 */

/** A due run is taken as missed this long after it was due: ticks are sent within seconds, a busy queue takes minutes. */
export const MISSED_GRACE_MS = 15 * 60_000;
/** A run queued this long has not started: a start takes milliseconds. */
export const QUEUED_GRACE_MS = MISSED_GRACE_MS;
/** A skipped run whose reason begins so stands for an occurrence the scheduler found missed. */
export const MISSED_PREFIX = "missed:";

type Scheduled = { cron: string; timezone: string; updatedAt: Date };

/** The occurrence the tracker is due for: the first after its latest scheduled run, or after it was last saved; null for a schedule that never fires again. */
export function dueOccurrence(row: Scheduled, lastScheduledFor: Date | null): Date | null {
  const from = lastScheduledFor && lastScheduledFor > row.updatedAt ? lastScheduledFor : row.updatedAt;
  try {
    return nextRun({ cron: row.cron, timezone: row.timezone }, from);
  } catch {
    // A schedule kept from before the rules tightened, which no longer parses: it is paused at start, and has no due run.
    return null;
  }
}

/** The latest scheduled run's occurrence of each tracker given (one indexed read: the occurrence key). */
export async function lastScheduled(db: Db, trackerIds: readonly string[]): Promise<Map<string, Date>> {
  if (trackerIds.length === 0) return new Map();
  const rows = await db
    .select({ trackerId: trackerRuns.trackerId, at: sql<Date | string>`max(${trackerRuns.scheduledFor})` })
    .from(trackerRuns)
    .where(and(inArray(trackerRuns.trackerId, [...trackerIds]), eq(trackerRuns.trigger, "schedule")))
    .groupBy(trackerRuns.trackerId);
  return new Map(rows.map((row) => [row.trackerId, new Date(row.at)]));
}

/** Trackers not paused, by their owner or for a reason, with what the check needs. */
export async function activeTrackers(db: Db) {
  return db
    .select({ id: trackers.id, cron: trackers.cron, timezone: trackers.timezone, updatedAt: trackers.updatedAt })
    .from(trackers)
    .where(and(eq(trackers.paused, false), isNull(trackers.pausedReason)));
}

/**
 * Whether the tracker looks stalled now, and how: its last run queued past QUEUED_GRACE_MS or
 * running past `longestRunMs`; else a due run missed by more than MISSED_GRACE_MS, or a last run the
 * scheduler skipped as missed. A paused tracker is not stalled.
 */
export function stallOf(
  row: Scheduled & { paused: boolean },
  lastRun: Pick<TrackerRun, "status" | "scheduledFor" | "startedAt" | "reason"> | null,
  lastScheduledFor: Date | null,
  { now, longestRunMs }: { now: Date; longestRunMs: number },
): TrackerStall | null {
  if (row.paused) return null;
  const since = (iso: string) => now.getTime() - new Date(iso).getTime();
  if (lastRun?.status === "queued" && since(lastRun.scheduledFor) > QUEUED_GRACE_MS) return { kind: "queued", since: lastRun.scheduledFor };
  if (lastRun?.status === "running" && lastRun.startedAt && since(lastRun.startedAt) > longestRunMs) return { kind: "running", since: lastRun.startedAt };
  const due = dueOccurrence(row, lastScheduledFor);
  if (due && now.getTime() - due.getTime() > MISSED_GRACE_MS) return { kind: "missed", dueAt: due.toISOString() };
  if (lastRun?.status === "skipped" && lastRun.reason?.startsWith(MISSED_PREFIX)) return { kind: "missed", dueAt: lastRun.scheduledFor };
  return null;
}
