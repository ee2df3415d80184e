import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerRuns, trackers } from "#db/schema.ts";
import type { JobQueue } from "../job-queue.ts";
import type { MissedRuns } from "./missed.ts";
import { MISSED_GRACE_MS, MISSED_PREFIX } from "./overdue.ts";
import { isOccurrence, nextOccurrence } from "./schedule.ts";

/*
 * Trackers' schedules as one dispatcher over `trackers.next_run_at` (ADR 055): the table is the
 * schedule. A dispatch (a pg-boss job, on whichever instance takes it) finds the trackers whose
 * next run is due, sends each its tick for that occurrence, and moves `next_run_at` on to the
 * following one. Dispatches chain themselves every DISPATCH_SECONDS; a one-minute pg-boss schedule
 * (one row for the deployment, put back at every start) restarts the chain if it ever breaks.
 */

/** A dispatch: ticks for every tracker due. */
export const DISPATCH = "tracker-dispatch";
/** How often a dispatch looks for due trackers. */
export const DISPATCH_SECONDS = 15;
/** The schedule that restarts the dispatch chain (pg-boss's cron fires at most once a minute). */
const DISPATCH_CRON = "* * * * *";
const DISPATCH_KEY = "dispatcher";
/** Due trackers read at a time. */
const BATCH = 500;
/** Trackers of a batch handled at once (a send and an update each). */
const LANES = 8;
/** Missed occurrences counted at most (a minutely tracker after a week away is not walked 10,000 times). */
const MISSED_COUNT_MAX = 1000;

type TrackerRow = typeof trackers.$inferSelect;
/** What the dispatcher sends at each tick: the occurrence it stands for (a catch-up: the time it was sent). */
export type TickJob = { trackerId: string; scheduledFor: string };
type Scheduled = Pick<TrackerRow, "id" | "paused" | "pausedReason" | "cron" | "timezone" | "nextRunAt">;

export type DispatcherDeps = {
  db: Db;
  queue: JobQueue;
  clock: () => Date;
  tickQueue: string;
  /** Where a missed occurrence is told to the tracker's owner (./missed.ts). */
  missed?: Pick<MissedRuns, "report">;
};

export function createDispatcher({ db, queue, clock, tickQueue, missed }: DispatcherDeps) {
  queue.work(DISPATCH, { concurrency: 1, quick: true }, async () => {
    try {
      await dispatch();
    } finally {
      await chain();
    }
  });
  queue.onStart(install);

  return {
    /**
     * The tracker's next run as its row now stands, written to `next_run_at` (and given back):
     * none while it is paused; its current one kept while that is still an occurrence of its
     * schedule (an edit of its name moves nothing), else the first after now. Only over the
     * schedule it was computed for, and null whenever the row is paused by then, so two edits
     * that interleave cannot leave a paused tracker scheduled.
     */
    async schedule(row: Scheduled): Promise<Date | null> {
      const next = nextFor(row, clock());
      const [written] = await db
        .update(trackers)
        .set({
          nextRunAt: sql`case when ${trackers.paused} or ${trackers.pausedReason} is not null then null else ${next?.toISOString() ?? null}::timestamptz end`,
        })
        .where(and(eq(trackers.id, row.id), eq(trackers.cron, row.cron), eq(trackers.timezone, row.timezone)))
        .returning({ nextRunAt: trackers.nextRunAt });
      // The queue runs the dispatcher: started here as the first schedule is kept (a server starts it anyway).
      if (written?.nextRunAt) await queue.start();
      return written ? written.nextRunAt : next;
    },

    /** No next run (paused, lapsed or deleted). */
    async unschedule(trackerId: string): Promise<void> {
      await db.update(trackers).set({ nextRunAt: null }).where(eq(trackers.id, trackerId));
    },

    /**
     * Whether the row's `next_run_at` needs `schedule` (the check at start): missing while it runs,
     * set while it is paused, or not an occurrence of its schedule (edited by hand, or left by a
     * schedule since changed). A past occurrence is kept: the dispatcher runs it, or tells it missed.
     */
    needsRepair(row: Scheduled): boolean {
      const paused = row.paused || row.pausedReason !== null;
      if (paused || row.nextRunAt === null) return paused !== (row.nextRunAt === null);
      return !isOccurrence({ cron: row.cron, timezone: row.timezone }, row.nextRunAt.getTime());
    },

    dispatch,
  };

  function nextFor(row: Scheduled, now: Date): Date | null {
    if (row.paused || row.pausedReason) return null;
    const schedule = { cron: row.cron, timezone: row.timezone };
    if (row.nextRunAt && isOccurrence(schedule, row.nextRunAt.getTime())) return row.nextRunAt;
    const next = nextOccurrence(schedule, now.getTime());
    return next === null ? null : new Date(next);
  }

  /**
   * At every start of the queue: the per-tracker pg-boss schedules of earlier versions removed
   * (the table is the schedule now), the dispatcher's own schedule put back (if it was deleted),
   * and a dispatch now.
   */
  async function install(): Promise<void> {
    await queue.unscheduleAll(tickQueue);
    await queue.schedule(DISPATCH, DISPATCH_CRON, {}, { timezone: "UTC", key: DISPATCH_KEY });
    await queue.send(DISPATCH, {}, { singletonKey: `${DISPATCH_KEY}/start` });
  }

  /** The next dispatch, at the next DISPATCH_SECONDS boundary: instances that chain at once send one job (its key is the boundary). */
  async function chain(): Promise<void> {
    const step = DISPATCH_SECONDS * 1000;
    const at = (Math.floor(Date.now() / step) + 1) * step;
    await queue.send(DISPATCH, {}, { singletonKey: `${DISPATCH_KEY}/${at}`, startAfterSeconds: Math.max(1, Math.ceil((at - Date.now()) / 1000)) });
  }

  /**
   * Every due tracker's tick sent and its `next_run_at` moved on; what was found. A tick is sent
   * before its move, with a key per tracker and occurrence, and a run is one per occurrence: a
   * dispatch cut short, or two at once, send a tick twice at worst and make one run. The move is a
   * compare-and-set on the value read: an edit made meanwhile wins. No lock is held across the
   * send (on PGlite a transaction holds the one session the send needs).
   */
  async function dispatch(): Promise<{ ticked: number; missed: number }> {
    const found = { ticked: 0, missed: 0 };
    for (let round = 0; round < 20; round++) {
      const now = clock();
      const due = await db
        .select({ id: trackers.id, cron: trackers.cron, timezone: trackers.timezone, nextRunAt: trackers.nextRunAt, segment: trackers.segment })
        .from(trackers)
        .where(and(lte(trackers.nextRunAt, now), eq(trackers.paused, false), isNull(trackers.pausedReason)))
        .orderBy(asc(trackers.nextRunAt))
        .limit(BATCH);
      const lanes = Array.from({ length: LANES }, async (_, lane) => {
        for (let i = lane; i < due.length; i += LANES) {
          const outcome = await dispatchOne(due[i]!, now);
          if (outcome.ticked) found.ticked++;
          if (outcome.missed) found.missed++;
        }
      });
      await Promise.all(lanes);
      if (due.length < BATCH) break;
    }
    return found;
  }

  async function dispatchOne(
    row: { id: string; cron: string; timezone: string; nextRunAt: Date | null; segment: number },
    now: Date,
  ): Promise<{ ticked: boolean; missed: boolean }> {
    const schedule = { cron: row.cron, timezone: row.timezone };
    const first = row.nextRunAt!.getTime();
    // The occurrences due: from the one kept to the last not after now (counted up to a bound).
    let latest = first;
    let previous = first;
    let count = 1;
    let next = nextOccurrence(schedule, first);
    while (next !== null && next <= now.getTime() && count < MISSED_COUNT_MAX) {
      previous = latest;
      latest = next;
      count++;
      next = nextOccurrence(schedule, next);
    }
    if (next !== null && next <= now.getTime()) next = nextOccurrence(schedule, now.getTime());
    const onTime = now.getTime() - latest <= MISSED_GRACE_MS;
    // Due occurrences not run: all but the latest when it is on time, all of them when even it is late.
    const missedCount = onTime ? count - 1 : count;
    if (missedCount > 0) {
      const missedAt = onTime ? previous : latest;
      const reason = missedReason(schedule.timezone, missedAt, missedCount, first, count >= MISSED_COUNT_MAX);
      const [recorded] = await db
        .insert(trackerRuns)
        .values({ trackerId: row.id, trigger: "schedule", segment: row.segment, scheduledFor: new Date(missedAt), status: "skipped", reason, finishedAt: now })
        .onConflictDoNothing()
        .returning({ id: trackerRuns.id });
      // Told as the first occurrence missed: the one the tracker's page shows (its next run) and the missed-run check reports, so either finder tells it once.
      if (recorded) await missed?.report(row.id, new Date(first), reason);
    }
    const runFor = onTime ? new Date(latest) : now;
    const tick = () =>
      queue.send<TickJob>(tickQueue, { trackerId: row.id, scheduledFor: runFor.toISOString() }, { singletonKey: `${row.id}/${runFor.getTime()}` });
    // An on-time tick is sent before the move (sent twice at worst, one run). A catch-up stands for
    // no occurrence, so it is sent only by the dispatch whose move won: once, or lost with a crash
    // in between (the missed row stands, and the next occurrence runs).
    if (onTime) await tick();
    const [moved] = await db
      .update(trackers)
      .set({ nextRunAt: next === null ? null : new Date(next) })
      .where(and(eq(trackers.id, row.id), eq(trackers.nextRunAt, row.nextRunAt!)))
      .returning({ id: trackers.id });
    if (moved && !onTime) await tick();
    return { ticked: onTime || Boolean(moved), missed: missedCount > 0 };
  }
}

/** "missed: the service was not running at 09:00 (Europe/Berlin)", and how many since when if more than one. */
function missedReason(timezone: string, at: number, count: number, first: number, more: boolean): string {
  const when = (ms: number, withDay: boolean) =>
    new Intl.DateTimeFormat("en-GB", {
      timeZone: timezone,
      hourCycle: "h23",
      ...(withDay ? { year: "numeric", month: "2-digit", day: "2-digit" } : {}),
      hour: "2-digit",
      minute: "2-digit",
    }).format(ms);
  const since = count > 1 ? `, nor ${more ? "more than " : ""}${count - 1} times before since ${when(first, true)}` : "";
  return `${MISSED_PREFIX} the service was not running at ${when(at, false)} (${timezone})${since}`;
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
