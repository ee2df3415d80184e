import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { spend, spendHolds, trackerCalls } from "#db/schema.ts";
import type { ModelResult } from "#src/contract/search-result.ts";
import { answerCharge } from "#src/core/cost.ts";
import { providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { pricesFile, READER, testPrices } from "#tests/support/prices.ts";
import { runToEnd } from "#tests/support/trackers.ts";

/*
 * ADR 052, the probe's finding 4: a model without a price fails closed. Its answers are charged
 * against the limits and budgets at the price table's highest rates (the test table's: $1 input,
 * $0.10 cached, $10 output per million tokens, $35 per thousand web searches, each search billed),
 * while their cost still reads "unknown"; or, under UNPRICED_MODELS=refuse, nothing runs on it.
 * A tracker's monthly budget is checked before each call of a run, as the daily limits are.
 */

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

const UNPRICED = "gpt-unpriced-test";
const SEARCH_USAGE = { inputTokens: 10_000, cachedInputTokens: 2_000, outputTokens: 1_000, searches: 2 };
const READING_USAGE = { inputTokens: 3_000, cachedInputTokens: 0, outputTokens: 500 };

/** The providers live on the simulator with the test price table (tests/support/prices.ts), and their usage fixed. */
function liveEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { SIMULATE_PROVIDERS: "off", PRICES_FILE: pricesFile(testPrices()), ...extra };
  for (const id of providerIds) {
    const names = providerConfig[id].env;
    env[names.apiKey] = `test-live-${id}-key`;
    env[names.baseUrl] = simulator.baseUrls[id];
    env[names.extractionModel] ??= READER[id];
    simulator.setUsage(id, "search", SEARCH_USAGE);
    simulator.setUsage(id, "extraction", READING_USAGE);
  }
  return env;
}

const definition = {
  name: "Unpriced",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

describeEachDatabase("spend: a model without a price fails closed", (getDb) => {
  test("an answer of a model without a price is charged at the table's highest rates against the day's limits, and its cost still reads unknown", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator, env: liveEnv({ OPENAI_MODEL: UNPRICED, ACCOUNT_DAILY_SPEND_USD: "0.3" }) });
    try {
      const { agent } = await createProAgent(app, getDb());
      const { result } = await agent.api.search({ query: "best project management software", iterations: 1 });
      expect(result.cost?.providers.openai).toMatchObject({ usd: null, unpriced: [UNPRICED] });
      expect(result.cost?.total.usd).toBeNull();
      // Charged: OpenAI's search at the ceiling, (8,000 × $1 + 2,000 × $0.10 + 1,000 × $10) / 1M + 2 × $0.035
      // = $0.0882, its reading (a priced model) $0.0025; Anthropic $0.0407 and Gemini $0.0557 as priced;
      // Perplexity what it reported, $0.016625 (its simulator at Sonar's rates).
      expect((await agent.api.spend()).todayUsd).toBeCloseTo(0.0907 + 0.0407 + 0.0557 + 0.016625, 9);

      // The estimate still says it does not know; the admission holds the ceiling: 5 iterations
      // ($1.26 at the highest rates for OpenAI, the others as priced, Perplexity's typical answer
      // $0.03805) cannot start under the $0.30 a day this account has.
      expect((await agent.api.estimate(5)).usd).toBeNull();
      simulator.clearLog();
      const refused = await agent.request("POST", "/api/search", { query: "best vpn", iterations: 5 });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({
        code: "SPEND_LIMIT",
        message: expect.stringMatching(
          /limit per account \(ACCOUNT_DAILY_SPEND_USD\): this search, \$1\.26 at the price table's highest rates \(no price for gpt-unpriced-test\), would go past it/,
        ),
      });
      expect(simulator.searchPrompts()).toEqual([]);
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });

  test("the probe's reproduction: a tracker on an unpriced model with a $0.01 monthly budget is skipped, not run for free; one within its budget is charged the ceiling, its cost unknown", async () => {
    const env = liveEnv({ GEMINI_MODEL: "gemini-9-unpriced", GEMINI_EXTRACTION_MODEL: "gemini-9-unpriced" });
    const { app, queue } = await createTestApp(getDb(), { simulator, env });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      simulator.clearLog();
      const tight = (await agent.request("POST", "/api/trackers", { ...definition, providers: ["gemini"], iterations: 40, monthlyBudgetUsd: 0.01 }))
        .json as Tracker;
      expect(tight.estimate.perRunUsd).toBeNull();
      const skipped = await runToEnd(agent.api, tight.id);
      expect(skipped.status).toBe("skipped");
      expect(skipped.reason).toContain("monthly budget of $0.010 would be passed");
      expect(skipped.reason).toContain("at the price table's highest rates (no price for gemini-9-unpriced)");
      expect(simulator.searchPrompts()).toEqual([]);

      const roomy = (await agent.request("POST", "/api/trackers", { ...definition, name: "Roomy", providers: ["gemini"], iterations: 2, monthlyBudgetUsd: 5 }))
        .json as Tracker;
      const ran = await runToEnd(agent.api, roomy.id);
      expect(ran).toMatchObject({ status: "completed", cost: { usd: null } });
      // Each answer at the ceiling: its search (8,000 × $1 + 2,000 × $0.10 + 1,000 × $10) / 1M and web
      // searches at $0.035 each, its reading (3,000 × $1 + 500 × $10) / 1M; recorded as the tracker's spend.
      const calls = await getDb().db.select().from(trackerCalls).where(eq(trackerCalls.runId, ran.id));
      expect(calls.map((call) => call.costUsd)).toEqual([null, null]);
      const expected = calls.reduce((sum, call) => sum + answerCharge(call.result as ModelResult, testPrices()), 0);
      expect(expected).toBeGreaterThan(2 * (0.0182 + 0.008));
      const rows = await getDb().db.select().from(spend).where(eq(spend.userId, account.id));
      expect(rows.every((row) => row.source === "tracker")).toBe(true);
      expect(rows.reduce((sum, row) => sum + row.usd, 0)).toBeCloseTo(expected, 9);
      expect(await getDb().db.select().from(spendHolds)).toEqual([]);
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });

  test("UNPRICED_MODELS=refuse: a search and a tracker's run on a model without a price are refused, and nothing is asked", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator, env: liveEnv({ OPENAI_MODEL: UNPRICED, UNPRICED_MODELS: "refuse" }) });
    try {
      const { agent } = await createProAgent(app, getDb());
      simulator.clearLog();
      const refused = await agent.request("POST", "/api/search", { query: "best vpn", iterations: 1 });
      expect(refused.status).toBe(429);
      expect(refused.json).toMatchObject({
        code: "SPEND_LIMIT",
        message: expect.stringMatching(/^No price for gpt-unpriced-test.*\(UNPRICED_MODELS=refuse\)/),
      });
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, providers: ["openai"], iterations: 1 })).json as Tracker;
      expect(await runToEnd(agent.api, tracker.id)).toMatchObject({ status: "skipped", reason: expect.stringContaining("UNPRICED_MODELS=refuse") });
      // A tracker on priced providers only still runs.
      const priced = (await agent.request("POST", "/api/trackers", { ...definition, name: "Priced", providers: ["anthropic"], iterations: 1 })).json as Tracker;
      expect((await runToEnd(agent.api, priced.id)).status).toBe("completed");
      expect(simulator.searchPrompts().every((asked) => asked.provider === "anthropic")).toBe(true);
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });

  test("a tracker's monthly budget is checked before each call of a run: answers far costlier than the estimate stop the run at the budget", async () => {
    // $0.1325 an answer against the estimate's $0.049: a $0.60 budget lets the run start ($0.49) and stops it after the fifth answer.
    const { app, queue } = await createTestApp(getDb(), { simulator, env: liveEnv({ SEARCH_CONCURRENCY: "1" }) });
    simulator.setUsage("openai", "search", { inputTokens: 100_000, cachedInputTokens: 0, outputTokens: 1_000, searches: 2 });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, providers: ["openai"], iterations: 10, monthlyBudgetUsd: 0.6 }))
        .json as Tracker;
      expect(tracker.estimate.perRunUsd).toBeLessThan(0.6);
      const run: TrackerRun = await runToEnd(agent.api, tracker.id);
      expect(run).toMatchObject({ status: "partial", answers: { expected: 10, done: 5, failed: 5 } });
      expect(run.cost.usd).toBeCloseTo(5 * 0.1325, 9);
      // The next run is skipped: the month's charges and its estimate pass the budget.
      expect(await runToEnd(agent.api, tracker.id)).toMatchObject({ status: "skipped", reason: expect.stringContaining("monthly budget") });
    } finally {
      simulator.setUsage("openai", "search", SEARCH_USAGE);
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });
});
