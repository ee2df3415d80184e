/**
 * Trackers at scale (issue 25, ADR 043), in this process on a fresh PGlite, providers on the
 * simulator in its own process answering in 200 ms:
 * - one run of 50 queries × 3 providers × 10 iterations under PROVIDER_CONCURRENCY_TOTAL: its wall
 *   time ÷ the ideal (each provider's calls back to back at the cap, then one reading), and the
 *   process's peak RSS;
 * - the scheduler with 1,000 trackers defined: how long their creation (and pg-boss schedules)
 *   takes, and how long one tick takes to queue their 1,000 runs (first run row to last).
 *
 *   bun bench/trackers.ts [--cap 16] [--quick] [--scheduler]
 */
import { writeFileSync } from "node:fs";
import { and, eq, gt } from "drizzle-orm";
import { subscriptions, trackerRuns } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { seedSearches } from "../scripts/seed.ts";
import { benchApp, flag, memoryOf, quick, report, spawnSimulator } from "./lib.ts";

const LATENCY_MS = 200;
const cap = Number(flag("--cap") ?? 16);
const queries = quick ? 10 : 50;
const iterations = 10;
const trackerCount = quick ? 100 : 1000;

await buildAssets({ quiet: true });
const simulator = await spawnSimulator(LATENCY_MS);
const bench = await benchApp({ baseUrls: simulator.baseUrls, env: { PROVIDER_CONCURRENCY_TOTAL: String(cap), TRACKER_MIN_INTERVAL_MINUTES: "1" } });
const { userId, cookie } = await seedSearches(bench.database, bench.handle, { searches: 0 });
const api = createApiClient({ baseUrl: "http://localhost", fetch: bench.handle, headers: { cookie } });

// One big run.
const tracker = await api.createTracker({
  name: "Bench",
  queries: Array.from({ length: queries }, (_, i) => `best tool number ${i + 1} for small teams`),
  brand: { name: "Acme" },
  iterations,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
});
// The peak is the run's: building the assets above peaked higher (writing 5 to clear_refs resets VmHWM to the current RSS).
writeFileSync("/proc/self/clear_refs", "5");
const before = memoryOf(process.pid).rss;
const started = performance.now();
const { run } = await api.runTracker(tracker.id);
let finished: TrackerRun = run;
while (finished.status === "queued" || finished.status === "running") {
  await Bun.sleep(100);
  finished = await api.getTrackerRun(tracker.id, run.id);
}
const wallS = (performance.now() - started) / 1000;
const perProvider = queries * iterations;
const idealS = (Math.ceil(perProvider / cap) * LATENCY_MS + LATENCY_MS) / 1000;
const peak = memoryOf(process.pid).peak;
console.log(
  `run of ${queries} queries × ${providerIds.length} providers × ${iterations} iterations (${finished.answers.done}/${finished.answers.expected} answers, ${finished.status}) ` +
    `in ${wallS.toFixed(1)} s; ideal at a cap of ${cap} calls per provider and ${LATENCY_MS} ms a call: ${idealS.toFixed(1)} s; peak RSS ${peak.toFixed(0)} MB (${before.toFixed(0)} MB before the run)`,
);
report({ figure: `tracker run ${queries}×3×${iterations}: wall ÷ ideal at the provider cap`, value: wallS / idealS, unit: "×", goal: 1.5, better: "lower" });
report({ figure: "tracker run: peak RSS", value: peak, unit: "MB", goal: 400, better: "lower" });

// The scheduler: many trackers due at the same minute (daily, a few minutes from now), whose owner's
// subscription then lapses, so that the tick's runs are queued and skipped at once, without
// provider calls: what is left is the cost of the tick itself.
// Only with --scheduler: on this machine it did not finish in 8 minutes (see ADR 043), so it stays out of `bun run bench`.
if (!process.argv.includes("--scheduler")) {
  await bench.close();
  simulator.stop();
  process.exit(0);
}
const at = new Date(Date.now() + 4 * 60_000);
const daily = { cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`, timezone: "UTC" };
const defineStarted = performance.now();
for (let i = 0; i < trackerCount; i++)
  await api.createTracker({ name: `T${i}`, queries: ["best crm"], brand: { name: "Acme" }, iterations: 1, schedule: daily });
const defineS = (performance.now() - defineStarted) / 1000;
await bench.database.db.update(subscriptions).set({ status: "canceled" }).where(eq(subscriptions.userId, userId));
const db = bench.database.db;
const lapsed = new Date();
// Their tick: the first `trackerCount` scheduled runs made after the lapse.
let tickS = 0;
for (;;) {
  const runs = await db
    .select({ at: trackerRuns.createdAt })
    .from(trackerRuns)
    .where(and(eq(trackerRuns.trigger, "schedule"), gt(trackerRuns.createdAt, lapsed)))
    .orderBy(trackerRuns.createdAt)
    .limit(trackerCount);
  if (runs.length >= trackerCount) {
    tickS = ((runs.at(-1)?.at.getTime() ?? 0) - (runs[0]?.at.getTime() ?? 0)) / 1000;
    break;
  }
  await Bun.sleep(500);
}
console.log(
  `${trackerCount} trackers defined in ${defineS.toFixed(1)} s (with their pg-boss schedules); one tick queued their ${trackerCount} runs in ${tickS.toFixed(2)} s`,
);
report({ figure: `scheduler: one tick's runs for ${trackerCount} trackers`, value: tickS, unit: "s", goal: 30, better: "lower" });

await bench.close();
simulator.stop();
process.exit(0);
