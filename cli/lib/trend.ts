import type { ApiClient } from "#src/client/api.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { Trend, TrendDispersion, TrendMetric, TrendParams, TrendPoint } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DISPERSION_PRIOR } from "#src/core/dispersion.ts";
import { intervalText } from "#src/core/stats.ts";
import { POSITION_DIRECTION, positionRange } from "#src/core/position-axis.ts";
import { fitTable } from "./fit-table.ts";
import { simulatedLine } from "./render.ts";
import { when } from "./trackers.ts";

/*
 * A tracker's trend as people read it: `aisc track trend` prints a table per provider
 * (a row per run, a column per subject) and a sparkline; the MCP tool `tracker_trend` a few lines
 * per provider. Every figure is the API's point, only formatted. A band covers the tracker's
 * figure, not only one run's answers: each provider's spread says how much its runs vary (ADR 050).
 */

/** Whether each provider answers from its simulator on this server (GET /api/status), as `aisc status` and the web's tracker estimate say. */
export type SimulatedFlags = Partial<Record<ProviderId, boolean>>;

/** What each metric's figures are, for the headings. */
const METRIC_TEXT: Record<TrendMetric, string> = {
  mention: "mention rate (answers naming each brand, of n answers), 95% band for the tracker's rate",
  sov: "share of voice (each brand's mentions, of n mentions of every brand), 95% band for the tracker's share",
  citation: "citation rate (answers citing each brand's own domains, of n answers), 95% band for the tracker's rate",
  position: "mean position among the products (1 = first) when ranked, over the k of n answers ranking it, 95% band",
};

/** Under the heading: what a band covers, and why it is wider than one run's answers would make it. */
export const BANDS_TEXT =
  "Bands cover the tracker's figure, not only one run's answers: the answers of one run move together, so each band is widened by how much the provider's runs vary (its spread ×φ; ×1.0 is as if answers were independent).";

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
      [{ head: "Run (UTC)" }, ...subjects.map((subject) => ({ head: visibleText(subject), flexible: true }))],
      runs.map(({ at, points }) => [when(at), ...subjects.map((subject) => figureText(trend.metric, points.get(subject)))]),
    );
    return [`${providerName(id, simulated)}:`, table, sparklineLine(trend.metric, runs, subjects), ...spreadLine(trend.dispersion, id)].join("\n");
  });
  return [`${capitalised(METRIC_TEXT[trend.metric])}, per run:`, BANDS_TEXT, ...simulatedNote(trend, simulated), ...sections].join("\n\n");
}

/** The MCP tool's answer: per provider, each subject's figure per run, oldest first, and the sparkline. */
export function trendSummary(trend: Trend, simulated: SimulatedFlags): string {
  const lines = [`${capitalised(METRIC_TEXT[trend.metric])}, per run (UTC), oldest first:`, BANDS_TEXT, ...simulatedNote(trend, simulated)];
  for (const id of trendProviders(trend.points)) {
    const { runs, subjects } = grouped(trend.points.filter((point) => point.provider === id));
    lines.push(`${providerName(id, simulated)}:`);
    for (const { at, points } of runs)
      lines.push(`- ${when(at)}: ${subjects.map((subject) => `${visibleText(subject)} ${figureText(trend.metric, points.get(subject))}`).join("; ")}`);
    lines.push(sparklineLine(trend.metric, runs, subjects), ...spreadLine(trend.dispersion, id));
  }
  return lines.join("\n");
}

/** A trend without points, in words: none matches the filters, or no run has ended with results yet (then `hint`, how to run it). */
export function noPointsText(query: TrendParams, hint = ""): string {
  const filters = Object.entries(query).flatMap(([key, value]) => (key === "metric" || value === undefined ? [] : [key]));
  return filters.length ? `No runs with results match the filters (${filters.join(", ")}).` : `No runs with results yet.${hint}`;
}

/**
 * A point's figure: "60.0% (31.3–83.2) n=10"; for position "2.3 (1.8–2.8) k=7 of n=10", a mean
 * ranked by one answer without a band ("2.0 (1 answer ranked it) k=1 of n=10"); "—" without one.
 */
export function figureText(metric: TrendMetric, point: TrendPoint | undefined): string {
  if (!point) return "—";
  const count = metric === "position" ? `k=${point.k} of n=${point.n}` : `n=${point.n}`;
  if (metric === "position" && point.rate !== null && (point.low === null || point.high === null))
    return `${point.rate.toFixed(1)} (${point.k} answer${point.k === 1 ? "" : "s"} ranked it) ${count}`;
  if (point.rate === null || point.low === null || point.high === null) return `— ${count}`;
  const unit = metric === "position" ? "" : "%";
  return `${point.rate.toFixed(1)}${unit} (${intervalText(point.low, point.high, 1)}) ${count}`;
}

/**
 * A sparkline, one character per value: rates on a fixed 0–100% scale (so that a bar's height
 * means the same rate in every tracker, and a small wobble does not look like a fall); positions
 * from the first place (tallest) to the furthest seen, at least the second, as the web chart's axis. A missing value is "·".
 */
export function sparkline(metric: TrendMetric, values: ReadonlyArray<number | null>): string {
  const [, worst] = positionRange(Math.max(1, ...values.filter((value) => value !== null)));
  return values
    .map((value) => {
      if (value === null) return GAP;
      const height = metric === "position" ? (worst - value) / (worst - 1) : value / 100;
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
  const scale = metric === "position" ? POSITION_DIRECTION : "0–100%";
  return `${visibleText(subject)} over the runs (${scale}): ${sparkline(
    metric,
    runs.map((run) => run.points.get(subject)?.rate ?? null),
  )}`;
}

/**
 * Under a provider's figures, how much its runs vary, which its bands are widened by: "Run-to-run
 * spread ×1.8: each band is widened by it."; while it is mostly the starting assumption (its own
 * runs weigh less than the prior's), said so.
 */
export function spreadLine(dispersion: readonly TrendDispersion[], provider: ProviderId): string[] {
  const found = dispersion.find((entry) => entry.provider === provider);
  if (!found) return [];
  const spread = `×${found.phi.toFixed(1)}`;
  const source =
    found.df <= DISPERSION_PRIOR.df + 1e-9 ? " (assumed until its runs show their own)" : found.df < 2 * DISPERSION_PRIOR.df ? " (mostly assumed so far)" : "";
  return [`Run-to-run spread ${spread}${source}: ${spread === "×1.0" ? "as if answers were independent" : "each band is widened by it"}.`];
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
