import { backoffDelay, retryWithBackoff } from "#src/core/backoff.ts";

/**
 * The bounded retry of the database connection at start, for a database that starts at the same
 * time as the app (docker compose): up to `attempts` tries within `budgetMs`, waiting 1/20, 1/10,
 * 1/5, 2/5 of the budget between them (0.5, 1, 2, 4 s for 10 s); each try gets the time left.
 */
export type ConnectRetryPolicy = { attempts: number; budgetMs: number };

export const connectRetryPolicy = (timeoutS: number): ConnectRetryPolicy => ({ attempts: 5, budgetMs: timeoutS * 1000 });

/** The last failure of a connection that was given up, and how long it was tried. */
export class ConnectError extends Error {
  override name = "ConnectError";
  constructor(
    readonly attempts: number,
    readonly elapsedMs: number,
    cause: unknown,
  ) {
    super(`gave up after ${attempts} attempt(s) in ${elapsedMs} ms: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export type RetryHooks = {
  /** Whether a failure may go away by itself (refused, timed out); others end the retry at once. */
  isTransient(error: unknown): boolean;
  /** Told before each wait: the failure, the attempt that failed (from 1), the wait. */
  onRetry(error: unknown, attempt: number, delayMs: number): void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

/** Never waits less than this for one attempt, even when the budget is almost spent. */
const MIN_ATTEMPT_MS = 1000;

export async function connectWithRetry<T>(attempt: (timeoutMs: number) => Promise<T>, policy: ConnectRetryPolicy, hooks: RetryHooks): Promise<T> {
  const now = hooks.now ?? (() => performance.now());
  const sleep = hooks.sleep ?? ((ms: number) => Bun.sleep(ms));
  const started = now();
  return retryWithBackoff(
    () => attempt(Math.max(MIN_ATTEMPT_MS, policy.budgetMs - (now() - started))),
    (error, failed) => {
      const n = failed + 1;
      const elapsed = now() - started;
      const delay = backoffDelay(failed, { baseMs: policy.budgetMs / 20 });
      if (!hooks.isTransient(error) || n >= policy.attempts || elapsed + delay >= policy.budgetMs) {
        throw new ConnectError(n, Math.round(elapsed), error);
      }
      hooks.onRetry(error, n, delay);
      return delay;
    },
    sleep,
  );
}
