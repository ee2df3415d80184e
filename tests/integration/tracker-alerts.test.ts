import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";
import { alertingTracker, BASELINE_RUNS } from "#tests/support/trackers.ts";

/*
 * ADR 050 through the product's own path: runs on the simulator, their end
 * deciding the alerts. After a baseline of runs, a provider that stops searching the web stops
 * citing the brand's site: its citation rate falls, and that is told once; a provider whose model
 * changed gets a notice, never a rise or a fall.
 */

const definition = alertingTracker;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: alerts", (getDb) => {
  test("a provider that stops searching: its citation rate of the brand's site falls, told once with both windows, p and q, and posted to the webhook; a steady provider is not told", async () => {
    simulator.clearFaults();
    const posted: Array<{ event: string; alert?: { kind: string; metric?: string; provider: string; subject?: string } }> = [];
    const hook = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        posted.push(JSON.parse(await request.text()));
        return new Response("ok");
      },
    });
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: `http://127.0.0.1:${hook.port}/` } })).json as Tracker;
      const run = async () => {
        const { run: started } = await agent.api.runTracker(tracker.id);
        return waitFor(
          async () => {
            const read = await agent.api.getTrackerRun(tracker.id, started.id);
            return read.status !== "queued" && read.status !== "running" && read;
          },
          { what: "the run to end" },
        );
      };
      // A baseline of steady runs: before it, no series is tested (ADR 050).
      const baseline: TrackerRun[] = [];
      for (let i = 0; i < BASELINE_RUNS; i++) baseline.push(await run());
      expect(baseline.map((r) => r.status)).toEqual(baseline.map(() => "completed"));
      const cited = (await agent.api.getTrackerTrend(tracker.id, { metric: "citation", provider: "openai", subject: "HubSpot" })).points;
      // What the test needs of the simulator: OpenAI's answers cite hubspot.com often enough to see it go.
      expect(cited.every((point) => point.k >= 8)).toBe(true);
      expect(await agent.api.listTrackerAlerts(tracker.id)).toEqual({ alerts: [] });

      // OpenAI answers without searching the web from now on: no sources, so no citation.
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const second = await run();
      const { alerts } = await agent.api.listTrackerAlerts(tracker.id);
      const fell = alerts.filter(
        (alert) => alert.kind === "fell" && alert.metric === "citation" && alert.provider === "openai" && alert.subject === "HubSpot" && !alert.query,
      );
      expect(fell).toHaveLength(1);
      const citedBefore = cited.reduce((sum, point) => sum + point.k, 0);
      expect(fell[0]).toMatchObject({
        runId: second.id,
        rule: 2,
        before: { k: citedBefore, n: 20 * BASELINE_RUNS },
        after: { k: 0, n: 20, rate: 0 },
        baselineRuns: baseline.map((r) => r.id),
      });
      expect(fell[0]!.p!).toBeLessThan(0.001);
      expect(fell[0]!.q!).toBeLessThanOrEqual(0.01);
      expect(fell[0]!.q!).toBeGreaterThanOrEqual(fell[0]!.p!);
      expect(fell[0]!.dispersion!.phi).toBeGreaterThanOrEqual(1);
      // The answers behind it: the second run's saved searches, which open as any search does.
      expect(fell[0]!.searchIds.toSorted()).toEqual(second.queries.map((query) => query.searchId!).toSorted());
      expect((await agent.request("GET", `/api/search/${fell[0]!.searchIds[0]}`)).status).toBe(200);
      // The providers that kept searching are not told to have moved; OpenAI's citations only fell.
      const others = alerts.filter((alert) => alert.provider !== "openai" && alert.metric === "citation");
      const openai = alerts.filter((alert) => alert.provider === "openai" && alert.metric === "citation");
      expect(others).toEqual([]);
      expect(openai.every((alert) => alert.kind === "fell")).toBe(true);
      // The webhook was told of the fall, as of the run's end.
      await waitFor(
        () =>
          posted.some((body) => body.event === "alert" && body.alert?.kind === "fell" && body.alert.metric === "citation" && body.alert.provider === "openai"),
        {
          what: "the alert's delivery",
        },
      );
      expect(posted.filter((body) => body.event === "run.completed")).toHaveLength(BASELINE_RUNS + 1);

      // Still not searching: the rate stays at 0, and the fall is not told again.
      await run();
      const after = (await agent.api.listTrackerAlerts(tracker.id)).alerts.filter(
        (alert) => alert.kind === "fell" && alert.metric === "citation" && alert.provider === "openai" && alert.subject === "HubSpot" && !alert.query,
      );
      expect(after.map((alert) => alert.id)).toEqual([fell[0]!.id]);
    } finally {
      simulator.clearFaults();
      await queue.stop();
      hook.stop(true);
    }
  }, 120_000);

  test("a provider whose model changed between two runs gets a notice, and no rise or fall is called for it", async () => {
    simulator.clearFaults();
    const first = await createTestApp(getDb(), { simulator });
    let trackerId = "";
    // One session, kept across the two apps.
    const jar = new Map<string, string>();
    try {
      const { agent } = await createProAgent(first.app, getDb(), { jar });
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      trackerId = tracker.id;
      const { run } = await agent.api.runTracker(tracker.id);
      await waitFor(async () => (await agent.api.getTrackerRun(tracker.id, run.id)).status === "completed", { what: "the first run" });
    } finally {
      await first.queue.stop();
    }
    // The same database, now served with another OpenAI model: the next run is answered by it.
    const second = await createTestApp(getDb(), { simulator, env: { OPENAI_MODEL: "gpt-6-sol" } });
    try {
      const agent = createAgent(second.app, { jar });
      const { run } = await agent.api.runTracker(trackerId);
      await waitFor(async () => (await agent.api.getTrackerRun(trackerId, run.id)).status === "completed", { what: "the second run" });
      const { alerts } = await agent.api.listTrackerAlerts(trackerId);
      const notices = alerts.filter((alert) => alert.kind === "model-changed");
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ provider: "openai", runId: run.id, modelVersions: { after: expect.stringContaining("gpt-6-sol") } });
      expect(notices[0]!.modelVersions!.before).not.toContain("gpt-6-sol");
      expect(alerts.filter((alert) => alert.provider === "openai" && alert.kind !== "model-changed")).toEqual([]);
    } finally {
      await second.queue.stop();
    }
  }, 120_000);
});
