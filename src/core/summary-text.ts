import type { SummaryChange, SummaryFigures, SummaryPeriodName } from "#src/contract/summary.ts";

/* The headline's figures in words, for the web's table and the CLI's alike. */

export const summaryPeriodLabels: Record<SummaryPeriodName, string> = { run: "This run", "7d": "7 days", "30d": "30 days" };

const NONE = "–";

/** "64 % (±6)": the rate and half its interval's width, in points. */
export function rateCell({ rate, low, high }: Pick<SummaryFigures, "rate" | "low" | "high">): string {
  return rate === null || low === null || high === null ? NONE : `${Math.round(rate)} % (±${Math.round((high - low) / 2)})`;
}

export function rankCell({ rank, of }: Pick<SummaryFigures, "rank" | "of">): string {
  return rank === null ? NONE : `#${rank} of ${of}`;
}

export function sovCell({ sov }: Pick<SummaryFigures, "sov">): string {
  return sov === null ? NONE : `${Math.round(sov)} %`;
}

/** "Rose from 58 %", "Fell from 70 %", "No clear change", or nothing to compare with. */
export function changeCell({ from, verdict }: SummaryChange): string {
  if (from === null) return "No earlier period";
  if (verdict === "no clear change") return "No clear change";
  return `${verdict === "rose" ? "Rose" : "Fell"} from ${Math.round(from)} %`;
}
