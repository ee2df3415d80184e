/**
 * Fixed-window attempt counters, kept in memory. Why not the database: a login throttle only has
 * to make online guessing slow, and each guess already costs an argon2id verification; counting
 * in memory needs no write per attempt and no table. The price: with N app instances behind a
 * load balancer an attacker gets up to N × `limit` attempts per window, and a restart forgets
 * the counts. The map is bounded so a flood of made-up usernames cannot exhaust memory.
 */
export function createThrottle({
  limit,
  windowMs,
  clock = () => new Date(),
  maxKeys = 50_000,
}: {
  limit: number;
  windowMs: number;
  clock?: () => Date;
  maxKeys?: number;
}) {
  const windows = new Map<string, { start: number; count: number }>();

  function prune(now: number): void {
    for (const [key, window] of windows) if (now - window.start >= windowMs) windows.delete(key);
    // Still full of live windows: drop the oldest (Map keeps insertion order).
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  }

  return {
    /**
     * Counts one attempt against every key, unless one of them has used its `limit` in the
     * current window: then nothing is counted and the answer says how long to wait.
     */
    attempt(keys: string[]): { allowed: true } | { allowed: false; retryAfterS: number } {
      const now = clock().getTime();
      let waitMs = 0;
      for (const key of keys) {
        const window = windows.get(key);
        if (window && now - window.start < windowMs && window.count >= limit) waitMs = Math.max(waitMs, window.start + windowMs - now);
      }
      if (waitMs > 0) return { allowed: false, retryAfterS: Math.ceil(waitMs / 1000) };
      if (windows.size >= maxKeys) prune(now);
      for (const key of keys) {
        const window = windows.get(key);
        if (window && now - window.start < windowMs) window.count++;
        else windows.set(key, { start: now, count: 1 });
      }
      return { allowed: true };
    },
  };
}

export type Throttle = ReturnType<typeof createThrottle>;

/** A refusal's wait in words: "Please try again in 2 minutes." (seconds under a minute, else minutes rounded up). */
export function tryAgainIn(waitS: number): string {
  const [n, unit] = waitS < 60 ? [waitS, "second"] : [Math.ceil(waitS / 60), "minute"];
  return `Please try again in ${n} ${unit}${n === 1 ? "" : "s"}.`;
}
