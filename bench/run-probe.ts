/** Where a tracker run's time and memory go, in this process (sampled every 200 ms): a probe, not a bench row. `--plain` leaves out the statement counts. */
import { clientOf } from "#db/client.ts";
import { createApiClient } from "#src/client/api.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { seedSearches } from "../scripts/seed.ts";
import { benchApp, benchRunTracker, flag, spawnSimulator } from "./lib.ts";

const LATENCY_MS = 200;
const cap = Number(flag("--cap") ?? 16);
const queries = Number(flag("--queries") ?? 50);
const simulator = await spawnSimulator(LATENCY_MS);
const bench = await benchApp({
  baseUrls: simulator.baseUrls,
  env: {
    PROVIDER_CONCURRENCY_TOTAL: String(cap),
    ACCOUNT_DAILY_SPEND_USD: "1000",
    DAILY_SPEND_USD: "1000",
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  },
});
const { cookie } = await seedSearches(bench.database, bench.handle, { searches: 0 });
const api = createApiClient({ baseUrl: "http://localhost", fetch: bench.handle, headers: { cookie } });
const tracker = await api.createTracker(benchRunTracker("Probe", queries));
Bun.gc(true);
const client = clientOf<{ mod?: { HEAPU8?: Uint8Array } }>(bench.database);
const mb = (n: number) => Math.round(n / 1048576);
const sample = () => {
  const m = process.memoryUsage();
  return { rss: mb(m.rss), ab: mb(m.arrayBuffers), wasm: mb(client.mod?.HEAPU8?.byteLength ?? 0) };
};
console.log("before", sample());
// Statements by their first words, while the run goes.
const statements = new Map<string, number>();
const paramBytes = new Map<string, number>();
const counting = client as unknown as Record<string, (...args: unknown[]) => unknown>;
// --plain: no counting, for a CPU profile of the run alone (`bun --cpu-prof bench/run-probe.ts --plain`).
const plain = process.argv.includes("--plain");
for (const method of plain ? [] : ["query", "exec"]) {
  const original = counting[method]!.bind(client);
  counting[method] = (...args: unknown[]) => {
    const text = String(args[0]).replace(/\s+/g, " ").trim().slice(0, 70);
    statements.set(text, (statements.get(text) ?? 0) + 1);
    const bytes = JSON.stringify(args[1] ?? []).length;
    paramBytes.set(text, (paramBytes.get(text) ?? 0) + bytes);
    return original(...args);
  };
}
// Time inside PGlite by statement: the synchronous protocol call, attributed to the SQL in its Parse message.
const execTime = new Map<string, number>();
let lastSql = "(none)";
const raw = client as unknown as { execProtocolRawSync: (message: Uint8Array) => unknown };
const originalSync = raw.execProtocolRawSync.bind(client);
if (!plain)
  raw.execProtocolRawSync = (message: Uint8Array) => {
    const t = process.cpuUsage();
    try {
      return originalSync(message);
    } finally {
      const text = new TextDecoder().decode(message.subarray(0, 400));
      const found = /(select|insert|update|delete|with|begin|commit)[^\0]*/i.exec(text)?.[0];
      if (found) lastSql = found.replace(/\s+/g, " ").slice(0, 70);
      const sqlText = lastSql;
      const used = process.cpuUsage(t);
      execTime.set(sqlText, (execTime.get(sqlText) ?? 0) + (used.user + used.system) / 1000);
    }
  };
const cpu0 = process.cpuUsage();
let peakRss = 0;
const peakTimer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const started = performance.now();
const { run } = await api.runTracker(tracker.id);
let finished: TrackerRun = run;
let last = 0;
while (finished.status === "queued" || finished.status === "running") {
  await Bun.sleep(1000);
  finished = await api.getTrackerRun(tracker.id, run.id);
  const t = (performance.now() - started) / 1000;
  if (t - last >= 1) {
    last = t;
    console.log(t.toFixed(1), finished.answers.done, JSON.stringify(sample()));
  }
}
const wallS = (performance.now() - started) / 1000;
clearInterval(peakTimer);
console.log(`peak RSS during the run: ${mb(peakRss)} MB (this process holds the database too)`);
const cpu = process.cpuUsage(cpu0);
const timed = [...execTime].sort((a, b) => b[1] - a[1]);
console.log(`inside PGlite (CPU): ${(timed.reduce((n, [, ms]) => n + ms, 0) / 1000).toFixed(1)} s`);
for (const [text, ms] of timed.slice(0, 25)) console.log(String(Math.round(ms)).padStart(7), "ms", text);
const sorted = [...statements].sort((a, b) => b[1] - a[1]);
console.log(`statements: ${sorted.reduce((n, [, c]) => n + c, 0)}`);
for (const [text, count] of sorted.slice(0, 40))
  console.log(String(count).padStart(6), String(Math.round((paramBytes.get(text) ?? 0) / count)).padStart(8), text);
console.log(`this process's CPU over the run: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (user ${(cpu.user / 1e6).toFixed(1)})`);
const idealS = (Math.ceil((queries * tracker.iterations) / cap) * LATENCY_MS + LATENCY_MS) / 1000;
console.log(
  `${finished.status} ${finished.answers.done}/${finished.answers.expected} in ${wallS.toFixed(1)} s, ideal ${idealS.toFixed(1)} s: ${(wallS / idealS).toFixed(2)}×`,
  sample(),
);
Bun.gc(true);
const { heapStats } = await import("bun:jsc");
const heap = heapStats();
console.log("after the run and a full collection", sample(), "heap", mb(heap.heapSize), "objects", heap.objectCount);
console.log(
  Object.entries(heap.objectTypeCounts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([k, v]) => `${k} ${v}`)
    .join(", "),
);
await bench.close();
simulator.stop();
process.exit(0);
