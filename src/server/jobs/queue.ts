import type { Database } from "#db/client.ts";
import type { JobQueue } from "#src/server/services/job-queue.ts";
import { startJobs, type Jobs, type StartJobsOptions } from "./index.ts";

/**
 * The services' job queue on pg-boss. Handlers are registered when the services are built and
 * attached when pg-boss starts: at the first job sent, or at server start (`start`), so jobs a
 * restart left behind resume without anyone asking. An app that never queues a job never starts it.
 */
export function createJobQueue(database: Database, options: StartJobsOptions = {}): JobQueue {
  const handlers: Array<(jobs: Jobs) => Promise<void>> = [];
  let started: Promise<Jobs> | undefined;
  const jobs = () =>
    (started ??= startJobs(database, options).then(async (running) => {
      for (const attach of handlers) await attach(running);
      return running;
    }));
  return {
    send: async (queue, data, sendOptions) => (await jobs()).send(queue, data, sendOptions),
    work(queue, workOptions, handler) {
      handlers.push((running) => running.work(queue, workOptions, (data, job) => handler(data as never, job)));
    },
    schedule: async (queue, cron, data, scheduleOptions) => (await jobs()).schedule(queue, cron, data, scheduleOptions),
    unschedule: async (queue, key) => (await jobs()).unschedule(queue, key),
    start: async () => {
      await jobs();
    },
    async stop({ graceful = true } = {}) {
      if (started) await (await started).stop({ graceful, timeoutSeconds: 8 });
    },
  };
}
