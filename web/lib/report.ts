import { listModels } from "#src/contract/providers.ts";
import type { CompareReport } from "#src/contract/compare.ts";
import type { SharedTracker } from "#src/contract/shares.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { formatDate } from "#src/core/dates.ts";
import { askedTimes } from "#src/core/method.ts";

/*
 * The words of a report's heading: a printed page, or a share link's page, says what it
 * shows, as of when, and how the figures were made.
 */

/** When a tracker's figures are from, given its runs newest first: the newest run that finished. */
export function asOfText(runs: ReadonlyArray<Pick<TrackerRun, "status" | "scheduledFor" | "startedAt" | "finishedAt">>): string {
  // A run still going is not what the figures are as of: they end at the newest run that finished.
  const finished = runs.find((run) => run.status !== "queued" && run.status !== "running");
  if (finished) return `As of the run of ${formatDate(finished.finishedAt ?? finished.startedAt ?? finished.scheduledFor)}`;
  return runs.length > 0 ? "No run has finished yet" : "No runs yet";
}

/** How a tracker's runs ask: which assistants, how many questions, how many times each. */
export function trackerMethod(tracker: Pick<SharedTracker, "providers" | "queries" | "iterations">): string {
  const questions = tracker.queries.length === 1 ? "its question" : `its ${tracker.queries.length} questions`;
  const times = askedTimes(tracker.iterations);
  return `Each run asks ${listModels(tracker.providers)} ${questions} exactly as typed, with web search on, ${times} each.`;
}

/** A comparison's date: its newest search's. */
export function comparedOnText(report: Pick<CompareReport, "searches">): string {
  const newest = report.searches
    .map((search) => search.createdAt)
    .toSorted()
    .at(-1);
  return newest ? `Searches of ${formatDate(newest, { time: false })} and before` : "No saved searches";
}

/** How a comparison was made: which searches it pools. */
export function compareMethod(report: Pick<CompareReport, "searches">): string {
  const variants = report.searches.filter((search) => search.role === "variant").length;
  return `The original query and ${variants} variant${variants === 1 ? "" : "s"}, each its latest saved search, asked exactly as typed with web search on; an item counts once per search that returned it.`;
}
