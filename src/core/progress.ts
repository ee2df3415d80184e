/** Spec §4/§9: the fallback progress ticks every 1800 ms toward an expected count over 80 s. */
export const PROGRESS_TICK_MS = 1800;
export const PROGRESS_HORIZON_MS = 80_000;

/**
 * The next value of a simulated per-provider counter, used only when the server's live progress
 * stream is unavailable. It never reaches `total`: only the real completion does that.
 */
export function simulatedProgress(elapsedMs: number, total: number, previous: number): number {
  const ceiling = Math.max(total - 1, 0);
  if (elapsedMs <= PROGRESS_HORIZON_MS) {
    const expected = Math.floor((elapsedMs / PROGRESS_HORIZON_MS) * ceiling);
    return Math.min(ceiling, Math.max(previous, expected));
  }
  // Past the horizon the search is slower than expected: close half the remaining gap each tick.
  return Math.min(ceiling, previous + Math.ceil((ceiling - previous) / 2));
}
