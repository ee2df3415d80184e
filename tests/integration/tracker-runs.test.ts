import { providerIds } from "#src/contract/providers.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { desc, eq, sql } from "drizzle-orm";
import { subscriptions, trackerCalls, trackerRuns } from "#db/schema.ts";
import type { SavedSearchList } from "#src/contract/history.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp, liveProviderEnv } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";
import { selectRows } from "#db/client.ts";

/** The providers a tracker asks by default: every connected one (the simulator connects them all). */
const P = providerIds.length;

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups", "crm with a free plan"],
  brand: { name: "HubSpot" },
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

/** The run once it has ended (completed, partial, failed or skipped), read as its owner reads it. */
function runFinished(
  agent: { request: (method: string, path: string) => Promise<{ json: unknown }> },
  trackerId: string,
  runId: string,
  what = "the run to end",
) {
  return waitFor(
    async () => {
      const read = (await agent.request("GET", `/api/trackers/${trackerId}/runs/${runId}`)).json as TrackerRun;
      return read.status !== "queued" && read.status !== "running" && read;
    },
    { what },
  );
}

/** Search calls the simulator received, per query × provider. */
function callsPer(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { provider, prompt } of simulator.searchPrompts()) counts.set(`${prompt}/${provider}`, (counts.get(`${prompt}/${provider}`) ?? 0) + 1);
  return counts;
}

describeEachDatabase("trackers: runs on the job queue", (getDb) => {
  test("Run now queues a run (409 while it is active), which completes with one saved search per query in the history, marked with its tracker", async () => {
    simulator.clearLog();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const started = await agent.request("POST", `/api/trackers/${tracker.id}/runs`);
      expect(started.status).toBe(202);
      const { run } = started.json as { run: TrackerRun };
      expect(run).toMatchObject({ trackerId: tracker.id, status: "queued", trigger: "manual", segment: 1 });

      // A second Run now while it is queued or running names it.
      const again = await agent.request("POST", `/api/trackers/${tracker.id}/runs`);
      expect(again.status).toBe(409);
      expect((again.json as { code: string; message: string }).message).toContain(run.id);

      const finished = await runFinished(agent, tracker.id, run.id, "the run to finish");
      expect(finished).toMatchObject({
        status: "completed",
        answers: { expected: 2 * P * 2, done: 2 * P * 2, failed: 0 },
        cost: { usd: 0, simulated: true },
      });
      expect(finished.startedAt).not.toBeNull();
      expect(finished.finishedAt).not.toBeNull();
      expect(finished.queries.map((q) => [q.query, q.expected, q.done, q.failed])).toEqual([
        ["best crm for startups", P * 2, P * 2, 0],
        ["crm with a free plan", P * 2, P * 2, 0],
      ]);

      // Per query, how often each provider's two answers named the brand, with its interval.
      for (const query of finished.queries)
        for (const id of providerIds)
          expect(query.brandMentions?.[id]).toMatchObject({ n: 2, count: expect.any(Number), low: expect.any(Number), high: expect.any(Number) });
      // Each query's saved search opens, with both iterations of each provider, and is in the history marked with its tracker.
      for (const query of finished.queries) {
        const saved = await agent.request("GET", `/api/search/${query.searchId}`);
        expect(saved.status).toBe(200);
        // With the tracker and run that asked it, for its owner to go back to.
        expect(saved.json).toMatchObject({
          query: query.query,
          iterationCount: 2,
          tracker: { id: tracker.id, name: "CRM visibility", runId: run.id, scheduledFor: finished.scheduledFor },
        });
      }
      const history = (await agent.request("GET", "/api/user/searches")).json as SavedSearchList;
      expect(new Set<string | null>(history.searches.map((s) => s.id))).toEqual(new Set(finished.queries.map((q) => q.searchId)));
      for (const listed of history.searches) expect(listed.tracker).toEqual({ id: tracker.id, name: "CRM visibility" });
      // The history can leave trackers' searches out.
      expect(((await agent.request("GET", "/api/user/searches?trackers=hide")).json as SavedSearchList).searches).toEqual([]);

      // Each answer was bought once: two per query × provider.
      expect([...callsPer().values()]).toEqual(Array(2 * P).fill(2));

      // The tracker lists it as its last run; the runs list pages newest first.
      expect(((await agent.request("GET", `/api/trackers/${tracker.id}`)).json as Tracker).lastRun).toMatchObject({ id: run.id, status: "completed" });
      expect((await agent.api.listTrackerRuns(tracker.id)).runs.map((r) => r.id)).toEqual([run.id]);
    } finally {
      await queue.stop();
    }
  });

  test("deleting a tracker keeps its saved searches in the history as the owner's own (the default) or deletes them with keepSearches=false", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const runOnce = async (name: string) => {
        const tracker = (await agent.request("POST", "/api/trackers", { ...definition, name })).json as Tracker;
        expect(tracker.savedSearches).toBe(0);
        const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
        const finished = await runFinished(agent, tracker.id, run.id);
        return { tracker, searchIds: finished.queries.map((q) => q.searchId) };
      };
      const kept = await runOnce("Kept");
      // The tracker says how many saved searches deleting it concerns, on its own and in the list.
      expect(((await agent.request("GET", `/api/trackers/${kept.tracker.id}`)).json as Tracker).savedSearches).toBe(2);
      expect(((await agent.request("GET", "/api/trackers")).json as { trackers: Tracker[] }).trackers[0]?.savedSearches).toBe(2);

      const bad = await agent.request("DELETE", `/api/trackers/${kept.tracker.id}?keepSearches=maybe`);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ code: expect.any(String), message: expect.stringContaining("keepSearches must be true or false") });

      expect((await agent.request("DELETE", `/api/trackers/${kept.tracker.id}`)).status).toBe(200);
      // Kept as her own searches: no longer marked as a run's, so "hide tracker runs" shows them, and nothing points at the gone tracker.
      const shown = (await agent.request("GET", "/api/user/searches?trackers=hide")).json as SavedSearchList;
      expect(new Set<string | null>(shown.searches.map((s) => s.id))).toEqual(new Set(kept.searchIds));
      for (const listed of shown.searches) expect(listed.tracker).toBeUndefined();
      for (const id of kept.searchIds) expect((await agent.request("GET", `/api/search/${id}`)).json).not.toHaveProperty("tracker");
      const [dangling] = await selectRows<{ count: number }>(
        getDb().db,
        sql`select count(*)::int as count from searches where id in (${sql.join(
          kept.searchIds.map((id) => sql`${id}`),
          sql`, `,
        )}) and (tracker_id is not null or run_id is not null)`,
      );
      expect(Number(dangling?.count)).toBe(0);

      const dropped = await runOnce("Dropped");
      expect((await agent.request("DELETE", `/api/trackers/${dropped.tracker.id}?keepSearches=false`)).status).toBe(200);
      for (const id of dropped.searchIds) expect((await agent.request("GET", `/api/search/${id}`)).status).toBe(404);
      const left = (await agent.request("GET", "/api/user/searches")).json as SavedSearchList;
      expect(new Set<string | null>(left.searches.map((s) => s.id))).toEqual(new Set(kept.searchIds));
    } finally {
      await queue.stop();
    }
  });

  test("a run whose estimate would pass the spend limit is skipped with the reason, and calls nothing", async () => {
    simulator.clearLog();
    // Live providers on the simulator cost money; a limit of $0.01 a day cannot take a run.
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { ...liveEnv(), ACCOUNT_DAILY_SPEND_USD: "0.01" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      expect(tracker.estimate.perRunUsd).toBeGreaterThan(0.01);
      const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
      const finished = await runFinished(agent, tracker.id, run.id);
      expect(finished.status).toBe("skipped");
      expect(finished.reason).toContain("ACCOUNT_DAILY_SPEND_USD");
      expect(simulator.searchPrompts()).toEqual([]);
    } finally {
      await queue.stop();
    }
  });

  test("the tracker's own monthly budget skips a run that would pass it", async () => {
    simulator.clearLog();
    const { app, queue } = await createTestApp(getDb(), { simulator, env: liveEnv() });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, monthlyBudgetUsd: 0.01 })).json as Tracker;
      const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
      const finished = await runFinished(agent, tracker.id, run.id);
      expect(finished).toMatchObject({ status: "skipped", reason: expect.stringContaining("monthly budget") });
      expect(simulator.searchPrompts()).toEqual([]);
    } finally {
      await queue.stop();
    }
  });

  test("a lapsed subscription skips the scheduled run and pauses the tracker, saying why; renewing resumes it", async () => {
    simulator.clearLog();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const setStatus = (status: string) => getDb().db.update(subscriptions).set({ status }).where(eq(subscriptions.userId, account.id));
      const runs = () => getDb().db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id)).orderBy(desc(trackerRuns.createdAt));

      await setStatus("canceled");
      // What the tracker's pg-boss schedule sends at a tick, here naming the day's occurrence.
      await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: "2026-03-02T09:00:00.000Z" });
      const [skipped] = await waitFor(async () => {
        const rows = await runs();
        return rows[0]?.status === "skipped" && rows;
      });
      expect(skipped?.reason).toContain("subscription lapsed");
      expect(simulator.searchPrompts()).toEqual([]);

      await setStatus("active");
      expect((await agent.request("GET", `/api/trackers/${tracker.id}`)).json).toMatchObject({
        paused: true,
        pausedReason: "subscription lapsed",
        lastRun: { status: "skipped", reason: expect.stringContaining("subscription lapsed") },
      });
      // Renewed: the next day's tick runs, and the tracker is no longer paused.
      await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: "2026-03-03T09:00:00.000Z" });
      await waitFor(async () => (await runs())[0]?.status === "completed", { what: "the run after renewal to complete" });
      expect((await agent.request("GET", `/api/trackers/${tracker.id}`)).json).toMatchObject({ paused: false, lastRun: { status: "completed" } });
    } finally {
      await queue.stop();
    }
  });

  test("a tracker its owner paused is not run at its tick", async () => {
    simulator.clearLog();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const paused = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      await agent.api.updateTracker(paused.id, { paused: true });
      const running = (await agent.request("POST", "/api/trackers", { ...definition, name: "Running" })).json as Tracker;
      // Both get a tick (what their schedules would send); the paused one's is handled, and makes no run.
      const tick = await queue.send("tracker-tick", { trackerId: paused.id });
      await queue.send("tracker-tick", { trackerId: running.id });
      await waitFor(async () => (await agent.api.getTracker(running.id)).lastRun?.status === "completed", { what: "the running tracker's run" });
      await waitFor(async () => (await jobState(tick)) === "completed", { what: "the paused tracker's tick to be handled" });
      expect((await agent.api.getTracker(paused.id)).lastRun).toBeNull();
      expect(await agent.api.listTrackerRuns(paused.id)).toEqual({ runs: [] });
    } finally {
      await queue.stop();
    }
  });

  test("a tick sent twice for one occurrence makes one run; one that comes while a run is going is skipped once, however often it is sent", async () => {
    simulator.clearLog();
    const slow = startSimulator({ latency: { kind: "fixed", ms: 400 } });
    const { app, queue } = await createTestApp(getDb(), { simulator: slow });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const monday = "2026-03-02T09:00:00.000Z";
      // A tick and its duplicate (a retried job, or two instances' sends), handled side by side.
      const ticks = await Promise.all([
        queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: monday }),
        queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: monday }),
      ]);
      await waitFor(async () => (await Promise.all(ticks.map(jobState))).every((state) => state === "completed"), { what: "both ticks to be handled" });
      const [run] = (await agent.api.listTrackerRuns(tracker.id)).runs;
      expect((await agent.api.listTrackerRuns(tracker.id)).runs).toHaveLength(1);
      expect(run).toMatchObject({ trigger: "schedule", scheduledFor: monday });

      // The next week's tick, twice, while that run is still asking: one skipped row.
      const nextMonday = "2026-03-09T09:00:00.000Z";
      const late = await Promise.all([1, 2].map(() => queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: nextMonday })));
      await waitFor(async () => (await Promise.all(late.map(jobState))).every((state) => state === "completed"), { what: "the second week's ticks" });
      await runFinished(agent, tracker.id, run!.id);
      const { runs } = await agent.api.listTrackerRuns(tracker.id);
      expect(runs.map((r) => [r.scheduledFor, r.status])).toEqual([
        [nextMonday, "skipped"],
        [monday, "completed"],
      ]);
      expect(runs[0]?.reason).toBe("the previous run was still going");
      // The run asked each query × provider its iterations, once.
      expect(slow.searchPrompts()).toHaveLength(2 * P * 2);
    } finally {
      await queue.stop();
      await slow.stop();
    }
  });

  /** A pg-boss job's state, read from its table. */
  async function jobState(id: string | null): Promise<string | undefined> {
    const rows = (await getDb().db.execute(sql`select state from pgboss.job where id = ${id}`)) as unknown as
      | Array<{ state: string }>
      | { rows: Array<{ state: string }> };
    return (Array.isArray(rows) ? rows : rows.rows)[0]?.state;
  }
});

function liveEnv(): Record<string, string> {
  return liveProviderEnv(simulator);
}

describeEachDatabase("trackers: a run survives its instance", (getDb) => {
  test("a run whose instance stops mid-way is finished by another, and no answer it saved is bought twice", async () => {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 150 } });
    // Two calls at a time per provider, so that the stop lands with answers saved and calls in flight.
    const env = { SEARCH_CONCURRENCY: "2" };
    const first = await createTestApp(getDb(), { simulator: slow, env });
    const second = await createTestApp(getDb(), { simulator: slow, env });
    try {
      const { agent } = await createProAgent(first.app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, iterations: 6 })).json as Tracker;
      const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
      const ledger = () => getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run.id));
      await waitFor(async () => (await ledger()).filter((call) => call.status === "done").length >= 6, { what: "some answers to be saved" });

      // The first instance stops without grace: its handlers are cut off, their jobs handed back.
      await first.queue.stop({ graceful: false });
      const savedBefore = (await ledger()).filter((call) => call.status === "done");
      expect(savedBefore.length).toBeLessThan(2 * P * 6);

      await second.queue.start();
      const finished = await runFinished(agent, tracker.id, run.id, "the other instance to finish the run");
      expect(finished).toMatchObject({ status: "completed", answers: { expected: 2 * P * 6, done: 2 * P * 6, failed: 0 } });

      const after = await ledger();
      const key = (call: { position: number; provider: string; iteration: number }) => `${call.position}/${call.provider}/${call.iteration}`;
      // Every answer saved before the stop was kept, not asked again.
      const byKey = new Map(after.map((call) => [key(call), call]));
      for (const saved of savedBefore) expect(byKey.get(key(saved))).toMatchObject({ attempts: 1, status: "done" });
      // The only calls made twice are the ones the stop caught in flight (recorded as started, never saved), each once more.
      const askedAgain = after.filter((call) => call.attempts === 2);
      expect(askedAgain.length).toBeLessThanOrEqual(2 * P * 2);
      expect(after.every((call) => call.attempts <= 2)).toBe(true);
      // What was bought: every answer once, plus at most the calls in flight at the stop.
      expect(slow.searchPrompts().length).toBeGreaterThanOrEqual(2 * P * 6);
      expect(slow.searchPrompts().length).toBeLessThanOrEqual(2 * P * 6 + askedAgain.length);
      // Each query's saved search holds all its answers.
      for (const query of finished.queries) expect((await agent.request("GET", `/api/search/${query.searchId}`)).json).toMatchObject({ iterationCount: 6 });
    } finally {
      await second.queue.stop();
      await first.queue.stop();
      await slow.stop();
    }
  }, 120_000);
});

describeEachDatabase("trackers: schedules on pg-boss", (getDb) => {
  test("a one-minute schedule's tick makes exactly one run per tracker, with two instances' schedulers on the database and two trackers due at once", async () => {
    simulator.clearLog();
    // Both instances look for due ticks every second: each has its cron pass within the minute.
    const options = { simulator, env: { TRACKER_MIN_INTERVAL_MINUTES: "1" }, jobs: { cronMonitorIntervalSeconds: 1 } };
    const first = await createTestApp(getDb(), options);
    const second = await createTestApp(getDb(), options);
    try {
      // One after the other: the first installs pg-boss's schema.
      await first.queue.start();
      await second.queue.start();
      const { agent } = await createProAgent(first.app, getDb());
      const minutely = { ...definition, schedule: { cron: "* * * * *", timezone: "UTC" } };
      const tracker = (await agent.request("POST", "/api/trackers", minutely)).json as Tracker;
      // A second tracker due at the same ticks, asking other queries: each tick is its own (they once shared one key, and one was dropped).
      const other = (await agent.request("POST", "/api/trackers", { ...minutely, name: "Other", queries: ["best crm for agencies"] })).json as Tracker;
      expect(tracker.scheduleText).toBe("Every minute");

      // The next minute's tick: one run each, made by whichever instance took the tick, and completed.
      const completedRun = (id: string) =>
        waitFor(
          async () => {
            const { runs } = await agent.api.listTrackerRuns(id);
            return runs[0]?.status === "completed" && runs[0];
          },
          { what: "the tick's run to complete", timeoutMs: 150_000 },
        );
      const [run, otherRun] = await Promise.all([completedRun(tracker.id), completedRun(other.id)]);
      expect(run).toMatchObject({ trigger: "schedule", answers: { expected: 2 * P * 2, done: 2 * P * 2 } });
      expect(otherRun).toMatchObject({ trigger: "schedule", answers: { expected: 1 * P * 2, done: 1 * P * 2 } });
      // Pausing unschedules them: each tracker stops at the run it made.
      await Promise.all([agent.api.updateTracker(tracker.id, { paused: true }), agent.api.updateTracker(other.id, { paused: true })]);
      // Each tick's job was sent once (not once per instance) and handled; each tracker has that one run.
      for (const [id, made] of [
        [tracker.id, run],
        [other.id, otherRun],
      ] as const) {
        expect((await tickJobs(id)).map((job) => job.state)).toEqual(["completed"]);
        expect((await agent.api.listTrackerRuns(id)).runs.map((r) => r.id)).toEqual([made.id]);
      }
      // Three queries (two trackers') × every provider.
      expect([...callsPer().values()]).toEqual(Array(3 * P).fill(2));
    } finally {
      await Promise.all([first.queue.stop(), second.queue.stop()]);
    }
  }, 200_000);

  /** The tick jobs pg-boss sent for a tracker. */
  async function tickJobs(trackerId: string): Promise<Array<{ state: string }>> {
    return selectRows(getDb().db, sql`select state from pgboss.job where name = 'tracker-tick' and data->>'trackerId' = ${trackerId}`);
  }
});

describeEachDatabase("trackers: the provider cap across instances", (getDb) => {
  test("PROVIDER_CONCURRENCY_TOTAL holds for two instances working on one run together", async () => {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 60 } });
    // Each instance alone would have up to 5 query jobs (twice the cap and one) × 4 calls per provider in flight; together they share 2.
    const options = { simulator: slow, env: { SEARCH_CONCURRENCY: "4", PROVIDER_CONCURRENCY_TOTAL: "2" } };
    const first = await createTestApp(getDb(), options);
    const second = await createTestApp(getDb(), options);
    try {
      await first.queue.start();
      await second.queue.start();
      const { agent } = await createProAgent(first.app, getDb());
      // More queries than one instance takes at once, so that the other takes some.
      const queries = Array.from({ length: 10 }, (_, i) => `best crm number ${i + 1} for startups`);
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, queries, iterations: 2 })).json as Tracker;
      const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
      const finished = await runFinished(agent, tracker.id, run.id);
      expect(finished).toMatchObject({ status: "completed", answers: { expected: 10 * P * 2, done: 10 * P * 2 } });
      // Both instances ran its queries, and each provider never had more than 2 searches in flight.
      const instances = await getDb().db.selectDistinct({ instanceId: trackerCalls.instanceId }).from(trackerCalls).where(eq(trackerCalls.runId, run.id));
      expect(instances).toHaveLength(2);
      expect(providerIds.map((id) => slow.peakInFlight(id))).toEqual(providerIds.map(() => 2));
    } finally {
      await Promise.all([first.queue.stop(), second.queue.stop()]);
      await slow.stop();
    }
  }, 120_000);
});

describeEachDatabase("trackers: a provider's 429s", (getDb) => {
  test("a provider that keeps answering 429 past the retries pauses the call, which asks again and is answered: the run does not fail", async () => {
    const limited = startSimulator({ latency: { kind: "fixed", ms: 5 } });
    // One call: each of its attempts meets a 429 until six are used, two whole rounds of retries.
    limited.setFaults(
      "openai",
      Array.from({ length: 6 }, () => ({ kind: "rate_limit" as const })),
      { kinds: ["search"] },
    );
    const { app, queue } = await createTestApp(getDb(), { simulator: limited });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, queries: ["best crm"], providers: ["openai"], iterations: 1 }))
        .json as Tracker;
      const { run } = (await agent.request("POST", `/api/trackers/${tracker.id}/runs`)).json as { run: TrackerRun };
      const finished = await runFinished(agent, tracker.id, run.id);
      expect(finished).toMatchObject({ status: "completed", answers: { expected: 1, done: 1, failed: 0 } });
      expect(limited.searchPrompts("openai")).toHaveLength(7);
      const [call] = await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run.id));
      // Refused, not bought: one attempt on the ledger.
      expect(call).toMatchObject({ status: "done", attempts: 1 });
    } finally {
      await queue.stop();
      await limited.stop();
    }
  });
});
