import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { selectRows } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * Trackers' schedules as the trackers table's next_run_at, run by one dispatcher (ADR 055). The
 * app's clock is driven by hand; a dispatch is what the dispatcher's own job does every 15 s,
 * sent here by hand at the time the test has set.
 */

const definition = { name: "Schedules", queries: ["best crm for startups"], brand: { name: "HubSpot" }, providers: ["openai"], iterations: 1 };

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

/** The local day and time of an instant in a zone, "2026-03-08 03:30". */
function local(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: timezone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

describeEachDatabase("trackers: schedules from the trackers table", (getDb) => {
  /** A dispatch now, handled: the job the dispatcher chains every 15 s. */
  async function dispatch(queue: { send: (name: string, data: object) => Promise<string | null> }): Promise<void> {
    const id = await queue.send("tracker-dispatch", {});
    if (id === null) throw new Error("a dispatch is already queued");
    await waitFor(async () => (await jobState(id)) === "completed", { what: "the dispatch to be handled" });
  }

  async function jobState(id: string): Promise<string | undefined> {
    const [row] = await selectRows<{ state: string }>(getDb().db, sql`select state from pgboss.job where id = ${id}`);
    return row?.state;
  }

  /** Every run of the tracker once none is queued or running, oldest first. */
  async function settledRuns(agent: { api: { listTrackerRuns: (id: string) => Promise<{ runs: TrackerRun[] }> } }, trackerId: string, count: number) {
    const runs = await waitFor(
      async () => {
        const { runs } = await agent.api.listTrackerRuns(trackerId);
        return runs.length >= count && runs.every((run) => run.status !== "queued" && run.status !== "running") && runs;
      },
      { what: `${count} runs to end` },
    );
    return [...runs].reverse();
  }

  test("a daily tracker runs exactly once each local day across both changes of daylight saving time, in three zones, at the next run its page shows", async () => {
    let now = new Date("2026-01-01T00:00:00Z");
    const { app, queue } = await createTestApp(getDb(), { simulator, clock: () => now });
    await queue.start();
    try {
      // [zone, the day before the change, the local time]: 02:30 does not exist on a spring day, occurs twice on an autumn day (01:30 in New York).
      const cases = [
        ["America/New_York", "2026-03-07", "02:30"],
        ["America/New_York", "2026-10-31", "01:30"],
        ["Europe/Berlin", "2026-03-28", "02:30"],
        ["Europe/Berlin", "2026-10-24", "02:30"],
        ["Australia/Sydney", "2026-04-04", "02:30"],
        ["Australia/Sydney", "2026-10-03", "02:30"],
      ] as const;
      for (const [timezone, dayBefore, time] of cases) {
        // Midday UTC the day before: the time is past in every one of these zones.
        now = new Date(`${dayBefore}T12:00:00Z`);
        // Signed in at that time (a session made months before would have expired).
        const { agent } = await createProAgent(app, getDb());
        const cron = `${Number(time.slice(3))} ${Number(time.slice(0, 2))} * * *`;
        const tracker = (await agent.request("POST", "/api/trackers", { ...definition, schedule: { cron, timezone } })).json as Tracker;
        for (let day = 0; day < 3; day++) {
          // The next run the tracker's page shows is the one that happens.
          const next = (await agent.api.getTracker(tracker.id)).nextRunAt;
          if (!next) throw new Error("no next run");
          now = new Date(Date.parse(next) + 20_000);
          await dispatch(queue);
          await settledRuns(agent, tracker.id, day + 1);
          // An hour on (the repeated hour of an autumn day): no second run.
          now = new Date(Date.parse(next) + 3_600_000 + 20_000);
          await dispatch(queue);
        }
        const runs = await settledRuns(agent, tracker.id, 3);
        const at = runs.map((run) => local(run.scheduledFor, timezone));
        // Three runs, each completed: none twice on the day an hour repeats.
        expect(runs.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
        // One a local day on three days in a row, at its time, or an hour later where that time does not exist.
        const days = at.map((value) => value.slice(0, 10));
        expect(new Set(days).size).toBe(3);
        for (const value of at) expect([time, "03:30"]).toContain(value.slice(11));
        await agent.request("DELETE", `/api/trackers/${tracker.id}`);
      }
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a due run the service was down for is told as missed, and caught up with one run, never a burst", async () => {
    let now = new Date("2026-05-04T06:00:00Z");
    const { app, queue } = await createTestApp(getDb(), { simulator, clock: () => now });
    await queue.start();
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, schedule: { cron: "0 9 * * *", timezone: "Europe/Berlin" } }))
        .json as Tracker;
      expect(tracker.nextRunAt).toBe("2026-05-04T07:00:00.000Z");
      // Five minutes late: within the grace, the occurrence runs.
      now = new Date("2026-05-04T07:05:00Z");
      await dispatch(queue);
      const [onTime] = await settledRuns(agent, tracker.id, 1);
      expect(onTime).toMatchObject({ trigger: "schedule", status: "completed", scheduledFor: "2026-05-04T07:00:00.000Z" });
      // Nobody up for the next three days' runs: one missed row, naming the last time and the count, and one run now.
      now = new Date("2026-05-07T09:30:00Z");
      await dispatch(queue);
      const runs = await settledRuns(agent, tracker.id, 3);
      expect(runs.slice(1).map((run) => [run.status, run.scheduledFor])).toEqual([
        ["skipped", "2026-05-07T07:00:00.000Z"],
        ["completed", "2026-05-07T09:30:00.000Z"],
      ]);
      expect(runs[1]!.reason).toBe("missed: the service was not running at 09:00 (Europe/Berlin), nor 2 times before since 05/05/2026, 09:00");
      // Dispatched again: nothing more; the next run is tomorrow's.
      await dispatch(queue);
      expect((await agent.api.listTrackerRuns(tracker.id)).runs).toHaveLength(3);
      expect((await agent.api.getTracker(tracker.id)).nextRunAt).toBe("2026-05-08T07:00:00.000Z");
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("runs are stamped with the occurrence they ran for: none for a minute before the tracker was created or resumed, run or skipped", async () => {
    let now = new Date("2026-12-07T03:02:01Z");
    const { app, queue } = await createTestApp(getDb(), { simulator, clock: () => now, env: { TRACKER_MIN_INTERVAL_MINUTES: "1" } });
    await queue.start();
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, schedule: { cron: "* * * * *", timezone: "UTC" } })).json as Tracker;
      expect(tracker.nextRunAt).toBe("2026-12-07T03:03:00.000Z");
      // Seventeen seconds after creation: 03:02 began before the tracker existed, so nothing runs for it.
      now = new Date("2026-12-07T03:02:18Z");
      await dispatch(queue);
      expect((await agent.api.listTrackerRuns(tracker.id)).runs).toEqual([]);
      now = new Date("2026-12-07T03:03:05Z");
      await dispatch(queue);
      await settledRuns(agent, tracker.id, 1);
      now = new Date("2026-12-07T03:03:30Z");
      await agent.api.updateTracker(tracker.id, { paused: true });
      // Resumed mid-minute: its next run is the next minute, and the minute it was resumed in gets no run and no skipped or missed row.
      now = new Date("2026-12-07T03:16:41Z");
      const resumed = await agent.api.updateTracker(tracker.id, { paused: false });
      expect(resumed.nextRunAt).toBe("2026-12-07T03:17:00.000Z");
      now = new Date("2026-12-07T03:16:50Z");
      await dispatch(queue);
      expect((await agent.api.listTrackerRuns(tracker.id)).runs).toHaveLength(1);
      now = new Date("2026-12-07T03:17:04Z");
      await dispatch(queue);
      const runs = await settledRuns(agent, tracker.id, 2);
      expect(runs.map((run) => [run.status, run.scheduledFor])).toEqual([
        ["completed", "2026-12-07T03:03:00.000Z"],
        ["completed", "2026-12-07T03:17:00.000Z"],
      ]);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("schedules removed or broken by hand are put back at start, and the trackers tick again; earlier per-tracker pg-boss schedules are removed", async () => {
    let now = new Date("2026-06-01T10:00:00Z");
    const first = await createTestApp(getDb(), { simulator, clock: () => now });
    await first.queue.start();
    const { agent } = await createProAgent(first.app, getDb());
    const hourly = (await agent.request("POST", "/api/trackers", { ...definition, schedule: { cron: "0 * * * *", timezone: "UTC" } })).json as Tracker;
    const daily = (await agent.request("POST", "/api/trackers", { ...definition, name: "Daily", schedule: { cron: "15 12 * * *", timezone: "UTC" } }))
      .json as Tracker;
    expect([hourly.nextRunAt, daily.nextRunAt]).toEqual(["2026-06-01T11:00:00.000Z", "2026-06-01T12:15:00.000Z"]);
    // What an earlier version kept: one pg-boss schedule per tracker.
    await first.queue.schedule("tracker-tick", "0 * * * *", { trackerId: hourly.id }, { timezone: "UTC", key: hourly.id });
    await first.queue.stop();
    // By hand: the dispatcher's schedule deleted, one tracker's next run emptied, the other's set to a time that is no occurrence.
    await getDb().db.execute(sql`delete from pgboss.schedule where name = 'tracker-dispatch'`);
    await getDb().db.update(trackers).set({ nextRunAt: null }).where(eq(trackers.id, hourly.id));
    await getDb()
      .db.update(trackers)
      .set({ nextRunAt: new Date("2031-02-03T04:05:06Z") })
      .where(eq(trackers.id, daily.id));

    const second = await createTestApp(getDb(), { simulator, clock: () => now });
    await second.queue.start();
    try {
      const schedules = () => selectRows<{ name: string; key: string }>(getDb().db, sql`select name, key from pgboss.schedule order by name`);
      await waitFor(async () => (await schedules()).some((row) => row.name === "tracker-dispatch"), { what: "the dispatcher's schedule to be put back" });
      await waitFor(async () => !(await schedules()).some((row) => row.name === "tracker-tick"), { what: "the per-tracker schedule to be removed" });
      // Read through the first app (its queue stopped): what the table holds.
      expect((await agent.api.getTracker(hourly.id)).nextRunAt).toBe("2026-06-01T11:00:00.000Z");
      expect((await agent.api.getTracker(daily.id)).nextRunAt).toBe("2026-06-01T12:15:00.000Z");
      // The hourly one's time comes: the dispatcher's own chain (not a dispatch sent here) makes its run.
      now = new Date("2026-06-01T11:00:30Z");
      const runs = await waitFor(
        async () => {
          const { runs } = await agent.api.listTrackerRuns(hourly.id);
          return runs.length > 0 && runs;
        },
        { what: "the hourly tracker's run", timeoutMs: 60_000 },
      );
      expect(runs[0]).toMatchObject({ trigger: "schedule", scheduledFor: "2026-06-01T11:00:00.000Z" });
    } finally {
      await second.queue.stop();
    }
  }, 120_000);
});
