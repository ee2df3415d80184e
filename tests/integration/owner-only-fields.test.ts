import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { shares, trackerRuns, trackers } from "#db/schema.ts";
import type { Share, SharedView } from "#src/contract/shares.ts";
import type { Tracker, TrackerRunList } from "#src/contract/trackers.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * What stays the owner's: a shared tracker shows "paused" and no more — not the cost estimate (the
 * owner's planned spend), not why it is paused (a lapsed subscription), not why a run was skipped
 * (a lapse, the budget, the owner's spend) — living or frozen, a frozen one kept before too. And
 * marking alerts read takes a JSON object: an array is not "no ids", which would mark all read.
 */

const LAPSED = "subscription lapsed";
const BUDGET = "The tracker's monthly budget of $12.50 would be passed: $12.40 spent this month, and this run costs about $0.20";

describeEachDatabase("what a share link never shows, and bodies that are not objects", (getDb) => {
  test("a shared tracker, living or frozen, shows neither the estimate, nor why it is paused, nor why a run was skipped", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent: owner } = await createProAgent(app, getDb());
      const saved = (
        await owner.request("POST", "/api/trackers", {
          name: "CRM visibility",
          queries: ["best crm for startups"],
          brand: { name: "HubSpot" },
          iterations: 1,
          monthlyBudgetUsd: 12.5,
          schedule: { cron: "0 9 * * 1", timezone: "UTC" },
        })
      ).json as Tracker;
      // A run the budget skipped, and the subscription since lapsed, as the engine writes them.
      const skippedAt = new Date(Date.now() - 3_600_000);
      await getDb()
        .db.insert(trackerRuns)
        .values({ trackerId: saved.id, trigger: "schedule", segment: 1, scheduledFor: skippedAt, status: "skipped", reason: BUDGET, finishedAt: skippedAt });
      await getDb().db.update(trackers).set({ pausedReason: LAPSED }).where(eq(trackers.id, saved.id));
      const mine = await owner.api.getTracker(saved.id);
      expect(mine).toMatchObject({ paused: true, pausedReason: LAPSED, lastRun: { status: "skipped", reason: BUDGET } });
      expect(mine.estimate).toBeDefined();

      const living = (await owner.request("POST", "/api/shares", { kind: "tracker", id: saved.id })).json as Share;
      const frozen = (await owner.request("POST", "/api/shares", { kind: "tracker", id: saved.id, frozen: true })).json as Share;
      // A frozen link kept by an earlier version held the estimate and the skip's reason: read now, they are not shown.
      const older = (await owner.request("POST", "/api/shares", { kind: "tracker", id: saved.id, frozen: true })).json as Share;
      const [kept] = await getDb().db.select({ frozenTracker: shares.frozenTracker }).from(shares).where(eq(shares.id, older.id));
      const frozenBefore = kept?.frozenTracker as Record<string, unknown>;
      await getDb()
        .db.update(shares)
        .set({ frozenTracker: { ...frozenBefore, estimate: mine.estimate, pausedReason: LAPSED, lastRun: mine.lastRun } })
        .where(eq(shares.id, older.id));

      const visitor = createAgent(app);
      for (const link of [living, frozen, older]) {
        const token = link.url.split("/").at(-1)!;
        const view = await visitor.request("GET", `/api/shared/${token}`);
        expect(view.status).toBe(200);
        const shown = (view.json as Extract<SharedView, { kind: "tracker" }>).tracker;
        expect({ frozen: link.frozen, paused: shown.paused }).toEqual({ frozen: link.frozen, paused: true });
        expect(shown).not.toHaveProperty("estimate");
        expect(shown).not.toHaveProperty("pausedReason");
        expect(shown.lastRun).toMatchObject({ status: "skipped" });
        expect(shown.lastRun).not.toHaveProperty("reason");
        for (const secret of [LAPSED, "12.50", "perRunUsd", "perMonthUsd"])
          expect({ secret, shown: view.text.includes(secret) }).toEqual({ secret, shown: false });
        const runs = await visitor.request("GET", `/api/shared/${token}/runs`);
        expect((runs.json as TrackerRunList).runs.map((run) => [run.status, run.reason])).toEqual([["skipped", undefined]]);
        expect(runs.text).not.toContain("budget");
      }
    } finally {
      await queue.stop();
    }
  });

  test('POST /api/user/alerts/read with an array, or any body that is not an object, is a 400, not "mark all read"', async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      for (const body of ["[]", '["x"]', "null", '"all"', "3", "true"]) {
        const answer = await agent.request("POST", "/api/user/alerts/read", body, { "content-type": "application/json" });
        expect({ body, status: answer.status, code: (answer.json as { code?: string })?.code }).toEqual({ body, status: 400, code: "INVALID_INPUT" });
        expect((answer.json as { message: string }).message).toContain("JSON object");
      }
      expect(await agent.request("POST", "/api/user/alerts/read", {})).toMatchObject({ status: 200, json: { unread: 0 } });
      expect(await agent.request("POST", "/api/user/alerts/read", { ids: [] })).toMatchObject({ status: 200 });
    } finally {
      await queue.stop();
    }
  });
});
