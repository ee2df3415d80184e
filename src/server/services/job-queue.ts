/**
 * Work that outlives its request (src/server/jobs: pg-boss on the app's database). Services see
 * only this: they register handlers when they are built, and send jobs. The queue itself starts
 * at the first job sent, or when the server starts (so jobs left by a restart resume).
 */
import type { SendOptions } from "#src/server/jobs/index.ts";

export type { SendOptions };

export type JobQueue = {
  send<T extends object>(queue: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Several jobs in one statement, which wakes the queue's workers once (each `send` wakes every idle one). */
  sendMany<T extends object>(queue: string, jobs: Array<{ data: T; options?: SendOptions }>): Promise<void>;
  /**
   * A handler for a queue: at most `concurrency` of its jobs at once in this process. With
   * `heartbeatSeconds`, a job whose instance died is retried elsewhere after that long (ADR 043).
   */
  work<T extends object>(
    queue: string,
    /** `quick`: jobs that take milliseconds, fetched and run `concurrency` at a time (src/server/jobs). */
    options: { concurrency: number; heartbeatSeconds?: number; quick?: boolean },
    handler: (data: T, job: { signal: AbortSignal; retryCount: number }) => Promise<void>,
  ): void;
  /** A cron schedule sending `data` to `queue` at each tick, once whichever instances are up; the same key replaces it. */
  schedule<T extends object>(queue: string, cron: string, data: T, options: { timezone: string; key: string }): Promise<void>;
  unschedule(queue: string, key: string): Promise<void>;
  /** Removes every schedule of a queue; how many there were. */
  unscheduleAll(queue: string): Promise<number>;
  /**
   * Work done each time the queue starts in this process (at server start, or at the first job
   * sent), in the background: what must be in place whenever jobs run, put back if it went.
   */
  onStart(task: () => Promise<void>): void;
  start(): Promise<void>;
  /**
   * Stops taking jobs. Graceful (the default) waits a while for running handlers; `graceful: false`
   * aborts them at once and hands their jobs back for a retry (a crash, as far as the jobs can tell).
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
};
