import type { ProviderId } from "#src/contract/providers.ts";
import { sourceTypes, type SourceType, type SourcesReport } from "#src/contract/trend.ts";
import { formatDate } from "#src/core/dates.ts";
import { runTimes, type ChartSeries } from "#web/lib/trend.ts";

/*
 * Pure helpers of the tracker page's sources: the types in plain words, a provider's
 * shares per run as a chart's series, and the rows its table shows. The page and its tests read
 * the same words.
 */

export const sourceTypeLabels: Record<SourceType, string> = {
  own: "Your brand’s own site",
  competitor: "Competitors’ sites",
  ugc: "User-generated (forums, Reddit, Q&A, video)",
  editorial: "Editorial and reviews",
  reference: "Reference (encyclopedias, docs)",
  retail: "Retailers and marketplaces",
  other: "Other",
};

/** Each type's colour on the chart: the theme's five chart colours, then two neutrals. */
const typeColors: Record<SourceType, string> = {
  own: "--chart-1",
  competitor: "--chart-2",
  ugc: "--chart-3",
  editorial: "--chart-4",
  reference: "--chart-5",
  retail: "--primary",
  other: "--muted-foreground",
};

/** A share as the table shows it: "42.5%". */
export function formatShare(share: number): string {
  return `${share.toFixed(1)}%`;
}

/** One provider's sources: its chart's series (a line per type present) and its table's rows. */
export type ProviderSources = {
  provider: ProviderId;
  series: ChartSeries;
  /** Oldest run first, then in the types' order: date, type, share, citations. */
  rows: Array<{ key: string; cells: [string, string, string, string] }>;
};

type ByType = SourcesReport["byType"][number];

/** The API's rows as a table's cells: date (as `times` tells the runs apart, else the date), type in words, share, citations. */
export function sourceRowCells(row: ByType, times?: ReadonlyMap<string, string>): [string, string, string, string] {
  return [times?.get(row.at) ?? formatDate(row.at), sourceTypeLabels[row.type], formatShare(row.share), String(row.citations)];
}

/** One provider's rows as its table shows them, in order, each run's time written as the charts tell runs apart. */
export function sourceTableCells(rows: readonly ByType[]): Array<[string, string, string, string]> {
  const ats = [...new Set(rows.map((row) => row.at))].toSorted();
  const times = new Map(runTimes(ats).map((time, index) => [ats[index]!, time]));
  return orderedSourceRows(rows).map((row) => sourceRowCells(row, times));
}

/** The rows ordered as the page shows them: oldest run first, then in the types' order. */
export function orderedSourceRows(rows: readonly ByType[]): ByType[] {
  return rows.toSorted((a, b) => a.at.localeCompare(b.at) || a.runId.localeCompare(b.runId) || sourceTypes.indexOf(a.type) - sourceTypes.indexOf(b.type));
}

/** Per provider (in `order`), the share of each type over the runs; a type absent from a run is 0% of it. */
export function providerSources(byType: readonly ByType[], order: readonly ProviderId[]): ProviderSources[] {
  return order.flatMap((provider) => {
    const mine = orderedSourceRows(byType.filter((row) => row.provider === provider));
    if (mine.length === 0) return [];
    const present = sourceTypes.filter((type) => mine.some((row) => row.type === type));
    const runs = new Map<string, { at: string; bySubject: Map<string, { rate: number; low: null; high: null }> }>();
    for (const row of mine) {
      const run = runs.get(row.runId) ?? {
        at: row.at,
        bySubject: new Map(present.map((type) => [sourceTypeLabels[type], { rate: 0, low: null, high: null }])),
      };
      run.bySubject.set(sourceTypeLabels[row.type], { rate: row.share, low: null, high: null });
      runs.set(row.runId, run);
    }
    const series: ChartSeries = {
      // The brand's own site is the bold line: the share the marketer wants to grow.
      subjects: present.map((type) => ({ name: sourceTypeLabels[type], isBrand: type === "own", color: typeColors[type] })),
      runs: [...runs.values()],
      markers: [],
    };
    const cells = sourceTableCells(mine);
    return [{ provider, series, rows: mine.map((row, index) => ({ key: `${row.runId}-${row.type}`, cells: cells[index]! })) }];
  });
}

/** The citation gap while no site leans to the competitors. */
export const NO_GAP = "No site is cited beside your competitors more often than beside your brand.";
