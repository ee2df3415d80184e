import type { ProviderChanges } from "#src/contract/changes.ts";

/*
 * "What changed" in words: what the tracker page's section compares, and what
 * it leaves out. No React: the section and the tests read the same words.
 */

/** The most runs before the latest window that "what changed" compares it with (the contract's ChangeWindow: a week of daily runs). */
export const CHANGES_BASELINE_RUNS = 7;

/** "run" or "3 runs". */
function runsText(runs: number): string {
  return runs === 1 ? "run" : `${runs} runs`;
}

/** What the section compares, once there are runs enough: the latest window against up to 7 runs before it, only moves beyond the noise listed. */
export function changesIntro(window: number): string {
  return (
    `The latest ${runsText(window)} against up to ${CHANGES_BASELINE_RUNS} runs before ${window === 1 ? "it" : "them"}: what entered or left the top 10 by how many answers named it. ` +
    "Only moves beyond how much the runs vary from run to run are listed."
  );
}

/** Before there are runs enough: what it will compare, and from when. */
export function changesNotReady(window: number): string {
  return `Not enough runs yet: this compares the latest ${runsText(window)} with up to ${CHANGES_BASELINE_RUNS} runs before ${window === 1 ? "it" : "them"}, once ${2 * window} runs have answered since what the tracker asks or counts last changed.`;
}

/** One provider's windows: "30 answers in the latest run, against 90 in the 3 runs before it". */
export function windowsText({ windows }: Pick<ProviderChanges, "windows">): string {
  const { before, after } = windows;
  const answers = (n: number) => `${n} answer${n === 1 ? "" : "s"}`;
  return `${answers(after.n)} in the latest ${runsText(after.runIds.length)}, against ${before.n} in the ${runsText(before.runIds.length)} before ${after.runIds.length === 1 ? "it" : "them"}.`;
}

/**
 * The moves in or out of a top 10 that are not listed, being within the run-to-run noise: "3 other
 * moves in or out of the top 10 were within the run-to-run noise and are not listed." (`listed`:
 * whether some moves are listed above it); null when there are none.
 */
export function withinNoiseText(count: number, listed: boolean): string | null {
  if (count <= 0) return null;
  const moves = `${count}${listed ? " other" : ""} move${count === 1 ? "" : "s"}`;
  return `${moves} in or out of the top 10 ${count === 1 ? "was" : "were"} within the run-to-run noise and ${count === 1 ? "is" : "are"} not listed.`;
}
