/**
 * Work that outlives its request (src/server/jobs: pg-boss on the app's database). Services see
 * only this: they register handlers when they are built, and send jobs. The queue itself starts
 * at the first job sent, or when the server starts (so jobs left by a restart resume).
 */
export type JobQueue = {
  send<T extends object>(queue: string, data: T, options?: { singletonKey?: string; retryLimit?: number }): Promise<string | null>;
  /** A handler for a queue: at most `concurrency` of its jobs at once in this process. */
  work<T extends object>(queue: string, options: { concurrency: number }, handler: (data: T) => Promise<void>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
};
