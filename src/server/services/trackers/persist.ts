import { backoffDelay, retryWithBackoff } from "#src/core/backoff.ts";

/** How long a write that must land (a paid answer, a slot given back) is tried again while the database is away. */
export const PERSIST_FOR_MS = 120_000;

/**
 * Runs a database write until it lands: a connection lost, a restart, a pool starved for a few
 * seconds fail it now and not a moment later. An integrity violation (SQLSTATE class 23: the row it
 * belongs to is gone, a tracker deleted) will fail every time, and so does a write still failing
 * after PERSIST_FOR_MS: those are thrown.
 */
export function persist<T>(write: () => Promise<T>, forMs = PERSIST_FOR_MS): Promise<T> {
  const until = performance.now() + forMs;
  return retryWithBackoff(
    () => write(),
    (error, n) => {
      if (isIntegrityViolation(error) || performance.now() >= until) throw error;
      return backoffDelay(n, { baseMs: 100, maxMs: 5_000, jitter: 0.3 });
    },
    (ms) => Bun.sleep(ms),
  );
}

/** A constraint refused it (SQLSTATE 23xxx), on either driver: writing it again changes nothing. */
export function isIntegrityViolation(error: unknown): boolean {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("23")) return true;
  }
  return false;
}
