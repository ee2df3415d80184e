import { and, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import type { TrackerRun, TrackerStall } from "#src/contract/trackers.ts";

/*
 * When a tracker's due run has not happened. The dispatcher keeps each tracker's next run in
 * `next_run_at` and moves it on as it ticks (ADR 055): one still in the past beyond the grace was
 * not dispatched; an occurrence the dispatcher found too late is a skipped run saying "missed:".
 */

/** A due run is taken as missed this long after it was due: ticks are sent within seconds, a busy queue takes minutes. */
export const MISSED_GRACE_MS = 15 * 60_000;
/** A run queued this long has not started: a start takes milliseconds. */
export const QUEUED_GRACE_MS = MISSED_GRACE_MS;
/** A skipped run whose reason begins so stands for an occurrence the dispatcher found missed. */
export const MISSED_PREFIX = "missed:";

/** Trackers not paused whose next run is more than MISSED_GRACE_MS past at `now` (the dispatcher's index). */
export async function overdueTrackers(db: Db, now: Date): Promise<Array<{ id: string; nextRunAt: Date }>> {
  const rows = await db
    .select({ id: trackers.id, nextRunAt: trackers.nextRunAt })
    .from(trackers)
    .where(and(lt(trackers.nextRunAt, new Date(now.getTime() - MISSED_GRACE_MS)), eq(trackers.paused, false), isNull(trackers.pausedReason)));
  return rows.flatMap((row) => (row.nextRunAt ? [{ id: row.id, nextRunAt: row.nextRunAt }] : []));
}

/**
 * Whether the tracker looks stalled now, and how: its last run queued past QUEUED_GRACE_MS or
 * running past `longestRunMs`; else a due run missed by more than MISSED_GRACE_MS, or a last run the
 * scheduler skipped as missed. A paused tracker is not stalled.
 */
export function stallOf(
  row: { paused: boolean; nextRunAt: Date | null },
  lastRun: Pick<TrackerRun, "status" | "scheduledFor" | "startedAt" | "reason"> | null,
  { now, longestRunMs }: { now: Date; longestRunMs: number },
): TrackerStall | null {
  if (row.paused) return null;
  const since = (iso: string) => now.getTime() - new Date(iso).getTime();
  if (lastRun?.status === "queued" && since(lastRun.scheduledFor) > QUEUED_GRACE_MS) return { kind: "queued", since: lastRun.scheduledFor };
  if (lastRun?.status === "running" && lastRun.startedAt && since(lastRun.startedAt) > longestRunMs) return { kind: "running", since: lastRun.startedAt };
  const due = row.nextRunAt;
  if (due && now.getTime() - due.getTime() > MISSED_GRACE_MS) return { kind: "missed", dueAt: due.toISOString() };
  if (lastRun?.status === "skipped" && lastRun.reason?.startsWith(MISSED_PREFIX)) return { kind: "missed", dueAt: lastRun.scheduledFor };
  return null;
}
