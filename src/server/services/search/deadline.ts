/** A search's time limit for 1 iteration and for 100 (SEARCH_DEADLINE_SECONDS, SEARCH_DEADLINE_SECONDS_AT_100). */
export type DeadlinePolicy = { oneIterationMs: number; hundredIterationsMs: number };

/** When a running search must be over: `at` on the performance.now() clock; `ms` its length, for the cards. */
export type Deadline = { at: number; ms: number };

/**
 * A search's time limit, from when it starts: the 1-iteration limit, plus the 100-iteration one's
 * extra in proportion to the iterations beyond the first (never less than the 1-iteration limit).
 */
export function deadlineFor(iterations: number, policy: DeadlinePolicy, now = performance.now()): Deadline {
  const extra = Math.max(0, policy.hundredIterationsMs - policy.oneIterationMs);
  const ms = Math.round(policy.oneIterationMs + (extra * (Math.min(Math.max(iterations, 1), 100) - 1)) / 99);
  return { at: now + ms, ms };
}

/** A provider card's words when the limit cut it off: the search's limit, not the provider's failure. */
export function deadlineMessage(ms: number): string {
  const seconds = ms / 1000;
  return `No answer within ${seconds >= 10 ? Math.round(seconds) : Number(seconds.toFixed(1))} s: the search's time limit was reached.`;
}
