import type { ProviderId } from "#src/contract/providers.ts";
import type { TrackerAlert, TrendDispersion, TrendMetric, TrendPoint } from "#src/contract/trend.ts";
import { formatDate } from "#src/core/dates.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DISPERSION_PRIOR } from "#src/core/dispersion.ts";
import { newModelAt, versionSet } from "#src/core/model-identity.ts";
import { querySlug } from "#src/core/export.ts";
import { intervalText } from "#src/core/stats.ts";
import { POSITION_DIRECTION } from "#src/core/position-axis.ts";
import { formatPercent } from "#web/lib/format.ts";
import { metricLabels } from "#web/lib/alert-words.ts";
import { formatPValue, formatRate } from "#web/lib/workbench.ts";

/*
 * Pure helpers of the tracker page's trend and alerts: the series a provider's chart
 * draws, its markers, and the figures as text. No React, no I/O: the chart, its table and the
 * tests read the same words.
 */

/** What the y axis measures, per metric. Position says nothing of the answers that did not rank the subject. */
export const metricAxis: Record<TrendMetric, string> = {
  mention: "Answers naming it (%)",
  sov: "Share of all mentions (%)",
  citation: "Answers citing its site (%)",
  position: `Mean position when ranked, over the answers ranking it (1 at the top: ${POSITION_DIRECTION})`,
};

/** What a band is around, per metric: the tracker's figure, not one run's. */
const bandOf: Record<TrendMetric, string> = {
  mention: "its rate",
  sov: "its share",
  citation: "its rate",
  position: "its mean position when ranked",
};

/** The figure column's heading in a trend's tables. */
export function figureHeader(metric: TrendMetric): string {
  return metric === "position" ? "Mean position when ranked (95% band)" : "Rate (95% band for the tracker's rate)";
}

/** The count column's heading: answers (mentions for share of voice), or for position how many of them ranked it. */
export function countHeader(metric: TrendMetric): string {
  return metric === "position" ? "Answers ranking it (k of n)" : "n";
}

/** A point's count as its column reads it: "10", or for position "7 of 10". */
export function countText(point: Pick<TrendPoint, "k" | "n">, metric: TrendMetric): string {
  return metric === "position" ? `${point.k} of ${point.n}` : String(point.n);
}

/**
 * A point's figure with its 95% band: "60% (31–83%)", or for position "2.3 (1.9–2.7)"; a mean
 * position ranked by a single answer has no band ("2.0 (1 answer ranked it)"); "—" without answers
 * (for position, without an answer ranking it).
 */
export function formatPoint(point: Pick<TrendPoint, "rate" | "low" | "high"> & { k?: number }, metric: TrendMetric): string {
  if (point.rate === null) return "—";
  const one = (x: number) => x.toFixed(1);
  if (point.low === null || point.high === null) {
    if (metric !== "position") return "—";
    const k = point.k ?? 1;
    return `${one(point.rate)} (${k} answer${k === 1 ? "" : "s"} ranked it)`;
  }
  if (metric !== "position") return formatRate({ percentage: point.rate, low: point.low, high: point.high });
  return `${one(point.rate)} (${one(point.low)}–${one(point.high)})`;
}

/** The brand's entry in a provider chart's legend: what its shaded band covers. */
export function brandLegend(brand: string, metric: TrendMetric): string {
  return `${brand} (your brand; shaded: 95% band for ${bandOf[metric]} on this provider, not only this run's answers)`;
}

/** A provider chart's accessible name (and its table's): the metric, the brand with its band, the competitors. */
export function chartLabel(metric: TrendMetric, provider: string, brand: string | undefined, competitors: boolean): string {
  return `${metricLabels[metric]} on ${provider} per run${brand ? `: ${brand} with its 95% band` : ""}${competitors ? ", and its competitors" : ""}`;
}

/** φ as the page writes it: one decimal. */
export function spreadText(phi: number): string {
  return `×${phi.toFixed(1)}`;
}

/** The degrees of freedom a provider's dispersion starts with before its runs show their own. */
const PRIOR_DF = DISPERSION_PRIOR.df;

/** How much of φ is the starting assumption: all of it (no runs to read yet), most of it (fewer runs' worth than the prior's), or little. */
export function spreadSource(df: number): "assumed" | "mostly assumed" | "measured" {
  return df <= PRIOR_DF + 1e-9 ? "assumed" : df < 2 * PRIOR_DF ? "mostly assumed" : "measured";
}

const sourceWords = { assumed: ", assumed until its runs show their own", "mostly assumed": ", mostly assumed so far", measured: "" } as const;

/**
 * Under a trend's charts, what its bands cover, with each provider's dispersion (φ: how much its
 * runs vary, against answers taken as independent) in `order`, and whether it is still mostly the
 * starting assumption: "Bands cover the tracker's rate, not only one run's answers: the answers of
 * one run move together, so each band is widened by how much its provider's runs vary (ChatGPT /
 * OpenAI ×1.8; Gemini / Google ×1.0, as if answers were independent)."
 */
export function bandsCaption(
  metric: TrendMetric,
  dispersion: readonly TrendDispersion[],
  order: readonly ProviderId[],
  names: Readonly<Record<ProviderId, string>>,
): string {
  const noun = metric === "position" ? "mean position when ranked" : metric === "sov" ? "share" : "rate";
  const spreads = order.flatMap((provider) => {
    const found = dispersion.find((entry) => entry.provider === provider);
    if (!found) return [];
    const text = spreadText(found.phi);
    return [`${names[provider]} ${text}${text === "×1.0" ? ", as if answers were independent" : ""}${sourceWords[spreadSource(found.df)]}`];
  });
  const list = spreads.length > 0 ? ` (${spreads.join("; ")})` : "";
  return `Bands cover the tracker's ${noun}, not only one run's answers: the answers of one run move together, so each band is widened by how much its provider's runs vary${list}.`;
}

/**
 * A run's label on a chart's axis: its day ("Nov 26"), with the time when several runs share the
 * day ("Nov 26 09:00"), and the seconds when several share the minute ("Dec 7 03:06:12", a Run now
 * beside a scheduled run); "(2)" after a label that is still not its own.
 */
export function runLabels(ats: readonly string[]): string[] {
  const days = ats.map((at) => formatDate(at, { time: false }).replace(/, \d{4}$/, ""));
  const times = secondsWhereNeeded(ats).map((time) => time.replace(/^.*, \d{4}, /, "").replace(/ UTC$/, ""));
  return numbered(ats.map((_at, index) => (count(days, days[index]!) === 1 ? days[index]! : `${days[index]} ${times[index]}`)));
}

/** A run's time as the tooltip and the tables write it: "Dec 7, 2026, 03:06 UTC", with the seconds when another run shares its minute. */
export function runTimes(ats: readonly string[]): string[] {
  return numbered(secondsWhereNeeded(ats));
}

function secondsWhereNeeded(ats: readonly string[]): string[] {
  const minutes = ats.map((at) => new Date(at).toISOString().slice(0, 16));
  return ats.map((at, index) =>
    count(minutes, minutes[index]!) === 1 ? formatDate(at) : formatDate(at).replace(/ UTC$/, `:${new Date(at).toISOString().slice(17, 19)} UTC`),
  );
}

function count(values: readonly string[], value: string): number {
  return values.filter((other) => other === value).length;
}

/** Labels made distinct: a repeat gets " (2)", " (3)" after it, in order. */
function numbered(labels: readonly string[]): string[] {
  return labels.map((label, index) => {
    const before = count(labels.slice(0, index), label);
    return count(labels, label) > 1 && before > 0 ? `${label} (${before + 1})` : label;
  });
}

/** The space between two axis labels, in px. */
const LABEL_GAP = 12;

/**
 * Which runs an axis of `width` px labels, when a label is `labelWidth` px wide: as many as fit
 * side by side, evenly spaced and counted back from the newest run, so that the latest is always
 * labelled and no two labels overlap.
 */
export function labelledRuns(runs: number, width: number, labelWidth: number): number[] {
  if (runs <= 0) return [];
  const fit = Math.max(1, Math.floor(width / (labelWidth + LABEL_GAP)));
  const step = Math.ceil(runs / fit);
  const picked: number[] = [];
  for (let index = runs - 1; index >= 0; index -= step) picked.unshift(index);
  return picked;
}

/** A position axis's ticks from 1st place (always labelled: it is the top) to `worst`, about five of them at whole places. */
export function positionTicks(worst: number): number[] {
  const step = [1, 2, 5, 10, 20, 50].find((size) => (worst - 1) / size <= 5) ?? 100;
  const ticks = [1];
  for (let place = step; place <= worst; place += step) if (place > 1) ticks.push(place);
  return ticks;
}

/** What a chart's tooltip says of one run: its time, then each subject's figure with its interval. */
export function runTooltip(
  series: ChartSeries,
  index: number,
  scale: "percent" | "position",
): { time: string; rows: Array<{ name: string; text: string }> } | null {
  const run = series.runs[index];
  if (!run) return null;
  const time = runTimes(series.runs.map((r) => r.at))[index]!;
  const rows = series.subjects.map(({ name }) => {
    const point = run.bySubject.get(name);
    return { name, text: point ? pointFigure(point, scale) : "—" };
  });
  return { time, rows };
}

/** A point's figure where no count is shown: "60% (31–83%)", "2.3 (1.9–2.7)", or the figure alone when it has no interval. */
function pointFigure(point: Pick<TrendPoint, "rate" | "low" | "high">, scale: "percent" | "position"): string {
  if (point.rate === null) return "—";
  if (point.low !== null && point.high !== null) return formatPoint(point, scale === "position" ? "position" : "mention");
  return scale === "position" ? point.rate.toFixed(1) : formatPercent(point.rate);
}

/**
 * What a chart draws (web/components/trackers/trend-chart.tsx): per run, each subject's figure
 * (with its interval when it has one); the brand's line is drawn bold with its band.
 */
export type ChartSeries = {
  /** `color`: a theme colour's custom property, else one by the subject's place. */
  subjects: Array<{ name: string; isBrand: boolean; color?: string }>;
  runs: Array<{ at: string; bySubject: ReadonlyMap<string, Pick<TrendPoint, "rate" | "low" | "high">> }>;
  markers: Array<Pick<TrendMarker, "at" | "kind">>;
};

/** One run of a provider's chart: when, and each subject's point. */
export type TrendRun = { runId: string; at: string; bySubject: Map<string, TrendPoint> };

/** A vertical marker: a model change of the provider, or what the tracker asks or counts edited (a new series segment), before run `at`. */
export type TrendMarker = { at: string; kind: "model" | "queries"; text: string };

export type ProviderTrend = {
  provider: ProviderId;
  /** The brand first, then the competitors in their order of appearance. */
  subjects: Array<{ name: string; isBrand: boolean }>;
  runs: TrendRun[];
  markers: TrendMarker[];
};

/** The distinct runs of a trend: fewer than two draw no line. */
export function runCount(points: TrendPoint[]): number {
  return new Set(points.map((point) => point.runId)).size;
}

/**
 * The points grouped per provider (in `order`), oldest run first, with the provider's model
 * changes (its brand point's version differs from the run before) and the runs that start a new
 * series segment (`segments`: a run's segment by its id, from the runs list).
 */
export function providerTrends(points: TrendPoint[], order: readonly ProviderId[], segments: ReadonlyMap<string, number>): ProviderTrend[] {
  const trends: ProviderTrend[] = [];
  for (const provider of order) {
    const mine = points.filter((point) => point.provider === provider);
    if (mine.length === 0) continue;
    const subjects: ProviderTrend["subjects"] = [];
    const runs = new Map<string, TrendRun>();
    for (const point of mine) {
      if (!subjects.some((subject) => subject.name === point.subject)) subjects.push({ name: point.subject, isBrand: point.isBrand });
      const run = runs.get(point.runId) ?? { runId: point.runId, at: point.at, bySubject: new Map() };
      run.bySubject.set(point.subject, point);
      runs.set(point.runId, run);
    }
    subjects.sort((a, b) => Number(b.isBrand) - Number(a.isBrand));
    const ordered = [...runs.values()].sort((a, b) => a.at.localeCompare(b.at));
    const markers: TrendMarker[] = [];
    // A model marked where the provider first answers with a version it had not used: a rollout that comes and goes is marked once.
    const version = (r: TrendRun) => versionSet([[...r.bySubject.values()][0]?.modelVersion ?? ""]).join(", ");
    const fresh = newModelAt(ordered.map((r) => versionSet([[...r.bySubject.values()][0]?.modelVersion ?? ""])));
    ordered.forEach((run, index) => {
      const previous = ordered[index - 1];
      if (!previous) return;
      const before = segments.get(previous.runId);
      const after = segments.get(run.runId);
      if (before !== undefined && after !== undefined && before !== after)
        markers.push({ at: run.at, kind: "queries", text: `What the tracker asks or counts was edited before the run of ${formatDate(run.at)}` });
      if (fresh[index])
        markers.push({ at: run.at, kind: "model", text: `Model changed before the run of ${formatDate(run.at)}: ${version(previous)} → ${version(run)}` });
    });
    trends.push({ provider, subjects, runs: ordered, markers });
  }
  return trends;
}

/**
 * The test behind a rise or a fall: "p = 0.0012 · q = 0.012 · counted with its runs' spread ×1.8,
 * against 7 runs" (rule 2: the dispersion φ its test counted with, and its baseline's runs); an
 * alert of the earlier rule has p and q alone (alertRuleNote says what they took for granted).
 */
export function alertStatistics(alert: TrackerAlert): string | null {
  if (alert.p === undefined || alert.q === undefined) return null;
  const parts = [formatPValue(alert.p), formatPValue(alert.q).replace(/^p/, "q")];
  if (alert.rule !== 1) {
    const counted = [
      ...(alert.dispersion ? [`counted with its runs' spread ${spreadText(alert.dispersion.phi)}`] : []),
      ...(alert.baselineRuns ? [`against ${alert.baselineRuns.length} run${alert.baselineRuns.length === 1 ? "" : "s"}`] : []),
    ];
    if (counted.length > 0) parts.push(counted.join(", "));
  }
  return parts.join(" · ");
}

/** A trend export's file name: `tracker-{name-slug}-trend-{metric}.{ext}` (the slug as the search exports make theirs). */
export function trendExportFilename(trackerName: string, metric: TrendMetric, ext: "csv" | "json"): string {
  return `tracker-${querySlug(trackerName)}-trend-${metric}.${ext}`;
}

/** One question's small multiple: the brand's figure per provider, a line each, and its points for the table. */
export type QueryTrend = { query: string; series: ChartSeries; points: TrendPoint[] };

/**
 * The brand's points per question (a trend asked `perQuery`), in the tracker's order of questions:
 * each a chart whose lines are the providers (in `order`), oldest run first.
 */
export function queryTrends(points: TrendPoint[], queries: readonly string[], order: readonly ProviderId[], names: Record<ProviderId, string>): QueryTrend[] {
  const brand = points.filter((point) => point.isBrand && point.query !== undefined);
  return queries.flatMap((query) => {
    const mine = brand.filter((point) => point.query === query);
    if (mine.length === 0) return [];
    const providers = order.filter((provider) => mine.some((point) => point.provider === provider));
    const runs = new Map<string, { at: string; bySubject: Map<string, TrendPoint> }>();
    for (const point of mine) {
      const run = runs.get(point.runId) ?? { at: point.at, bySubject: new Map() };
      run.bySubject.set(names[point.provider], point);
      runs.set(point.runId, run);
    }
    return [
      {
        query,
        series: {
          subjects: providers.map((provider) => ({ name: names[provider], isBrand: false })),
          runs: [...runs.values()].sort((a, b) => a.at.localeCompare(b.at)),
          markers: [],
        },
        points: mine.toSorted((a, b) => a.at.localeCompare(b.at) || order.indexOf(a.provider) - order.indexOf(b.provider)),
      },
    ];
  });
}

/** How many of the newest runs the overview's sparkline draws. */
export const SPARKLINE_RUNS = 12;

/**
 * The brand's mention rate per run across providers (every provider's answers together, as the
 * headline counts them), the newest `limit` runs, oldest first; null for a run without answers.
 */
export function brandRunRates(points: TrendPoint[], limit = SPARKLINE_RUNS): Array<{ at: string; rate: number | null }> {
  const runs = new Map<string, { at: string; k: number; n: number }>();
  for (const point of points) {
    if (!point.isBrand || point.query !== undefined) continue;
    const run = runs.get(point.runId) ?? { at: point.at, k: 0, n: 0 };
    run.k += point.k;
    run.n += point.n;
    runs.set(point.runId, run);
  }
  return [...runs.values()].slice(-limit).map(({ at, k, n }) => ({ at, rate: n > 0 ? (100 * k) / n : null }));
}

/** The sparkline's name: its rates as words, which a screen reader reads in place of the line. */
export function sparklineLabel(brand: string, rates: ReadonlyArray<{ rate: number | null }>): string {
  const said = rates.map(({ rate }) => (rate === null ? "no answers" : formatPercent(rate))).join(", ");
  return `${visibleText(brand)} named in the answers of the last ${rates.length === 1 ? "run" : `${rates.length} runs, oldest first`}: ${said}`;
}
