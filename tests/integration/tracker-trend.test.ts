import { eq } from "drizzle-orm";
import { trackerSourceRollups } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import type { TrendPoint } from "#src/contract/trend.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { crmTracker } from "#tests/support/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * A tracker's trend, per run and provider for the brand and each competitor, read from
 * the counts written when each run ended; the figures agree with what the run's own page shows.
 */

const definition = crmTracker;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: the trend", (getDb) => {
  test("each run adds a point per provider and subject: k of n with its interval, agreeing with the run's per-query mentions; narrowed by query, provider, subject", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const runs: TrackerRun[] = [];
      for (let i = 0; i < 2; i++) {
        const { run } = await agent.api.runTracker(tracker.id);
        runs.push(
          await waitFor(
            async () => {
              const read = await agent.api.getTrackerRun(tracker.id, run.id);
              return read.status === "completed" && read;
            },
            { what: "the run to complete" },
          ),
        );
      }

      const { metric, points } = await agent.api.getTrackerTrend(tracker.id);
      expect(metric).toBe("mention");
      // Two runs × every provider × three subjects, oldest run first, the brand first in each.
      expect(points).toHaveLength(2 * providerIds.length * 3);
      expect(points.map((point) => point.runId)).toEqual([
        ...Array(providerIds.length * 3).fill(runs[0]!.id),
        ...Array(providerIds.length * 3).fill(runs[1]!.id),
      ]);
      expect(points.slice(0, 3).map((point) => [point.subject, point.isBrand])).toEqual([
        ["HubSpot", true],
        ["Pipedrive", false],
        ["Salesforce", false],
      ]);
      for (const point of points) {
        // Over both queries: 2 × 3 answers per provider.
        expect(point.n).toBe(6);
        expect(point.k).toBeGreaterThanOrEqual(0);
        expect(point.k).toBeLessThanOrEqual(6);
        expect(point.rate).toBeCloseTo((point.k / 6) * 100, 1);
        expect(point.low!).toBeLessThanOrEqual(point.rate!);
        expect(point.high!).toBeGreaterThanOrEqual(point.rate!);
        expect(point.modelVersion).not.toBe("");
      }
      // The brand's k is the sum of what each query's row on the run's page shows.
      for (const run of runs)
        for (const provider of providerIds) {
          const shown = run.queries.reduce((sum, query) => sum + (query.brandMentions?.[provider]?.count ?? 0), 0);
          expect(points.find((point) => point.runId === run.id && point.provider === provider && point.isBrand)?.k).toBe(shown);
        }
      // A CRM question names HubSpot somewhere in the simulator's answers: the figures are not all zero.
      expect(points.some((point) => point.isBrand && point.k > 0)).toBe(true);

      const one = await agent.api.getTrackerTrend(tracker.id, { query: "crm with a free plan", provider: "anthropic", subject: "hubspot" });
      expect(one.points.map((point: TrendPoint) => [point.runId, point.provider, point.subject, point.query, point.n])).toEqual(
        runs.map((run) => [run.id, "anthropic", "HubSpot", "crm with a free plan", 3]),
      );
      expect(one.points.map((point) => point.k)).toEqual(runs.map((run) => run.queries[1]?.brandMentions?.anthropic?.count ?? 0));

      // Per query: every query's points, each with its query, for the page's small multiples.
      const perQuery = await agent.api.getTrackerTrend(tracker.id, { perQuery: true, subject: "HubSpot" });
      expect(perQuery.points).toHaveLength(2 * providerIds.length * 2);
      expect(new Set(perQuery.points.map((point) => point.query))).toEqual(new Set(definition.queries));
      expect(perQuery.points.every((point) => point.n === 3)).toBe(true);
      const both = await agent.request("GET", `/api/trackers/${tracker.id}/trend?perQuery=true&query=crm%20with%20a%20free%20plan`);
      expect(both.status).toBe(400);
      expect((both.json as { message: string }).message).toContain("query and perQuery ask for different things");

      // Share of voice: per run and provider, the subjects' shares of the mentions add up to all of them.
      const sov = await agent.api.getTrackerTrend(tracker.id, { metric: "sov" });
      for (const run of runs)
        for (const provider of providerIds) {
          const group = sov.points.filter((point) => point.runId === run.id && point.provider === provider);
          const mentions = group.reduce((sum, point) => sum + point.k, 0);
          expect(group.every((point) => point.n === mentions)).toBe(true);
        }
      // Position: the mean rank over the answers that rank the subject, never below 1.
      const position = await agent.api.getTrackerTrend(tracker.id, { metric: "position", subject: "HubSpot" });
      for (const point of position.points) {
        if (point.k === 0) expect(point.rate).toBeNull();
        else expect(point.rate!).toBeGreaterThanOrEqual(1);
      }
      // A day range with no run: no points.
      expect((await agent.api.getTrackerTrend(tracker.id, { to: "2020-01-01" })).points).toEqual([]);

      // Sources by type: per run and provider, the types' shares of the citations add up to the whole.
      const sources = await agent.api.getTrackerSources(tracker.id);
      for (const run of runs)
        for (const provider of providerIds) {
          const group = sources.byType.filter((row) => row.runId === run.id && row.provider === provider);
          expect(group.length).toBeGreaterThan(0);
          expect(group.reduce((sum, row) => sum + row.share, 0)).toBeCloseTo(100, 0);
        }
      // The simulator's CRM answers cite hubspot.com: the brand's own site.
      expect(sources.byType.some((row) => row.type === "own")).toBe(true);
      // The gap: domains beside competitors more often than beside the brand, the widest lead first; never a competitor's own site.
      expect(sources.gap.every((row) => row.competitorAnswers > row.brandAnswers && row.type !== "competitor" && row.type !== "own")).toBe(true);
      const leads = sources.gap.map((row) => row.competitorAnswers - row.brandAnswers);
      expect(leads).toEqual(leads.toSorted((a, b) => b - a));
      const narrowed = await agent.api.getTrackerSources(tracker.id, { provider: "gemini" });
      expect(narrowed.byType.every((row) => row.provider === "gemini")).toBe(true);

      // The gap's figures, counted by hand: the two runs' cited sites replaced by known counts.
      const { db } = getDb();
      await db.delete(trackerSourceRollups).where(eq(trackerSourceRollups.trackerId, tracker.id));
      const cited = (run: TrackerRun, provider: string, domain: string, withBrand: number, withCompetitor: number) => ({
        runId: run.id,
        trackerId: tracker.id,
        at: new Date(run.scheduledFor),
        provider,
        domain,
        answers: Math.max(withBrand, withCompetitor) + 1,
        withBrand,
        withCompetitor,
      });
      await db.insert(trackerSourceRollups).values([
        // g2.com: beside Salesforce or Pipedrive in 3 + 2 answers, beside HubSpot in 2 + 2: leads by 1.
        cited(runs[0]!, "openai", "g2.com", 2, 3),
        cited(runs[1]!, "gemini", "g2.com", 2, 2),
        // tech.co: 4 to 1, on Claude alone: leads by 3.
        cited(runs[1]!, "anthropic", "tech.co", 1, 4),
        // nerdwallet.com: 2 to 2, no lead; hubspot.com (the brand's own) and salesforce.com (a competitor's): never listed.
        cited(runs[0]!, "openai", "nerdwallet.com", 2, 2),
        cited(runs[0]!, "openai", "hubspot.com", 0, 5),
        cited(runs[1]!, "openai", "salesforce.com", 0, 5),
      ]);
      expect((await agent.api.getTrackerSources(tracker.id)).gap).toEqual([
        { domain: "tech.co", type: "editorial", competitorAnswers: 4, brandAnswers: 1, providers: ["anthropic"] },
        { domain: "g2.com", type: "editorial", competitorAnswers: 5, brandAnswers: 4, providers: ["openai", "gemini"] },
      ]);
      // Narrowed to Gemini, g2.com is 2 to 2: no gap.
      expect((await agent.api.getTrackerSources(tracker.id, { provider: "gemini" })).gap).toEqual([]);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("bad parameters are a 400 naming them; another user's tracker is 404; a free account 403", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const bad = await agent.request("GET", `/api/trackers/${tracker.id}/trend?metric=reach`);
      expect(bad.status).toBe(400);
      expect((bad.json as { message: string }).message).toContain("metric must be one of mention, sov, citation, position");
      const range = await agent.request("GET", `/api/trackers/${tracker.id}/trend?from=2026-02-01&to=2026-01-01`);
      expect(range.status).toBe(400);
      expect((range.json as { message: string }).message).toContain("from must not be after to");

      const { agent: other } = await createProAgent(app, getDb());
      expect((await other.request("GET", `/api/trackers/${tracker.id}/trend`)).status).toBe(404);
      const free = createAgent(app);
      await signUp(free, getDb());
      const refused = await free.request("GET", `/api/trackers/${tracker.id}/trend`);
      expect(refused.status).toBe(403);
      expect((refused.json as { code: string }).code).toBe("PRO_REQUIRED");
    } finally {
      await queue.stop();
    }
  });
});
