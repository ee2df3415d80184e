/**
 * The single binary as it ships (dist/ai-search-comparison from `bun run build`, NODE_ENV=production):
 * - cold start: spawn on a new data folder and a new unpack folder (a new container), until the
 *   first /healthz 200 (goal ≤ 1.5 s); median of --runs. The baseline is `bun -e ""`, a bare Bun start.
 * - idle memory: its resident memory (VmRSS) 5 s after that first 200, on PGlite (goal ≤ 200 MB)
 *   and on a throwaway PostgreSQL 15 when its binaries are installed (goal ≤ 100 MB).
 *
 *   bun bench/server.ts [--runs 3] [--quick]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "#tests/support/databases.ts";
import { BINARY, flag, median, memoryOf, quick, report, startServer } from "./lib.ts";

const runs = Number(flag("--runs") ?? (quick ? 1 : 3));
const IDLE_MS = quick ? 2000 : 5000;

if (!(await Bun.file(BINARY).exists())) throw new Error(`no ${BINARY}: run \`bun run build\` first`);

const bare: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  await Bun.spawn(["bun", "--eval", "0"]).exited;
  bare.push(performance.now() - t);
}

const starts: number[] = [];
let idle = 0;
for (let run = 0; run < runs; run++) {
  const unpack = mkdtempSync(join(tmpdir(), "bench-unpack-"));
  const server = await startServer([BINARY], { TMPDIR: unpack });
  starts.push(server.readyMs);
  if (run === 0) {
    await Bun.sleep(IDLE_MS);
    idle = memoryOf(server.pid).rss;
  }
  await server.stop();
  rmSync(unpack, { recursive: true, force: true });
  rmSync(server.dataDir, { recursive: true, force: true });
}
const coldStart = median(starts);
console.log(
  `cold start to /healthz 200: ${starts.map((ms) => ms.toFixed(0)).join(", ")} ms (bare bun start ${median(bare).toFixed(0)} ms); idle RSS on PGlite ${idle.toFixed(0)} MB`,
);
report({
  figure: "binary cold start, new data folder → /healthz 200",
  value: coldStart / 1000,
  unit: "s",
  goal: 1.5,
  better: "lower",
  detail: `bare bun ${median(bare).toFixed(0)} ms`,
});
report({ figure: "idle RSS of a fresh server, PGlite", value: idle, unit: "MB", goal: 200, better: "lower" });

const cluster = await startPostgres();
if (cluster) {
  const server = await startServer([BINARY], { DATABASE_URL: cluster.url });
  await Bun.sleep(IDLE_MS);
  const rss = memoryOf(server.pid).rss;
  await server.stop();
  await cluster.stop();
  rmSync(server.dataDir, { recursive: true, force: true });
  console.log(`idle RSS on PostgreSQL: ${rss.toFixed(0)} MB`);
  report({ figure: "idle RSS of a fresh server, PostgreSQL", value: rss, unit: "MB", goal: 100, better: "lower" });
}
process.exit(0);
