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
  const startTasks: Array<() => Promise<void>> = [];
  let started: Promise<Jobs> | undefined;
  const jobs = () =>
    (started ??= startJobs(database, options).then(async (running) => {
      for (const attach of handlers) await attach(running);
      return running;
    }));
  // After the queue has started (the tasks send and schedule through it): a failure is told, and the next start tries again.
  // A stop waits for the tasks still going, so a server stopped just after it started does not close the database under them.
  const tasksGoing = new Set<Promise<void>>();
  const afterStart = () =>
    jobs().then(() => {
      for (const task of startTasks) {
        const going = task()
          .catch((error) => console.error(`jobs: a task at start failed: ${error instanceof Error ? error.message : String(error)}`))
          .finally(() => tasksGoing.delete(going));
        tasksGoing.add(going);
      }
    });
  let startedTasks: Promise<void> | undefined;
  const running = async () => {
    const ready = await jobs();
    startedTasks ??= afterStart();
    return ready;
  };
  return {
    send: async (queue, data, sendOptions) => (await running()).send(queue, data, sendOptions),
    sendMany: async (queue, many) => (await running()).sendMany(queue, many),
    work(queue, workOptions, handler) {
      handlers.push((running) => running.work(queue, workOptions, (data, job) => handler(data as never, job)));
    },
    onStart(task) {
      startTasks.push(task);
    },
    schedule: async (queue, cron, data, scheduleOptions) => (await running()).schedule(queue, cron, data, scheduleOptions),
    unschedule: async (queue, key) => (await running()).unschedule(queue, key),
    unscheduleAll: async (queue) => (await running()).unscheduleAll(queue),
    start: async () => {
      await running();
    },
    async stop({ graceful = true } = {}) {
      if (!started) return;
      const boss = await started;
      await startedTasks?.catch(() => undefined);
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([Promise.allSettled([...tasksGoing]), new Promise((done) => (waited = setTimeout(done, 8_000)))]);
      clearTimeout(waited);
      await boss.stop({ graceful, timeoutSeconds: 8 });
    },
  };
}
