import { EXTRACTOR_ERROR_KINDS, FAILURE_CLASSES } from "./fixtures.ts";
import { GOAL, type RowScore, type Summary } from "./score.ts";

/**
 * One reading of the set as text, under `title`: every row with a miss (with `misses`), then the
 * figures; with `goal`, whether the floor holds.
 */
export function report(title: string, rows: RowScore[], summary: Summary, { misses = true, goal = true } = {}): string {
  const lines: string[] = [`=== ${title}`, ""];
  for (const row of misses ? rows : []) {
    const misses = missesOf(row);
    if (misses.length === 0) continue;
    lines.push(`✗ ${row.fixture.id}  F1 ${row.f1.toFixed(2)}`, ...misses.map((miss) => `    ${miss}`));
  }
  if (lines.length > 2) lines.push("");
  const pct = (n: number) => `${(100 * n).toFixed(1)}%`;
  const figures = (s: Summary["products"]) =>
    `P ${s.precision.toFixed(3)}  R ${s.recall.toFixed(3)}  F1 ${s.f1.toFixed(3)}  (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;
  lines.push(
    `${summary.rows} answers: ${countBy(rows, (row) => row.fixture.provider)}; ${new Set(rows.map((row) => row.fixture.category)).size} categories`,
    "",
    "by failure class        rows  products F1  companies F1  worst row",
    ...FAILURE_CLASSES.map((name) =>
      classLine(
        name,
        rows.filter((row) => row.fixture.classes.includes(name)),
      ),
    ),
    "",
    `products   ${figures(summary.products)}`,
    `companies  ${figures(summary.companies)}`,
    `cited URLs kept ${pct(summary.citedRecall)} of ${summary.citedTotal}; invented URLs ${summary.invented}`,
    `rows below F1 ${GOAL.rowF1}: ${summary.rowsBelow.length}${summary.rowsBelow.length ? ` (${summary.rowsBelow.join(", ")})` : ""}`,
    `categories kept ${summary.keptCategories}; not-found names kept ${summary.keptNotFound}; cut answers misrecorded ${summary.cutNotRecorded.length}`,
    `first mentions saved for ${summary.positions.located} of ${summary.positions.items} kept items; ${summary.positions.wrong} not at their name`,
    `grounding drops (names the answer does not contain): ${summary.ungrounded}`,
    `names the answer never gives kept: ${summary.inventedKept.length}${summary.inventedKept.length ? ` (${summary.inventedKept.join(", ")})` : ""}`,
    "",
    "extractor mistakes      in set  kept",
    ...EXTRACTOR_ERROR_KINDS.map(
      (kind) => `${kind.padEnd(22)} ${String(summary.errors[kind].total).padStart(7)} ${String(summary.errors[kind].kept).padStart(5)}`,
    ),
    "",
  );
  if (goal) lines.push(summary.failures.length === 0 ? "goal met" : `goal NOT met: ${summary.failures.join("; ")}`, "");
  return lines.join("\n");
}

// One class's rows: their products and companies F1 taken together, and the lowest row F1.
function classLine(name: string, rows: RowScore[]): string {
  const f1 = (pick: (row: RowScore) => RowScore["products"]) => {
    const tp = rows.reduce((n, row) => n + pick(row).tp, 0);
    const wrong = rows.reduce((n, row) => n + pick(row).fp + pick(row).fn, 0);
    return tp + wrong === 0 ? 1 : (2 * tp) / (2 * tp + wrong);
  };
  const worst = rows.reduce<RowScore | undefined>((low, row) => (!low || row.f1 < low.f1 ? row : low), undefined);
  return [
    name.padEnd(22),
    String(rows.length).padStart(5),
    f1((row) => row.products)
      .toFixed(3)
      .padStart(12),
    f1((row) => row.companies)
      .toFixed(3)
      .padStart(13),
    `  ${worst ? `${worst.f1.toFixed(2)} ${worst.fixture.id}` : "-"}`,
  ].join(" ");
}

function missesOf(row: RowScore): string[] {
  const out: string[] = [];
  const list = (label: string, names: string[]) => names.length > 0 && out.push(`${label}: ${names.join(" | ")}`);
  list("products missed", row.products.missed);
  list("products not in the answer", row.products.extra);
  list("companies missed", row.companies.missed);
  list("companies not in the answer", row.companies.extra);
  list("categories kept", row.keptCategories);
  list("not-found names kept", row.keptNotFound);
  list("cited URLs lost", row.cited.missing);
  list("invented URLs", row.invented);
  if (!row.cutRecorded) out.push(row.fixture.truth.truncated ? "the cut answer is not recorded as cut" : "a whole answer is recorded as cut");
  list("mentions not at their name", row.positions.wrong);
  list(
    "extractor mistakes kept",
    row.errorsKept.map((error) => `${error.name} (${error.kind})`),
  );
  list("problems", row.problems);
  return out;
}

function countBy(rows: RowScore[], key: (row: RowScore) => string): string {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(key(row), (counts.get(key(row)) ?? 0) + 1);
  return [...counts].map(([name, n]) => `${name} ${n}`).join(", ");
}
