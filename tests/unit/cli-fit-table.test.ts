import { describe, expect, test } from "bun:test";
import { fitTable, type FitColumn } from "#cli/lib/fit-table.ts";
import { screenWidth } from "#cli/lib/output.ts";

const columns: FitColumn[] = [
  { head: "ID" },
  { head: "Date", droppable: true },
  { head: "Query", flexible: true },
  { head: "Count", droppable: true },
  { head: "Links", droppable: true },
];
const rows = [["3f2c1b7e-0000-4000-8000-00000000abcd", "2026-11-26 15:18", "best crm for a small marketing agency with a remote team", "5", "14"]];
const widest = (text: string) => Math.max(...text.split("\n").map((line) => Bun.stringWidth(line)));
const heads = (text: string) => text.split("\n")[1] ?? "";

describe("fitTable", () => {
  test("wide enough: every column, nothing wrapped", () => {
    const text = fitTable(columns, rows, 200);
    expect(heads(text)).toMatch(/ID.*Date.*Query.*Count.*Links/);
    expect(text).toContain(rows[0]?.[2] ?? "");
  });

  test("narrower: the droppable columns go from the right, the flexible one wraps, the rest stay whole", () => {
    for (const width of [85, 80, 60]) {
      const text = fitTable(columns, rows, width);
      expect({ width, fits: widest(text) <= width }).toEqual({ width, fits: true });
      expect(text).toContain(rows[0]?.[0] ?? "");
    }
    expect(heads(fitTable(columns, rows, 85))).toMatch(/ID.*Date.*Query.*Count/);
    expect(heads(fitTable(columns, rows, 85))).not.toContain("Links");
    expect(heads(fitTable(columns, rows, 80))).not.toContain("Count");
    expect(heads(fitTable(columns, rows, 60))).not.toContain("Date");
  });

  test("the width: COLUMNS when it is a whole number, else 80 off a terminal", () => {
    expect(screenWidth({ COLUMNS: "132" })).toBe(132);
    for (const COLUMNS of [undefined, "", "wide", "0", "-5"]) expect(screenWidth({ COLUMNS })).toBe(process.stdout.columns || 80);
  });
});
