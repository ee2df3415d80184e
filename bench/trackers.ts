/**
 * Trackers at scale (ADR 043), providers on the simulator in its own process answering in 200 ms:
 * - one run of 50 queries × 3 providers × 10 iterations under PROVIDER_CONCURRENCY_TOTAL, on the
 *   single binary (NODE_ENV=production, PGlite in a data folder), as a server runs it: its wall
 *   time ÷ the ideal (each provider's calls back to back at the cap, then one reading), and the
 *   server's peak RSS during the run;
 * - the scheduler with 1,000 trackers defined, in this process on a fresh PGlite: how long their
 *   creation (and pg-boss schedules) takes, and how long one tick takes to make their 1,000 runs
 *   (first run row to last).
 *
 *   bun bench/trackers.ts [--cap 16] [--quick]   (after `bun run build`: the run needs the binary)
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, isNotNull } from "drizzle-orm";
import { createDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { subscriptions, trackerRuns, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { seedSearches } from "../scripts/seed.ts";
import { BINARY, benchApp, flag, memoryOf, quick, report, spawnSimulator, startServer } from "./lib.ts";

const LATENCY_MS = 200;
const cap = Number(flag("--cap") ?? 16);
const queries = quick ? 10 : 50;
const iterations = 10;
const trackerCount = quick ? 100 : 1000;
const PASSWORD = "bench-password";

const simulator = await spawnSimulator(LATENCY_MS);

// One big run, on the binary. Its Pro user is written before the server opens the folder (one process owns a PGlite folder).
{
  const dataDir = mkdtempSync(join(tmpdir(), "bench-trackers-"));
  const database = await createDatabase({ dataDir });
  await migrate(database);
  const [user] = await database.db
    .insert(users)
    .values({ username: "tracker", email: "tracker@example.com", passwordHash: await Bun.password.hash(PASSWORD), firstName: "", lastName: "" })
    .returning({ id: users.id });
  await database.db.insert(subscriptions).values({ id: `sub_${user!.id}`, userId: user!.id, stripeCustomerId: `cus_${user!.id}`, status: "active" });
  await database.close();
  const keys = Object.fromEntries(
    providerIds.flatMap((id) => [
      [providerConfig[id].env.apiKey, "bench-key"],
      [providerConfig[id].env.baseUrl, simulator.baseUrls[id]],
    ]),
  );
  // At list prices the run costs about $46: over the default daily limits, which are not what this measures.
  const limits = { ACCOUNT_DAILY_SPEND_USD: "1000", DAILY_SPEND_USD: "1000" };
  const server = await startServer([BINARY], { ...keys, ...limits, DATA_DIR: dataDir, PROVIDER_CONCURRENCY_TOTAL: String(cap) });
  const login = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "tracker", password: PASSWORD }),
  });
  if (!login.ok) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const api = createApiClient({ baseUrl: server.url, headers: { cookie } });
  const tracker = await api.createTracker({
    name: "Bench",
    queries: Array.from({ length: queries }, (_, i) => `best tool number ${i + 1} for small teams`),
    brand: { name: "Acme" },
    iterations,
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  });
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5"); // resets VmHWM: the peak from here on is the run's
  const before = memoryOf(server.pid).rss;
  const started = performance.now();
  const { run } = await api.runTracker(tracker.id);
  let finished: TrackerRun = run;
  while (finished.status === "queued" || finished.status === "running") {
    await Bun.sleep(100);
    finished = await api.getTrackerRun(tracker.id, run.id);
  }
  const wallS = (performance.now() - started) / 1000;
  const peak = memoryOf(server.pid).peak;
  await server.stop();
  if (finished.status !== "completed") throw new Error(`the bench's run ended ${finished.status}${finished.reason ? `: ${finished.reason}` : ""}`);
  const idealS = (Math.ceil((queries * iterations) / cap) * LATENCY_MS + LATENCY_MS) / 1000;
  console.log(
    `run of ${queries} queries × ${providerIds.length} providers × ${iterations} iterations (${finished.answers.done}/${finished.answers.expected} answers, ${finished.status}) ` +
      `in ${wallS.toFixed(1)} s; ideal at a cap of ${cap} calls per provider and ${LATENCY_MS} ms a call: ${idealS.toFixed(1)} s; server peak RSS ${peak.toFixed(0)} MB (${before.toFixed(0)} MB before the run)`,
  );
  report({ figure: `tracker run ${queries}×3×${iterations}: wall ÷ ideal at the provider cap`, value: wallS / idealS, unit: "×", goal: 1.5, better: "lower" });
  report({ figure: "tracker run: server peak RSS", value: peak, unit: "MB", goal: 400, better: "lower", detail: `${before.toFixed(0)} MB before` });
}

await buildAssets({ quiet: true });
const bench = await benchApp({ baseUrls: simulator.baseUrls, env: { TRACKER_MIN_INTERVAL_MINUTES: "1" } });
const { userId, cookie } = await seedSearches(bench.database, bench.handle, { searches: 0 });
const api = createApiClient({ baseUrl: "http://localhost", fetch: bench.handle, headers: { cookie } });

// The scheduler: 1,000 trackers due at the same minute, whose owner's subscription then lapses, so
// that the tick's runs are queued and skipped at once, without provider calls: what is left is the
// cost of the tick itself. They are defined through the API with a schedule nowhere near, then
// moved (PATCH) to a minute far enough ahead that every one is moved before it.
const parked = { cron: "0 3 1 1 *", timezone: "UTC" };
const defineStarted = performance.now();
const ids: string[] = [];
for (let i = 0; i < trackerCount; i++)
  ids.push((await api.createTracker({ name: `T${i}`, queries: ["best crm"], brand: { name: "Acme" }, iterations: 1, schedule: parked })).id);
const defineS = (performance.now() - defineStarted) / 1000;
// Moving them takes about as long as defining them: the minute after that, with a minute to spare.
const at = new Date(Date.now() + defineS * 1000 * 1.5 + 90_000);
const daily = { cron: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`, timezone: "UTC" };
for (const id of ids) await api.updateTracker(id, { schedule: daily });
await bench.database.db.update(subscriptions).set({ status: "canceled" }).where(eq(subscriptions.userId, userId));
const db = bench.database.db;
const occurrence = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes()));
// Their tick: one run row each for that occurrence (skipped: the subscription lapsed).
let tickS = 0;
let lastS = 0;
for (;;) {
  const runs = await db
    .select({ at: trackerRuns.createdAt, finishedAt: trackerRuns.finishedAt })
    .from(trackerRuns)
    .where(and(eq(trackerRuns.trigger, "schedule"), eq(trackerRuns.scheduledFor, occurrence), isNotNull(trackerRuns.finishedAt)))
    .orderBy(trackerRuns.createdAt);
  if (runs.length >= trackerCount) {
    tickS = ((runs.at(-1)?.at.getTime() ?? 0) - (runs[0]?.at.getTime() ?? 0)) / 1000;
    lastS = (Math.max(...runs.map((run) => run.finishedAt?.getTime() ?? 0)) - occurrence.getTime()) / 1000;
    break;
  }
  await Bun.sleep(500);
}
console.log(
  `${trackerCount} trackers defined in ${defineS.toFixed(1)} s (with their pg-boss schedules); one tick made their ${trackerCount} runs in ${tickS.toFixed(2)} s ` +
    `(first run row to last), the last one ended (skipped) ${lastS.toFixed(1)} s after the occurrence (pg-boss's cron pass runs every 30 s)`,
);
// Goal: a tick's runs are all made within the minute, before the next tick of the shortest schedule an operator may allow.
report({ figure: `scheduler: one tick's runs for ${trackerCount} trackers`, value: tickS, unit: "s", goal: 60, better: "lower" });

await bench.close();
simulator.stop();
process.exit(0);
