import { afterAll, describe, expect, test } from "bun:test";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { PriceRow } from "#src/contract/prices.ts";
import { COST_COLUMNS, resultToCsv, resultToJson } from "#src/core/export.ts";
import { formatCost } from "#src/core/cost.ts";
import { eq } from "drizzle-orm";
import { searches } from "#db/schema.ts";
import { pricesFile, READER, testPrices } from "#tests/support/prices.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { resultHeadline, resultSummary } from "#cli/lib/render.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * ADR 041: every answer's usage, read through the real SDKs from the simulators' wire
 * formats (cached tokens included), turned into money by a known price table.
 */

/** The providers as live ones (a key and a base URL) on this simulator. */
function liveEnv(simulator: Simulator, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { SIMULATE_PROVIDERS: "off", PRICES_FILE: pricesFile(testPrices()), ...extra };
  for (const id of providerIds) {
    const names = providerConfig[id].env;
    env[names.apiKey] = `test-live-${id}-key`;
    env[names.baseUrl] = simulator.baseUrls[id];
    env[names.extractionModel] = READER[id];
  }
  return env;
}

const SEARCH_USAGE = { inputTokens: 10_000, cachedInputTokens: 2_000, outputTokens: 1_000, searches: 2 };
const READING_USAGE = { inputTokens: 3_000, cachedInputTokens: 0, outputTokens: 500 };

function fixUsage(simulator: Simulator, search = SEARCH_USAGE): void {
  for (const id of providerIds) {
    simulator.setUsage(id, "search", search);
    simulator.setUsage(id, "extraction", READING_USAGE);
  }
}

// Per answer: search tokens (8,000 × $1 + 2,000 × $0.10 + 1,000 × $10) / 1M = $0.0182; reading
// (3,000 × $0.50 + 500 × $2) / 1M = $0.0025; searches 2 × $10 / 1000 = $0.02, Gemini one grounded prompt $0.035.
// Perplexity's answers say what they cost (usage.cost, its simulator at Sonar's rates), which the
// table does not change: search tokens (8,000 × $0.25 + 2,000 × $0.0625 + 1,000 × $2.50) / 1M =
// $0.004625, searches 2 × $0.005 = $0.01; reading (3,000 × $0.25 + 500 × $2.50) / 1M = $0.002.
const EXPECTED: Record<ProviderId, { usd: number; searchTokensUsd: number; searchesUsd: number; readingUsd: number }> = {
  openai: { usd: 0.0407, searchTokensUsd: 0.0182, searchesUsd: 0.02, readingUsd: 0.0025 },
  anthropic: { usd: 0.0407, searchTokensUsd: 0.0182, searchesUsd: 0.02, readingUsd: 0.0025 },
  gemini: { usd: 0.0557, searchTokensUsd: 0.0182, searchesUsd: 0.035, readingUsd: 0.0025 },
  perplexity: { usd: 0.016625, searchTokensUsd: 0.004625, searchesUsd: 0.01, readingUsd: 0.002 },
};
const PER_ITERATION = 0.0407 + 0.0407 + 0.0557 + 0.016625;
/** What Perplexity reported each call cost, kept with its usage. */
const REPORTED: Partial<Record<ProviderId, { search: { total: number; searches: number }; reading: { total: number; searches: number } }>> = {
  perplexity: { search: { total: 0.014625, searches: 0.01 }, reading: { total: 0.002, searches: 0 } },
};

function expectCents(actual: number | null | undefined, expected: number): void {
  expect(actual).not.toBeNull();
  expect(actual ?? Number.NaN).toBeCloseTo(expected, 9);
}

/** Each test's own simulator (its usage is fixed per test), stopped after the file. */
const simulators: Simulator[] = [];
afterAll(async () => {
  for (const simulator of simulators) await simulator.stop();
});
function ownSimulator(): Simulator {
  const simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
  simulators.push(simulator);
  return simulator;
}

describeEachDatabase("what each answer costs", (getDb) => {
  test("a known price table gives exact figures per answer, per provider and per search, from the usage each SDK read (cached tokens included)", async () => {
    const simulator = ownSimulator();
    fixUsage(simulator);
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator) });
    const agent = createAgent(app);
    const { result } = await agent.api.search({ query: "best project management software", iterations: 1 });

    for (const id of providerIds) {
      const model = result.models[id];
      expect(model?.status).toBe("ok");
      expect(model?.simulated).toBe(false);
      const reported = REPORTED[id];
      expect(model?.usage).toEqual({
        ...SEARCH_USAGE,
        searches: id === "gemini" ? (model?.usage.searches ?? 0) : 2,
        ...(reported ? { reportedUsd: expect.objectContaining({ searches: reported.search.searches }) } : {}),
      });
      if (reported) expectCents(model?.usage.reportedUsd?.total, reported.search.total);
      expect(model?.extractionUsage).toEqual({ ...READING_USAGE, searches: 0, ...(reported ? { reportedUsd: expect.any(Object) } : {}) });
      if (reported) expectCents(model?.extractionUsage?.reportedUsd?.total, reported.reading.total);
      for (const cost of [model?.cost, result.cost?.providers[id]]) {
        expectCents(cost?.usd, EXPECTED[id].usd);
        expectCents(cost?.searchTokensUsd, EXPECTED[id].searchTokensUsd);
        expectCents(cost?.searchesUsd, EXPECTED[id].searchesUsd);
        expectCents(cost?.readingUsd, EXPECTED[id].readingUsd);
      }
    }
    expectCents(result.cost?.total.usd, PER_ITERATION);
    expect(formatCost(result.cost!.total)).toBe("$0.154");

    // Saved, read back and listed with the same figures.
    const saved = await agent.api.getSearch(result.id);
    expectCents(saved.cost?.total.usd, PER_ITERATION);
    const { searches } = await agent.api.listSearches();
    expectCents(searches[0]?.costUsd, PER_ITERATION);

    // The CLI's and MCP's words: the search's cost in its headline, each provider's in its line.
    expect(resultHeadline(saved)).toContain("cost $0.154");
    expect(resultSummary(saved)).toContain(`${providerCatalogue.gemini.model}: `);
    expect(resultSummary(saved)).toContain("cost $0.056");
    expect(resultSummary(saved)).toContain("cost $0.041");
    expect(resultSummary(saved)).toContain(`${providerCatalogue.perplexity.model}: `);
    expect(resultSummary(saved)).toContain("cost $0.017");

    // The exports: JSON has the costs, CSV keeps the spec's columns and adds the cost columns at the end.
    const json = JSON.parse(resultToJson(saved)) as { cost: { total: { usd: number } }; openai: { cost: { usd: number } } };
    expectCents(json.cost.total.usd, PER_ITERATION);
    expectCents(json.openai.cost.usd, EXPECTED.openai.usd);
    const lines = resultToCsv(saved).split("\r\n");
    expect(lines).toContain(`Cost (USD),${Math.round(PER_ITERATION * 1e6) / 1e6}`);
    expect(lines).toContain(["Provider", "Model", "Model Version", "Status", "Simulated", "Searched the Web", "Error", "Location", ...COST_COLUMNS].join(","));
    const geminiRow = lines.find((line) => line.startsWith(`${providerCatalogue.gemini.column},`));
    expect(geminiRow?.split(",").slice(-4)).toEqual(["0.0557", "0.0182", "0.035", "0.0025"]);
    const perplexityRow = lines.find((line) => line.startsWith(`${providerCatalogue.perplexity.column},`));
    expect(perplexityRow?.split(",").slice(-4)).toEqual(["0.016625", "0.004625", "0.01", "0.002"]);
  });

  test("five iterations cost five answers per provider, for a Pro user, and the account's spend today says so", async () => {
    const simulator = ownSimulator();
    fixUsage(simulator);
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator) });
    const { agent } = await createProAgent(app, getDb());
    const { result } = await agent.api.search({ query: "best crm for startups", iterations: 5 });
    for (const id of providerIds) expectCents(result.cost?.providers[id]?.usd, 5 * EXPECTED[id].usd);
    expectCents(result.cost?.total.usd, 5 * PER_ITERATION);
    // Each iteration keeps its own usage with the saved result, not only the answer on the card.
    const [row] = await getDb().db.select({ result: searches.result }).from(searches).where(eq(searches.id, result.id));
    const runs = (
      row?.result as { runs: Record<string, Array<{ usage?: { inputTokens: number; cachedInputTokens?: number }; extractionUsage?: { inputTokens: number } }>> }
    ).runs;
    for (const id of providerIds) {
      expect(runs[id]).toHaveLength(5);
      for (const run of runs[id] ?? []) {
        expect(run.usage).toMatchObject({ inputTokens: SEARCH_USAGE.inputTokens, cachedInputTokens: SEARCH_USAGE.cachedInputTokens });
        expect(run.extractionUsage).toMatchObject({ inputTokens: READING_USAGE.inputTokens });
      }
    }
    const spend = await agent.api.spend();
    expectCents(spend.todayUsd, 5 * PER_ITERATION);
    expectCents(spend.monthUsd, 5 * PER_ITERATION);
    expect(spend.dailyLimitUsd).toBe(20);
  });

  test("a search saved before costs were kept gets its cost from the usage it kept, in its page and in the history; one of several iterations is unknown", async () => {
    const simulator = ownSimulator();
    fixUsage(simulator);
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator) });
    const { agent } = await createProAgent(app, getDb());
    const single = (await agent.api.search({ query: "best password manager", iterations: 1 })).result;
    const several = (await agent.api.search({ query: "best password manager", iterations: 5 })).result;
    // As an older version saved them: no costs, and usage without its cached part.
    for (const id of [single.id, several.id]) {
      const [row] = await getDb().db.select({ result: searches.result }).from(searches).where(eq(searches.id, id));
      const old = structuredClone(row?.result) as { cost?: unknown; models: Record<string, { cost?: unknown; usage: { cachedInputTokens?: number } }> };
      delete old.cost;
      for (const model of Object.values(old.models)) {
        delete model.cost;
        delete model.usage.cachedInputTokens;
      }
      await getDb().db.update(searches).set({ result: old, costUsd: null }).where(eq(searches.id, id));
    }
    // Without the cached part: (10,000 × $1 + 1,000 × $10) / 1M = $0.02 of search tokens per answer;
    // Perplexity's kept the cost it reported.
    const expected = 0.0425 + 0.0425 + 0.0575 + EXPECTED.perplexity.usd;
    expectCents((await agent.api.getSearch(single.id)).cost?.total.usd, expected);
    expect((await agent.api.getSearch(several.id)).cost?.total.usd).toBeNull();
    const listed = (await agent.api.listSearches()).searches;
    expectCents(listed.find((item) => item.id === single.id)?.costUsd, expected);
    expect(listed.find((item) => item.id === several.id)?.costUsd).toBeNull();
  });

  test("a price file's tier prices a long prompt at the dearer rates, in the answer's cost, its export and the account's spend", async () => {
    const simulator = ownSimulator();
    // Anthropic's answers read 120,000 tokens (cached included): over the file's 100,000-token tier.
    fixUsage(simulator);
    simulator.setUsage("anthropic", "search", { inputTokens: 120_000, cachedInputTokens: 20_000, outputTokens: 1_000, searches: 5 });
    const tiered = testPrices().map((row) =>
      row.model === providerConfig.anthropic.defaultModel
        ? { ...row, above: [{ inputTokens: 100_000, inputPerMTok: 5, cachedInputPerMTok: 0.5, outputPerMTok: 50 }] }
        : row,
    );
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator, { PRICES_FILE: pricesFile(tiered) }) });
    const { agent } = await createProAgent(app, getDb());
    const { result } = await agent.api.search({ query: "best noise cancelling headphones", iterations: 1 });
    // (100,000 × $5 + 20,000 × $0.50 + 1,000 × $50) / 1M = $0.56 of tokens, 5 searches $0.05, the reading $0.0025.
    const anthropic = result.cost?.providers.anthropic;
    expectCents(anthropic?.searchTokensUsd, 0.56);
    // $0.6125, shown to three places with the half rounded up.
    expect(formatCost(anthropic!)).toBe("$0.613");
    expectCents((await agent.api.spend()).todayUsd, 0.6125 + EXPECTED.openai.usd + EXPECTED.gemini.usd + EXPECTED.perplexity.usd);
    const row = resultToCsv(result)
      .split("\r\n")
      .find((line) => line.startsWith(`${providerCatalogue.anthropic.column},`));
    expect(row?.split(",").slice(-4)).toEqual(["0.6125", "0.56", "0.05", "0.0025"]);
  });

  test('a model the price table does not know costs "unknown", never $0', async () => {
    const simulator = ownSimulator();
    fixUsage(simulator);
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator, { OPENAI_MODEL: "gpt-unpriced-test" }) });
    const { result } = await createAgent(app).api.search({ query: "best vpn", iterations: 1 });
    const openai = result.cost?.providers.openai;
    expect(openai?.usd).toBeNull();
    expect(openai?.unpriced).toEqual(["gpt-unpriced-test"]);
    expect(formatCost(openai!)).toBe("unknown");
    expect(result.cost?.total.usd).toBeNull();
    expect(formatCost(result.cost!.total)).toBe("unknown");
    // The others are still priced, and the export says "unknown" where it does not know.
    expectCents(result.cost?.providers.anthropic?.usd, EXPECTED.anthropic.usd);
    const openaiRow = resultToCsv(result)
      .split("\r\n")
      .find((line) => line.startsWith(`${providerCatalogue.openai.column},`));
    expect(openaiRow?.split(",").at(-4)).toBe("unknown");
  });

  test("simulated answers cost $0 and say so", async () => {
    const { app } = await createTestApp(getDb());
    const { result } = await createAgent(app).api.search({ query: "best laptop for students", iterations: 1 });
    for (const id of providerIds) {
      expect(result.cost?.providers[id]).toMatchObject({ usd: 0, simulated: true });
      // The simulators report a cached part by default, in each provider's own field.
      const usage = result.models[id]?.usage;
      expect(usage?.cachedInputTokens).toBeGreaterThan(0);
      expect(usage?.cachedInputTokens).toBeLessThan(usage?.inputTokens ?? 0);
    }
    expect(formatCost(result.cost!.total)).toBe("$0.00 (simulated)");
  });
});

describeEachDatabase("the daily spend limits", (getDb) => {
  test("a search whose estimate would cross the account's limit is refused with SPEND_LIMIT before any provider call", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator, { ACCOUNT_DAILY_SPEND_USD: "0.5" }) });
    const { agent } = await createProAgent(app, getDb());
    const estimate = await agent.api.estimate(10);
    expect(estimate.usd).toBeGreaterThan(0.5);
    const refused = await agent.request("POST", "/api/search", { query: "best running shoes", iterations: 10 });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "SPEND_LIMIT" });
    expect((refused.json as { message: string }).message).toMatch(/\$0\.00 of today's \$0\.50 limit per account \(ACCOUNT_DAILY_SPEND_USD\)/);
    expect(simulator.requests).toEqual([]);
    // Nothing was spent, and a search within the limit still runs.
    expect((await agent.api.spend()).todayUsd).toBe(0);
    fixUsage(simulator);
    const { result } = await agent.api.search({ query: "best running shoes", iterations: 1 });
    expectCents(result.cost?.total.usd, PER_ITERATION);
  });

  test("the deployment's limit refuses anonymous searches too", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator, { DAILY_SPEND_USD: "0.01" }) });
    const refused = await createAgent(app).request("POST", "/api/search", { query: "best running shoes" });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ code: "SPEND_LIMIT" });
    expect((refused.json as { message: string }).message).toMatch(/today's \$0\.01 limit \(DAILY_SPEND_USD\)/);
    expect(simulator.requests).toEqual([]);
  });

  test("a running search stops at the limit: iterations not started become cards saying so, and what finished is kept and counted", async () => {
    const simulator = ownSimulator();
    // Answers far costlier than the estimate's typical ones: $0.1325, $0.1325, $0.1475 and (Perplexity's
    // reported) $0.0395 an iteration.
    const heavy = { inputTokens: 100_000, cachedInputTokens: 0, outputTokens: 1_000, searches: 2 };
    fixUsage(simulator, heavy);
    const { app } = await createTestApp(getDb(), { simulator, env: liveEnv(simulator, { ACCOUNT_DAILY_SPEND_USD: "2.5", SEARCH_CONCURRENCY: "1" }) });
    const { agent } = await createProAgent(app, getDb());
    expect((await agent.api.estimate(10)).usd).toBeLessThan(2.5);
    const { result } = await agent.api.search({ query: "best standing desk", iterations: 10 });

    const total = result.cost?.total.usd ?? Number.NaN;
    expect(total).toBeGreaterThanOrEqual(2.5);
    expect(total).toBeLessThan(10 * 0.452);
    const searched = simulator.searchPrompts().length;
    expect(searched).toBeLessThan(10 * providerIds.length);
    for (const id of providerIds) {
      // Some iterations answered (kept, counted in the frequencies), the rest never started.
      const stats = result.stats[id];
      expect(stats?.iterations).toBeGreaterThan(0);
      expect(stats?.failedIterations).toBeGreaterThan(0);
      expect((stats?.iterations ?? 0) + (stats?.failedIterations ?? 0)).toBe(10);
    }
    // The result says why it has fewer iterations, in the words of the limit.
    expect(result.spendLimit).toMatch(
      /^Stopped: Your searches have spent \$\d+\.\d+ of today's \$2\.50 limit per account \(ACCOUNT_DAILY_SPEND_USD\)\. What had finished is kept\.$/,
    );
    expect((await agent.api.getSearch(result.id)).spendLimit).toBe(result.spendLimit);
    expect(resultSummary(result)).toContain(result.spendLimit ?? "no spend limit");
    // What it spent is what was recorded, from the real costs; the next search is refused.
    expectCents((await agent.api.spend()).todayUsd, total);
    const refused = await agent.request("POST", "/api/search", { query: "best standing desk", iterations: 1 });
    expect(refused.json).toMatchObject({ code: "SPEND_LIMIT" });
    expect(simulator.searchPrompts().length).toBe(searched);
  });
});

describe("the price file", () => {
  test("a bad PRICES_FILE stops the start with one line naming it", async () => {
    const { loadPrices, EnvError } = await import("#src/server/env.ts");
    const bad = pricesFile([{ model: "x", inputPerMTok: -1 } as unknown as PriceRow]);
    expect(() => loadPrices(bad)).toThrow(EnvError);
    expect(() => loadPrices(bad)).toThrow(/^Invalid environment variable PRICES_FILE: .*prices\.json at 0\.inputPerMTok/);
    expect(() => loadPrices("/nonexistent/prices.json")).toThrow(/PRICES_FILE: cannot read \/nonexistent\/prices\.json \(ENOENT\)/);
  });
});
