import { providerCatalogue } from "#src/contract/providers.ts";
import type { SummaryFigures, TrackerSummary } from "#src/contract/summary.ts";
import { visibleText } from "#src/core/display-text.ts";
import { changeCell, rankCell, rateCell, sovCell } from "#src/core/summary-text.ts";
import { fitTable } from "./fit-table.ts";

/** The headline: its sentence (the brands' names as users wrote them, shown through visibleText), then per provider (and all together) the brand's rate ±, rank, share of voice and change. */
export function summaryText(summary: TrackerSummary): string {
  const sentence = visibleText(summary.sentence);
  if (summary.providers.length === 0) return sentence;
  const row = (label: string, figures: SummaryFigures) => [label, rateCell(figures), rankCell(figures), sovCell(figures), changeCell(figures.change)];
  const table = fitTable(
    [{ head: "Provider" }, { head: "Named in" }, { head: "Rank" }, { head: "SoV", droppable: true }, { head: "Change", flexible: true }],
    [...summary.providers.map((entry) => row(providerCatalogue[entry.provider].name, entry)), row("All providers", summary.brand)],
  );
  return `${sentence}\n${table}`;
}
