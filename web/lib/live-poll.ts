/*
 * How often an open tracker page or list reads its tracker again (ADR 067): a short poll, not
 * server events, as runs finish on whichever instance holds the job. Pure: the clock is passed in.
 * React Query skips these intervals in a hidden tab (refetchIntervalInBackground is false).
 */

/** While a run is queued or running, or one is due: the progress and the new run show within seconds. */
export const FAST_POLL_MS = 2_000;
/** Otherwise: a run started elsewhere (the CLI, another tab) and a moved "next run" show within this. */
export const SLOW_POLL_MS = 30_000;
/** A run due this soon is watched for closely. */
export const DUE_SOON_MS = 60_000;
/**
 * And for this long after it was due: the dispatcher starts a minute's runs some seconds into it.
 * A run later than this is a stall, which the page says in words; polling fast would not help it.
 */
export const DUE_GRACE_MS = 2 * 60_000;

export type PollFacts = {
  /** A run of it is queued or running. */
  live: boolean;
  /** When the schedule runs it next (ISO); null when it does not (paused, a cron that never fires again). */
  nextRunAt: string | null;
  paused?: boolean;
};

/** The interval for one tracker's reads at `now` (ms since the epoch). */
export function pollInterval({ live, nextRunAt, paused = false }: PollFacts, now: number): number {
  if (live) return FAST_POLL_MS;
  if (paused || !nextRunAt) return SLOW_POLL_MS;
  const untilDue = Date.parse(nextRunAt) - now;
  return untilDue <= DUE_SOON_MS && untilDue > -DUE_GRACE_MS ? FAST_POLL_MS : SLOW_POLL_MS;
}

/** For a list of trackers: the shortest any of them asks for (an empty list reads again slowly). */
export function listPollInterval(trackers: readonly PollFacts[], now: number): number {
  return Math.min(SLOW_POLL_MS, ...trackers.map((tracker) => pollInterval(tracker, now)));
}
