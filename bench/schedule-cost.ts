/**
 * What keeping 10,000 trackers' schedules costs the app, on a throwaway PostgreSQL (ADR 055):
 * - pg-boss's cron pass over one schedule per tracker (what earlier versions kept): it reads every
 *   schedule and parses each cron at every pass (every 30 s by default). Measured as the process's
 *   CPU over passes run every second, less the same process idle with no schedules;
 * - the dispatcher over `trackers.next_run_at`: its due query when nothing is due (every 15 s), and
 *   a dispatch of 1,000 due trackers (a tick sent and the next run computed and kept, each).
 *
 *   bun bench/schedule-cost.ts [--quick]   (--quick: 2,000 trackers)
 */
import { sql } from "drizzle-orm";
import { createDatabase, MEMORY_DATA_DIR, selectRows } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { trackers, users } from "#db/schema.ts";
import { startJobs } from "#src/server/jobs/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { createDispatcher } from "#src/server/services/trackers/dispatcher.ts";
import { nextOccurrence } from "#src/server/services/trackers/schedule.ts";
import { startPostgres } from "#tests/support/databases.ts";
import { quick, report } from "./lib.ts";
import { ensurePersonal } from "#src/server/services/workspaces/access.ts";

const COUNT = quick ? 2_000 : 10_000;
const DUE = quick ? 200 : 1_000;
const WINDOW_S = quick ? 5 : 15;

const cluster = await startPostgres();
if (!cluster) {
  console.log("no PostgreSQL binaries here: the schedules' cost is not measured");
  process.exit(0);
}
const database = await createDatabase({ databaseUrl: cluster.url, dataDir: MEMORY_DATA_DIR });
await migrate(database);
const db = database.db;

/** The cron passes pg-boss ran while `wait` ran: the distinct times it stamped on its version row. */
async function passesDuring(wait: Promise<unknown>): Promise<number> {
  const seen = new Set<string>();
  let done = false;
  void wait.then(() => (done = true));
  while (!done) {
    const [row] = await selectRows<{ at: string | null }>(db, sql`select cron_on::text as at from pgboss.version`);
    if (row?.at) seen.add(row.at);
    await Bun.sleep(100);
  }
  return Math.max(1, seen.size - 1);
}

/** The process's CPU (user + system) in ms while `wait` runs. */
async function cpuDuring(wait: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await wait();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

// A spread of the web's presets: daily and weekly at every quarter hour, in a few zones.
const zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney"];
const cronOf = (i: number) => `${(i % 4) * 15} ${Math.floor(i / 4) % 24} * * ${i % 3 === 0 ? "1" : "*"}`;

// pg-boss: one schedule per tracker, its cron pass every second.
const idleBoss = await startJobs(database, { cronMonitorIntervalSeconds: 1 });
const idleMs = await cpuDuring(() => Bun.sleep(WINDOW_S * 1000));
const idlePasses = await passesDuring(Bun.sleep(3_000));
for (let i = 0; i < COUNT; i += 50)
  await Promise.all(
    Array.from({ length: Math.min(50, COUNT - i) }, (_, j) =>
      idleBoss.schedule("tracker-tick", cronOf(i + j), { trackerId: crypto.randomUUID() }, { timezone: zones[(i + j) % zones.length]!, key: `t${i + j}` }),
    ),
  );
let passes = 0;
const busyMs = await cpuDuring(async () => {
  passes = await passesDuring(Bun.sleep(WINDOW_S * 1000));
});
await idleBoss.stop({ graceful: false });
// The idle window's CPU scaled to the busy one's length (both about WINDOW_S), less the polling here.
const perPassMs = Math.max(0, busyMs - idleMs) / passes;
console.log(
  `pg-boss, ${COUNT} schedules: ${perPassMs.toFixed(0)} ms of CPU per cron pass (${busyMs.toFixed(0)} ms over ${passes} passes in ${WINDOW_S} s, ${idleMs.toFixed(0)} ms idle without schedules, ${idlePasses} passes in 3 s then); ` +
    `per 30 s: ${perPassMs.toFixed(0)} ms (one pass), ${(perPassMs / 300).toFixed(2)} % of a core`,
);
report({ figure: `schedules: pg-boss's cron pass over ${COUNT} schedules, CPU per 30 s`, value: perPassMs, unit: "ms", goal: 100, better: "lower" });

// The dispatcher: the same trackers as rows with their next run.
await db.execute(sql`delete from pgboss.schedule`);
const [user] = await db
  .insert(users)
  .values({ username: "bench", email: "bench@example.com", passwordHash: "x", firstName: "", lastName: "" })
  .returning({ id: users.id });
const workspaceId = await ensurePersonal(db, user!.id);
const now = Date.now();
for (let i = 0; i < COUNT; i += 500)
  await db.insert(trackers).values(
    Array.from({ length: Math.min(500, COUNT - i) }, (_, j) => {
      const n = i + j;
      const schedule = { cron: cronOf(n), timezone: zones[n % zones.length]! };
      // Not due within the measure (the first DUE are made due below).
      const next = Math.max(nextOccurrence(schedule, now) ?? now, now + 3600_000);
      return {
        userId: user!.id,
        workspaceId,
        name: `T${n}`,
        queries: ["best crm"],
        brand: { name: "Acme" },
        providers: ["openai"],
        iterations: 1,
        ...schedule,
        nextRunAt: new Date(next),
      };
    }),
  );
await db.execute(sql`analyze trackers`);
const queue = createJobQueue(database);
const dispatcher = createDispatcher({ db, queue, clock: () => new Date(), tickQueue: "tracker-tick" });
// The queue's start runs a dispatch (and chains one every 15 s): it finds nothing due yet.
await queue.start();
await Bun.sleep(2_000);
await db.execute(
  sql`update trackers set next_run_at = next_run_at - interval '1 day' * ceil(extract(epoch from next_run_at - now()) / 86400) where id in (select id from trackers order by name limit ${DUE})`,
);
const stillDue = async () => (await selectRows<{ n: number }>(db, sql`select count(*)::int as n from trackers where next_run_at <= now()`))[0]?.n ?? 0;
if ((await stillDue()) !== DUE) throw new Error("the bench's due trackers are not due");
let dispatchWallMs = 0;
// The process's CPU while they are dispatched (by this call, or a chained dispatch that ran meanwhile).
const dispatchMs = await cpuDuring(async () => {
  const started = performance.now();
  await dispatcher.dispatch();
  dispatchWallMs = performance.now() - started;
  if ((await stillDue()) !== 0) throw new Error("trackers still due after a dispatch");
});
const ROUNDS = 100;
let queryWallMs = 0;
const idleQueryMs = await cpuDuring(async () => {
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await dispatcher.dispatch();
  queryWallMs = (performance.now() - started) / ROUNDS;
});
const plan = await database.db.execute(
  sql`explain select id from trackers where next_run_at <= now() and paused = false and paused_reason is null order by next_run_at limit 500`,
);
await queue.stop({ graceful: false });
const perIdleMs = idleQueryMs / ROUNDS;
console.log(
  `dispatcher, ${COUNT} trackers: an idle dispatch (nothing due) ${perIdleMs.toFixed(2)} ms of CPU, ${queryWallMs.toFixed(2)} ms wall; per 30 s (two): ${(2 * perIdleMs).toFixed(2)} ms. ` +
    `A dispatch of ${DUE} due trackers: ${dispatchMs.toFixed(0)} ms of CPU (${(dispatchMs / DUE).toFixed(2)} ms each), ${dispatchWallMs.toFixed(0)} ms wall`,
);
console.log(`its plan: ${JSON.stringify(plan)}`);
report({ figure: `schedules: dispatcher over ${COUNT} trackers, CPU per 30 s idle`, value: 2 * perIdleMs, unit: "ms", goal: 100, better: "lower" });
report({ figure: "schedules: dispatcher, CPU per due tracker", value: dispatchMs / DUE, unit: "ms", goal: 5, better: "lower" });

await database.close();
await cluster.stop();
process.exit(0);
