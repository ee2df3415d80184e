import type { ApiClient } from "#src/client/api.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { Tracker, TrackerRun, TrackerRunStatus } from "#src/contract/trackers.ts";
import { formatEstimate, formatListedCost, formatUsd } from "#src/core/cost.ts";
import { locationLabel } from "#src/core/location.ts";
import { visibleText } from "#src/core/display-text.ts";
import { lastRunText, nextRunText, stallText } from "#src/core/tracker-timing.ts";
import type { ExitReason } from "./exit.ts";
import { onInterrupt } from "./interrupt.ts";
import { fitTable, type FitColumn } from "./fit-table.ts";
import type { Progress } from "./progress.ts";
import { rateText, simulatedLine } from "./render.ts";

/*
 * Trackers as people read them: `aisc track` prints these tables, the MCP tools
 * these summaries. Every figure is the server's (the run's counts, cost and mention rates). Names
 * and queries are shown through visibleText (./render.ts says why).
 */

const POLL_MS = 1000;

/** A run that has not ended yet. */
export function isRunning(run: Pick<TrackerRun, "status">): boolean {
  return run.status === "queued" || run.status === "running";
}

/** How `aisc track run --wait` exits, by how the run ended: a partial run has its own code (scripts may accept it). */
export const RUN_EXIT: Record<Exclude<TrackerRunStatus, "queued" | "running">, ExitReason> = {
  completed: "ok",
  partial: "partialRun",
  // Every provider failed: as a search whose every provider failed.
  failed: "server",
  // The spend limit or a lapsed subscription stopped it.
  skipped: "limit",
};

/**
 * Polls the run until it ends, the progress line on stderr (a terminal only). Ctrl-C stops
 * following, not the run: it goes on on the server, and the CLI says where to find it.
 */
export async function followRun(api: ApiClient, run: TrackerRun, progress: Progress): Promise<TrackerRun> {
  const stopListening = onInterrupt(() => {
    progress.succeed();
    process.stderr.write(`Stopped following run ${run.id}; it goes on: aisc track show ${run.trackerId}\n`);
  });
  try {
    for (;;) {
      if (!isRunning(run)) {
        (run.status === "completed" ? progress.succeed : progress.fail)(runLine(run));
        return run;
      }
      progress.update(runLine(run));
      await Bun.sleep(POLL_MS);
      run = await api.getTrackerRun(run.trackerId, run.id);
    }
  } finally {
    stopListening();
  }
}

/** "Run 1f… · running · 12/30 answers (1 failed) · $0.00 (simulated)"; a skipped or failed run says why. */
export function runLine(run: TrackerRun): string {
  const { expected, done, failed } = run.answers;
  const parts = [`Run ${run.id}`, run.status, `${done}/${expected} answers${failed ? ` (${failed} failed)` : ""}`, runCost(run)];
  return `${parts.join(" · ")}${run.reason ? `: ${visibleText(run.reason)}` : ""}`;
}

/** A run's cost so far, as the history lists a search's. */
export function runCost(run: Pick<TrackerRun, "cost">): string {
  return formatListedCost({ costUsd: run.cost.usd, simulated: run.cost.simulated });
}

/** A time as the tables write it: "2026-11-26 09:00" (UTC, said in the heading). */
export function when(iso: string | null | undefined): string {
  return iso ? iso.slice(0, 16).replace("T", " ") : "—";
}

/**
 * `aisc track list`: a row per tracker, three columns so that it fits 80: the id (whole, to copy),
 * the tracker (name, schedule in words, its workspace when given their names, paused and why; wrapped), its runs (the last with its
 * status, the next).
 */
export function trackersTable(trackers: readonly Tracker[], workspaceNames?: ReadonlyMap<string, string>): string {
  return fitTable(
    [{ head: "ID" }, { head: "Tracker", flexible: true }, { head: "Runs (UTC)" }],
    trackers.map((tracker) => [
      tracker.id,
      [
        visibleText(tracker.name),
        tracker.scheduleText,
        ...(workspaceNames ? [`in ${visibleText(workspaceNames.get(tracker.workspaceId) ?? tracker.workspaceId)}`] : []),
        ...(tracker.paused ? [`paused${tracker.pausedReason ? `: ${visibleText(tracker.pausedReason)}` : ""}`] : []),
        ...(tracker.stall ? [`! ${stallText(tracker.stall, tracker.schedule.timezone)}`] : []),
      ].join("\n"),
      [...lastRunCells(tracker.lastRun), tracker.paused ? "paused" : `next ${when(tracker.nextRunAt)}`].join("\n"),
    ]),
  );
}

/** The list's last run: "last completed" and when it ended, "running since" and when it started; "never run". */
function lastRunCells(run: TrackerRun | null): string[] {
  if (!run) return ["never run"];
  if (run.status === "queued") return ["queued since", when(run.scheduledFor)];
  if (run.status === "running") return ["running since", when(run.startedAt ?? run.scheduledFor)];
  return [`last ${run.status}`, when(run.finishedAt ?? run.startedAt ?? run.scheduledFor)];
}

/** `aisc track show`: what the tracker asks, of whom, when, what it should cost, and what change it can tell. */
export function trackerText(tracker: Tracker): string {
  const brands = (entries: Tracker["competitors"]) => entries.map((entry) => visibleText(entry.name)).join(", ") || "none";
  const { brand, estimate } = tracker;
  const own = [...brand.aliases.map((alias) => `also "${visibleText(alias)}"`), ...brand.domains];
  return [
    `${visibleText(tracker.name)} (${tracker.id})${tracker.paused ? ` · paused${tracker.pausedReason ? `: ${visibleText(tracker.pausedReason)}` : ""}` : ""}`,
    `Schedule: ${tracker.scheduleText}`,
    `Next run: ${nextRunText({ ...tracker, pausedReason: undefined })}`,
    `Last run: ${visibleText(lastRunText(tracker.lastRun, tracker.schedule.timezone))}`,
    ...(tracker.stall ? [`Warning: ${stallText(tracker.stall, tracker.schedule.timezone)}`] : []),
    `Brand: ${visibleText(brand.name)}${own.length ? ` (${own.join(", ")})` : ""} · competitors: ${brands(tracker.competitors)}`,
    `Asks ${providersText(tracker.providers)}, ${tracker.iterations} ${tracker.iterations === 1 ? "time" : "times"} per query${tracker.location ? `, from ${visibleText(locationLabel(tracker.location))}` : ""}`,
    `Estimate: ${formatEstimate(estimate.perRunUsd, estimate.simulated)} per run, ${formatEstimate(estimate.perMonthUsd, estimate.simulated)} per month${tracker.monthlyBudgetUsd === undefined ? "" : ` · budget ${formatUsd(tracker.monthlyBudgetUsd)} a month`}`,
    `Queries (${tracker.queries.length}):`,
    ...tracker.queries.map((query, i) => `  ${i + 1}. ${visibleText(query)}`),
    ...(tracker.detectability ? [`What it can see: ${tracker.detectability.sentence}`] : []),
  ].join("\n");
}

/** The providers by the names people know ("ChatGPT, Claude"). */
export function providersText(ids: readonly ProviderId[]): string {
  return ids.map((id) => providerCatalogue[id].model).join(", ");
}

/** `aisc track show`: the latest runs, newest first; on a narrow screen the trigger goes first, then the date, the cost. */
export function runsTable(runs: readonly TrackerRun[]): string {
  return fitTable(
    [
      { head: "Run" },
      { head: "Status", flexible: true },
      { head: "Answers" },
      { head: "Cost", droppable: true },
      { head: "Scheduled (UTC)", droppable: true },
      { head: "Trigger", droppable: true },
    ],
    runs.map((run) => [
      run.id,
      run.reason ? `${run.status}: ${visibleText(run.reason)}` : run.status,
      `${run.answers.done}/${run.answers.expected}${run.answers.failed ? ` (${run.answers.failed} failed)` : ""}`,
      runCost(run),
      when(run.scheduledFor),
      run.trigger,
    ]),
  );
}

/** The newest of the runs that has results (completed or partial), read on its own: a list of runs leaves out the mention rates. */
export async function latestResults(api: ApiClient, runs: readonly TrackerRun[]): Promise<TrackerRun | undefined> {
  const latest = runs.find((run) => run.status === "completed" || run.status === "partial");
  return latest && api.getTrackerRun(latest.trackerId, latest.id);
}

/** The providers a run's queries have mention rates for, in catalogue order. */
function runProviders(run: TrackerRun): ProviderId[] {
  return providerIds.filter((id) => run.queries.some((query) => query.brandMentions?.[id]));
}

/**
 * A run's results: per query, the brand's mention rate per provider with its 95% band (for the
 * tracker's rate on the question, widened by how much its runs vary: ADR 050), and the saved search.
 */
export function runResultsTable(run: TrackerRun, brand: string): string {
  const providers = runProviders(run);
  const columns: FitColumn[] = [
    { head: "Query", flexible: true },
    ...providers.map((id) => ({ head: `${providerCatalogue[id].model}\nnames ${visibleText(brand)}` })),
    // Dropped on a narrow screen: the --json has it, and `aisc history` lists the searches.
    { head: "Saved search", droppable: true },
  ];
  const rows = run.queries.map((query) => [
    visibleText(query.query),
    ...providers.map((id) => {
      const rate = query.brandMentions?.[id];
      return rate ? `${rateText(rate)}\n95% band ${rate.low}–${rate.high}%` : "—";
    }),
    query.searchId ?? (query.failed ? `${query.failed} failed` : "—"),
  ]);
  return fitTable(columns, rows);
}

/**
 * A run's results in a few lines (the MCP tool's answer): the run, then per query the brand's
 * mention rate per provider; a provider whose answers were simulated is named so (its figures are invented).
 */
export function runSummary(run: TrackerRun, tracker: Pick<Tracker, "name" | "brand">, simulated: Partial<Record<ProviderId, boolean>>): string {
  const providers = runProviders(run);
  const name = (id: ProviderId) => `${providerCatalogue[id].model}${simulated[id] ? " (simulated)" : ""}`;
  const lines = [`${visibleText(tracker.name)}: ${runLine(run)} · scheduled for ${when(run.scheduledFor)} UTC (${run.trigger})`];
  const line = simulatedLine(providers.filter((id) => simulated[id]));
  if (line) lines.push(line);
  lines.push(
    `How often the answers named ${visibleText(tracker.brand.name)} (mention rate, with a 95% band for the tracker's rate on the query, widened by how much its runs vary), per query:`,
  );
  for (const query of run.queries) {
    const rates = providers.flatMap((id) => {
      const rate = query.brandMentions?.[id];
      return rate ? [`${name(id)} ${rateText(rate)} [${rate.low}–${rate.high}%]`] : [];
    });
    lines.push(`- "${visibleText(query.query)}": ${rates.join(", ") || "no answers"}${query.searchId ? ` (search ${query.searchId})` : ""}`);
  }
  return lines.join("\n");
}

/**
 * Per provider the run asked, whether it answered from its simulator, as the run's first saved
 * search says (a run asks every query of the providers in the same modes): the MCP tool's flags.
 */
export async function simulatedInRun(api: ApiClient, run: TrackerRun): Promise<Partial<Record<ProviderId, boolean>>> {
  const searchId = run.queries.find((query) => query.searchId)?.searchId;
  if (!searchId) return {};
  const search = await api.getSearch(searchId);
  // A provider the run did not ask is "off" in the search.
  return Object.fromEntries(providerIds.flatMap((id) => (search.models[id] && search.models[id].status !== "off" ? [[id, search.models[id].simulated]] : [])));
}
