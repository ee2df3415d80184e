import { providerIds } from "#src/contract/providers.ts";
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiTokens } from "#db/schema.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

const weekly = { cron: "0 9 * * 1", timezone: "Europe/Berlin" };
const tracker = (overrides: Record<string, unknown> = {}) => ({
  name: "CRM visibility",
  queries: ["best crm for startups", "crm with a free plan"],
  brand: { name: "HubSpot", aliases: ["Hub Spot"], domains: ["hubspot.com"] },
  competitors: [{ name: "Salesforce" }],
  iterations: 2,
  schedule: weekly,
  ...overrides,
});

describeEachDatabase("trackers: definition and API", (getDb) => {
  test("a Pro user creates, reads, lists, edits, pauses, resumes and deletes a tracker", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = await agent.request("POST", "/api/trackers", tracker());
      expect(created.status).toBe(201);
      const saved = created.json as Tracker;
      expect(saved).toMatchObject({
        name: "CRM visibility",
        queries: ["best crm for startups", "crm with a free plan"],
        // Every connected provider by default (the simulator connects them all).
        providers: providerIds,
        iterations: 2,
        schedule: weekly,
        scheduleText: "Every Monday at 09:00 (Europe/Berlin)",
        paused: false,
        segment: 1,
        lastRun: null,
      });
      // Mondays at 09:00 in Berlin: 08:00 or 07:00 UTC, a Monday, in the future.
      const next = new Date(saved.nextRunAt ?? "");
      expect(next.getTime()).toBeGreaterThan(Date.now());
      expect(next.getUTCDay()).toBe(1);
      expect(next.toLocaleString("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" })).toBe("09:00");
      // Simulated answers cost nothing, and the estimate says it is simulated.
      expect(saved.estimate).toEqual({ perRunUsd: 0, perMonthUsd: 0, simulated: true });

      expect(await agent.api.getTracker(saved.id)).toMatchObject({ id: saved.id, name: "CRM visibility" });
      expect((await agent.api.listTrackers()).trackers.map((t) => t.id)).toEqual([saved.id]);

      // A rename keeps the series; a change of queries starts a new segment.
      expect(await agent.api.updateTracker(saved.id, { name: "CRM" })).toMatchObject({ name: "CRM", segment: 1 });
      expect(await agent.api.updateTracker(saved.id, { queries: ["best crm for startups"] })).toMatchObject({ segment: 2 });
      expect(await agent.api.updateTracker(saved.id, { providers: ["openai"] })).toMatchObject({ segment: 3, providers: ["openai"] });

      const paused = await agent.api.updateTracker(saved.id, { paused: true });
      expect(paused).toMatchObject({ paused: true, nextRunAt: null });
      const resumed = await agent.api.updateTracker(saved.id, { paused: false, schedule: { cron: "30 7 * * *", timezone: "UTC" } });
      expect(resumed).toMatchObject({ paused: false, scheduleText: "Every day at 07:30 (UTC)" });
      expect(resumed.nextRunAt).not.toBeNull();

      expect(await agent.request("DELETE", `/api/trackers/${saved.id}`)).toMatchObject({ status: 200, json: { success: true } });
      expect((await agent.request("GET", `/api/trackers/${saved.id}`)).status).toBe(404);
      expect((await agent.api.listTrackers()).trackers).toEqual([]);
    } finally {
      await queue.stop();
    }
  });

  test("bad input is a 400 naming the field; a schedule more frequent than the operator allows is refused", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "60" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      for (const [body, field] of [
        [tracker({ name: "" }), "name"],
        [tracker({ queries: [] }), "queries"],
        [tracker({ queries: Array.from({ length: 51 }, (_, i) => `question ${i}`) }), "queries"],
        [tracker({ iterations: 0 }), "iterations"],
        [tracker({ iterations: 101 }), "iterations"],
        [tracker({ providers: ["openai", "openai"] }), "providers"],
        [tracker({ providers: ["mistral"] }), "providers"],
        [tracker({ schedule: { cron: "0 9 * *", timezone: "UTC" } }), "schedule.cron"],
        [tracker({ schedule: { cron: "0 99 * * *", timezone: "UTC" } }), "schedule.cron"],
        [tracker({ schedule: { cron: "0 9 * * 1", timezone: "Mars/Olympus" } }), "schedule.timezone"],
        [tracker({ competitors: Array.from({ length: 11 }, (_, i) => ({ name: `Rival ${i}` })) }), "competitors"],
        [tracker({ monthlyBudgetUsd: 0 }), "monthlyBudgetUsd"],
      ] as const) {
        const answer = await agent.request("POST", "/api/trackers", body);
        expect({ field, status: answer.status }).toEqual({ field, status: 400 });
        expect((answer.json as { message: string }).message).toContain(field);
      }
      const often = await agent.request("POST", "/api/trackers", tracker({ schedule: { cron: "*/15 * * * *", timezone: "UTC" } }));
      expect(often.status).toBe(400);
      expect((often.json as { message: string }).message).toContain("every 15 minutes");
      expect((often.json as { message: string }).message).toContain("TRACKER_MIN_INTERVAL_MINUTES");
      // The same holds for an edit.
      const saved = (await agent.request("POST", "/api/trackers", tracker())).json as Tracker;
      const edit = await agent.request("PATCH", `/api/trackers/${saved.id}`, { schedule: { cron: "0 * * * *", timezone: "UTC" } });
      expect(edit.status).toBe(200);
      expect((await agent.request("PATCH", `/api/trackers/${saved.id}`, { schedule: { cron: "*/30 * * * *", timezone: "UTC" } })).status).toBe(400);
      expect((await agent.request("PATCH", `/api/trackers/${saved.id}`, { iterations: "five" })).status).toBe(400);
    } finally {
      await queue.stop();
    }
  });

  test("free accounts and anonymous callers get 403 PRO_REQUIRED, and another user's tracker is 404 everywhere", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent: owner } = await createProAgent(app, getDb());
      const saved = (await owner.request("POST", "/api/trackers", tracker())).json as Tracker;

      const free = createAgent(app);
      await signUp(free, getDb());
      for (const [method, path, body] of [
        ["GET", "/api/trackers", undefined],
        ["POST", "/api/trackers", tracker()],
        ["GET", `/api/trackers/${saved.id}`, undefined],
        ["POST", `/api/trackers/${saved.id}/runs`, undefined],
      ] as const) {
        expect(await free.request(method, path, body)).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });
      }
      expect(await createAgent(app).request("GET", "/api/trackers")).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });

      const { agent: other } = await createProAgent(app, getDb());
      for (const [method, path, body] of [
        ["GET", `/api/trackers/${saved.id}`, undefined],
        ["PATCH", `/api/trackers/${saved.id}`, { name: "mine now" }],
        ["DELETE", `/api/trackers/${saved.id}`, undefined],
        ["POST", `/api/trackers/${saved.id}/runs`, undefined],
        ["GET", `/api/trackers/${saved.id}/runs`, undefined],
        ["GET", `/api/trackers/not-an-id`, undefined],
      ] as const) {
        expect(await other.request(method, path, body)).toMatchObject({ status: 404, json: { code: "NOT_FOUND" } });
      }
      expect((await other.api.listTrackers()).trackers).toEqual([]);
      expect(await owner.api.getTracker(saved.id)).toMatchObject({ name: "CRM visibility" });
    } finally {
      await queue.stop();
    }
  });

  test("API tokens need the trackers scope for every tracker route", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      const saved = (await agent.request("POST", "/api/trackers", tracker())).json as Tracker;
      // Tokens are made with every scope; one with fewer is as an operator (or an older version) left it.
      const tokenWith = async (scopes: string[]) => {
        const created = (await agent.request("POST", "/api/tokens", { name: scopes.join(" ") })).json as { id: string; token: string };
        await getDb().db.update(apiTokens).set({ scopes }).where(eq(apiTokens.id, created.id));
        return created.token;
      };
      const script = createAgent(app);
      const call = (token: string, method: string, path: string, body?: unknown) => script.request(method, path, body, { authorization: `Bearer ${token}` });
      const allowed = await tokenWith(["trackers"]);
      const other = await tokenWith(["search", "history"]);
      const routes = [
        ["GET", "/api/trackers", undefined, 200],
        ["GET", `/api/trackers/${saved.id}`, undefined, 200],
        ["PATCH", `/api/trackers/${saved.id}`, { name: "renamed by a script" }, 200],
        ["POST", `/api/trackers/${saved.id}/runs`, undefined, 202],
        ["GET", `/api/trackers/${saved.id}/runs`, undefined, 200],
      ] as const;
      for (const [method, path, body] of routes)
        expect(await call(other, method, path, body)).toMatchObject({ status: 403, json: { message: expect.stringContaining('"trackers" scope') } });
      for (const [method, path, body, status] of routes) expect({ path, status: (await call(allowed, method, path, body)).status }).toEqual({ path, status });
      expect((await call(other, "POST", "/api/trackers", tracker())).status).toBe(403);
      expect((await call(allowed, "POST", "/api/trackers", tracker({ name: "by a script" }))).status).toBe(201);
    } finally {
      await queue.stop();
    }
  });
});

export type { TrackerRun };
