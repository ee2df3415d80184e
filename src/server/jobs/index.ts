// Durable jobs: work that must outlive its request (a variant batch that survives a reload and a
// restart) is queued in the app's own database and handled by whichever instance is running.
// Built on pg-boss (ARCHITECTURE decision 11) rather than a home-made queue: it already does
// claiming with FOR UPDATE SKIP LOCKED across instances, retries, expiry of jobs whose process died,
// retention, and LISTEN/NOTIFY wake-ups, and it runs on PGlite as well as on PostgreSQL. Its tables
// live in their own schema, `pgboss`, which pg-boss installs and migrates itself on start; our
// drizzle migrations never see it. It reaches the database through the app's connection
// (./adapter.ts), so there is no second pool.
//
// Order in the server: `startJobs` after `migrate()`, before listening; on SIGTERM, `jobs.stop()`
// after the HTTP server stops taking requests and before `database.close()` (it waits for running
// handlers, which still use the database).
//
// On PGlite (one session, every call queued) a handler that awaits `jobs.send` inside a drizzle
// `db.transaction()` would wait for itself: the transaction holds the session. Send after it commits.
import { randomUUID } from "node:crypto";
import { PgBoss, type Job, type JobResult } from "pg-boss";
import type { Database } from "#db/client.ts";
import { pgBossDb } from "./adapter.ts";

export type SendOptions = {
  /**
   * The job's id (a UUID; a new one for each send unless given). A send with an id the queue
   * still holds (until JOB_RETENTION_SECONDS after that job ended) makes no second job and returns
   * null: a retried step sends what it hands on under an id of its own, so a repeat adds nothing.
   */
  id?: string;
  /**
   * At most one job per key is queued, retrying or running in a queue: a send while one is returns
   * null. Letters, digits and `_ . - /` only. Without a key every send is a new job.
   */
  singletonKey?: string;
  /** Retries after a failed attempt (a throw, or a shutdown that cut it short). Default 2. */
  retryLimit?: number;
  /** Wait before a retry. Default 0 (the next poll). */
  retryDelaySeconds?: number;
  /** Each retry waits twice as long as the one before (from retryDelaySeconds). */
  retryBackoff?: boolean;
  /** Don't run before this many seconds from now (a provider's Retry-After). */
  startAfterSeconds?: number;
  /**
   * How long one attempt may run before pg-boss fails it (and aborts its signal). Default 900 (pg-boss's
   * 15 minutes): a job that can legitimately run longer says how long.
   */
  expireInSeconds?: number;
};

/** A queue's own settings, fixed when it is first created. */
export type QueueSettings = {
  /**
   * The running instance refreshes a job's heartbeat every half of this; a job whose heartbeat is
   * this old is failed and retried elsewhere, instead of after the 15-minute expiry (pg-boss's minimum is 10).
   */
  heartbeatSeconds?: number;
};

export type JobInfo = {
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Aborted when the job can no longer complete here (stop without grace, expiry): stop early. */
  signal: AbortSignal;
};

export type WorkOptions = { concurrency: number } & QueueSettings & {
    /**
     * Jobs that take milliseconds (a tracker's tick). pg-boss waits a polling interval after each job
     * a worker finishes unless a new one was announced, so one at a time they ran at `concurrency`
     * every 2 s: 1,000 trackers' ticks at one minute took a quarter of an hour. Quick jobs are
     * fetched up to `concurrency` at a time and run together, and fetched again at once while a fetch
     * comes back full. Each job still completes or fails (and is retried) on its own.
     */
    quick?: boolean;
  };

export type JobHandler<T> = (data: T, job: JobInfo) => Promise<void>;

export type Jobs = {
  /** Enqueues; returns the job id, or null when a job with the same singletonKey is already queued or running, or one with the same id is kept. */
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Enqueues several in one statement (one notification); a job whose singletonKey is queued or running already is left out. */
  sendMany<T extends object>(queue: string, jobs: Array<{ data: T; options?: SendOptions }>): Promise<void>;
  /**
   * Handles a queue with at most `concurrency` jobs at once in this process (other instances add
   * their own). A handler that throws fails the attempt; the job is retried up to its retryLimit.
   * An attempt may run 15 minutes (pg-boss's default, or the job's own expireInSeconds); then it counts
   * as failed and its signal is aborted. A job whose process died is picked up again once that time has passed.
   */
  work<T extends object>(queue: string, options: WorkOptions, handler: JobHandler<T>): Promise<void>;
  /**
   * A cron schedule (five fields, read in `timezone`) that sends `data` to `queue` at each tick:
   * one job per tick whichever instances are up; a tick missed while none was up is sent once at
   * the next start. Scheduling the same `key` again replaces it.
   */
  schedule<T extends object>(queue: string, cron: string, data: T, options: { timezone: string; key: string }): Promise<void>;
  unschedule(queue: string, key: string): Promise<void>;
  /** Removes every schedule of a queue; how many there were. */
  unscheduleAll(queue: string): Promise<number>;
  /**
   * Stops fetching. Graceful (the default): waits up to `timeoutSeconds` (30) for running handlers,
   * then fails what is still running so that it is retried. `graceful: false` does that at once.
   */
  stop(options?: { graceful?: boolean; timeoutSeconds?: number }): Promise<void>;
};

export type StartJobsOptions = {
  /**
   * How often an idle worker looks for jobs. New jobs wake workers at once (LISTEN/NOTIFY, also
   * across instances); the poll finds retries and anything a notification missed. Default 2;
   * pg-boss's minimum is 0.5.
   */
  pollingIntervalSeconds?: number;
  /** How often schedules are checked for due ticks (pg-boss's cron monitor; 1 to 45). Default 30. */
  cronMonitorIntervalSeconds?: number;
  /** How often jobs whose heartbeat lapsed are failed for a retry (pg-boss's supervisor). Default 30. */
  superviseIntervalSeconds?: number;
  /** pg-boss's background errors (a failed poll, maintenance). Default: console.error. */
  onError?: (error: Error) => void;
};

/**
 * How long a finished job (completed, failed or cancelled) is kept before pg-boss's maintenance
 * deletes it: 6 hours instead of pg-boss's 7 days. What a job did is kept in our own tables (a
 * run's calls, a mail's send); its row is for reading what happened this morning. At 10,000
 * hourly trackers (a tick and a query job each an hour) that keeps about 120,000 rows, not 3.4 million.
 */
export const JOB_RETENTION_SECONDS = 6 * 3600;

/** pg-boss refuses anything shorter. */
export const MIN_POLLING_INTERVAL_SECONDS = 0.5;

/** Installs or migrates the `pgboss` schema if needed and starts pg-boss on the app's database. */
export async function startJobs(database: Database, options: StartJobsOptions = {}): Promise<Jobs> {
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const onError = options.onError ?? ((error: Error) => console.error(`jobs: ${error.message}`));
  const boss = new PgBoss({
    db: pgBossDb(database),
    backend: database.kind,
    useListenNotify: true,
    // Trackers' schedules (ADR 043): each tick is sent once, by whichever instance's pass claims it.
    schedule: true,
    cronMonitorIntervalSeconds: options.cronMonitorIntervalSeconds ?? 30,
    // A cron pass files each due tick as a job of pg-boss's own forwarding queue, which sends them on
    // 50 per poll: at its default of a poll every 5 s, 1,000 trackers due at 09:00 took 95 s to tick.
    cronWorkerIntervalSeconds: 1,
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 30,
  });
  boss.on("error", onError);
  boss.on("warning", (warning) => console.warn(`jobs: ${warning.message}`));
  await boss.start();

  // Queues must exist before send/work (pg-boss 10+); creating one is idempotent (ON CONFLICT DO
  // NOTHING), so an existing queue keeps the options it was created with.
  const queues = new Map<string, Promise<void>>();
  const ensureQueue = (name: string, settings: QueueSettings = {}): Promise<void> => {
    let created = queues.get(name);
    if (!created) {
      // `exclusive`: one queued-or-active job per singleton key. Sends without a key use their own
      // id as key, so for them the policy never bites.
      // A queue made before the retention was set keeps pg-boss's 7 days unless it is updated.
      created = boss
        .createQueue(name, { policy: "exclusive", notify: true, deleteAfterSeconds: JOB_RETENTION_SECONDS, ...settings })
        .then(() => boss.updateQueue(name, { deleteAfterSeconds: JOB_RETENTION_SECONDS }));
      created.catch(() => queues.delete(name));
      queues.set(name, created);
    }
    return created;
  };

  return {
    async send(queue, data, sendOptions = {}) {
      await ensureQueue(queue);
      return boss.send(queue, data, jobOptions(sendOptions));
    },

    async sendMany(queue, many) {
      if (many.length === 0) return;
      await ensureQueue(queue);
      await boss.insert(
        queue,
        many.map(({ data, options }) => ({ data, ...jobOptions(options) })),
      );
    },

    async schedule(queue, cron, data, { timezone, key }) {
      await ensureQueue(queue);
      // `missed: once`: after a time with no instance up, the latest missed tick runs once, never a burst.
      // The schedule's key is its ticks' singleton key: under the queue's `exclusive` policy a tick
      // sent without one shares the null key with every other schedule's, and all but one of the
      // ticks due in the same minute were dropped (bench/trackers.ts, 100 trackers: 2 runs).
      await boss.schedule(queue, cron, data, { tz: timezone, key, missed: "once", singletonKey: key });
    },

    async unschedule(queue, key) {
      await ensureQueue(queue);
      await boss.unschedule(queue, key);
    },

    async unscheduleAll(queue) {
      await ensureQueue(queue);
      // A page at a time (pg-boss answers 1,000 by default): each page is removed before the next is read.
      let removed = 0;
      for (;;) {
        const page = await boss.getSchedules(queue, undefined, { limit: 1000 });
        if (page.length === 0) return removed;
        for (const { key } of page) await boss.unschedule(queue, key);
        removed += page.length;
      }
    },

    async work<T extends object>(queue: string, { concurrency, quick = false, ...settings }: WorkOptions, handler: JobHandler<T>) {
      await ensureQueue(queue, settings);
      const polling = {
        pollingIntervalSeconds,
        // While notifications flow pg-boss would otherwise poll every 30 s, which delays retries.
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
      };
      const run = (job: Job<T>) => handler(job.data, { id: job.id, retryCount: job.retryCount, signal: job.signal });
      if (quick && concurrency > 1) {
        await boss.work<T>(queue, { ...polling, localConcurrency: 1, batchSize: concurrency, burstWhenBatchFull: true, perJobResults: true }, (jobs) =>
          Promise.all(
            jobs.map(async (job): Promise<JobResult> => {
              try {
                await run(job);
                return { id: job.id, status: "completed" };
              } catch (error) {
                return { id: job.id, status: "failed", output: { message: error instanceof Error ? error.message : String(error) } };
              }
            }),
          ),
        );
        return;
      }
      await boss.work<T>(queue, { ...polling, localConcurrency: concurrency, batchSize: 1 }, async (jobs) => {
        for (const job of jobs) await run(job);
      });
    },

    async stop({ graceful = true, timeoutSeconds = 30 } = {}) {
      await boss.stop({ graceful, timeout: timeoutSeconds * 1000 });
    },
  };
}

/** pg-boss's options for a job, with an id of its own; unset options are left out (pg-boss validates a key that is present, even undefined). */
function jobOptions({ id = randomUUID(), singletonKey, retryLimit, retryDelaySeconds, retryBackoff, startAfterSeconds, expireInSeconds }: SendOptions = {}) {
  return {
    id,
    // Without a key of its own a job would share the null key with every other under the `exclusive` policy.
    singletonKey: singletonKey ?? id,
    ...(retryLimit === undefined ? {} : { retryLimit }),
    ...(retryDelaySeconds === undefined ? {} : { retryDelay: retryDelaySeconds }),
    ...(retryBackoff === undefined ? {} : { retryBackoff }),
    ...(startAfterSeconds === undefined ? {} : { startAfter: startAfterSeconds }),
    ...(expireInSeconds === undefined ? {} : { expireInSeconds }),
  };
}
