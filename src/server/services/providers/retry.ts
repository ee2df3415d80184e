import { abortableSleep, backoffDelay, retryWithBackoff } from "#src/core/backoff.ts";
import { failureKind } from "./failure.ts";

/** Statuses worth another try: rate limits, timeouts, conflicts, server errors, Anthropic's 529. */
const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504, 529]);

export type RetryPolicy = { retries: number; baseDelayMs: number; maxDelayMs: number; callTimeoutMs: number };

/** What the provider's rate limits cost a call: the 429s it answered and the time waited as they asked (shown on the card). */
export type RateLimits = { count: number; waitedMs: number };

/** The longest `retry-after` followed; the search's deadline usually ends the wait sooner. */
const RETRY_AFTER_CAP_MS = 120_000;

export const defaultRetryPolicy: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 20_000, callTimeoutMs: 120_000 };

/**
 * Runs one provider call with a timeout, retrying retryable failures with exponential backoff
 * (jittered) or the provider's retry-after. The caller's signal aborts the wait and the call.
 * With `deadlineAt` (performance.now() clock), each attempt's timeout shrinks to the time left,
 * no retry starts whose wait would end past it, and an attempt it cuts throws DeadlineReachedError.
 */
export async function withRetry<T>(
  run: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
  policy: RetryPolicy = defaultRetryPolicy,
  deadlineAt = Number.POSITIVE_INFINITY,
  rateLimits?: RateLimits,
): Promise<T> {
  let timeoutMs = policy.callTimeoutMs;
  let callSignal = signal;
  return retryWithBackoff(
    () => {
      signal.throwIfAborted();
      const left = deadlineAt - performance.now();
      if (left <= 0) throw new DeadlineReachedError();
      timeoutMs = Math.min(policy.callTimeoutMs, Math.ceil(left));
      callSignal = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      return run(callSignal);
    },
    (error, attempt) => {
      // Not the provider's failure: the caller stopped, or the deadline came before the attempt.
      if (signal.aborted) throw signal.reason;
      if (error instanceof DeadlineReachedError) throw error;
      const timedOut = callSignal.aborted;
      if (timedOut && timeoutMs < policy.callTimeoutMs) throw new DeadlineReachedError();
      const failure = timedOut ? new Error(`timed out after ${policy.callTimeoutMs} ms`) : error;
      const limited = !timedOut && failureKind(error) === "rate_limited";
      if (limited && rateLimits) rateLimits.count++;
      if (attempt >= policy.retries || !(timedOut || isRetryable(error))) throw failure;
      // The provider's retry-after is honoured as asked (not shortened to our backoff's cap): asking sooner only earns another 429.
      const wait = retryAfterMs(error, RETRY_AFTER_CAP_MS) ?? backoffDelay(attempt, { baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs, jitter: 0.25 });
      // No attempt would fit before the deadline: the provider's own failure is the answer.
      if (performance.now() + wait >= deadlineAt) throw failure;
      if (limited && rateLimits) rateLimits.waitedMs += wait;
      return wait;
    },
    async (ms) => {
      if (!(await abortableSleep(ms, signal))) throw signal.reason;
    },
  );
}

/** The search's time limit ran out before the provider answered (not the provider's failure). */
export class DeadlineReachedError extends Error {
  override name = "DeadlineReachedError";
  constructor() {
    super("the search's time limit was reached");
  }
}

function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  // An exhausted quota comes as a 429 at OpenAI and Gemini, but no wait brings credit back.
  if (status !== undefined) return RETRYABLE.has(status) && failureKind(error) !== "quota_exhausted";
  // No HTTP status: a dropped connection or unreadable body, worth another try.
  return error instanceof Error && /connection|socket|ECONNRESET|fetch failed|network|JSON|terminated/i.test(`${error.name} ${error.message}`);
}

export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}

/**
 * Gemini's SDK keeps no headers on its errors: the wait is its body's google.rpc.RetryInfo
 * (`"retryDelay": "30s"`), which the error's message carries as JSON.
 */
function retryInfoDelay(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : "";
  return /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(message)?.[1];
}

/** `retry-after-ms`, else `retry-after` (or Gemini's RetryInfo) in seconds or as an HTTP date; capped. */
function retryAfterMs(error: unknown, capMs: number): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  const get = (name: string): string | null | undefined =>
    headers instanceof Headers ? headers.get(name) : typeof headers === "object" && headers ? (headers as Record<string, string | undefined>)[name] : undefined;
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") && Number.isFinite(ms)) return Math.min(Math.max(ms, 0), capMs);
  const value = get("retry-after") ?? retryInfoDelay(error);
  if (!value) return undefined;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(wait) ? Math.min(Math.max(wait, 0), capMs) : undefined;
}
