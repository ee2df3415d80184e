import { afterAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { createDatabase, type Database } from "#db/client.ts";
import { instances, trackerCalls, trackerRuns, users } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { grantPro, newAccount } from "#tests/support/accounts.ts";
import { postgresAvailable, startPostgres, type PostgresCluster } from "#tests/support/databases.ts";
import { browserAt, startServer, type Server } from "#tests/support/server.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * The scale test: three server processes on one throwaway PostgreSQL run a tracker on a
 * one-minute schedule; one is killed (SIGKILL) with calls in flight. Prints what it measured.
 */

const running: Server[] = [];
let cluster: PostgresCluster | null = null;
let database: Database | undefined;
afterAll(async () => {
  for (const server of running.splice(0)) server.process.kill("SIGKILL");
  await database?.close();
  await cluster?.stop();
});

const CAP = 4;
const QUERIES = [
  "best crm for startups",
  "crm with a free plan",
  "best project management tool",
  "best vpn for travel",
  "best note taking app",
  "best password manager",
];
const ITERATIONS = 8;

test.skipIf(!postgresAvailable)(
  "three instances: one run per tick, a killed instance's run finished by the others without buying a saved answer twice, the provider cap held across them",
  async () => {
    cluster = await startPostgres();
    if (!cluster) return;
    const url = await cluster.createDatabase();
    const sim = startSimulator({ latency: { kind: "fixed", ms: 400 } });
    const env = { DATABASE_URL: url, TRACKER_MIN_INTERVAL_MINUTES: "1", PROVIDER_CONCURRENCY_TOTAL: String(CAP), SEARCH_CONCURRENCY: "3" };
    try {
      // One after the other: the first migrates and installs the job schema.
      for (let i = 0; i < 3; i++) running.push(await startServer(sim, mkdtempSync(join(tmpdir(), "ai-search-tracker-instances-")), env));
      database = await createDatabase({ databaseUrl: url, dataDir: mkdtempSync(join(tmpdir(), "ai-search-tracker-instances-")) });
      const db = database.db;
      // The instances' leases, oldest first, are the servers in the order they started.
      const leases = await db.select({ id: instances.id }).from(instances).orderBy(asc(instances.startedAt));
      expect(leases).toHaveLength(3);

      const { api, jar } = browserAt(running[0]!.baseUrl);
      const account = newAccount();
      await api.register(account);
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, account.username));
      await grantPro(database, user!.id);
      const tracker = (await api.createTracker({
        name: "Scale",
        queries: QUERIES,
        brand: { name: "HubSpot" },
        iterations: ITERATIONS,
        schedule: { cron: "* * * * *", timezone: "UTC" },
      })) as Tracker;
      const expected = QUERIES.length * providerIds.length * ITERATIONS;

      // The first tick's run, part-way: answers saved and calls in flight.
      const [run] = await waitFor(
        async () => {
          const rows = await db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));
          const active = rows.find((row) => row.status === "running");
          if (!active) return null;
          const calls = await db.select().from(trackerCalls).where(eq(trackerCalls.runId, active.id));
          return calls.filter((call) => call.status === "done").length >= expected / 4 && [active];
        },
        { what: "the first tick's run to be a quarter done", timeoutMs: 150_000 },
      );
      // The instance with the most calls in flight is killed.
      const inFlight = (await db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).filter((call) => call.status === "started");
      const counts = leases.map((lease) => inFlight.filter((call) => call.instanceId === lease.id).length);
      const victim = counts.indexOf(Math.max(...counts));
      running[victim]!.process.kill("SIGKILL");
      await running[victim]!.process.exited;
      // Read once it is dead: it may have started calls between the choice and the kill (nobody takes them over for seconds).
      const killedInFlight = (await db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).filter(
        (call) => call.status === "started" && call.instanceId === leases[victim]!.id,
      );
      const doneBeforeKill = (await db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).filter((call) => call.status === "done");

      // The others notice (the job's heartbeat lapses) and finish it.
      const finished = await waitFor(
        async () => {
          const [row] = await db.select().from(trackerRuns).where(eq(trackerRuns.id, run!.id));
          return row && row.status !== "running" && row;
        },
        { what: "the surviving instances to finish the run", timeoutMs: 240_000 },
      );
      // Paused through a surviving instance (the same session): no further ticks.
      await browserAt(running[victim === 0 ? 1 : 0]!.baseUrl, jar).api.updateTracker(tracker.id, { paused: true });
      expect(finished.status).toBe("completed");
      const ledger = await db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id));
      expect(ledger.filter((call) => call.status === "done")).toHaveLength(expected);
      // No answer saved before the kill was asked again; only calls in flight on the killed instance were, once.
      const key = (call: { position: number; provider: string; iteration: number }) => `${call.position}/${call.provider}/${call.iteration}`;
      const after = new Map(ledger.map((call) => [key(call), call]));
      for (const call of doneBeforeKill) expect(after.get(key(call))?.attempts).toBe(1);
      const askedAgain = ledger.filter((call) => call.attempts > 1);
      expect(askedAgain.every((call) => call.attempts === 2)).toBe(true);
      // A call is `started` from just before its search until its answer is read: the killed instance's
      // started calls are what it had in flight then (searching, or reading an answer already bought).
      expect(killedInFlight.length).toBeGreaterThan(0);
      expect(askedAgain.length).toBeLessThanOrEqual(killedInFlight.length);
      const killedKeys = new Set(killedInFlight.map(key));
      expect(askedAgain.every((call) => killedKeys.has(key(call)))).toBe(true);
      const recordedCalls = ledger.reduce((sum, call) => sum + call.attempts, 0);

      // The simulators' own log agrees: every call they answered is on a ledger (the runs after this one's too, once none is active).
      const all = await waitFor(async () => {
        const rows = await db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));
        return rows.every((row) => row.status !== "queued" && row.status !== "running") && rows;
      });
      const ledgers = await db.select({ attempts: trackerCalls.attempts, runId: trackerCalls.runId }).from(trackerCalls);
      const recorded = ledgers.filter((call) => all.some((row) => row.id === call.runId)).reduce((sum, call) => sum + call.attempts, 0);
      expect(sim.searchPrompts().length).toBeLessThanOrEqual(recorded);

      // One row per tick (a run, or a tick skipped while the run was still going), however many instances were up.
      const perMinute = await db
        .select({ minute: sql<string>`date_trunc('minute', ${trackerRuns.scheduledFor})`, rows: sql<number>`count(*)` })
        .from(trackerRuns)
        .where(eq(trackerRuns.trackerId, tracker.id))
        .groupBy(sql`1`);
      expect(perMinute.every((tick) => Number(tick.rows) === 1)).toBe(true);
      // The cap held across the instances.
      const peaks = providerIds.map((id) => sim.peakInFlight(id));
      for (const peak of peaks) expect(peak).toBeLessThanOrEqual(CAP);

      console.log(
        `tracker-instances: 3 instances, ${perMinute.length} tick(s) → ${perMinute.length} run row(s); run ${finished.status}: ${expected} answers expected, ${recordedCalls} calls recorded ` +
          `(${askedAgain.length} asked again of ${killedInFlight.length} in flight on the killed instance; the simulators answered ${sim.searchPrompts().length} searches for ${all.length} run row(s)); provider cap ${CAP}, highest reading ${peaks.join("/")}`,
      );
    } finally {
      await sim.stop();
    }
  },
  420_000,
);
