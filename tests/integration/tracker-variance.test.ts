import { afterAll, beforeAll, expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { DEMO_RUN_EFFECTS, startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { runToEnd } from "#tests/support/trackers.ts";

/*
 * ADR 050 through the product's own path, on simulators whose answers vary from run to
 * run as real assistants' do (ADR 051: a day's lean and a run's, at the keyless demo's size, a day
 * apart each run), asking every provider of the catalogue: a steady tracker raises no rise or fall over its runs, its trend's bands are
 * widened by the spread its runs show, and when the brand — named in about half the answers —
 * drops to about a tenth on every provider (a lasting lean against its product), every provider
 * tells the fall within two runs, once.
 */

const DAY_MS = 86_400_000;
const STEADY_RUNS = 8;

let simulator: Simulator;
let now = Date.UTC(2026, 10, 2, 9);
beforeAll(() => {
  simulator = startSimulator({ seed: 33, latency: { kind: "fixed", ms: 1 }, ...DEMO_RUN_EFFECTS, clock: () => now });
});
afterAll(async () => {
  await simulator.stop();
});

const tracker = {
  name: "Freshworks visibility",
  queries: ["best crm for startups", "best crm for small business", "best crm software"],
  brand: { name: "Freshworks", aliases: ["Freshsales"], domains: ["freshworks.com"] },
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive" }],
  iterations: 10,
  schedule: { cron: "0 9 * * *", timezone: "UTC" },
};

const moves = (alerts: TrackerAlert[]) => alerts.filter((alert) => alert.kind === "rose" || alert.kind === "fell");

describeEachDatabase("trackers under run-to-run variance", (getDb) => {
  test("steady runs raise no rise or fall and widen the bands; the brand falling from about half the answers to a tenth is told on every provider within two runs, once", async () => {
    simulator.setLean("Freshsales", 0);
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = (await agent.request("POST", "/api/trackers", tracker)).json as Tracker;
      // What it can see, said before its first run: the sentence and its figures.
      expect(created.detectability).toMatchObject({ questions: 3, iterations: 10, providers: providerIds.length, competitors: 2, from: 50 });
      expect(created.detectability!.sentence).toStartWith(`With 3 questions × 10 answers on ${providerIds.length} providers, `);

      const run = async (): Promise<TrackerRun> => {
        now += DAY_MS;
        const ended = await runToEnd(agent.api, created.id);
        expect(ended.status).toBe("completed");
        return ended;
      };
      for (let i = 0; i < STEADY_RUNS; i++) await run();
      expect(moves((await agent.api.listTrackerAlerts(created.id)).alerts)).toEqual([]);

      // The brand's trend: about half the answers on each provider, each point's band widened by that provider's runs' spread.
      const before = await agent.api.getTrackerTrend(created.id, { metric: "mention", subject: "Freshworks" });
      expect(before.points).toHaveLength(providerIds.length * STEADY_RUNS);
      const mean = (points: typeof before.points) => points.reduce((sum, point) => sum + point.k, 0) / points.reduce((sum, point) => sum + point.n, 0);
      expect(mean(before.points)).toBeGreaterThan(0.3);
      expect(mean(before.points)).toBeLessThan(0.7);
      expect(before.dispersion.map((d) => d.provider).toSorted()).toEqual([...providerIds].toSorted());
      for (const point of before.points) {
        expect(point.low!).toBeLessThanOrEqual(point.rate!);
        expect(point.high!).toBeGreaterThanOrEqual(point.rate!);
      }

      // From now on every provider names Freshworks' product far less often.
      simulator.setLean("Freshsales", -1.6);
      const fallen = [await run(), await run()];
      const after = await agent.api.getTrackerTrend(created.id, { metric: "mention", subject: "Freshworks" });
      expect(mean(after.points.filter((point) => fallen.some((r) => r.id === point.runId)))).toBeLessThan(0.2);

      const { alerts } = await agent.api.listTrackerAlerts(created.id);
      const falls = alerts.filter((alert) => alert.kind === "fell" && alert.metric === "mention" && alert.subject === "Freshworks" && !alert.query);
      expect(falls.map((alert) => alert.provider).toSorted()).toEqual([...providerIds].toSorted());
      for (const fall of falls) {
        expect(fallen.map((r) => r.id)).toContain(fall.runId);
        expect(fall).toMatchObject({ rule: 2, kind: "fell" });
        expect(fall.before!.rate).toBeGreaterThan(30);
        expect(fall.after!.rate).toBeLessThan(20);
        expect(fall.baselineRuns!.length).toBeGreaterThanOrEqual(STEADY_RUNS - 1);
        expect(fall.dispersion!.phi).toBeGreaterThanOrEqual(1);
      }
      // Nothing else moved: the competitors and the citations of steady providers are not told.
      expect(moves(alerts).filter((alert) => alert.subject !== "Freshworks")).toEqual([]);

      // Still low: the fall is not told again.
      await run();
      const again = (await agent.api.listTrackerAlerts(created.id)).alerts.filter(
        (alert) => alert.kind === "fell" && alert.metric === "mention" && alert.subject === "Freshworks" && !alert.query,
      );
      expect(again.map((alert) => alert.id).toSorted()).toEqual(falls.map((alert) => alert.id).toSorted());
    } finally {
      simulator.setLean("Freshsales", 0);
      await queue.stop();
    }
  }, 300_000);
});
