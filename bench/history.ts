/**
 * History at scale: one user with 100,000 saved searches (scripts/seed.ts), one in five
 * of them made by a tracker's runs (a daily 50-query tracker adds 18,000 a year), then through the
 * app, in this process: the first page of their history (GET /api/user/searches), the same with
 * tracker runs hidden (?trackers=hide), and one saved search (GET /api/search/{id}); p50 of each over
 * --requests (goal ≤ 10 ms each), on PGlite and on a throwaway PostgreSQL (when its binaries are
 * here). The in-process GET /healthz is the baseline: what any request costs without the searches.
 *
 *   bun bench/history.ts [--searches 100000] [--requests 300] [--database pglite|postgres] [--quick]
 */
import { sql } from "drizzle-orm";
import { searches, trackerRuns, trackers } from "#db/schema.ts";
import { refreshStatistics } from "#db/statistics.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { seedSearches } from "../scripts/seed.ts";
import { benchApp, flag, onEachDatabase, quick, report, requestP50, spawnSimulator } from "./lib.ts";
import { ensurePersonal } from "#src/server/services/workspaces/access.ts";

const count = Number(flag("--searches") ?? 100_000);
const requests = Number(flag("--requests") ?? (quick ? 60 : 300));

await buildAssets({ quiet: true });
const simulator = await spawnSimulator(0);

await onEachDatabase("the history", measure);

simulator.stop();
process.exit(0);

async function measure(label: string, env: Record<string, string>) {
  const bench = await benchApp({ baseUrls: simulator.baseUrls, env });
  const started = performance.now();
  const { originals, cookie, userId } = await seedSearches(bench.database, bench.handle, { searches: count });
  await markTrackerRuns(bench.database.db, userId);
  // The statistics as the server keeps them: its own pass on PGlite (db/statistics.ts), autovacuum's within a minute on PostgreSQL.
  await refreshStatistics(bench.database);
  console.log(`${label}: seeded ${count} searches in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The first 20 warm up.
  const p50 = async (path: string) => (await requestP50(bench.handle, path, { requests, warmup: 20, cookie })).ms;

  const baseline = await p50("/healthz");
  const list = await p50("/api/user/searches");
  const hidden = await p50("/api/user/searches?trackers=hide");
  const one = await p50(`/api/search/${originals[0]}`);
  console.log(
    `${label}, p50 over ${requests} requests: /healthz ${baseline.toFixed(2)} ms (baseline), first history page ${list.toFixed(2)} ms, ` +
      `without tracker runs ${hidden.toFixed(2)} ms, one saved search ${one.toFixed(2)} ms`,
  );
  const figure = (what: string) => `${what}, ${count} searches, ${label} (p50)`;
  report({ figure: figure("history first page"), value: list, unit: "ms", goal: 10, better: "lower", detail: `healthz ${baseline.toFixed(2)} ms` });
  report({ figure: figure("history without tracker runs"), value: hidden, unit: "ms", goal: 10, better: "lower" });
  report({ figure: figure("GET /api/search/{id}"), value: one, unit: "ms", goal: 10, better: "lower" });
  await bench.close();
}

/**
 * One search in five becomes a tracker run's, as a tracker's runs leave them: marked with the
 * tracker and the run (one run stands for all: the history reads only the marks).
 */
async function markTrackerRuns(db: Awaited<ReturnType<typeof benchApp>>["database"]["db"], userId: string) {
  const [tracker] = await db
    .insert(trackers)
    .values({
      userId,
      workspaceId: await ensurePersonal(db, userId),
      name: "Seeded tracker",
      queries: ["best running shoes"],
      brand: { name: "Nike" },
      competitors: [],
      providers: ["openai"],
      iterations: 1,
      cron: "0 9 * * *",
      timezone: "UTC",
      paused: true,
    })
    .returning({ id: trackers.id });
  const [run] = await db
    .insert(trackerRuns)
    .values({ trackerId: tracker!.id, trigger: "manual", segment: 1, scheduledFor: new Date(), status: "completed" })
    .returning({ id: trackerRuns.id });
  await db.execute(sql`
    update ${searches} set tracker_id = ${tracker!.id}, run_id = ${run!.id}
    where ${searches.userId} = ${userId} and extract(minute from ${searches.createdAt})::int % 5 = 0`);
}
