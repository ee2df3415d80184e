import type { ProviderId } from "#src/contract/providers.ts";
import type { TrackerAlert, TrendMetric, TrendPoint } from "#src/contract/trend.ts";
import { formatDate } from "#src/core/dates.ts";
import { querySlug } from "#src/core/export.ts";
import { formatPercent } from "#web/lib/format.ts";
import { formatPValue, formatRate } from "#web/lib/workbench.ts";

/*
 * Pure helpers of the tracker page's trend and alerts (issue 26): the series a provider's chart
 * draws, its markers, and the figures as text. No React, no I/O: the chart, its table and the
 * tests read the same words.
 */

export const metricLabels: Record<TrendMetric, string> = {
  mention: "Mentions",
  sov: "Share of voice",
  citation: "Citations",
  position: "Position",
};

/** What the y axis measures, per metric. */
export const metricAxis: Record<TrendMetric, string> = {
  mention: "Answers naming it (%)",
  sov: "Share of all mentions (%)",
  citation: "Answers citing its site (%)",
  position: "Mean position (lower is better)",
};

/** A point's figure with its 95% interval: "60% (31–83%)", or for position "2.3 (1.9–2.7)"; "—" without answers. */
export function formatPoint(point: Pick<TrendPoint, "rate" | "low" | "high">, metric: TrendMetric): string {
  if (point.rate === null || point.low === null || point.high === null) return "—";
  if (metric !== "position") return formatRate({ percentage: point.rate, low: point.low, high: point.high });
  const one = (x: number) => x.toFixed(1);
  return `${one(point.rate)} (${one(point.low)}–${one(point.high)})`;
}

/** A run's label on a chart's axis: its day ("Nov 26"), with the time when several runs share the day. */
export function runLabels(ats: string[]): string[] {
  const days = ats.map((at) => formatDate(at, { time: false }).replace(/, \d{4}$/, ""));
  return ats.map((at, index) =>
    days.indexOf(days[index]!) === days.lastIndexOf(days[index]!) ? days[index]! : `${days[index]} ${formatDate(at).slice(-9, -4)}`,
  );
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

/** A vertical marker: a model change of the provider, or the tracker's questions edited, before run `at`. */
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
    ordered.forEach((run, index) => {
      const previous = ordered[index - 1];
      if (!previous) return;
      const before = segments.get(previous.runId);
      const after = segments.get(run.runId);
      if (before !== undefined && after !== undefined && before !== after)
        markers.push({ at: run.at, kind: "queries", text: `Questions or providers edited before the run of ${formatDate(run.at)}` });
      const version = (r: TrendRun) => [...r.bySubject.values()][0]?.modelVersion ?? "";
      if (version(previous) && version(run) && version(previous) !== version(run))
        markers.push({ at: run.at, kind: "model", text: `Model changed before the run of ${formatDate(run.at)}: ${version(previous)} → ${version(run)}` });
    });
    trends.push({ provider, subjects, runs: ordered, markers });
  }
  return trends;
}

/**
 * An alert in words: "Mentions of HubSpot fell on ChatGPT / OpenAI: 60% (31–83%, n=10) → 20% (6–51%, n=10)",
 * or "ChatGPT / OpenAI's model changed: x → y".
 */
export function alertText(alert: TrackerAlert, providerName: string): string {
  if (alert.kind === "model-changed")
    return `${providerName}'s model changed: ${alert.modelVersions?.before ?? "unknown"} → ${alert.modelVersions?.after ?? "unknown"}`;
  const side = (s: TrackerAlert["before"]) => (s ? `${formatPercent(s.rate)} (${Math.round(s.low)}–${Math.round(s.high)}%, n=${s.n})` : "—");
  const what = metricLabels[alert.metric ?? "mention"];
  const scope = alert.query ? ` for “${alert.query}”` : "";
  return `${what} of ${alert.subject ?? "the brand"} ${alert.kind} on ${providerName}${scope}: ${side(alert.before)} → ${side(alert.after)}`;
}

/** "p = 0.0012 · q = 0.012", the test behind a rise or a fall. */
export function alertStatistics(alert: TrackerAlert): string | null {
  if (alert.p === undefined || alert.q === undefined) return null;
  return `${formatPValue(alert.p)} · ${formatPValue(alert.q).replace(/^p/, "q")}`;
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
