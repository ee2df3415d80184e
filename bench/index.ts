/**
 * Every performance budget in one run: builds the client and the single binary
 * (`bun run build`), runs each bench in its own process (so one's memory never counts in
 * another's), then prints the table of figures against their goals. Ratios are taken against a
 * baseline measured in the same process run. `--quick` is a short smoke for CI: it prints the same
 * table from fewer samples and never fails on a figure, only when a bench itself breaks.
 *
 *   bun run bench [--quick]
 */
import { join } from "node:path";
import { met, quick, root, type Row } from "./lib.ts";

const benches: Array<{ file: string; env?: Record<string, string>; full?: boolean }> = [
  { file: "ssr.ts", env: { NODE_ENV: "production" } },
  { file: "search.ts" },
  { file: "history.ts" },
  { file: "trend.ts" },
  { file: "server.ts" },
  { file: "toast.ts" },
  { file: "peak.ts" },
  { file: "cancel.ts", full: true },
  { file: "trackers.ts", full: true },
  { file: "schedule-cost.ts", full: true },
];

const build = Bun.spawnSync(["bun", "run", "build"], { cwd: root, stdout: "ignore", stderr: "inherit" });
if (build.exitCode !== 0) process.exit(build.exitCode ?? 1);

const rows: Row[] = [];
let broken = 0;
for (const bench of benches) {
  if (bench.full && quick) continue;
  console.log(`\n— bench/${bench.file}`);
  const child = Bun.spawn(["bun", join(root, "bench", bench.file), ...(quick ? ["--quick"] : [])], {
    cwd: root,
    env: { ...process.env, ...bench.env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  for (const line of out.split("\n")) {
    if (line.startsWith("ROW ")) rows.push(JSON.parse(line.slice(4)) as Row);
    else if (line) console.log(line);
  }
  if ((await child.exited) !== 0) {
    broken++;
    console.log(`bench/${bench.file} failed (exit ${child.exitCode})`);
  }
}

const format = (row: Row) =>
  row.unit === "×"
    ? row.value.toFixed(2)
    : row.unit === "MB"
      ? `${row.value.toFixed(0)} MB`
      : row.unit === "s"
        ? `${row.value.toFixed(2)} s`
        : `${row.value.toFixed(1)} ${row.unit}`;
const goal = (row: Row) => `${row.better === "lower" ? "≤" : "≥"} ${row.goal}${row.unit === "×" ? "" : ` ${row.unit}`}`;
const width = Math.max(...rows.map((row) => row.figure.length));
console.log(`\n${quick ? "quick smoke (few samples: the figures are indicative)" : "budgets"}, ${new Date().toISOString()}`);
for (const row of rows) {
  console.log(
    `${row.figure.padEnd(width)}  ${format(row).padStart(9)}  goal ${goal(row).padEnd(9)}  ${met(row) ? "met" : "NOT MET"}${row.detail ? `  (${row.detail})` : ""}`,
  );
}
console.log(`${rows.filter(met).length} of ${rows.length} goals met`);
// Timing never fails the run (CI machines are noisy); a bench that breaks does.
process.exit(broken ? 1 : 0);
