import { expect, test } from "bun:test";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * ADR 052, the probe's finding 3: what one account may have and do, whatever its spend —
 * MAX_TRACKERS_PER_ACCOUNT, MAX_TRACKER_RUN_ANSWERS (questions × providers × iterations), and
 * TRACKER_MANUAL_RUNS_PER_DAY (Run now, per account per UTC day). Simulated providers: nothing is spent.
 */

const definition = {
  name: "Caps",
  queries: ["best crm for startups", "crm with a free plan"],
  brand: { name: "HubSpot" },
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

type Agent = Awaited<ReturnType<typeof createProAgent>>["agent"];

async function ended(agent: Agent, trackerId: string, runId: string): Promise<TrackerRun> {
  return waitFor(async () => {
    const run = await agent.api.getTrackerRun(trackerId, runId);
    return run.status !== "queued" && run.status !== "running" && run;
  });
}

describeEachDatabase("trackers: the caps on an account", (getDb) => {
  test("MAX_TRACKERS_PER_ACCOUNT: five creates at once under a cap of 2 make two, the others are 409 naming it; deleting one makes room", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { MAX_TRACKERS_PER_ACCOUNT: "2" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => agent.request("POST", "/api/trackers", { ...definition, name: `Tracker ${i}` })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 409, 409, 409]);
      for (const refused of answers.filter((answer) => answer.status === 409))
        expect(refused.json).toMatchObject({
          code: "CONFLICT",
          message: "You have 2 trackers, the most an account may have here (MAX_TRACKERS_PER_ACCOUNT is 2): delete one to make another",
        });
      const { trackers } = await agent.api.listTrackers();
      expect(trackers).toHaveLength(2);
      // Another account has its own two.
      const { agent: other } = await createProAgent(app, getDb());
      expect((await other.request("POST", "/api/trackers", definition)).status).toBe(201);
      await agent.api.deleteTracker(trackers[0]!.id);
      expect((await agent.request("POST", "/api/trackers", definition)).status).toBe(201);
    } finally {
      await queue.stop();
    }
  });

  test("MAX_TRACKER_RUN_ANSWERS: a tracker whose run would ask for more answers is refused with 400 naming it, at create and at update", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { MAX_TRACKER_RUN_ANSWERS: "16" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      // 2 questions × 4 providers × 2 iterations = 16: at the cap.
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      expect(tracker.id).toBeDefined();
      const over = await agent.request("POST", "/api/trackers", { ...definition, iterations: 3 });
      expect(over.status).toBe(400);
      expect(over.json).toMatchObject({
        code: "INVALID_INPUT",
        message:
          "A run of this tracker would ask for 24 answers (2 questions × 4 providers × 3 iterations), more than the 16 a run may ask for here (MAX_TRACKER_RUN_ANSWERS): ask fewer questions, providers or iterations",
      });
      const more = await agent.request("PATCH", `/api/trackers/${tracker.id}`, { queries: [...definition.queries, "best crm for agencies"] });
      expect(more.status).toBe(400);
      expect((more.json as { message: string }).message).toContain("(MAX_TRACKER_RUN_ANSWERS)");
      // Within it, an update goes through; one that does not touch the size is never refused by it.
      expect((await agent.request("PATCH", `/api/trackers/${tracker.id}`, { providers: ["openai"], iterations: 6 })).status).toBe(200);
      expect((await agent.request("PATCH", `/api/trackers/${tracker.id}`, { name: "Renamed" })).status).toBe(200);
    } finally {
      await queue.stop();
    }
  });

  test("TRACKER_MANUAL_RUNS_PER_DAY: Run now past it is 429 RATE_LIMITED naming it, across the account's trackers; one refused as already running is not counted", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { TRACKER_MANUAL_RUNS_PER_DAY: "2" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const first = await agent.api.createTracker(definition);
      const second = await agent.api.createTracker({ ...definition, name: "Second" });
      const { run } = await agent.api.runTracker(first.id);
      // Already queued or running: 409, and it does not use up a Run now.
      expect((await agent.request("POST", `/api/trackers/${first.id}/runs`)).status).toBe(409);
      await ended(agent, first.id, run.id);
      const { run: again } = await agent.api.runTracker(second.id);
      await ended(agent, second.id, again.id);
      for (const id of [first.id, second.id]) {
        const refused = await agent.request("POST", `/api/trackers/${id}/runs`);
        expect(refused.status).toBe(429);
        expect(refused.json).toMatchObject({ code: "RATE_LIMITED", message: expect.stringContaining("(TRACKER_MANUAL_RUNS_PER_DAY)") });
      }
      // Another account has its own.
      const { agent: other } = await createProAgent(app, getDb());
      const theirs = await other.api.createTracker(definition);
      expect((await other.request("POST", `/api/trackers/${theirs.id}/runs`)).status).toBe(202);
    } finally {
      await queue.stop();
    }
  });
});
