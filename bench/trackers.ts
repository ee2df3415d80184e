/**
 * Trackers at scale (ADR 043), providers on the simulator in its own process answering in 200 ms:
 * - one run of 50 queries × 3 providers × 10 iterations under PROVIDER_CONCURRENCY_TOTAL, on the
 *   single binary (NODE_ENV=production, PGlite in a data folder), as a server runs it: its wall
 *   time ÷ the ideal (each provider's calls back to back at the cap, then one reading), and the
 *   server's peak RSS during the run;
 * - the scheduler with 1,000 trackers defined, in this process on a fresh PGlite: how long their
 *   creation (and their next runs) takes, and how long one tick takes to make their 1,000 runs
 *   (first run row to last).
 *
 * - the dispatcher at scale (not with --quick): 10,000 trackers on one throwaway PostgreSQL with
 *   three app instances (three assembled apps on one DATABASE_URL in this process), each tracker
 *   due once in a window of a few minutes, its runs 1 query × 1 provider × 1 iteration on a
 *   simulator answering at once: every due occurrence makes its run, the p99 of a run's lateness
 *   (its row's created_at − scheduled_for), the CPU of this process and of PostgreSQL over the
 *   window, and pg-boss's job rows.
 *
 *   bun bench/trackers.ts [--cap 16] [--quick] [--scale-only | --run-only [--source]] [--trackers 10000] [--window 10]
 *   (after `bun run build`: the run needs the binary)
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { createDatabase, selectRows } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { subscriptions, trackerRuns, trackers, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { seedSearches } from "../scripts/seed.ts";
import { nextOccurrence } from "#src/server/services/trackers/schedule.ts";
import { startPostgres } from "#tests/support/databases.ts";
import { BINARY, benchApp, benchRunTracker, flag, memoryOf, percentile, quick, report, spawnSimulator, startServer } from "./lib.ts";
import { ensurePersonal } from "#src/server/services/workspaces/access.ts";

const LATENCY_MS = 200;
const cap = Number(flag("--cap") ?? 16);
const queries = quick ? 10 : 50;
const trackerCount = quick ? 100 : 1000;
const PASSWORD = "bench-password";

const simulator = await spawnSimulator(LATENCY_MS);
const memoryTracedAt = { at: 0 };
const scaleOnly = process.argv.includes("--scale-only");
const runOnly = process.argv.includes("--run-only");

// One big run, on the binary. Its Pro user is written before the server opens the folder (one process owns a PGlite folder).
if (!scaleOnly) {
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
  // --source: the server from source (bun web/entry.server.tsx), for trying a change without a build.
  const command = process.argv.includes("--source") ? ["bun", ...(process.argv.includes("--smol") ? ["--smol"] : []), "web/entry.server.tsx"] : [BINARY];
  // --memory: the server's memory as /metrics reads it, every second of the run (RSS, the JavaScript heap, memory outside it).
  const memoryTrace = process.argv.includes("--memory");
  const METRICS_TOKEN = "bench-metrics-token-bench-metrics-token";
  const server = await startServer(command, {
    ...(memoryTrace ? { METRICS_TOKEN } : {}),
    ...keys,
    ...limits,
    DATA_DIR: dataDir,
    PROVIDER_CONCURRENCY_TOTAL: String(cap),
  });
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
  // Saving it works out what it can detect (a simulation of its alerts, seconds for this shape): its memory is measured too.
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
  const creating = performance.now();
  const tracker = await api.createTracker(benchRunTracker("Bench", queries));
  console.log(
    `creating it took ${((performance.now() - creating) / 1000).toFixed(1)} s, the server's RSS peaking at ${memoryOf(server.pid).peak.toFixed(0)} MB`,
  );
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5"); // resets VmHWM: the peak from here on is the run's
  const before = memoryOf(server.pid).rss;
  const cpuBefore = cpuPartsOf(server.pid);
  const started = performance.now();
  const { run } = await api.runTracker(tracker.id);
  // Watched as a list of runs reads it, twice a second: one run's page reads every answer of the run,
  // and asked as often would measure the page, not the run.
  let watched: Pick<TrackerRun, "status" | "answers"> = run;
  while (watched.status === "queued" || watched.status === "running") {
    await Bun.sleep(500);
    watched = (await api.listTrackerRuns(tracker.id, { limit: 1 })).runs.find((one) => one.id === run.id) ?? watched;
    if (memoryTrace) await traceMemory(server.url, METRICS_TOKEN, started, watched.answers.done, server.pid);
  }
  const wallS = (performance.now() - started) / 1000;
  const cpuAfter = cpuPartsOf(server.pid);
  const serverCpuS = (cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) / 1000;
  const serverSystemS = (cpuAfter.system - cpuBefore.system) / 1000;
  const peak = memoryOf(server.pid).peak;
  const finished: TrackerRun = await api.getTrackerRun(tracker.id, run.id);
  await server.stop();
  if (finished.status !== "completed") throw new Error(`the bench's run ended ${finished.status}${finished.reason ? `: ${finished.reason}` : ""}`);
  const idealS = (Math.ceil((queries * tracker.iterations) / cap) * LATENCY_MS + LATENCY_MS) / 1000;
  console.log(
    `run of ${queries} queries × ${tracker.providers.length} providers × ${tracker.iterations} iterations (${finished.answers.done}/${finished.answers.expected} answers, ${finished.status}) ` +
      `in ${wallS.toFixed(1)} s (the server's CPU ${serverCpuS.toFixed(1)} s, ${serverSystemS.toFixed(1)} s of it in the kernel); ideal at a cap of ${cap} calls per provider and ${LATENCY_MS} ms a call: ${idealS.toFixed(1)} s; server peak RSS ${peak.toFixed(0)} MB (${before.toFixed(0)} MB before the run)`,
  );
  report({
    figure: `tracker run ${queries}×${tracker.providers.length}×${tracker.iterations}: wall ÷ ideal at the provider cap`,
    value: wallS / idealS,
    unit: "×",
    goal: 1.3,
    better: "lower",
  });
  report({ figure: "tracker run: server peak RSS", value: peak, unit: "MB", goal: 400, better: "lower", detail: `${before.toFixed(0)} MB before` });
}

if (!scaleOnly && !runOnly) await pgBossTick();
if (!quick && !runOnly) await dispatcherAtScale();
simulator.stop();
process.exit(0);

async function pgBossTick() {
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
    `${trackerCount} trackers defined in ${defineS.toFixed(1)} s (with their next runs); one tick made their ${trackerCount} runs in ${tickS.toFixed(2)} s ` +
      `(first run row to last), the last one ended (skipped) ${lastS.toFixed(1)} s after the occurrence (the dispatcher looks every 15 s)`,
  );
  // Goal: a tick's runs are all made within the minute, before the next tick of the shortest schedule an operator may allow.
  report({ figure: `scheduler: one tick's runs for ${trackerCount} trackers`, value: tickS, unit: "s", goal: 60, better: "lower" });

  await bench.close();
}

/** The dispatcher at scale (ADR 055): see the top of this file. */
async function dispatcherAtScale(): Promise<void> {
  const count = Number(flag("--trackers") ?? 10_000);
  const windowMinutes = Number(flag("--window") ?? 10);
  const cluster = await startPostgres();
  if (!cluster) return console.log("no PostgreSQL binaries here: the dispatcher at scale is not measured");
  const simulatorFast = await spawnSimulator(1);
  const env = {
    DATABASE_URL: cluster.url,
    TRACKER_MIN_INTERVAL_MINUTES: "1",
    ACCOUNT_DAILY_SPEND_USD: "1000000",
    DAILY_SPEND_USD: "1000000",
    TRACKER_SPEND_SHARE: "1",
  };
  const instances = [];
  // One after the other: the first migrates and installs pg-boss's schema.
  for (let i = 0; i < 3; i++) {
    const app = await benchApp({ baseUrls: simulatorFast.baseUrls, env });
    await app.queue.start();
    instances.push(app);
  }
  const db = instances[0]!.database.db;
  const [user] = await db
    .insert(users)
    .values({ username: "scale", email: "scale@example.com", passwordHash: "x", firstName: "", lastName: "" })
    .returning({ id: users.id });
  await db.insert(subscriptions).values({ id: `sub_${user!.id}`, userId: user!.id, stripeCustomerId: `cus_${user!.id}`, status: "active" });
  // Each tracker hourly at one minute of the window, which starts two minutes from now.
  const start = Math.ceil(Date.now() / 60_000) * 60_000 + 120_000;
  const workspaceId = await ensurePersonal(db, user!.id);
  const seeded = performance.now();
  for (let i = 0; i < count; i += 500)
    await db.insert(trackers).values(
      Array.from({ length: Math.min(500, count - i) }, (_, j) => {
        const minute = new Date(start + ((i + j) % windowMinutes) * 60_000).getUTCMinutes();
        const schedule = { cron: `${minute} * * * *`, timezone: "UTC" };
        const next = nextOccurrence(schedule, start - 1);
        return {
          userId: user!.id,
          workspaceId,
          name: `S${i + j}`,
          queries: ["best crm"],
          brand: { name: "Acme" },
          providers: ["openai"],
          iterations: 1,
          ...schedule,
          nextRunAt: new Date(next!),
        };
      }),
    );
  console.log(
    `${count} trackers written in ${((performance.now() - seeded) / 1000).toFixed(1)} s; due from ${new Date(start).toISOString()} over ${windowMinutes} minutes`,
  );
  await Bun.sleep(Math.max(0, start - Date.now()));
  const [dataDir] = await selectRows<{ setting: string }>(db, sql`select setting from pg_settings where name = 'data_directory'`);
  const postgresCpu = () => postgresCpuMs(dataDir!.setting);
  const cpuBefore = process.cpuUsage();
  const pgBefore = postgresCpu();
  const end = start + windowMinutes * 60_000;
  let peakJobs = 0;
  let runs: Array<{ lateMs: number; status: string }> = [];
  // Until every occurrence has its run, or two minutes past the window.
  while (Date.now() < end + 120_000) {
    await Bun.sleep(5_000);
    const [jobs] = await selectRows<{ n: number }>(db, sql`select count(*)::int as n from pgboss.job`);
    peakJobs = Math.max(peakJobs, jobs?.n ?? 0);
    runs = await selectRows<{ lateMs: number; status: string }>(
      db,
      sql`select extract(epoch from (created_at - scheduled_for)) * 1000 as "lateMs", status from tracker_runs where trigger = 'schedule'`,
    );
    if (Date.now() > end && runs.length >= count) break;
  }
  const windowS = (Date.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const appCpuS = (cpu.user + cpu.system) / 1e6;
  const pgCpuS = (postgresCpu() - pgBefore) / 1000;
  await Bun.sleep(10_000);
  const statuses = new Map<string, number>();
  for (const run of await selectRows<{ status: string }>(db, sql`select status from tracker_runs where trigger = 'schedule'`))
    statuses.set(run.status, (statuses.get(run.status) ?? 0) + 1);
  const [jobRows] = await selectRows<{ n: number; ticks: number; queries: number }>(
    db,
    sql`select count(*)::int as n, count(*) filter (where name = 'tracker-tick')::int as ticks, count(*) filter (where name = 'tracker-query')::int as queries from pgboss.job`,
  );
  const late = runs.map((run) => Number(run.lateMs) / 1000);
  const p50 = percentile(late, 50);
  const p99 = percentile(late, 99);
  const max = Math.max(...late);
  for (const instance of instances) await instance.queue.stop({ graceful: false });
  for (const instance of instances.reverse()) await instance.close();
  simulatorFast.stop();
  await cluster.stop();
  // Steady state: each tracker runs hourly, and each run leaves a tick and a query job for
  // JOB_RETENTION_SECONDS (6 h), plus four dispatches a minute.
  const perHour = count;
  console.log(
    `dispatcher at scale: ${count} trackers due over ${windowMinutes} min on 3 instances (one process) and one PostgreSQL: ` +
      `${runs.length} scheduled runs (${[...statuses].map(([status, n]) => `${n} ${status}`).join(", ")}); lateness p50 ${p50.toFixed(1)} s, p99 ${p99.toFixed(1)} s, max ${max.toFixed(1)} s; ` +
      `CPU over ${windowS.toFixed(0)} s: the app process ${appCpuS.toFixed(0)} s (${((100 * appCpuS) / windowS).toFixed(0)} % of a core, runs included), PostgreSQL ${pgCpuS.toFixed(0)} s; ` +
      `pg-boss job rows: ${jobRows?.n} at the end (${jobRows?.ticks} ticks, ${jobRows?.queries} queries), peak ${peakJobs}; ` +
      `steady state (${perHour} hourly trackers, a 6-hour retention): about ${Math.round(perHour * 6 * 2 + 6 * 240).toLocaleString("en-US")} rows`,
  );
  report({ figure: `dispatcher: ${count} trackers, 3 instances: runs made ÷ due`, value: runs.length / count, unit: "×", goal: 1, better: "higher" });
  report({ figure: "dispatcher: p99 lateness of a run", value: p99, unit: "s", goal: 60, better: "lower" });
  report({ figure: "dispatcher: pg-boss job rows at the end", value: jobRows?.n ?? 0, unit: "rows", goal: 1_000_000, better: "lower" });
}

/** One line of the run's memory from /metrics, at most a second apart. */
async function traceMemory(url: string, token: string, started: number, answers: number, pid: number): Promise<void> {
  if (performance.now() - memoryTracedAt.at < 1000) return;
  memoryTracedAt.at = performance.now();
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const mb = (name: string) => Math.round(Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? 0) / 1048576);
  console.log(
    `${((performance.now() - started) / 1000).toFixed(1)} s, ${answers} answers: RSS ${mb("process_resident_memory_bytes")} MB, heap used ${mb("nodejs_heap_size_used_bytes")} of ${mb("nodejs_heap_size_total_bytes")} MB, external ${mb("nodejs_external_memory_bytes")} MB; largest resident mappings ${largestMappings(pid)}`,
  );
}

/** The process's five mappings with the most resident memory (MB, and the mapping's size): where RSS is. */
function largestMappings(pid: number): string {
  const mappings: { rss: number; size: number; name: string }[] = [];
  let current: { rss: number; size: number; name: string } | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { rss: 0, size: (Number.parseInt(head[2]!, 16) - Number.parseInt(head[1]!, 16)) / 1048576, name: head[3] || "anon" };
      mappings.push(current);
    } else if (current && line.startsWith("Rss:")) current.rss = Number(/(\d+)/.exec(line)?.[1] ?? 0) / 1024;
  }
  return mappings
    .sort((a, b) => b.rss - a.rss)
    .slice(0, 5)
    .map((m) => `${m.rss.toFixed(0)}/${m.size.toFixed(0)} ${m.name.split("/").pop()}`)
    .join(", ");
}

/** CPU a process has used in user space and in the kernel (ms), from /proc (clock ticks of 10 ms). */
function cpuPartsOf(pid: number): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** CPU (user + system, ms) of the PostgreSQL server of data directory `dataDir` and its live backends. */
function postgresCpuMs(dataDir: string): number {
  const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  const tick = 100;
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]!.split(" ");
      const ppid = Number(fields[1]);
      if (Number(entry) !== pid && ppid !== pid) continue;
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
    } catch {}
  }
  return total;
}
