import { afterAll, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { resultToCsv, resultToJson } from "#src/core/export.ts";
import { startSimulator, type RequestLogEntry } from "#dev/simulators/index.ts";
import { SearchResults } from "#web/components/results/search-results.tsx";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * ADR 042: a search asked from somewhere gives each provider's web search tool
 * the approximate user location, through the real SDKs; a provider whose search takes none says so
 * on its card; the location is saved with the result, read back, and exported.
 */

const FROM_BERLIN = { country: "de", region: "Berlin", city: "Berlin", timezone: "europe/berlin" };
const SENT = { type: "approximate", country: "DE", region: "Berlin", city: "Berlin", timezone: "Europe/Berlin" };

type Tool = { type?: string; user_location?: unknown };

/** The search requests each provider received (not the extraction calls). */
function searchRequests(requests: readonly RequestLogEntry[], provider: ProviderId): RequestLogEntry[] {
  return requests.filter((entry) => entry.provider === provider && entry.kind === "search");
}

function webSearchTool(entry: RequestLogEntry | undefined): Tool | undefined {
  const tools = (entry?.body as { tools?: Tool[] } | undefined)?.tools ?? [];
  return tools.find((tool) => tool.type?.startsWith("web_search"));
}

describeEachDatabase("where the person is", (getDb) => {
  const simulators: Array<{ stop(): Promise<void> }> = [];
  afterAll(async () => {
    for (const simulator of simulators) await simulator.stop();
  });
  const ownSimulator = () => {
    const simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
    simulators.push(simulator);
    return simulator;
  };

  test("the location reaches OpenAI's and Anthropic's web search as the approximate user location, Perplexity's as its user_location; Gemini gets none and its card says its answer is not localised", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator });
    const { result } = await createAgent(app).api.search({ query: "best e-bike for commuting", iterations: 1, options: { location: FROM_BERLIN } });

    for (const id of ["openai", "anthropic"] as const) {
      const [request] = searchRequests(simulator.requests, id);
      expect({ id, userLocation: webSearchTool(request)?.user_location }).toEqual({ id, userLocation: SENT });
      expect(result.models[id]).toMatchObject({ status: "ok", location: "applied" });
      // The simulator answers as from there: its answer says so, with the local currency.
      expect(result.models[id]?.rawResponse).toContain("as seen from Berlin, Germany; prices in EUR");
    }
    // Perplexity's web_search takes country, region and city, without a type or a time zone.
    const [perplexity] = searchRequests(simulator.requests, "perplexity");
    expect(webSearchTool(perplexity)?.user_location).toEqual({ country: "DE", region: "Berlin", city: "Berlin" });
    expect(result.models.perplexity).toMatchObject({ status: "ok", location: "applied" });
    expect(result.models.perplexity?.rawResponse).toContain("as seen from Berlin, Germany; prices in EUR");
    const [gemini] = searchRequests(simulator.requests, "gemini");
    expect(gemini).toBeDefined();
    expect(JSON.stringify(gemini?.body)).not.toContain("Berlin");
    expect(result.models.gemini).toMatchObject({ status: "ok", location: "not supported" });
    expect(result.models.gemini?.rawResponse).not.toContain("as seen from");
    expect(result.options?.location).toEqual({ country: "DE", region: "Berlin", city: "Berlin", timezone: "Europe/Berlin" });

    // What the person reads: the header says where it was asked from; Gemini's card, that its answer is not localised.
    const page = renderToString(createElement(Router, { ssrPath: "/", children: createElement(SearchResults, { result, isPro: false }) })).replaceAll(
      "&#x27;",
      "'",
    );
    expect(page).toContain("Asked from Germany, Berlin");
    expect(page).toContain("Gemini's search does not take a location: its answer is not localised.");
    expect(page.match(/>Localised</g)).toHaveLength(3);
  });

  test("a search without a location sends none, and no card speaks of one", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator });
    const { result } = await createAgent(app).api.search({ query: "best e-bike for commuting", iterations: 1 });
    for (const id of ["openai", "anthropic", "perplexity"] as const)
      expect(webSearchTool(searchRequests(simulator.requests, id)[0])).not.toHaveProperty("user_location");
    for (const id of providerIds) expect(result.models[id]).not.toHaveProperty("location");
  });

  test("the location is saved with the result, read back with it, and exported: the JSON keeps it in the options, the CSV names it and says per provider whether it applied", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const { result } = await visitor.api.search({ query: "best coffee grinder", iterations: 1, options: { location: { country: "FR", city: "Lyon" } } });
    const saved: SavedSearchResult = await visitor.api.getSearch(result.id);
    expect(saved.options?.location).toEqual({ country: "FR", city: "Lyon" });
    expect(providerIds.map((id) => [id, saved.models[id]?.location])).toEqual([
      ["openai", "applied"],
      ["anthropic", "applied"],
      ["gemini", "not supported"],
      ["perplexity", "applied"],
    ]);

    expect(JSON.parse(resultToJson(saved)).options.location).toEqual({ country: "FR", city: "Lyon" });
    const rows = resultToCsv(saved).split("\r\n");
    expect(rows).toContain('Location,"France, Lyon"');
    // Location follows Error, before the cost columns (ADR 041).
    const header = rows.findIndex((row) => row.startsWith("Provider,Model,Model Version,Status,Simulated,Searched the Web,Error,Location,"));
    expect(header).toBeGreaterThan(0);
    expect(rows.slice(header + 1, header + 5).map((row) => row.split(",")[7])).toEqual(["applied", "applied", "not supported", "applied"]);
  });

  test("a location the providers cannot take is refused with 400 naming the field, before any provider is asked", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator });
    const visitor = createAgent(app);
    const refused = async (location: unknown) => {
      const response = await visitor.request("POST", "/api/search", { query: "best e-bike", options: { location } });
      return { status: response.status, json: response.json };
    };
    expect(await refused({ country: "Germany" })).toEqual({
      status: 400,
      json: { code: "INVALID_INPUT", message: 'location.country must be a two-letter ISO 3166-1 country code, such as DE, not "Germany"' },
    });
    expect(await refused({ country: "XX" })).toEqual({
      status: 400,
      json: { code: "INVALID_INPUT", message: 'location.country "XX" is not an ISO 3166-1 country code' },
    });
    expect((await refused({ city: "Berlin" })).json).toMatchObject({ code: "INVALID_INPUT", message: expect.stringContaining("location.country") });
    expect((await refused({ country: "DE", timezone: "Mars/Olympus" })).json).toMatchObject({ message: expect.stringContaining("location.timezone") });
    expect((await refused({ country: "DE", city: "  " })).json).toMatchObject({ message: expect.stringContaining("location.city") });
    expect((await refused({ country: "DE", region: "x".repeat(101) })).json).toMatchObject({ message: expect.stringContaining("location.region") });
    expect((await refused("Berlin")).status).toBe(400);
    expect(simulator.requests).toHaveLength(0);
  });
});

test("the simulators refuse a malformed user location as the real APIs do, so a wrong wire shape cannot pass unnoticed", async () => {
  const simulator = startSimulator({ latency: { kind: "fixed", ms: 1 } });
  try {
    const { default: OpenAI } = await import("openai");
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: simulator.baseUrls.openai, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: "sk-ant-test", baseURL: simulator.baseUrls.anthropic, maxRetries: 0 });
    const wrong = { type: "approximate" as const, country: "Germany" };
    const openaiError = await openai.responses
      .create({ model: "gpt-5-mini", input: "best e-bike", tools: [{ type: "web_search", user_location: wrong }] })
      .catch((error: unknown) => error);
    expect(openaiError).toMatchObject({ status: 400, message: expect.stringContaining("user_location.country") });
    const anthropicError = await anthropic.messages
      .create({
        model: "claude-sonnet-4-6",
        max_tokens: 100,
        messages: [{ role: "user", content: "best e-bike" }],
        tools: [{ type: "web_search_20250305", name: "web_search", user_location: wrong }],
      })
      .catch((error: unknown) => error);
    expect(anthropicError).toMatchObject({ status: 400, message: expect.stringContaining("user_location.country") });
  } finally {
    await simulator.stop();
  }
});
