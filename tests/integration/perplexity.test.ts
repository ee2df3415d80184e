import { afterAll, expect, test } from "bun:test";
import { providerConfig } from "#src/contract/provider-config.ts";
import { normalizeUrl } from "#src/core/urls.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { alertingTracker, runToEnd } from "#tests/support/trackers.ts";

/*
 * Perplexity, the fourth provider (ADR 059), end to end through its official SDK against its
 * simulator's Agent API: the request as the API takes it, the card read from the response
 * (citations apart from what the search retrieved, fan-out queries, location, the cost it
 * reports), 429s waited out, many iterations and a tracker run.
 */

const simulators: Simulator[] = [];
afterAll(async () => {
  for (const simulator of simulators) await simulator.stop();
});
const ownSimulator = (seed: number) => {
  const simulator = startSimulator({ latency: { kind: "fixed", ms: 2 }, seed });
  simulators.push(simulator);
  return simulator;
};
/** Perplexity live on the simulator (a key and PERPLEXITY_BASE_URL), the other providers off. */
const perplexityOnly = (simulator: Simulator) =>
  liveProviderEnv(simulator, {
    OPENAI_API_KEY: "",
    ANTHROPIC_API_KEY: "",
    GEMINI_API_KEY: "",
    [providerConfig.perplexity.env.apiKey]: "pplx-live-test",
  });

describeEachDatabase("Perplexity through its SDK", (getDb) => {
  test("the query as typed goes to POST /v1/responses with web_search and the location; the card keeps citations apart from retrieved pages, the fan-out queries and the cost Perplexity reported", async () => {
    const simulator = ownSimulator(31);
    const { app } = await createTestApp(getDb(), { simulator, env: perplexityOnly(simulator) });
    const query = "Best CRM for startups?";
    const { result } = await createAgent(app).api.search({ query, iterations: 1, options: { location: { country: "fr", city: "Lyon" } } });

    const [search] = simulator.requests.filter((entry) => entry.provider === "perplexity" && entry.kind === "search");
    expect(search?.path).toBe("/perplexity/v1/responses");
    expect(search?.headers.authorization).toBe("Bearer pplx-live-test");
    expect(search?.body).toEqual({ model: "perplexity/sonar", input: query, tools: [{ type: "web_search", user_location: { country: "FR", city: "Lyon" } }] });

    for (const id of ["openai", "anthropic", "gemini"] as const) expect(result.models[id]?.status).toBe("off");
    const card = result.models.perplexity;
    expect(card).toMatchObject({
      status: "ok",
      simulated: false,
      modelVersion: "perplexity/sonar",
      searchTool: "web_search",
      searched: true,
      location: "applied",
    });
    // Citations (the annotations) first, then what the searches retrieved and the answer did not cite.
    const cited = card?.sources.filter((source) => source.cited) ?? [];
    const retrieved = card?.sources.filter((source) => !source.cited) ?? [];
    expect(cited.length).toBeGreaterThanOrEqual(1);
    expect(retrieved.length).toBeGreaterThanOrEqual(1);
    expect(card?.sources.findIndex((source) => !source.cited)).toBe(cited.length);
    expect(new Set(card?.sources.map((source) => normalizeUrl(source.url))).size).toBe(card?.sources.length ?? 0);
    // The numbered markers stay in the answer as Perplexity wrote it.
    expect(card?.rawResponse).toMatch(/\[\d+\]/);
    expect(card?.rawResponse).toContain("as seen from Lyon, France");
    // Each search_results item is a search call with its queries; the first is the question itself.
    expect(card?.searchQueries[0]).toBe("best crm for startups");
    expect(card?.usage.searches).toBe(card?.searchQueries.length);
    expect(card?.products.length).toBeGreaterThanOrEqual(3);

    // Its cost is what the response reported (usage.cost), search and reading alike, never a table's guess.
    const reported = card?.usage.reportedUsd;
    const reading = card?.extractionUsage?.reportedUsd;
    expect(reported?.total).toBeGreaterThan(0);
    expect(reported?.searches).toBeCloseTo(0.005 * (card?.usage.searches ?? 0), 9);
    expect(card?.cost?.usd).toBeCloseTo((reported?.total ?? 0) + (reading?.total ?? 0), 9);
    expect(card?.cost?.searchesUsd).toBeCloseTo(reported?.searches ?? Number.NaN, 9);
    expect(result.cost?.total.usd).toBeCloseTo(card?.cost?.usd ?? Number.NaN, 9);
  });

  test("a 429 is waited out as Retry-After asks and counted on the card; a malformed answer and a server error are retried", async () => {
    const simulator = ownSimulator(32);
    simulator.setFaults("perplexity", [{ kind: "rate_limit", retryAfterSeconds: 1 }, { kind: "server_error" }], { kinds: ["search"] });
    const { app } = await createTestApp(getDb(), { simulator, env: perplexityOnly(simulator) });
    const { result } = await createAgent(app).api.search({ query: "best running shoes", iterations: 1 });
    const card = result.models.perplexity;
    expect(card?.status).toBe("ok");
    expect(card?.rateLimited?.count).toBe(1);
    expect(card?.rateLimited?.waitedMs).toBeGreaterThanOrEqual(1000);
    expect(simulator.requests.filter((entry) => entry.provider === "perplexity" && entry.kind === "search")).toHaveLength(3);
  });

  test("25 iterations give Perplexity its frequencies beside the other providers'", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const { result } = await agent.api.search({ query: "best password manager", iterations: 25 });
    const stats = result.stats.perplexity;
    expect(stats?.iterations).toBe(25);
    expect(stats?.productFrequencies.length).toBeGreaterThan(0);
    for (const frequency of stats?.productFrequencies ?? []) expect(frequency.count).toBeLessThanOrEqual(25);
    expect(result.models.perplexity?.simulated).toBe(true);
    expect(result.cost?.providers.perplexity).toMatchObject({ usd: 0, simulated: true });
  });

  test("a tracker whose providers include Perplexity runs it, and its trend has Perplexity's series", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = await agent.api.createTracker({ ...alertingTracker, iterations: 2, providers: ["openai", "perplexity"] });
      expect(tracker.providers).toEqual(["openai", "perplexity"]);
      const run = await runToEnd(agent.api, tracker.id);
      expect(run.status).toBe("completed");
      expect(run.answers).toEqual({ expected: 2 * 2 * 2, done: 8, failed: 0 });
      const trend = await agent.api.getTrackerTrend(tracker.id, { provider: "perplexity" });
      expect(trend.points.length).toBeGreaterThan(0);
      expect(trend.points.every((point) => point.provider === "perplexity")).toBe(true);
    } finally {
      await queue.stop();
    }
  });
});
