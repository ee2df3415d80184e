import { afterAll, beforeAll, expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { crmTracker, runToEnd } from "#tests/support/trackers.ts";

/*
 * Question tags (ADR 068): a tracker's questions carry a tag each; `trend?tag=` pools the tagged
 * questions' per-question rollups per run, provider and subject, read as the all-questions series is.
 */

const questions = ["best crm for startups", "crm with a free plan", "cheapest crm for a small team"];
const definition = {
  ...crmTracker,
  queries: questions,
  questionTags: { "best crm for startups": "Startups", "cheapest crm for a small team": "Startups", "crm with a free plan": "Pricing" },
};

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: question tags", (getDb) => {
  test("tags are kept, and trend?tag= is the sum of its questions' points per run, provider and subject", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = await agent.request("POST", "/api/trackers", definition);
      expect(created.status).toBe(201);
      const tracker = created.json as Tracker;
      expect(tracker.questionTags).toEqual(definition.questionTags);
      for (let i = 0; i < 2; i++) expect((await runToEnd(agent.api, tracker.id)).status).toBe("completed");

      const pooled = await agent.api.getTrackerTrend(tracker.id, { tag: "startups" });
      const perQuery = await agent.api.getTrackerTrend(tracker.id, { perQuery: true });
      const tagged = perQuery.points.filter((point) => point.query === "best crm for startups" || point.query === "cheapest crm for a small team");
      // Two runs × every provider × three subjects; no point carries a question.
      expect(pooled.points).toHaveLength(2 * providerIds.length * 3);
      for (const point of pooled.points) {
        expect(point.query).toBeUndefined();
        const parts = tagged.filter((one) => one.runId === point.runId && one.provider === point.provider && one.subject === point.subject);
        expect(parts).toHaveLength(2);
        expect(point.n).toBe(parts.reduce((sum, one) => sum + one.n, 0));
        expect(point.k).toBe(parts.reduce((sum, one) => sum + one.k, 0));
        expect(point.rate).toBeCloseTo((point.k / point.n) * 100, 1);
        expect(point.low!).toBeLessThanOrEqual(point.rate!);
        expect(point.high!).toBeGreaterThanOrEqual(point.rate!);
      }
      // A tag of one question is that question's series, counts and all.
      const single = await agent.api.getTrackerTrend(tracker.id, { tag: "Pricing", provider: "openai" });
      const asked = await agent.api.getTrackerTrend(tracker.id, { query: "crm with a free plan", provider: "openai" });
      expect(single.points.map(({ runId, subject, k, n }) => ({ runId, subject, k, n }))).toEqual(
        asked.points.map(({ runId, subject, k, n }) => ({ runId, subject, k, n })),
      );

      // Unknown tag, and a tag with query: 400 naming why.
      const unknown = await agent.request("GET", `/api/trackers/${tracker.id}/trend?tag=Enterprise`);
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.json)).toContain("Enterprise");
      expect((await agent.request("GET", `/api/trackers/${tracker.id}/trend?tag=Pricing&query=crm%20with%20a%20free%20plan`)).status).toBe(400);

      // An edit of the questions without tags keeps the tags of the questions kept.
      const edited = await agent.request("PATCH", `/api/trackers/${tracker.id}`, { queries: ["best crm for startups", "crm for agencies"] });
      expect(edited.status).toBe(200);
      expect((edited.json as Tracker).questionTags).toEqual({ "best crm for startups": "Startups" });
      const retagged = await agent.request("PATCH", `/api/trackers/${tracker.id}`, { questionTags: { "crm for agencies": "Agencies" } });
      expect((retagged.json as Tracker).questionTags).toEqual({ "crm for agencies": "Agencies" });
      const stray = await agent.request("PATCH", `/api/trackers/${tracker.id}`, { questionTags: { "not asked": "X" } });
      expect(stray.status).toBe(400);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("bad tags are refused with 400 and a message naming the field", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const cases: Array<[unknown, string]> = [
        [{ "best crm for startups": "x".repeat(41) }, "at most 40"],
        [{ "best crm for startups": " " }, "must not be empty"],
        [{ "not one of them": "A" }, "not one of the queries"],
        [["Startups"], "questionTags"],
      ];
      for (const [questionTags, words] of cases) {
        const refused = await agent.request("POST", "/api/trackers", { ...crmTracker, questionTags });
        expect(refused.status).toBe(400);
        expect(refused.json).toMatchObject({ code: expect.any(String), message: expect.stringContaining(words) });
      }
      const many = Array.from({ length: 21 }, (_, i) => `question ${i}`);
      const tooMany = await agent.request("POST", "/api/trackers", {
        ...crmTracker,
        queries: many,
        iterations: 1,
        questionTags: Object.fromEntries(many.map((query, i) => [query, `tag ${i}`])),
      });
      expect(tooMany.status).toBe(400);
      expect((tooMany.json as { message: string }).message).toContain("at most 20 different tags");
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("suggested questions come from the variants' model, leave out the form's questions, say when simulated, and are Pro's", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const asked = await agent.request("POST", "/api/question-suggestions", { category: "CRM for small teams", brand: "HubSpot" });
      expect(asked.status).toBe(200);
      const { suggestions, generatedBy } = asked.json as { suggestions: Array<{ query: string; reasoning: string }>; generatedBy: { mode: string } };
      expect(suggestions.length).toBeGreaterThan(0);
      expect(generatedBy.mode).toBe("simulated");
      const again = await agent.api.suggestQuestions({ category: "CRM for small teams", exclude: [suggestions[0]!.query.toUpperCase()] });
      expect(again.suggestions.map((one) => one.query.toLowerCase())).not.toContain(suggestions[0]!.query.toLowerCase());
      expect((await agent.request("POST", "/api/question-suggestions", { category: " " })).status).toBe(400);

      const free = createAgent(app);
      await signUp(free, getDb());
      expect((await free.request("POST", "/api/question-suggestions", { category: "CRM" })).status).toBe(403);
    } finally {
      await queue.stop();
    }
  }, 60_000);
});
