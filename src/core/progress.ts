import { providerIds } from "#src/contract/providers.ts";
import type { SearchResult } from "#src/contract/search-result.ts";

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

/**
 * How far a search stopped part-way had come: the most iterations any provider finished (its
 * failed ones counted, as the progress panel counts them), of the iterations asked for.
 */
export function finishedIterations(result: Pick<SearchResult, "models" | "stats" | "iterationCount">): { finished: number; asked: number } {
  let finished = 0;
  for (const id of providerIds) {
    const stats = result.stats[id];
    finished = Math.max(finished, stats ? stats.iterations + stats.failedIterations : result.models[id]?.status === "ok" ? 1 : 0);
  }
  return { finished, asked: result.iterationCount };
}

/** What a cancelled search says, on its page and in the CLI (ADR 030): "Cancelled after 10 of 100 iterations". */
export function cancelledNote(result: Pick<SearchResult, "models" | "stats" | "iterationCount">): string {
  const { finished, asked } = finishedIterations(result);
  return `Cancelled after ${finished} of ${asked} ${asked === 1 ? "iteration" : "iterations"}`;
}
