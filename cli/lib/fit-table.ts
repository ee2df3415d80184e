import { screenWidth, table } from "./output.ts";

/** A column of a table fitted to the screen. */
export type FitColumn = {
  head: string;
  /** Dropped, from the right, while the table is too wide; the others always show. */
  droppable?: boolean;
  /** Takes the width the others leave, wrapping its text (at least MIN_FLEXIBLE columns of it). */
  flexible?: boolean;
};

const MIN_FLEXIBLE = 12;
// cli-table3 puts one space either side of a cell's text, and a border before each column and after the last.
const PADDING = 2;

/**
 * A table as wide as the screen at most: the droppable columns go, the rightmost first, until the
 * others fit with the flexible one at its least; then the flexible one wraps in what is left.
 * Columns that are neither keep their whole text (an id is copied, never cut).
 */
export function fitTable(columns: FitColumn[], rows: string[][], width = screenWidth()): string {
  const natural = columns.map((column, i) => Math.max(textWidth(column.head), ...rows.map((row) => textWidth(row[i] ?? ""))) + PADDING);
  const shown = columns.map((_, i) => i);
  const need = () =>
    shown.reduce((sum, i) => sum + (columns[i]?.flexible ? Math.min(natural[i] ?? 0, MIN_FLEXIBLE + PADDING) : (natural[i] ?? 0)), shown.length + 1);
  while (need() > width) {
    const last = shown.findLastIndex((i) => columns[i]?.droppable);
    if (last === -1) break;
    shown.splice(last, 1);
  }
  const fixed = shown.reduce((sum, i) => sum + (columns[i]?.flexible ? 0 : (natural[i] ?? 0)), shown.length + 1);
  const flexibleCount = shown.filter((i) => columns[i]?.flexible).length;
  const share = Math.max(MIN_FLEXIBLE + PADDING, Math.floor((width - fixed) / Math.max(flexibleCount, 1)));
  const colWidths = shown.map((i) => (columns[i]?.flexible ? Math.min(natural[i] ?? 0, share) : (natural[i] ?? 0)));
  return table(
    shown.map((i) => columns[i]?.head ?? ""),
    rows.map((row) => shown.map((i) => row[i] ?? "")),
    { colWidths },
  );
}

/** The widest line of a cell, in terminal columns. */
function textWidth(text: string): number {
  return Math.max(0, ...text.split("\n").map((line) => Bun.stringWidth(line)));
}
