import type { ApiClient } from "#src/client/api.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { Trend, TrendMetric, TrendParams, TrendPoint } from "#src/contract/trend.ts";
import { fitTable } from "./fit-table.ts";
import { simulatedLine } from "./render.ts";
import { when } from "./trackers.ts";

/*
 * A tracker's trend as people read it (issue 26): `aisc track trend` prints a table per provider
 * (a row per run, a column per subject) and a sparkline; the MCP tool `tracker_trend` a few lines
 * per provider. Every figure is the API's point, only formatted.
 */

/** Whether each provider answers from its simulator on this server (GET /api/status), as `aisc status` and the web's tracker estimate say. */
export type SimulatedFlags = Partial<Record<ProviderId, boolean>>;

/** What each metric's figures are, for the headings. */
const METRIC_TEXT: Record<TrendMetric, string> = {
  mention: "mention rate (answers naming each brand, of n answers), 95% interval",
  sov: "share of voice (each brand's mentions, of n mentions of every brand), 95% interval",
  citation: "citation rate (answers citing each brand's own domains, of n answers), 95% interval",
  position: "mean position among the products (1 = first), 95% interval, over the k of n answers ranking it",
};

const BARS = "▁▂▃▄▅▆▇█";
// A run without a figure (no answers, or never ranked) in a sparkline.
const GAP = "·";

/** The simulated flags of the providers the trend has, from the server's modes (the trend's points carry none). */
export async function simulatedFlags(api: ApiClient, trend: Trend): Promise<SimulatedFlags> {
  return simulatedFlagsOf(api, trendProviders(trend.points));
}

/** The simulated flags of these providers, from the server's modes (GET /api/status); none asked, no call. */
export async function simulatedFlagsOf(api: ApiClient, providers: readonly ProviderId[]): Promise<SimulatedFlags> {
  if (providers.length === 0) return {};
  const { modes } = await api.status();
  return Object.fromEntries(providers.map((id) => [id, modes[id] === "simulated"]));
}

/** `aisc track trend`: per provider a heading, a table (a row per run, oldest first; a column per subject, the brand first) and the sparkline. */
export function trendTables(trend: Trend, simulated: SimulatedFlags): string {
  const sections = trendProviders(trend.points).map((id) => {
    const { runs, subjects } = grouped(trend.points.filter((point) => point.provider === id));
    const table = fitTable(
      [{ head: "Run (UTC)" }, ...subjects.map((subject) => ({ head: subject, flexible: true }))],
      runs.map(({ at, points }) => [when(at), ...subjects.map((subject) => figureText(trend.metric, points.get(subject)))]),
    );
    return [`${providerName(id, simulated)}:`, table, sparklineLine(trend.metric, runs, subjects)].join("\n");
  });
  return [`${capitalised(METRIC_TEXT[trend.metric])}, per run:`, ...simulatedNote(trend, simulated), ...sections].join("\n\n");
}

/** The MCP tool's answer: per provider, each subject's figure per run, oldest first, and the sparkline. */
export function trendSummary(trend: Trend, simulated: SimulatedFlags): string {
  const lines = [`${capitalised(METRIC_TEXT[trend.metric])}, per run (UTC), oldest first:`, ...simulatedNote(trend, simulated)];
  for (const id of trendProviders(trend.points)) {
    const { runs, subjects } = grouped(trend.points.filter((point) => point.provider === id));
    lines.push(`${providerName(id, simulated)}:`);
    for (const { at, points } of runs)
      lines.push(`- ${when(at)}: ${subjects.map((subject) => `${subject} ${figureText(trend.metric, points.get(subject))}`).join("; ")}`);
    lines.push(sparklineLine(trend.metric, runs, subjects));
  }
  return lines.join("\n");
}

/** A trend without points, in words: none matches the filters, or no run has ended with results yet (then `hint`, how to run it). */
export function noPointsText(query: TrendParams, hint = ""): string {
  const filters = Object.entries(query).flatMap(([key, value]) => (key === "metric" || value === undefined ? [] : [key]));
  return filters.length ? `No runs with results match the filters (${filters.join(", ")}).` : `No runs with results yet.${hint}`;
}

/** A point's figure: "60.0% (31.3–83.2) n=10"; for position "2.3 (1.8–2.8) k=7 of n=10"; "—" without one. */
export function figureText(metric: TrendMetric, point: TrendPoint | undefined): string {
  if (!point) return "—";
  const count = metric === "position" ? `k=${point.k} of n=${point.n}` : `n=${point.n}`;
  if (point.rate === null || point.low === null || point.high === null) return `— ${count}`;
  const unit = metric === "position" ? "" : "%";
  return `${point.rate.toFixed(1)}${unit} (${point.low.toFixed(1)}–${point.high.toFixed(1)}) ${count}`;
}

/**
 * A sparkline, one character per value: rates on a fixed 0–100% scale (so that a bar's height
 * means the same rate in every tracker, and a small wobble does not look like a fall); positions
 * from the first place (tallest) to the furthest seen. A missing value is "·".
 */
export function sparkline(metric: TrendMetric, values: ReadonlyArray<number | null>): string {
  const worst = Math.max(1, ...values.filter((value) => value !== null));
  return values
    .map((value) => {
      if (value === null) return GAP;
      const height = metric === "position" ? (worst === 1 ? 1 : (worst - value) / (worst - 1)) : value / 100;
      return BARS[Math.round(Math.min(1, Math.max(0, height)) * (BARS.length - 1))];
    })
    .join("");
}

type RunPoints = { runId: string; at: string; points: Map<string, TrendPoint> };

/** One provider's points by run (oldest first, as the API orders them) and its subjects, the brand first. */
function grouped(points: readonly TrendPoint[]): { runs: RunPoints[]; subjects: string[] } {
  const runs = new Map<string, RunPoints>();
  for (const point of points) {
    const run = runs.get(point.runId) ?? { runId: point.runId, at: point.at, points: new Map() };
    run.points.set(point.subject, point);
    runs.set(point.runId, run);
  }
  const subjects = [...new Set(points.toSorted((a, b) => Number(b.isBrand) - Number(a.isBrand)).map((point) => point.subject))];
  return { runs: [...runs.values()], subjects };
}

/** "HubSpot ▃▅▆" under a provider's table: the brand's line (or the first subject's, when narrowed to a competitor). */
function sparklineLine(metric: TrendMetric, runs: readonly RunPoints[], subjects: readonly string[]): string {
  const subject = subjects[0] ?? "";
  const scale = metric === "position" ? "taller = nearer the top" : "0–100%";
  return `${subject} over the runs (${scale}): ${sparkline(
    metric,
    runs.map((run) => run.points.get(subject)?.rate ?? null),
  )}`;
}

/** The providers the points have, in catalogue order. */
function trendProviders(points: readonly TrendPoint[]): ProviderId[] {
  return providerIds.filter((id) => points.some((point) => point.provider === id));
}

function providerName(id: ProviderId, simulated: SimulatedFlags): string {
  return `${providerCatalogue[id].model}${simulated[id] ? " (simulated)" : ""}`;
}

function simulatedNote(trend: Trend, simulated: SimulatedFlags): string[] {
  const line = simulatedLine(trendProviders(trend.points).filter((id) => simulated[id]));
  return line ? [line] : [];
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
