/*
 * Waiting between attempts, written once: the retry loop, its exponential delays, and a sleep a
 * signal cuts short. Used by the provider calls, the database connection at start, the web's
 * fallback progress and the simulators.
 */

/**
 * Runs `attempt` (numbered from 0) until it succeeds. After a failure, `next` gives the wait
 * before the next attempt, or throws to give up (the failure itself, or what it means).
 */
export async function retryWithBackoff<T>(
  attempt: (n: number) => Promise<T>,
  next: (error: unknown, n: number) => number,
  sleep: (ms: number) => Promise<unknown>,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      await sleep(next(error, n));
    }
  }
}

/**
 * The wait after failed attempt `n` (from 0): `baseMs` doubled each time, at most `maxMs`; with
 * `jitter` (0..1), a random part of it taken off, so that callers failing together do not retry together.
 */
export function backoffDelay(n: number, { baseMs, maxMs = Number.POSITIVE_INFINITY, jitter = 0 }: { baseMs: number; maxMs?: number; jitter?: number }): number {
  const delay = Math.min(baseMs * 2 ** n, maxMs);
  return jitter > 0 ? delay * (1 - jitter + Math.random() * jitter) : delay;
}

/** Resolves true after `ms` (never, for Infinity), or false as soon as the signal aborts; never rejects. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = Number.isFinite(ms) ? setTimeout(() => done(true), ms) : undefined;
    const onAbort = () => done(false);
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
