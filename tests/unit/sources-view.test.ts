import { expect, test } from "bun:test";
import type { SourcesReport } from "#src/contract/trend.ts";
import { providerSources, sourceTableCells } from "#web/lib/sources.ts";

/* The tracker page's sources table in words (web/lib/sources.ts). */

const row = (runId: string, at: string, type: SourcesReport["byType"][number]["type"], share: number): SourcesReport["byType"][number] => ({
  runId,
  at,
  provider: "openai",
  type,
  citations: share / 10,
  share,
});

test("two runs in one minute are told apart by their seconds in the sources table, oldest first, then in the types' order", () => {
  const rows = [
    row("b", "2026-12-07T03:06:41.000Z", "ugc", 40),
    row("a", "2026-12-07T03:06:02.000Z", "own", 100),
    row("b", "2026-12-07T03:06:41.000Z", "own", 60),
  ];
  const cells: Array<[string, string, string, string]> = [
    ["Dec 7, 2026, 03:06:02 UTC", "Your brand’s own site", "100.0%", "10"],
    ["Dec 7, 2026, 03:06:41 UTC", "Your brand’s own site", "60.0%", "6"],
    ["Dec 7, 2026, 03:06:41 UTC", "User-generated (forums, Reddit, Q&A, video)", "40.0%", "4"],
  ];
  expect(sourceTableCells(rows)).toEqual(cells);
  expect(providerSources(rows, ["openai"])[0]?.rows.map((entry) => entry.cells)).toEqual(cells);
});
