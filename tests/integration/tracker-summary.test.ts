import { afterAll, beforeAll, expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import type { Share } from "#src/contract/shares.ts";
import type { TrackerSummary } from "#src/contract/summary.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { crmTracker, runToEnd } from "#tests/support/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * A tracker's headline: the brand's rate, rank, share of voice and change for a period, across
 * providers and per provider, read from the same rollups as the trend and agreeing with it.
 */

const definition = crmTracker;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: the summary", (getDb) => {
  test("the last 7 days and the newest run: figures that add up to the trend's, a change only against answers, the same through a share link", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;

      const empty = await agent.api.getTrackerSummary(tracker.id);
      expect(empty.brand).toMatchObject({ name: "HubSpot", n: 0, rate: null, rank: null, of: 3, change: { from: null, verdict: "no clear change" } });
      expect(empty.providers).toEqual([]);
      expect(empty.sentence).toBe("HubSpot: no answers in the last 7 days.");

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
      const trend = await agent.api.getTrackerTrend(tracker.id);
      const brandPoints = trend.points.filter((point) => point.isBrand);

      // The default: the 7 days ending now, both runs in it and none in the week before.
      const week = (await agent.request("GET", `/api/trackers/${tracker.id}/summary`)).json as TrackerSummary;
      expect(week.period).toMatchObject({ kind: "7d", runs: 2, previous: { runs: 0 } });
      expect(Date.parse(week.period.to) - Date.parse(week.period.from)).toBe(7 * 86_400_000);
      const k = brandPoints.reduce((sum, point) => sum + point.k, 0);
      const n = 2 * providerIds.length * 2 * 3;
      expect(week.brand).toMatchObject({ n, k, rate: Math.round((k / n) * 10_000) / 100, of: 3, change: { from: null, verdict: "no clear change" } });
      expect(week.brand.rank).toBeGreaterThanOrEqual(1);
      expect(week.brand.low!).toBeLessThanOrEqual(week.brand.rate!);
      expect(week.brand.high!).toBeGreaterThanOrEqual(week.brand.rate!);
      const all = trend.points.reduce((sum, point) => sum + point.k, 0);
      expect(week.brand.sov).toBe(all > 0 ? Math.round((k / all) * 10_000) / 100 : null);
      expect(week.providers.map((entry) => entry.provider)).toEqual(providerIds);
      for (const entry of week.providers)
        expect(entry.k).toBe(brandPoints.filter((point) => point.provider === entry.provider).reduce((sum, point) => sum + point.k, 0));
      expect(week.sentence).toStartWith(`HubSpot: named in ${Math.round(week.brand.rate!)} % of answers (±`);
      expect(week.sentence).toEndWith("; no earlier period to compare.");

      // The newest run against the one before: each provider's rate and interval are the trend's point for that run.
      const newest = await agent.api.getTrackerSummary(tracker.id, { period: "run" });
      expect(newest.period).toMatchObject({ kind: "run", runs: 1, previous: { runs: 1 } });
      for (const entry of newest.providers) {
        const point = brandPoints.find((p) => p.runId === runs[1]!.id && p.provider === entry.provider)!;
        expect([entry.n, entry.k, entry.rate, entry.low, entry.high]).toEqual([point.n, point.k, point.rate, point.low, point.high]);
        const before = brandPoints.find((p) => p.runId === runs[0]!.id && p.provider === entry.provider)!;
        expect(entry.change.from).toBe(before.rate);
        expect(["rose", "fell", "no clear change"]).toContain(entry.change.verdict);
      }
      expect(newest.sentence).toMatch(/(from|in) the run before\.$/);

      // A range with no run, and its week before.
      const old = await agent.api.getTrackerSummary(tracker.id, { from: "2026-01-01", to: "2026-01-07" });
      expect(old.period).toMatchObject({ kind: "range", from: "2026-01-01T00:00:00.000Z", to: "2026-01-08T00:00:00.000Z", runs: 0 });
      expect(old.period.previous).toMatchObject({ from: "2025-12-25T00:00:00.000Z", to: "2026-01-01T00:00:00.000Z" });
      expect(old.sentence).toBe("HubSpot: no answers in the period.");

      // A share link reads the same headline.
      const link = (await agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id })).json as Share;
      const token = link.url.split("/").at(-1)!;
      const shared = await createAgent(app).request("GET", `/api/shared/${token}/summary?period=run`);
      expect(shared.status).toBe(200);
      expect((shared.json as TrackerSummary).sentence).toBe(newest.sentence);

      // A frozen link keeps the headline it was shared with; the living link and the owner read the run made since.
      const frozen = (await agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id, frozen: true })).json as Share;
      const third = await runToEnd(agent.api, tracker.id);
      const latest = await agent.api.getTrackerSummary(tracker.id, { period: "run" });
      expect(latest.period.runs).toBe(1);
      const read = async (share: Share) =>
        (await createAgent(app).request("GET", `/api/shared/${share.url.split("/").at(-1)}/summary?period=run`)).json as TrackerSummary;
      expect((await read(frozen)).period).toMatchObject({ from: newest.period.from, to: newest.period.to });
      expect((await read(frozen)).sentence).toBe(newest.sentence);
      expect((await read(link)).period.from).toBe(latest.period.from);
      expect(Date.parse(latest.period.from)).toBeGreaterThanOrEqual(Date.parse(third.scheduledFor));
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("bad periods are a 400 naming them; another user's tracker is 404; a free account 403", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const refused = async (query: string, message: string) => {
        const answer = await agent.request("GET", `/api/trackers/${tracker.id}/summary?${query}`);
        expect(answer.status).toBe(400);
        expect(answer.json).toMatchObject({ code: "INVALID_INPUT" });
        expect((answer.json as { message: string }).message).toContain(message);
      };
      await refused("from=2026-02-01&to=2026-01-01", "from must not be after to");
      await refused("from=yesterday", "from must be a date (YYYY-MM-DD) or an ISO timestamp");
      await refused("period=week", "period must be one of run, 7d, 30d");
      await refused("period=7d&from=2026-01-01", "period and from/to ask for different things");
      await refused("from=2024-01-01&to=2026-01-01", "from and to must be at most 366 days apart");
      // An open end is now: from long ago is as long a range.
      await refused("from=2020-01-01", "from and to must be at most 366 days apart");

      const { agent: other } = await createProAgent(app, getDb());
      const hidden = await other.request("GET", `/api/trackers/${tracker.id}/summary`);
      expect(hidden.status).toBe(404);
      expect(hidden.json).toMatchObject({ code: "NOT_FOUND" });
      const free = createAgent(app);
      await signUp(free, getDb());
      expect(((await free.request("GET", `/api/trackers/${tracker.id}/summary`)).json as { code: string }).code).toBe("PRO_REQUIRED");
    } finally {
      await queue.stop();
    }
  });
});
