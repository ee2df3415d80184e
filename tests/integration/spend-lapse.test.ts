import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql, type SQL } from "drizzle-orm";
import { subscriptions, trackerCalls, trackerRuns, trackers } from "#db/schema.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";
import { selectRows } from "#db/client.ts";

/*
 * ADR 052, the probe's finding 8: a lapsed owner's tracker stops costing anything. Its run finds
 * the lapse, is skipped once, and its schedule is removed (no skipped run at every tick); the
 * renewal is found by a sweep that puts the schedule back. A run in flight stops asking when the
 * subscription lapses.
 */

let slow: Simulator;
beforeAll(() => {
  slow = startSimulator({ latency: { kind: "fixed", ms: 60 } });
});
afterAll(async () => {
  await slow.stop();
});

const definition = {
  name: "Lapse",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 1,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

describeEachDatabase("trackers: a lapsed subscription", (getDb) => {
  async function rows<T>(query: SQL): Promise<T[]> {
    return selectRows<T>(getDb().db, query);
  }
  const scheduled = async (key: string) => (await rows<{ name: string }>(sql`select name from pgboss.schedule where key = ${key}`)).map((r) => r.name);
  /** Whether the tracker has a next run (the dispatcher's schedule: its next_run_at). */
  const hasNextRun = async (trackerId: string) =>
    (await getDb().db.select({ nextRunAt: trackers.nextRunAt }).from(trackers).where(eq(trackers.id, trackerId)))[0]?.nextRunAt != null;
  const jobState = async (id: string | null) => (await rows<{ state: string }>(sql`select state from pgboss.job where id = ${id}`))[0]?.state;

  test("the run that finds the lapse is skipped once and the schedule removed: later ticks write nothing; the renewal sweep puts it back", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator: slow });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      expect(await hasNextRun(tracker.id)).toBe(true);
      const setStatus = (status: string) => getDb().db.update(subscriptions).set({ status }).where(eq(subscriptions.userId, account.id));
      const runs = () => getDb().db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, tracker.id));

      await setStatus("canceled");
      const tick = (day: string) => queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: `2026-03-${day}T09:00:00.000Z` });
      const first = await tick("02");
      await waitFor(async () => (await jobState(first)) === "completed", { what: "the first tick after the lapse" });
      expect((await runs()).map((run) => [run.status, run.reason])).toEqual([
        ["skipped", "subscription lapsed: the tracker runs again once the subscription is renewed"],
      ]);
      // Unscheduled, and the renewals are looked for from now on.
      expect(await hasNextRun(tracker.id)).toBe(false);
      expect(await scheduled("renewals")).toEqual(["tracker-renewals"]);
      // (Read from its row: the owner, no longer Pro, cannot read it through the API.)
      const [paused] = await getDb().db.select({ pausedReason: trackers.pausedReason }).from(trackers).where(eq(trackers.id, tracker.id));
      expect(paused?.pausedReason).toBe("subscription lapsed");

      // Ticks still sent (a schedule's last one in flight, or by hand) write nothing while it is lapsed.
      const later = await Promise.all([tick("09"), tick("16")]);
      await waitFor(async () => (await Promise.all(later.map(jobState))).every((state) => state === "completed"), { what: "the later ticks" });
      expect(await runs()).toHaveLength(1);

      // The sweep finds nothing to do while it is still lapsed, then the renewal.
      const early = await queue.send("tracker-renewals", {});
      await waitFor(async () => (await jobState(early)) === "completed", { what: "a sweep before the renewal" });
      expect(await hasNextRun(tracker.id)).toBe(false);
      await setStatus("active");
      await queue.send("tracker-renewals", {});
      await waitFor(async () => await hasNextRun(tracker.id), { what: "the renewal sweep to put the schedule back" });
      expect(await agent.api.getTracker(tracker.id)).toMatchObject({ paused: false, nextRunAt: expect.any(String) });
      const [row] = await getDb().db.select({ pausedReason: trackers.pausedReason }).from(trackers).where(eq(trackers.id, tracker.id));
      expect(row?.pausedReason).toBeNull();
      // With no lapse left, the next sweep removes its own schedule.
      const last = await queue.send("tracker-renewals", {});
      await waitFor(async () => (await jobState(last)) === "completed", { what: "the last sweep" });
      expect(await scheduled("renewals")).toEqual([]);
    } finally {
      await queue.stop();
    }
  });

  test("a run in flight stops asking once its owner's subscription lapses, and the tracker is paused saying why", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator: slow, env: { SEARCH_CONCURRENCY: "1" } });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, providers: ["openai"], iterations: 30 })).json as Tracker;
      slow.clearLog();
      const { run } = await agent.api.runTracker(tracker.id);
      const done = async () => (await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run.id))).filter((c) => c.status === "done").length;
      await waitFor(async () => (await done()) >= 2, { what: "two answers" });
      await getDb().db.update(subscriptions).set({ status: "canceled" }).where(eq(subscriptions.userId, account.id));

      // (Read from the rows: the owner, no longer Pro, cannot read it through the API.)
      const finished = await waitFor(async () => {
        const [read] = await getDb().db.select().from(trackerRuns).where(eq(trackerRuns.id, run.id));
        return read && read.status !== "queued" && read.status !== "running" && read;
      });
      expect(finished.status).toBe("partial");
      const calls = await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, run.id));
      const answered = calls.filter((c) => c.status === "done").length;
      expect(answered).toBeLessThan(30);
      expect(calls).toHaveLength(30);
      // Nothing asked after the lapse was seen: every call made is an answer kept.
      expect(slow.searchPrompts("openai").length).toBe(answered);
      const stopped = calls.filter((c) => c.status === "failed");
      expect((stopped[0]?.result as { error?: string }).error).toBe("Stopped: subscription lapsed, so no more is asked.");
      expect(await hasNextRun(tracker.id)).toBe(false);
      const [row] = await getDb().db.select({ pausedReason: trackers.pausedReason }).from(trackers).where(eq(trackers.id, tracker.id));
      expect(row?.pausedReason).toBe("subscription lapsed");
    } finally {
      await queue.stop();
    }
  });
});
