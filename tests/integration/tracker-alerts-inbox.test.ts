import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";
import { alertingTracker, BASELINE_RUNS } from "#tests/support/trackers.ts";

/*
 * The header's bell: GET /api/user/alerts lists the caller's newest alerts across their
 * trackers with the unread count, POST /api/user/alerts/read marks some or all of them read, and
 * another user's alerts are never listed nor marked. Alerts are made the product's way: a baseline
 * of runs on the simulator, then OpenAI no longer searching the web (its citations fall).
 */

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

type Agent = Awaited<ReturnType<typeof createProAgent>>["agent"];

async function runAndWait(agent: Agent, trackerId: string): Promise<void> {
  const { run } = await agent.api.runTracker(trackerId);
  await waitFor(
    async () => {
      const read = await agent.api.getTrackerRun(trackerId, run.id);
      return read.status !== "queued" && read.status !== "running";
    },
    { what: "the run to end" },
  );
}

describeEachDatabase("trackers: the alerts inbox", (getDb) => {
  test("unread across two trackers, newest first with their tracker; marking some and then all read; another user's never listed nor marked", async () => {
    simulator.clearFaults();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent: alice } = await createProAgent(app, getDb());
      const { agent: bob } = await createProAgent(app, getDb());
      const create = async (agent: Agent, name: string) => (await agent.request("POST", "/api/trackers", { ...alertingTracker, name })).json as Tracker;
      const first = await create(alice, "CRM one");
      const second = await create(alice, "CRM two");
      const bobs = await create(bob, "Bob's CRM");
      // Before any alert: an empty inbox.
      expect(await alice.api.listUserAlerts()).toEqual({ unread: 0, unreadByTracker: {}, alerts: [], missed: [] });

      // Each a baseline of steady runs (ADR 050), then OpenAI stops searching.
      for (let i = 0; i < BASELINE_RUNS; i++) {
        for (const tracker of [first, second]) await runAndWait(alice, tracker.id);
        await runAndWait(bob, bobs.id);
      }
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      for (const tracker of [first, second]) await runAndWait(alice, tracker.id);
      await runAndWait(bob, bobs.id);
      simulator.clearFaults();

      const firsts = (await alice.api.listTrackerAlerts(first.id)).alerts;
      const seconds = (await alice.api.listTrackerAlerts(second.id)).alerts;
      const bobsAlerts = (await bob.api.listTrackerAlerts(bobs.id)).alerts;
      expect(firsts.length).toBeGreaterThan(0);
      expect(seconds.length).toBeGreaterThan(0);
      expect(bobsAlerts.length).toBeGreaterThan(0);

      // Every alert of both trackers, unread, each with its tracker; none of Bob's.
      const inbox = await alice.api.listUserAlerts();
      expect(inbox.unread).toBe(firsts.length + seconds.length);
      // Per tracker, as the overview marks each: none of Bob's.
      expect(inbox.unreadByTracker).toEqual({ [first.id]: firsts.length, [second.id]: seconds.length });
      const expected = [
        ...firsts.map((alert) => ({ ...alert, trackerId: first.id, trackerName: "CRM one", read: false })),
        ...seconds.map((alert) => ({ ...alert, trackerId: second.id, trackerName: "CRM two", read: false })),
      ];
      expect(inbox.alerts.length).toBe(Math.min(20, expected.length));
      for (const alert of inbox.alerts) expect(expected).toContainEqual(alert);
      expect(inbox.alerts.map((alert) => alert.at)).toEqual(
        inbox.alerts
          .map((alert) => alert.at)
          .toSorted()
          .toReversed(),
      );
      expect(inbox.alerts.some((alert) => bobsAlerts.some((theirs) => theirs.id === alert.id))).toBe(false);

      // Alice cannot mark Bob's alerts read; marking one of hers leaves the others unread.
      expect(await alice.api.markAlertsRead(bobsAlerts.map((alert) => alert.id))).toEqual({ unread: inbox.unread });
      expect((await bob.api.listUserAlerts()).unread).toBe(bobsAlerts.length);
      const one = inbox.alerts[0]!;
      expect(await alice.api.markAlertsRead([one.id])).toEqual({ unread: inbox.unread - 1 });
      const afterOne = await alice.api.listUserAlerts();
      expect(afterOne.unread).toBe(inbox.unread - 1);
      expect(afterOne.unreadByTracker[one.trackerId] ?? 0).toBe(inbox.unreadByTracker[one.trackerId]! - 1);
      expect(afterOne.alerts.find((alert) => alert.id === one.id)?.read).toBe(true);
      expect(afterOne.alerts.filter((alert) => alert.id !== one.id).every((alert) => !alert.read)).toBe(true);

      // All of hers: none unread, Bob's still all unread.
      expect(await alice.api.markAlertsRead()).toEqual({ unread: 0 });
      const read = await alice.api.listUserAlerts();
      expect(read.unread).toBe(0);
      expect(read.unreadByTracker).toEqual({});
      expect(read.alerts.every((alert) => alert.read)).toBe(true);
      expect(await bob.api.listUserAlerts()).toMatchObject({ unread: bobsAlerts.length });
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 180_000);

  test("a signed-in user without trackers has an empty inbox; signed out is 401; ids that are not alert ids are a 400", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const agent = createAgent(app);
      expect((await agent.request("GET", "/api/user/alerts")).status).toBe(401);
      await signUp(agent, getDb());
      expect(await agent.api.listUserAlerts()).toEqual({ unread: 0, unreadByTracker: {}, alerts: [], missed: [] });
      expect(await agent.api.markAlertsRead()).toEqual({ unread: 0 });
      const bad = await agent.request("POST", "/api/user/alerts/read", { ids: ["nope"] });
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ message: expect.stringContaining("ids must be alert ids") });
    } finally {
      await queue.stop();
    }
  });
});
