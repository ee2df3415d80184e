import { providerIds } from "#src/contract/providers.ts";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { asc, eq } from "drizzle-orm";
import { searches, trackerRollups, trackerRunQueries, trackerRuns, trackerSourceRollups } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { createSearchStore } from "#src/server/services/search/store.ts";
import { createRollups } from "#src/server/services/trackers/rollups.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { seedTracker } from "../../scripts/seed.ts";

/*
 * `bun run seed --tracker-days N` runs a tracker once for real and copies that run into
 * one a day going back, rollups (subjects' and cited sources') included. The copies must read as real runs: a copied day's
 * rollups are what the run's end writes from that day's saved searches.
 */

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

/** The providers the seeded tracker asks: every connected one (the simulator connects them all). */
const P = providerIds.length;

describeEachDatabase("seed: a tracker's days of runs", (getDb) => {
  test("3 days of a 2-query tracker: a run a day, each with its saved searches, and rollups equal to a recomputation from them", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const handle = ((input: string | URL | Request, init?: RequestInit) =>
        app.handle(new Request(input, { ...init, headers: { ...(init?.headers as Record<string, string>), "x-forwarded-for": "10.0.0.26" } }))) as typeof fetch;
      const seeded = await seedTracker(getDb(), handle, { days: 3, queries: 2, iterations: 2 });
      // One real run and two copies; two saved searches each; 2 queries × 4 providers × 2 iterations = 16 answers each.
      expect(seeded.counts).toMatchObject({ runs: 3, searches: 6, answers: 3 * 2 * P * 2 });

      const { db } = getDb();
      const runs = await db.select().from(trackerRuns).where(eq(trackerRuns.trackerId, seeded.trackerId)).orderBy(asc(trackerRuns.scheduledFor));
      expect(runs.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
      expect(runs.map((run) => run.trigger)).toEqual(["schedule", "schedule", "manual"]);
      const day = 86_400_000;
      expect(runs.map((run) => run.scheduledFor.getTime() - runs[2]!.scheduledFor.getTime())).toEqual([-2 * day, -day, 0]);

      // The trend has the three days, each with a point per provider and subject (the brand and 3 competitors).
      const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie: seeded.cookie } });
      const { points } = await api.getTrackerTrend(seeded.trackerId);
      expect(points).toHaveLength(3 * P * 4);
      expect([...new Set(points.map((point) => point.runId))]).toEqual(runs.map((run) => run.id));

      // Each copied day's run reads as the real one: its answers counted, its cost, per query too.
      const listed = (await api.listTrackerRuns(seeded.trackerId)).runs;
      const realRun = listed.find((run) => run.id === seeded.runId)!;
      expect(realRun.answers).toEqual({ expected: 2 * P * 2, done: 2 * P * 2, failed: 0 });
      for (const run of listed) {
        expect(run.answers).toEqual(realRun.answers);
        expect(run.cost).toEqual(realRun.cost);
        expect(run.queries.map((query) => [query.done, query.failed])).toEqual(realRun.queries.map((query) => [query.done, query.failed]));
      }

      // A copied day: its saved searches are the tracker's, in the user's history, created that day.
      const copy = runs[0]!;
      const items = await db.select().from(trackerRunQueries).where(eq(trackerRunQueries.runId, copy.id)).orderBy(asc(trackerRunQueries.position));
      expect(items.map((item) => item.query)).toEqual(["best crm for small teams, question 1", "best crm for small teams, question 2"]);
      for (const item of items) {
        const [saved] = await db.select().from(searches).where(eq(searches.id, item.searchId!));
        expect(saved).toMatchObject({ trackerId: seeded.trackerId, runId: copy.id, status: "completed", userId: seeded.userId });
        expect(Math.abs(saved!.createdAt.getTime() - copy.scheduledFor.getTime())).toBeLessThan(day / 2);
        expect((await api.getSearch(item.searchId!)).query).toBe(item.query);
      }

      // Its rollups, as copied, against what the run's end writes from its saved searches.
      const ordered = [asc(trackerRollups.query), asc(trackerRollups.provider), asc(trackerRollups.subject)];
      const copied = await db
        .select()
        .from(trackerRollups)
        .where(eq(trackerRollups.runId, copy.id))
        .orderBy(...ordered);
      expect(copied).toHaveLength(2 * P * 4 + P * 4);
      const sourcesOf = () =>
        db
          .select()
          .from(trackerSourceRollups)
          .where(eq(trackerSourceRollups.runId, copy.id))
          .orderBy(asc(trackerSourceRollups.provider), asc(trackerSourceRollups.domain));
      const copiedSources = await sourcesOf();
      await db.delete(trackerRollups).where(eq(trackerRollups.runId, copy.id));
      await db.delete(trackerSourceRollups).where(eq(trackerSourceRollups.runId, copy.id));
      await createRollups({ db, store: createSearchStore(db) }).write(copy.id);
      // Its cited sources too (the tracker page's sources by type and citation gap), of some sites.
      expect(copiedSources.length).toBeGreaterThan(0);
      expect(copiedSources).toEqual(await sourcesOf());
      const recomputed = await db
        .select()
        .from(trackerRollups)
        .where(eq(trackerRollups.runId, copy.id))
        .orderBy(...ordered);
      expect(copied).toEqual(recomputed);
      // The brand is named in some answers: the comparison is not of zeros.
      expect(copied.some((row) => row.isBrand && row.mentions > 0)).toBe(true);
    } finally {
      await queue.stop();
    }
  });
});
