import type { Trend } from "#src/contract/trend.ts";
import { csvText, type Cell } from "./export.ts";

/**
 * A tracker's trend as CSV, for a spreadsheet or a script: one row per point of the
 * API's answer, in its order (oldest run first), quoted as the search export is (ADR 004). Pure:
 * the CLI prints it, the web may download it.
 */

export const TREND_CSV_HEADER = [
  "run_id",
  "at",
  "provider",
  "query",
  "subject",
  "is_brand",
  "metric",
  "n",
  "k",
  "rate",
  "low",
  "high",
  "model_version",
] as const;

/** The header row, then a row per point; a point without a figure (n or k of 0) has empty rate, low and high. */
export function trendToCsv(trend: Trend): string {
  const rows = trend.points.map((point): Cell[] => [
    point.runId,
    point.at,
    point.provider,
    point.query ?? "",
    point.subject,
    point.isBrand,
    trend.metric,
    point.n,
    point.k,
    point.rate,
    point.low,
    point.high,
    point.modelVersion,
  ]);
  return csvText([[...TREND_CSV_HEADER], ...rows]);
}
