import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { searches } from "#db/schema.ts";
import { perProvider, providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { SearchStreamEvent } from "#src/client/api.ts";
import { modelOf } from "#src/contract/search-result.ts";
import { sweepAbandoned } from "#src/server/services/search/abandoned.ts";
import { HEARTBEAT_MS, leaseOf } from "#src/server/services/search/instances.ts";
import type { App } from "#src/server/app.ts";
import { DEMO_NOISE, startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { csvField, resultToCsv, resultToJson } from "#src/core/export.ts";
import { nameKey } from "#src/core/names.ts";
import { askedNote, readNote } from "#src/core/method.ts";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import { SearchResults, type ResultsTab } from "#web/components/results/search-results.tsx";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { waitFor } from "#tests/support/wait.ts";
import { createTestApp, liveProviderEnv, useSimulatedDatabase } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

describeEachDatabase("search: run, save, history", (getDb) => {
  test("a search returns three simulated model results with products, companies and cited sources, and is saved in the caller's history", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const { result } = await visitor.api.search({ query: "best running shoes", iterations: 1 });

    for (const id of providerIds) {
      const model = result.models[id];
      if (!model) throw new Error(`no answer from ${id}`);
      expect(model.status).toBe("ok");
      expect(model.simulated).toBe(true);
      expect(model.products.length).toBeGreaterThan(0);
      expect(model.companies.length).toBeGreaterThan(0);
      expect(model.sources.some((s) => s.cited)).toBe(true);
      expect(model.searched).toBe(true);
      expect(model.modelVersion.length).toBeGreaterThan(0);
    }
    expect(result.totalProducts).toBeGreaterThan(0);
    expect(result.iterationCount).toBe(1);

    const history = await visitor.api.listSearches();
    expect(history.searches.map((s) => s.id)).toEqual([result.id]);
    expect(history.searches[0]).toMatchObject({
      query: "best running shoes",
      totalProducts: result.totalProducts,
      totalLinks: result.totalLinks,
      iterationCount: 1,
    });
    const saved = await visitor.api.getSearch(result.id);
    expect(saved.models.openai?.products).toEqual(result.models.openai?.products);
    expect(saved.createdAt).toBeString();
    // Where the answer first names each product is saved with it, for "show where it says that".
    const openai = saved.models.openai;
    const shown = openai?.products.map((p) => (p.mention ? openai.rawResponse?.slice(p.mention.start, p.mention.end) : undefined));
    expect(shown).toEqual(openai?.products.map((p) => p.name));
    expect(openai?.products.map((p) => p.mention?.order).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(openai?.products.map((_, i) => i + 1));

    const [row] = await getDb().db.select().from(searches).where(eq(searches.id, result.id));
    expect(row).toMatchObject({
      status: "completed",
      simulated: true,
      totalProducts: result.totalProducts,
      totalCompanies: result.totalCompanies,
      totalLinks: result.totalLinks,
    });
  });

  test("a saved search belongs to its owner: another visitor gets 404 and does not see it listed", async () => {
    const { app } = await createTestApp(getDb());
    const owner = createAgent(app);
    const stranger = createAgent(app);
    const {
      result: { id },
    } = await owner.api.search({ query: "best password manager" });
    const read = await stranger.request("GET", `/api/search/${id}`);
    expect(read.status).toBe(404);
    expect(read.json).toEqual({ code: "NOT_FOUND", message: "Search not found" });
    // Same answer as for an id that never existed: no existence leak.
    expect((await stranger.request("GET", "/api/search/00000000-0000-4000-8000-000000000000")).json).toEqual({
      code: "NOT_FOUND",
      message: "Search not found",
    });
    expect((await stranger.api.listSearches()).searches).toEqual([]);
  });

  test("history is newest first and pages with limit and a cursor", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const ids: string[] = [];
    for (const query of ["best vpn", "best crm", "best laptop for programming"]) ids.push((await visitor.api.search({ query })).result.id);
    const first = await visitor.api.listSearches({ limit: 2 });
    expect(first.searches.map((s) => s.id)).toEqual(ids.slice(1).reverse());
    expect(first.nextCursor).toBeString();
    const second = await visitor.api.listSearches({ limit: 2, before: first.nextCursor });
    expect(second.searches.map((s) => s.id)).toEqual(ids.slice(0, 1));
    expect(second.nextCursor).toBeUndefined();
  });

  test("25 iterations give per-provider frequencies whose counts add up, with 95% intervals", async () => {
    const { app } = await createTestApp(getDb());
    // Iterations above 1 are Pro (tests/integration/quota.test.ts).
    const { agent: pro } = await createProAgent(app, getDb());
    const { result } = await pro.api.search({ query: "best noise cancelling headphones", iterations: 25 });
    expect(result.iterationCount).toBe(25);
    for (const id of providerIds) {
      const stats = result.stats[id];
      if (!stats) throw new Error(`no stats for ${id}`);
      expect(stats.iterations + stats.failedIterations).toBe(25);
      expect(stats.topProductsPerRun.length).toBe(stats.iterations);
      for (const f of [...stats.productFrequencies, ...stats.companyFrequencies, ...stats.sourceFrequencies]) {
        expect(f.count).toBeGreaterThan(0);
        expect(f.count).toBeLessThanOrEqual(stats.iterations);
        expect(f.percentage).toBeCloseTo((f.count / stats.iterations) * 100, 1);
        expect(f.low).toBeLessThanOrEqual(f.percentage);
        expect(f.high).toBeGreaterThanOrEqual(f.percentage);
      }
      // Frequencies differ between products: the simulated models do not answer identically.
      expect(new Set(stats.productFrequencies.map((f) => f.count)).size).toBeGreaterThan(1);
    }
  });

  test("a search saved in the first format (schema version 1, one key per provider) still loads, in the same JSON (its totals and overlaps restated), and its page renders", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const { id: userId } = await signUp(visitor, getDb());
    // Saved by the product before results were keyed by provider id (tests/fixtures/saved-result-v1.json).
    const { id: _, createdAt: __, ...v1 } = JSON.parse(readFileSync(join(import.meta.dir, "../fixtures/saved-result-v1.json"), "utf8"));
    const [row] = await getDb()
      .db.insert(searches)
      .values({
        userId,
        query: v1.query,
        iterations: v1.iterationCount,
        options: v1.options,
        status: "completed",
        result: v1,
        totalProducts: v1.totalProducts,
        totalCompanies: v1.totalCompanies,
        totalLinks: v1.totalLinks,
        iterationCount: v1.iterationCount,
      })
      .returning();
    if (!row) throw new Error("no row");

    const read = await visitor.request("GET", `/api/search/${row.id}`);
    expect(read.status).toBe(200);
    // The same JSON but for its totals and overlaps, restated by today's rule (ADR 028): they count
    // every item of its 3 iterations, as its tabs list them, where it had saved the shown answers';
    // and its cost, worked out as it is read (ADR 041): its simulated answers cost $0, and say so.
    const restated = ["totalProducts", "totalCompanies", "totalLinks", "commonProducts", "commonCompanies", "commonSources", "cost"];
    const rest = (json: Record<string, unknown>) => Object.fromEntries(Object.entries(json).filter(([key]) => !restated.includes(key)));
    const names = (items: Array<{ name?: string; url?: string }>) => items.map((item) => item.name ?? item.url ?? "");
    const json = read.json as Record<string, any>;
    expect(rest(json)).toEqual(rest({ ...v1, id: row.id, createdAt: row.createdAt.toISOString() }));
    expect([json.totalProducts, json.totalCompanies, json.totalLinks]).toEqual([12, 9, 10]);
    expect(json.cost.total).toEqual({ usd: 0, searchTokensUsd: 0, searchesUsd: 0, readingUsd: 0, simulated: true });
    for (const key of ["commonProducts", "commonCompanies", "commonSources"]) expect(names(json[key])).toEqual(expect.arrayContaining(names(v1[key])));

    const saved = await visitor.api.getSearch(row.id);
    expect(saved.schemaVersion).toBe(2);
    expect(Object.keys(saved.models)).toEqual(["openai", "anthropic", "gemini"]);
    expect(saved.models.openai?.products).toEqual(v1.openai.products);
    expect(saved.stats.gemini).toEqual(v1.geminiAggregatedStats);
    // Asked the old way (the query plus instructions for a JSON list), and it says so (ADR 039).
    for (const model of Object.values(saved.models)) {
      expect(model.asked).toBeUndefined();
      expect(askedNote(model)).toContain("the query followed by instructions to end the answer with a JSON list");
      if (model.status === "ok") expect(readNote(model)).toBe("Products and companies read from the JSON list at the end of the answer.");
    }
    expect(saved.commonProducts.map((item) => item.name)).toEqual(names(json.commonProducts));
    // The history, which had its saved counts, now says what its page does.
    expect((await visitor.api.listSearches()).searches).toEqual([
      expect.objectContaining({ id: row.id, totalProducts: 12, totalCompanies: 9, totalLinks: 10 }),
    ]);

    const page = await visitor.fetch(`http://localhost/search/${row.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(v1.query);
    expect(html).toContain(v1.openai.products[0].name);
  });

  test("a search left running by a crash is marked interrupted at the next start", async () => {
    const db = getDb().db;
    // Written before instances had leases: no instance id, so nobody alive runs it.
    const [row] = await db.insert(searches).values({ anonymousId: "crashed", query: "q", iterations: 1 }).returning();
    expect(await sweepAbandoned(db, leaseOf(HEARTBEAT_MS))).toBeGreaterThanOrEqual(1);
    const [after] = await db
      .select()
      .from(searches)
      .where(eq(searches.id, row?.id ?? ""));
    expect(after?.status).toBe("interrupted");
  });
});

describe("search: providers, faults, cancel, streaming", () => {
  const fx = useSimulatedDatabase();
  const app = async () => (await createTestApp(fx.db, { simulator: fx.sim })).app;
  const quickTimeout = { retries: 1, baseDelayMs: 5, maxDelayMs: 20, callTimeoutMs: 300 };

  test("GET /api/status reports each provider connected and how it runs, once its model was checked", async () => {
    const { app, providerStatus } = await createTestApp(fx.db, { simulator: fx.sim });
    await providerStatus.checkNow();
    const status = await createAgent(app).api.status();
    const checked = perProvider((id) => status.providers[id].checkedAt ?? "");
    expect(status).toEqual({
      ...perProvider(() => true),
      modes: perProvider(() => "simulated"),
      providers: perProvider((id) => ({
        state: "connected",
        label: "Simulated",
        message: `${providerConfig[id].env.apiKey} is not set: answers come from a local simulator and are labelled Simulated.`,
        checkedAt: checked[id],
        model: providerConfig[id].defaultModel,
        extraction: { provider: id, model: providerConfig[id].defaultExtractionModel },
      })),
      billing: "simulated",
    });
    for (const id of providerIds) expect(Date.parse(checked[id])).toBeGreaterThan(0);
  });

  test("with keys and base URLs pointing at a wire-compatible server, the live adapters extract products, companies and every cited URL", async () => {
    const { app: live } = await createTestApp(fx.db, {
      simulator: fx.sim,
      // Every provider gets a key and a base URL, under the names the catalogue gives them.
      env: liveProviderEnv(fx.sim),
    });
    const visitor = createAgent(live);
    expect((await visitor.api.status()).modes).toEqual(perProvider(() => "live"));
    const before = fx.sim.requests.length;
    const { result } = await visitor.api.search({ query: "best crm for startups" });
    for (const id of providerIds) {
      expect(result.models[id]?.simulated).toBe(false);
      expect(result.models[id]?.products.length).toBeGreaterThan(0);
      expect(result.models[id]?.companies.length).toBeGreaterThan(0);
    }
    // Every URL the providers cited is in the result (Gemini's redirects resolved to their targets).
    const answered = fx.sim.requests.slice(before);
    expect(
      answered
        .filter((r) => r.kind === "search")
        .map((r) => r.provider)
        .sort(),
    ).toEqual([...providerIds].sort());
    for (const source of modelOf(result, "gemini").sources) expect(source.url).not.toContain("grounding-api-redirect");
    expect(result.models.gemini?.sources.every((s) => s.url.startsWith("https://"))).toBe(true);
  });

  const providerErrors = [
    { kind: "server_error" as const, status: "500" },
    { kind: "overloaded" as const, status: "5" },
    { kind: "malformed_json" as const, status: "" },
    { kind: "connection_reset" as const, status: "" },
  ];
  for (const { kind } of providerErrors) {
    test(`a provider that keeps failing (${kind}) gets an error card; the others answer and the search is saved`, async () => {
      fx.sim.setFaults("anthropic", [{ kind }], { persistent: true });
      try {
        const visitor = createAgent(await app());
        const { result } = await visitor.api.search({ query: "best standing desk" });
        expect(result.models.anthropic?.status).toBe("error");
        expect(result.models.anthropic?.error).toBeString();
        expect(result.models.anthropic?.products).toEqual([]);
        expect(result.models.openai?.status).toBe("ok");
        expect(result.models.gemini?.status).toBe("ok");
        expect((await visitor.api.getSearch(result.id)).models.anthropic?.status).toBe("error");
      } finally {
        fx.sim.clearFaults();
      }
    });
  }

  test("a provider that hangs times out into an error card without holding the others back", async () => {
    fx.sim.setFaults("gemini", [{ kind: "timeout" }], { persistent: true });
    try {
      const { app: quick } = await createTestApp(fx.db, { simulator: fx.sim, retry: quickTimeout });
      const { result } = await createAgent(quick).api.search({ query: "best robot vacuum" });
      expect(result.models.gemini?.status).toBe("error");
      expect(result.models.gemini?.error).toContain("timed out");
      expect(result.models.openai?.status).toBe("ok");
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("429 with retry-after and a 529 are retried, and the provider then answers", async () => {
    fx.sim.setFaults("openai", [{ kind: "rate_limit", retryAfterSeconds: 0 }]);
    fx.sim.setFaults("anthropic", [{ kind: "overloaded" }]);
    try {
      const before = fx.sim.requests.length;
      const { result } = await createAgent(await app()).api.search({ query: "best coffee machine" });
      expect(result.models.openai?.status).toBe("ok");
      expect(result.models.anthropic?.status).toBe("ok");
      const calls = fx.sim.requests.slice(before).filter((r) => r.kind === "search");
      expect(calls.filter((r) => r.provider === "openai").length).toBe(2);
      expect(calls.filter((r) => r.provider === "anthropic").length).toBe(2);
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("an answer given without searching is flagged and has no sources", async () => {
    fx.sim.setFaults("openai", [{ kind: "no_search" }]);
    try {
      const { result } = await createAgent(await app()).api.search({ query: "best electric car" });
      expect(result.models.openai?.searched).toBe(false);
      expect(result.models.openai?.sources).toEqual([]);
      expect(result.models.openai?.status).toBe("ok");
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("an answer in plain prose is read by the extraction call on the provider's small model, per provider", async () => {
    const before = fx.sim.requests.length;
    const { result } = await createAgent(await app()).api.search({ query: "best note taking app" });
    for (const id of providerIds) {
      expect({ id, extraction: result.models[id]?.extraction }).toEqual({ id, extraction: "extractor" });
      expect(result.models[id]?.products.length).toBeGreaterThan(0);
      expect(result.models[id]?.rawResponse).toBeString();
      const calls = fx.sim.requests.slice(before).filter((request) => request.provider === id);
      expect(calls.map((request) => request.kind)).toEqual(["search", "extraction"]);
    }
  });

  test("Anthropic's pause_turn is continued until the answer is complete", async () => {
    fx.sim.setFaults("anthropic", [{ kind: "pause_turn" }]);
    try {
      const before = fx.sim.requests.length;
      const { result } = await createAgent(await app()).api.search({ query: "best web hosting" });
      expect(result.models.anthropic?.status).toBe("ok");
      expect(result.models.anthropic?.products.length).toBeGreaterThan(0);
      expect(fx.sim.requests.slice(before).filter((r) => r.provider === "anthropic" && r.kind === "search").length).toBe(2);
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("when every provider fails the search fails with a message and is saved as failed", async () => {
    for (const id of providerIds) fx.sim.setFaults(id, [{ kind: "server_error" }], { persistent: true });
    try {
      const visitor = createAgent(await app());
      const response = await visitor.request("POST", "/api/search", { query: "best mattress" });
      expect(response.status).toBe(502);
      expect((response.json as { message: string }).message).toStartWith("Search failed");
      expect((await visitor.api.listSearches()).searches).toEqual([]);
    } finally {
      fx.sim.clearFaults();
    }
  });

  /** Providers that take 10 s to answer, and a visitor who has its anonymous id cookie (so its later calls are the same caller). */
  async function withSlowProviders(run: (slow: Simulator, slowApp: App, visitor: ReturnType<typeof createAgent>) => Promise<void>) {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 10_000 } });
    try {
      const { app: slowApp } = await createTestApp(fx.db, { simulator: slow });
      const visitor = createAgent(slowApp);
      await visitor.api.status();
      await run(slow, slowApp, visitor);
    } finally {
      await slow.stop();
    }
  }

  test("POST /api/cancel-search aborts the caller's search: the simulator sees every connection close, long before any answer", async () => {
    await withSlowProviders(async (slow, _, visitor) => {
      const pending = visitor.request("POST", "/api/search", { query: "best vpn" });
      await waitFor(() => slow.requests.length === providerIds.length);
      expect((await visitor.api.cancelSearch()).cancelled).toBe(true);
      const response = await pending;
      expect(response.status).toBe(409);
      // A cancelled search is given back.
      expect(response.json).toEqual({ code: "SEARCH_CANCELLED", message: "Search cancelled", remainingSearches: 5 });
      // Every provider's connection closed before its answer was sent (the simulator records only
      // those); how fast is bench/cancel.ts's to measure, not a test's.
      await waitFor(() => slow.aborts.length === providerIds.length);
      expect(slow.aborts.map((abort) => abort.provider).sort()).toEqual([...providerIds].sort());
    });
  });

  test("a client that goes away cancels its search, and a new search by the same caller cancels the previous one", async () => {
    await withSlowProviders(async (slow, slowApp, visitor) => {
      const controller = new AbortController();
      const gone = slowApp.handle(
        new Request("http://localhost/api/search", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "best crm" }),
          signal: controller.signal,
        }),
      );
      await waitFor(() => slow.requests.length === providerIds.length);
      controller.abort();
      await gone.catch(() => undefined);
      await waitFor(() => slow.aborts.length === providerIds.length);

      const first = visitor.request("POST", "/api/search", { query: "best laptop" });
      await waitFor(() => slow.requests.length === 2 * providerIds.length);
      const second = visitor.request("POST", "/api/search", { query: "best 3d printer" });
      expect((await first).status).toBe(409);
      await waitFor(() => slow.aborts.length === 2 * providerIds.length);
      await visitor.api.cancelSearch();
      expect((await second).status).toBe(409);
    });
  });

  test("the streaming form reports started, per-iteration progress, each provider's first result, and done with the saved id", async () => {
    const { agent: visitor } = await createProAgent(await app(), fx.db);
    const events: SearchStreamEvent[] = [];
    for await (const event of visitor.api.searchStream({ query: "best smartphone", iterations: 5 })) events.push(event);
    expect(events[0]?.type).toBe("started");
    const last = events.at(-1);
    expect(last?.type).toBe("done");
    for (const id of providerIds) {
      const progress = events.filter((e) => e.type === "progress" && e.provider === id);
      expect(progress.map((e) => (e.type === "progress" ? e.completed + e.failed : 0))).toEqual([1, 2, 3, 4, 5]);
      const firstResult = events.findIndex((e) => e.type === "result" && e.provider === id);
      const firstProgress = events.findIndex((e) => e.type === "progress" && e.provider === id);
      expect(firstResult).toBe(firstProgress + 1);
    }
    if (last?.type !== "done") throw new Error("no done event");
    expect((await visitor.api.getSearch(last.result.id)).iterationCount).toBe(5);
  });

  test("bad input to every search endpoint is a 4xx with a message, never a 500", async () => {
    const visitor = createAgent(await app());
    const bad: Array<[string, string, unknown]> = [
      ["POST", "/api/search", undefined],
      ["POST", "/api/search", "{not json"],
      ["POST", "/api/search", []],
      ["POST", "/api/search", "just a string"],
      ["POST", "/api/search", {}],
      ["POST", "/api/search", { query: "   " }],
      ["POST", "/api/search", { query: 42 }],
      ["POST", "/api/search", { query: "x".repeat(501) }],
      ["POST", "/api/search", { query: "ok", iterations: 0 }],
      ["POST", "/api/search", { query: "ok", iterations: 101 }],
      ["POST", "/api/search", { query: "ok", iterations: 2.5 }],
      ["POST", "/api/search", { query: "ok", iterations: "many" }],
      ["POST", "/api/search", { query: "ok", options: { openaiContextSize: "huge" } }],
      ["POST", "/api/search", { query: "ok", options: { anthropicMaxUses: 0 } }],
      ["POST", "/api/search", { query: "ok", options: { geminiThreshold: 2 } }],
      ["POST", "/api/search", { query: "ok", options: "fast" }],
      ["POST", "/api/search/stream", { query: "" }],
      ["GET", "/api/search/not-a-uuid", undefined],
      ["GET", "/api/user/searches?limit=0", undefined],
      ["GET", "/api/user/searches?limit=101", undefined],
      ["GET", "/api/user/searches?limit=abc", undefined],
      ["GET", "/api/user/searches?before=yesterday", undefined],
    ];
    for (const [method, path, body] of bad) {
      const response = await visitor.request(method, path, body);
      const outcome = {
        method,
        path,
        body,
        status: response.status,
        hasMessage: typeof (response.json as { message?: unknown } | undefined)?.message === "string",
      };
      expect(outcome).toMatchObject({ hasMessage: true });
      expect(outcome.status).toBeGreaterThanOrEqual(400);
      expect(outcome.status).toBeLessThan(500);
    }
    expect((await visitor.request("POST", "/api/search", { query: "  " })).json).toEqual({ code: "INVALID_INPUT", message: "Search query is required" });
  });
});

describe("search: what a multi-iteration result lists (ADR 028)", () => {
  const fx = useSimulatedDatabase();

  test("25 iterations with noise: the header's totals are the lengths of the Products, Companies and All Links tabs, every item of the frequency analysis is in its tab and in the exports, and the history says the same", async () => {
    // Its own simulator with the demo's noise, so that iterations differ the way real models do.
    const sim = startSimulator({ latency: { kind: "fixed", ms: 2 }, noise: DEMO_NOISE, seed: 2821 });
    try {
      const { app } = await createTestApp(fx.db, { simulator: sim });
      const { agent: pro } = await createProAgent(app, fx.db);
      const { result: searched } = await pro.api.search({ query: "best crm for startups", iterations: 25 });
      const result = await pro.api.getSearch(searched.id);

      // What a person reads on the result's tabs (rendered as the page renders them): each row's name.
      const tab = (name: ResultsTab) =>
        renderToString(createElement(Router, { ssrPath: "/", children: createElement(SearchResults, { result, isPro: true, defaultTab: name }) }));
      const rowNames = (html: string, testId: string, first = />([^<>]+)</) =>
        html
          .split(`data-testid="${testId}"`)
          .slice(1)
          .map((row) => nameKey(decode(first.exec(row)?.[1] ?? "")));
      const products = rowNames(tab("products"), "aggregated-product");
      const companies = rowNames(tab("companies"), "aggregated-company");
      const links = rowNames(tab("links"), "aggregated-source", /<span class="truncate">([^<]+)</);
      expect([products.length, companies.length, links.length]).toEqual([result.totalProducts, result.totalCompanies, result.totalLinks]);
      // …and what the search's own frequency analysis shows, each findable there and in the CSV's list for its provider.
      const csvRows = resultToCsv(result).split("\r\n");
      const inCsv = (section: string, column: string, name: string) => {
        const rows = csvRows.slice(csvRows.indexOf(section) + 2);
        return rows.slice(0, rows.indexOf("")).some((row) => row.startsWith(`${column},`) && row.includes(`,${csvField(name)}`));
      };
      let beyondTheCards = 0;
      for (const id of providerIds) {
        const stats = result.stats[id];
        if (!stats) throw new Error(`no frequencies for ${id}`);
        const column = providerCatalogue[id].column;
        const shown = new Set(modelOf(result, id).products.map((p) => nameKey(p.name)));
        for (const { name } of stats.productFrequencies) {
          if (!shown.has(nameKey(name))) beyondTheCards++;
          expect({ name, listed: products.includes(nameKey(name)), inCsv: inCsv("Products", column, name) }).toEqual({ name, listed: true, inCsv: true });
        }
        for (const { name } of stats.companyFrequencies)
          expect({ name, listed: companies.includes(nameKey(name)), inCsv: inCsv("Companies", column, name) }).toEqual({ name, listed: true, inCsv: true });
        for (const { name } of stats.sourceFrequencies) expect({ name, listed: links.includes(nameKey(name)) }).toEqual({ name, listed: true });
      }
      // The case this is about: products that came back in some iterations but not in the shown answers.
      expect(beyondTheCards).toBeGreaterThan(0);
      // The exports and the history count the same.
      expect(csvRows).toContain(`Total Products,${result.totalProducts}`);
      expect(csvRows).toContain(`Total Companies,${result.totalCompanies}`);
      expect(csvRows).toContain(`Total Links,${result.totalLinks}`);
      const json = JSON.parse(resultToJson(result));
      expect([json.totalProducts, json.totalCompanies, json.totalLinks]).toEqual([result.totalProducts, result.totalCompanies, result.totalLinks]);
      expect([searched.totalProducts, searched.totalCompanies, searched.totalLinks]).toEqual([result.totalProducts, result.totalCompanies, result.totalLinks]);
      const [listed] = (await pro.api.listSearches()).searches;
      expect(listed).toMatchObject({
        id: result.id,
        totalProducts: result.totalProducts,
        totalCompanies: result.totalCompanies,
        totalLinks: result.totalLinks,
      });
    } finally {
      await sim.stop();
    }
  });
});

function decode(text: string): string {
  return text
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

describe("search: an answer the provider cut short", () => {
  const fx = useSimulatedDatabase();

  test("each provider's cut answer is saved with what its finish signal means and the signal itself; the API and the JSON export still give the signal alone", async () => {
    // Every answer has a quirk of real models; about one in eleven is cut off, with each API's own finish signal.
    const sim = startSimulator({ latency: { kind: "fixed", ms: 0 }, noise: 1, seed: 7 });
    try {
      const { app } = await createTestApp(fx.db, { simulator: sim });
      const { agent: pro } = await createProAgent(app, fx.db);
      const expected = { openai: "max_output_tokens", anthropic: "max_tokens", gemini: "MAX_TOKENS", perplexity: "max_output_tokens" };
      const seen = new Set<string>();
      for (let i = 0; i < 80 && seen.size < providerIds.length; i++) {
        const { result } = await pro.api.search({ query: "best robot vacuum", iterations: 1 });
        const [row] = await fx.db.db.select().from(searches).where(eq(searches.id, result.id));
        const stored = row?.result as { models: Record<string, { truncated?: unknown }> };
        const read = await pro.api.getSearch(result.id);
        const sent = (await pro.request("GET", `/api/search/${result.id}`)).json as Record<string, { truncated?: unknown }>;
        const exported = JSON.parse(resultToJson(read));
        for (const id of providerIds) {
          const cut = stored.models[id]?.truncated;
          if (cut === undefined) continue;
          seen.add(id);
          expect(cut).toEqual({ kind: "length", signal: expected[id] });
          expect(read.models[id]?.truncated).toEqual({ kind: "length", signal: expected[id] });
          expect([sent[id]?.truncated, exported[id].truncated]).toEqual([expected[id], expected[id]]);
        }
      }
      expect([...seen].sort()).toEqual([...providerIds].sort());
    } finally {
      await sim.stop();
    }
  });
});
