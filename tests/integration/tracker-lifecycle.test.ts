import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, desc, eq, sql } from "drizzle-orm";
import { createDatabase, MEMORY_DATA_DIR, selectRows, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { searches, trackerCalls, trackerRollups, trackerRuns } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase, postgresAvailable, startPostgres, type PostgresCluster } from "#tests/support/databases.ts";
import { sendsJob, startsWith, withStatementFaults, type Statement } from "#tests/support/statement-faults.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * Every run ends, and no answer is bought twice: a run cut off at each step of its start and its
 * end, the last attempt of a query cut short, a database blip after a provider answered, a
 * provider that never answers, a tracker deleted mid-run, two attempts of one query at once.
 * Faults are injected at the real boundaries only: the database driver (statement-faults.ts),
 * the providers' simulator, the job queue stopping.
 */

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};
/** A tracker asks every provider connected: here all of the catalogue's, simulated. */
const PROVIDERS = providerIds.length;
/** A bound that turns a hang into a failure: a few of these wait for retries 2 s apart, or a sweep. */
const LONG = 180_000;
const MONDAY = "2026-03-02T09:00:00.000Z";
const NEXT_MONDAY = "2026-03-09T09:00:00.000Z";

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

/** The ledger's write of an answer (not its `started` claim). */
const recordsAnswer = (statement: Statement) => startsWith('insert into "tracker_calls"')(statement) && statement.params[4] === "done";

describeEachDatabase("trackers: every run ends", (getDb) => {
  /** The app on the database with faults, its clock `ahead` of real time (the sweep starts runs left queued a minute). */
  async function appWithFaults(options: { simulator?: Simulator; env?: Record<string, string> } = {}) {
    const faults = withStatementFaults(getDb());
    const clock = { aheadMs: 0 };
    const made = await createTestApp(faults.database, {
      simulator: options.simulator ?? simulator,
      env: options.env,
      clock: () => new Date(Date.now() + clock.aheadMs),
    });
    const { agent } = await createProAgent(made.app, getDb());
    return { ...made, faults, clock, agent };
  }

  const runsOf = (trackerId: string) =>
    getDb().db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, trackerId)).orderBy(desc(trackerRuns.scheduledFor));

  const runEnded = (runId: string, what = "the run to end") =>
    waitFor(
      async () => {
        const [row] = await getDb().db.select().from(trackerRuns).where(eq(trackerRuns.id, runId));
        return row && row.status !== "queued" && row.status !== "running" && row;
      },
      { what, timeoutMs: 60_000 },
    );

  async function jobState(id: string | null): Promise<string | undefined> {
    const [row] = await selectRows<{ state: string }>(getDb().db, sql`select state from pgboss.job where id = ${id}`);
    return row?.state;
  }

  /** Whether the tick's job and every query job of the tracker's run have ended (completed or failed: none waits for a retry). */
  async function jobsSettled(tickJob: string | null, trackerId: string): Promise<boolean> {
    if (!["completed", "failed"].includes((await jobState(tickJob)) ?? "")) return false;
    const [run] = await runsOf(trackerId);
    if (!run) return true;
    const [row] = await selectRows<{ going: number }>(
      getDb().db,
      sql`select count(*)::int as going from pgboss.job where name = 'tracker-query' and data->>'runId' = ${run.id} and state not in ('completed', 'failed', 'cancelled')`,
    );
    return row?.going === 0;
  }

  /** The tracker's searches left running (none may be, once its run has ended or it is deleted). */
  const runningSearches = (userId: string) =>
    getDb()
      .db.select({ id: searches.id })
      .from(searches)
      .where(and(eq(searches.userId, userId), eq(searches.status, "running")));

  const steps: { step: string; matches: (statement: Statement) => boolean; times?: number; sweep: boolean }[] = [
    {
      step: "marking it running, on every attempt of its tick",
      matches: startsWith('update "tracker_runs" set "status" = $1, "started_at"'),
      sweep: true,
    },
    { step: "sending its query job, once", matches: sendsJob("tracker-query"), times: 1, sweep: false },
    { step: "sending its query job, on every attempt of its tick", matches: sendsJob("tracker-query"), sweep: true },
    { step: "writing its rollups, once", matches: startsWith('insert into "tracker_rollups"'), times: 1, sweep: false },
    {
      step: "marking it ended, on every attempt of its query",
      matches: startsWith('update "tracker_runs" set "status" = $1, "finished_at"'),
      sweep: true,
    },
  ];
  for (const { step, matches, times, sweep } of steps)
    test(
      `a run cut off ${step} still ends${sweep ? " (by the sweep)" : ""}, with each answer bought once; the next tick makes its run`,
      async () => {
        simulator.clearLog();
        const { agent, queue, faults, clock } = await appWithFaults();
        try {
          const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
          // A step the sweep mends fails on every attempt, however many its jobs make (retries inside an attempt vary with load).
          const fault = faults.add(matches, { times: sweep ? Number.POSITIVE_INFINITY : (times ?? 1) });
          const tickJob = await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
          if (!sweep) await waitFor(() => fault.left() === 0, { what: "the faults to be met", timeoutMs: 60_000 });
          if (sweep) {
            // The sweep comes when this test sends it, not at the turn of a minute that may fall in the waits below.
            await fault.hit;
            await queue.unschedule("tracker-sweep", "sweep");
            // Every attempt failed: the tick's job and the run's query jobs have given up, and the run is left as it was, until the sweep comes.
            await waitFor(() => jobsSettled(tickJob, tracker.id), { what: "every attempt of the tick and the queries", timeoutMs: 60_000 });
            await Bun.sleep(2_500);
            expect(await jobsSettled(tickJob, tracker.id)).toBe(true);
            expect((await runsOf(tracker.id))[0]?.status).toBeOneOf(["queued", "running"]);
            fault.stop();
            clock.aheadMs = 2 * 60_000;
            await queue.send("tracker-sweep", {});
          }
          const [run] = await runsOf(tracker.id);
          expect(await runEnded(run!.id)).toMatchObject({ status: "completed", scheduledFor: new Date(MONDAY) });
          expect(simulator.searchPrompts()).toHaveLength(PROVIDERS * definition.iterations);

          await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: NEXT_MONDAY });
          const next = await waitFor(async () => (await runsOf(tracker.id)).find((row) => row.scheduledFor.toISOString() === NEXT_MONDAY), {
            what: "the next tick's run",
          });
          expect(await runEnded(next.id)).toMatchObject({ status: "completed" });
        } finally {
          await queue.stop();
        }
      },
      LONG,
    );

  test(
    "the last attempt of a query, cut short, gives up: the run ends with why, and its saved search is not left running",
    async () => {
      const slow = startSimulator({ latency: { kind: "fixed", ms: 1_500 } });
      const { agent, queue, faults } = await appWithFaults({ simulator: slow });
      try {
        const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
        // The query's first five attempts fail at once (its saved search cannot be written); the sixth is its last.
        const fault = faults.add(startsWith('insert into "searches"'), { times: 5 });
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        await waitFor(() => fault.left() === 0, { what: "five failed attempts", timeoutMs: 60_000 });
        const [run] = await runsOf(tracker.id);
        await waitFor(async () => (await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).length > 0, {
          what: "the last attempt's calls",
        });
        // The instance stops without grace mid-call: the last attempt is aborted.
        await queue.stop({ graceful: false });
        const ended = await runEnded(run!.id);
        expect(ended.status).toBeOneOf(["partial", "failed"]);
        expect(ended.reason).toBeTruthy();
        const [account] = await selectRows<{ user_id: string }>(getDb().db, sql`select user_id from trackers where id = ${tracker.id}`);
        await waitFor(async () => (await runningSearches(account!.user_id)).length === 0, { what: "no saved search left running" });
      } finally {
        await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );

  test(
    "a database blip after a provider answered: the answer is kept and bought once",
    async () => {
      simulator.clearLog();
      const { agent, queue, faults } = await appWithFaults();
      try {
        const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
        const fault = faults.add(recordsAnswer, { times: 1 });
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        const [run] = await waitFor(() => runsOf(tracker.id).then((rows) => rows.length > 0 && rows));
        expect(await runEnded(run!.id)).toMatchObject({ status: "completed" });
        expect(fault.left()).toBe(0);
        const ledger = await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id));
        expect(ledger.map((call) => [call.status, call.attempts])).toEqual(Array.from({ length: PROVIDERS * definition.iterations }, () => ["done", 1]));
        expect(simulator.searchPrompts()).toHaveLength(PROVIDERS * definition.iterations);
      } finally {
        await queue.stop();
      }
    },
    LONG,
  );

  test(
    "a provider that never answers costs the run its time, not the schedule: the run ends partial saying why, and the next tick makes its run",
    async () => {
      const hung = startSimulator({ latency: { kind: "fixed", ms: 5 } });
      hung.setFaults("openai", [{ kind: "timeout" }], { persistent: true, kinds: ["search"] });
      const { agent, queue } = await appWithFaults({ simulator: hung, env: { SEARCH_DEADLINE_SECONDS: "1", SEARCH_DEADLINE_SECONDS_AT_100: "2" } });
      try {
        const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
        for (const scheduledFor of [MONDAY, NEXT_MONDAY]) {
          await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor });
          const run = await waitFor(async () => (await runsOf(tracker.id)).find((row) => row.scheduledFor.toISOString() === scheduledFor), {
            what: "the tick's run",
          });
          const ended = await runEnded(run.id);
          expect(ended.status).toBe("partial");
          expect(ended.reason).toContain(`${definition.iterations} of ${PROVIDERS * definition.iterations} answers did not come`);
          expect(ended.reason).toContain("time limit");
        }
      } finally {
        await queue.stop();
        await hung.stop();
      }
    },
    LONG,
  );

  test(
    "a tracker deleted mid-run: no more is asked, and nothing is left running in the history",
    async () => {
      const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
      const { agent, queue, account } = await (async () => {
        const made = await appWithFaults({ simulator: slow, env: { SEARCH_CONCURRENCY: "1" } });
        const [row] = await selectRows<{ id: string }>(getDb().db, sql`select id from users order by created_at desc limit 1`);
        return { ...made, account: row! };
      })();
      try {
        const tracker = (
          await agent.request("POST", "/api/trackers", { ...definition, queries: ["best crm for startups", "crm with a free plan"], iterations: 6 })
        ).json as Tracker;
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        const [run] = await waitFor(() => runsOf(tracker.id).then((rows) => rows.length > 0 && rows));
        await waitFor(
          async () => (await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).some((call) => call.status === "done"),
          {
            what: "some answers",
          },
        );
        expect((await agent.request("DELETE", `/api/trackers/${tracker.id}`)).status).toBeLessThan(300);
        const asked = slow.searchPrompts().length;
        await waitFor(async () => (await runningSearches(account.id)).length === 0, { what: "no saved search left running", timeoutMs: 60_000 });
        // Ended, they are kept as the owner's own: none points at the gone run.
        expect(await selectRows(getDb().db, sql`select id from searches where run_id = ${run!.id}`)).toEqual([]);
        await Bun.sleep(1_500);
        // At most the calls in flight when it was deleted (two queries × three providers, one call at a time each) were still made.
        expect(slow.searchPrompts().length).toBeLessThanOrEqual(asked + 2 * PROVIDERS);
        expect(slow.searchPrompts().length).toBeLessThan(2 * PROVIDERS * 6);
      } finally {
        await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );

  test(
    "a tracker edited mid-run: the run asks and counts what it started with",
    async () => {
      const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
      const { agent, queue } = await appWithFaults({ simulator: slow });
      try {
        const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        const [run] = await waitFor(() => runsOf(tracker.id).then((rows) => rows[0]?.status === "running" && rows));
        const edited = await agent.request("PATCH", `/api/trackers/${tracker.id}`, { iterations: 5, providers: ["openai"], brand: { name: "Salesforce" } });
        expect(edited.status).toBe(200);
        expect(await runEnded(run!.id)).toMatchObject({ status: "completed", expected: PROVIDERS * definition.iterations });
        expect(slow.searchPrompts()).toHaveLength(PROVIDERS * definition.iterations);
        const rollups = await getDb().db.select().from(trackerRollups).where(eq(trackerRollups.runId, run!.id));
        expect(new Set(rollups.filter((row) => row.isBrand).map((row) => row.subject))).toEqual(new Set(["HubSpot"]));
        expect(new Set(rollups.map((row) => row.provider))).toEqual(new Set(providerIds));
      } finally {
        await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );

  test(
    "two attempts of one query at once ask each iteration once",
    async () => {
      const slow = startSimulator({ latency: { kind: "fixed", ms: 200 } });
      const { agent, queue, faults } = await appWithFaults({ simulator: slow });
      try {
        const tracker = (await agent.request("POST", "/api/trackers", { ...definition, iterations: 4 })).json as Tracker;
        // The first attempt's read of the ledger is answered late: meanwhile a second attempt (pg-boss handing the job out again) reads it too.
        const reconcile = (statement: Statement) =>
          startsWith('select "run_id", "position", "provider", "iteration", "status"')(statement) && statement.text.includes("exists (select 1 from");
        const held = faults.add(reconcile, { times: 1, holdMs: 1_500 });
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        await held.hit;
        const [run] = await runsOf(tracker.id);
        const second = await queue.send("tracker-query", { runId: run!.id, position: 0 }, { singletonKey: "second-attempt" });
        expect(await runEnded(run!.id)).toMatchObject({ status: "completed" });
        expect(second).not.toBeNull();
        // Both attempts over: the query's two jobs have ended.
        await waitFor(
          async () => {
            const jobs = await selectRows<{ state: string }>(
              getDb().db,
              sql`select state from pgboss.job where name = 'tracker-query' and data->>'runId' = ${run!.id}`,
            );
            return jobs.length === 2 && jobs.every((job) => job.state === "completed");
          },
          { what: "both attempts to end" },
        );
        const ledger = await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id));
        expect(ledger.map((call) => [call.status, call.attempts])).toEqual(Array.from({ length: PROVIDERS * 4 }, () => ["done", 1]));
        expect(slow.searchPrompts()).toHaveLength(PROVIDERS * 4);
      } finally {
        await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );
});

describeEachDatabase("trackers: a run survives every instance", (getDb) => {
  test(
    "every instance killed twice mid-run, then one started again: the run completes, asking again at most the calls in flight, and the schedule ticks again",
    async () => {
      const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
      const env = { SEARCH_CONCURRENCY: "2" };
      const up = async () => {
        const made = await createTestApp(getDb(), { simulator: slow, env });
        await made.queue.start();
        return made;
      };
      const apps = [await up(), await up()];
      const queries = ["best crm for startups", "crm with a free plan"];
      const iterations = 8;
      const expected = queries.length * PROVIDERS * iterations;
      try {
        const { agent } = await createProAgent(apps[0]!.app, getDb());
        const tracker = (await agent.request("POST", "/api/trackers", { ...definition, queries, iterations })).json as Tracker;
        await apps[0]!.queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        const [run] = await waitFor(async () => {
          const rows = await getDb().db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));
          return rows.length > 0 && rows;
        });
        const ledger = () => getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id));
        let inFlight = 0;
        for (const [kill, doneBefore] of [
          [1, expected / 6],
          [2, expected / 2],
        ] as const) {
          await waitFor(async () => (await ledger()).filter((call) => call.status === "done").length >= doneBefore, {
            what: `answers before kill ${kill}`,
            timeoutMs: 120_000,
          });
          // Every instance stops without grace: handlers cut off mid-call, their jobs handed back.
          for (const { queue } of apps.splice(0)) await queue.stop({ graceful: false });
          // The calls cut off: left `started`, bought or not.
          inFlight += (await ledger()).filter((call) => call.status === "started").length;
          apps.push(await up(), await up());
        }
        const ended = await waitFor(
          async () => {
            const [row] = await getDb().db.select().from(trackerRuns).where(eq(trackerRuns.id, run!.id));
            return row && row.status !== "running" && row;
          },
          { what: "the run to end", timeoutMs: 120_000 },
        );
        expect(ended.status).toBe("completed");
        const calls = await ledger();
        expect(calls.filter((call) => call.status === "done")).toHaveLength(expected);
        const made = calls.reduce((sum, call) => sum + call.attempts, 0);
        expect(made - expected).toBeLessThanOrEqual(inFlight);
        const searched = slow.searchPrompts().length;
        expect(searched).toBeLessThanOrEqual(made);

        await apps[0]!.queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: NEXT_MONDAY });
        await waitFor(
          async () => {
            const rows = await getDb().db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));
            return rows.find((row) => row.scheduledFor.toISOString() === NEXT_MONDAY)?.status === "completed";
          },
          { what: "the next tick's run", timeoutMs: 120_000 },
        );
        console.log(
          `tracker-lifecycle: two kills of every instance, ${expected} answers, ${made} calls recorded (${inFlight} in flight at the kills), ${searched} searches made`,
        );
      } finally {
        for (const { queue } of apps) await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );
});

describeEachDatabase("trackers: a database away mid-run", (_getDb, kind) => {
  let cluster: PostgresCluster | null = null;
  let database: Database | undefined;
  afterAll(async () => {
    await database?.close();
    await cluster?.stop();
  });

  test.skipIf(kind !== "postgres" || !postgresAvailable)(
    "PostgreSQL stopped for a few seconds mid-run: the instance lives, the run ends, and the next tick makes its run",
    async () => {
      cluster = await startPostgres();
      if (!cluster) return;
      database = await createDatabase({ databaseUrl: cluster.url, dataDir: MEMORY_DATA_DIR });
      await migrate(database);
      const db = database.db;
      const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
      const { app, queue } = await createTestApp(database, { simulator: slow, env: { SEARCH_CONCURRENCY: "1" } });
      try {
        const { agent } = await createProAgent(app, database);
        const tracker = (await agent.request("POST", "/api/trackers", { ...definition, iterations: 8 })).json as Tracker;
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: MONDAY });
        const [run] = await waitFor(async () => {
          const rows = await db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));
          return rows.length > 0 && rows;
        });
        await waitFor(async () => (await db.select().from(trackerCalls).where(eq(trackerCalls.runId, run!.id))).some((call) => call.status === "done"), {
          what: "some answers",
        });
        await cluster.outage(4_000);
        const ended = await waitFor(
          async () => {
            const [row] = await db.select().from(trackerRuns).where(eq(trackerRuns.id, run!.id));
            return row && row.status !== "running" && row;
          },
          { what: "the run to end", timeoutMs: 120_000 },
        );
        expect(ended.status).toBe("completed");
        expect((await agent.request("GET", `/api/trackers/${tracker.id}`)).status).toBe(200);
        await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: NEXT_MONDAY });
        await waitFor(
          async () =>
            (await db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id))).find((row) => row.scheduledFor.toISOString() === NEXT_MONDAY)
              ?.status === "completed",
          { what: "the next tick's run", timeoutMs: 120_000 },
        );
      } finally {
        await queue.stop();
        await slow.stop();
      }
    },
    LONG,
  );
});
