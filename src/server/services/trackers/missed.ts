import { and, eq, gt, gte, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerMissedRuns, trackerRuns, trackers } from "#db/schema.ts";
import type { JobQueue } from "../job-queue.ts";
import type { TrackerEmails } from "./emails.ts";
import { overdueTrackers } from "./overdue.ts";
import { DELIVERY_RETRIES, type Webhooks } from "./webhooks.ts";

/** The periodic look for due runs that did not happen: one pg-boss schedule for the deployment. */
const CHECK = "tracker-missed-check";
export const MISSED_CHECK_CRON = "*/5 * * * *";
const CHECK_KEY = "missed";
/** A recorded miss handed on to the webhook's and the e-mail's queues: a job, retried as a webhook delivery is. */
const TELL = "tracker-missed-tell";
/**
 * A miss not told this long after it was recorded (its job was never sent: the queue failed just
 * after the row) is sent again by the check. Well within the job's row's 6 hours (JOB_RETENTION_SECONDS):
 * sent again under its id, a job that exists or ran adds nothing, so a miss is tried only as often as its job's retries allow.
 */
const RESEND_WITHIN_MS = 3600_000;
/**
 * Misses are deleted 90 days after they were recorded. A row tells a miss once (its key stops a
 * second report of the occurrence, which comes within minutes or hours of it) and holds back a
 * second e-mail for one stall (toldSinceLastRun): a stall over 90 days old gets one more e-mail,
 * a reminder. The bell shows the newest few.
 */
const MISSED_KEPT_MS = 90 * 24 * 3600_000;

/**
 * Runs that were due and did not happen (ADR 057), told to the tracker's owner once per tracker and
 * occurrence: a bell item, an e-mail (to a proved address, through the outbox's cap) and the
 * webhook's `run.missed`. Whoever finds one reports it here: a tick skipped because the previous run
 * was still going, a scheduled run refused by a spend limit or budget, the scheduler, and the check
 * below. The unique key on (tracker, occurrence) makes a report sent twice, or by two instances at
 * once, tell nothing more. The e-mail and the webhook are handed on by a retried job (ADR 058), each
 * under the miss's id, so a failure is tried again and a retry sends nothing twice.
 */
export function createMissedRuns({
  db,
  queue,
  emails,
  webhooks,
  clock = () => new Date(),
}: {
  db: Db;
  queue: JobQueue;
  emails: Pick<TrackerEmails, "missed">;
  webhooks: Pick<Webhooks, "missed">;
  clock?: () => Date;
}) {
  queue.work<Record<string, never>>(CHECK, { concurrency: 1, quick: true }, async () => {
    await check();
  });
  queue.work<{ id: string }>(TELL, { concurrency: 4, quick: true }, ({ id }) => tell(id));

  /**
   * Records that the tracker's run due at `dueAt` did not happen, and why; tells its owner if this
   * call is the one that recorded it. Returns whether it did.
   */
  async function report(trackerId: string, dueAt: Date, reason: string): Promise<boolean> {
    const [tracker] = await db.select({ id: trackers.id }).from(trackers).where(eq(trackers.id, trackerId)).limit(1);
    if (!tracker) return false;
    const [recorded] = await db
      .insert(trackerMissedRuns)
      .values({ trackerId, dueAt, reason: reason.slice(0, 1000) })
      .onConflictDoNothing()
      .returning({ id: trackerMissedRuns.id });
    // Recorded already: by an earlier report, or by another instance at the same moment.
    if (!recorded) return false;
    try {
      await sendTell(recorded.id);
    } catch (error) {
      // Recorded, so not reported again: the check sends its job within minutes. The finder's own work goes on.
      console.warn(`missed run of tracker ${trackerId} not handed on yet: ${error instanceof Error ? error.message : String(error)}`);
    }
    return true;
  }

  function sendTell(id: string): Promise<string | null> {
    return queue.send(TELL, { id }, { id, ...DELIVERY_RETRIES });
  }

  /** The miss's webhook and e-mail handed to their queues, each under the miss's id: a retry after a failure half-way sends neither twice. */
  async function tell(id: string): Promise<void> {
    const [row] = await db.select().from(trackerMissedRuns).where(eq(trackerMissedRuns.id, id)).limit(1);
    if (!row || row.toldAt) return;
    const { trackerId, dueAt, reason } = row;
    await webhooks.missed(trackerId, { dueAt: dueAt.toISOString(), reason }, id);
    // One e-mail a stall: not when an earlier miss of this tracker was told since its last run that started.
    if (!(await toldSinceLastRun(trackerId, dueAt))) await emails.missed(trackerId, { dueAt, reason }, id);
    await db.update(trackerMissedRuns).set({ toldAt: clock() }).where(eq(trackerMissedRuns.id, id));
  }

  /** Whether an earlier miss of the tracker was recorded after its latest run that started (the same stall). */
  async function toldSinceLastRun(trackerId: string, dueAt: Date): Promise<boolean> {
    const [lastStarted] = await db
      .select({ at: sql<Date | string | null>`max(${trackerRuns.scheduledFor})` })
      .from(trackerRuns)
      .where(and(eq(trackerRuns.trackerId, trackerId), sql`${trackerRuns.startedAt} is not null`));
    const since = lastStarted?.at ? new Date(lastStarted.at) : new Date(0);
    const [earlier] = await db
      .select({ id: trackerMissedRuns.id })
      .from(trackerMissedRuns)
      .where(and(eq(trackerMissedRuns.trackerId, trackerId), lt(trackerMissedRuns.dueAt, dueAt), gt(trackerMissedRuns.dueAt, since)))
      .limit(1);
    return Boolean(earlier);
  }

  /**
   * Every tracker not paused whose next run is more than MISSED_GRACE_MS past, which the dispatcher
   * has not moved on (it tells the misses it finds itself), is reported. Then misses past
   * MISSED_KEPT_MS are deleted, and those recorded but never handed on get their job. Returns how many were newly recorded.
   */
  async function check(): Promise<number> {
    const now = clock();
    let told = 0;
    for (const row of await overdueTrackers(db, now)) {
      const late = Math.round((now.getTime() - row.nextRunAt.getTime()) / 60_000);
      if (await report(row.id, row.nextRunAt, `no run was made for it (${late} minutes late when checked): the schedule did not tick`)) told++;
    }
    await db.delete(trackerMissedRuns).where(lt(trackerMissedRuns.createdAt, new Date(now.getTime() - MISSED_KEPT_MS)));
    const untold = await db
      .select({ id: trackerMissedRuns.id })
      .from(trackerMissedRuns)
      .where(and(isNull(trackerMissedRuns.toldAt), gte(trackerMissedRuns.createdAt, new Date(now.getTime() - RESEND_WITHIN_MS))));
    for (const { id } of untold) await sendTell(id);
    return told;
  }

  return {
    report,
    check,
    /** The check's schedule, every 5 minutes, one job a tick whichever instances are up (idempotent). */
    schedule: () => queue.schedule(CHECK, MISSED_CHECK_CRON, {}, { timezone: "UTC", key: CHECK_KEY }),
  };
}

export type MissedRuns = ReturnType<typeof createMissedRuns>;
