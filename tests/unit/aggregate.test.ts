import { describe, expect, test } from "bun:test";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import type { ModelResult, SearchResult } from "#src/contract/search-result.ts";
import { toWireResult } from "#src/contract/search-wire.ts";
import { modelResult } from "#tests/support/results.ts";
import {
  aggregateCompanies,
  aggregateProducts,
  aggregateSources,
  buildSearchResult,
  listedCompanies,
  listedProducts,
  listedSources,
  providerItems,
  returnedCounts,
  stabilitySummary,
  withListedTotals,
} from "#src/core/aggregate.ts";

const result = (provider: ProviderId, parts: Partial<ModelResult> = {}): ModelResult => modelResult(provider, { simulated: true, ...parts });

const failed = (provider: ProviderId): ModelResult => result(provider, { status: "error", searched: false, extraction: "none", error: "429: rate limited" });

const openai = result("openai", {
  products: [
    { name: "Sony WH-1000XM6", rank: 1, details: "Best overall" },
    { name: "Bose QuietComfort Ultra", rank: 2 },
    { name: "Apple AirPods Max", rank: 3 },
  ],
  companies: [{ name: "Sony", products: ["Sony WH-1000XM6"] }, { name: "Bose" }, { name: "Apple", products: ["AirPods Max"] }],
  sources: [
    { url: "https://www.rtings.com/headphones/best?utm_source=openai", title: "Best headphones", cited: true },
    { url: "https://www.theverge.com/headphones", cited: true },
  ],
});
const anthropic = result("anthropic", {
  products: [
    { name: "Bose QuietComfort Ultra", rank: 1, details: "Most comfortable" },
    { name: "sony wh-1000xm6", rank: 2, details: "Great ANC" },
    { name: "Sennheiser Momentum 4" },
  ],
  companies: [{ name: "bose", products: ["QuietComfort Ultra"] }, { name: "SONY", products: ["WH-1000XM6"] }, { name: "Sennheiser" }],
  sources: [
    { url: "https://www.rtings.com/headphones/best/", cited: true },
    { url: "https://www.soundguys.com/best", cited: false },
  ],
});
const gemini = result("gemini", {
  products: [
    { name: "Sennheiser Momentum 4", rank: 1 },
    { name: "Apple AirPods Max", rank: 2 },
    { name: "Sony WH-1000XM6", rank: 3 },
    { name: "Anker Soundcore Space One" },
  ],
  companies: [{ name: "Sennheiser" }, { name: "Apple" }, { name: "Sony" }, { name: "Anker" }],
  sources: [
    { url: "https://www.soundguys.com/best#top", title: "SoundGuys", cited: true },
    { url: "https://www.rtings.com/headphones/best", cited: true },
  ],
});

describe("aggregateProducts (spec §4)", () => {
  test("sorted by number of models desc, then best rank asc with missing = 999, then name", () => {
    const products = aggregateProducts({ openai, anthropic, gemini });
    expect(products.map((p) => [p.name, p.count, p.rank])).toEqual([
      ["Sony WH-1000XM6", 3, 1],
      ["Bose QuietComfort Ultra", 2, 1],
      ["Sennheiser Momentum 4", 2, 1],
      ["Apple AirPods Max", 2, 2],
      ["Anker Soundcore Space One", 1, undefined],
    ]);
  });

  test("merged case-insensitively with the models that returned it and the first details", () => {
    const sony = aggregateProducts({ openai, anthropic, gemini })[0];
    expect(sony).toEqual({ name: "Sony WH-1000XM6", rank: 1, details: "Best overall", models: ["openai", "anthropic", "gemini"], count: 3 });
  });

  test("a product without rank sorts after ranked ones among equals, as rank 999", () => {
    const products = aggregateProducts({
      openai: result("openai", { products: [{ name: "Zed" }, { name: "Atom", rank: 998 }, { name: "Brackets" }] }),
    });
    expect(products.map((p) => p.name)).toEqual(["Atom", "Brackets", "Zed"]);
  });

  test("a missing provider contributes nothing", () => {
    expect(aggregateProducts({ gemini }).every((p) => p.models.length === 1 && p.models[0] === "gemini")).toBe(true);
  });
});

describe("aggregateCompanies", () => {
  test("merged case-insensitively, products united, sorted by models desc then name", () => {
    expect(aggregateCompanies({ openai, anthropic, gemini })).toEqual([
      { name: "Sony", products: ["Sony WH-1000XM6", "WH-1000XM6"], models: ["openai", "anthropic", "gemini"], count: 3 },
      { name: "Apple", products: ["AirPods Max"], models: ["openai", "gemini"], count: 2 },
      { name: "Bose", products: ["QuietComfort Ultra"], models: ["openai", "anthropic"], count: 2 },
      { name: "Sennheiser", products: [], models: ["anthropic", "gemini"], count: 2 },
      { name: "Anker", products: [], models: ["gemini"], count: 1 },
    ]);
  });
});

describe("aggregateSources", () => {
  test("merged by normalised URL, shown normalised, first title kept", () => {
    const sources = aggregateSources({ openai, anthropic, gemini });
    expect(sources[0]).toEqual({
      url: "https://www.rtings.com/headphones/best",
      title: "Best headphones",
      models: ["openai", "anthropic", "gemini"],
      count: 3,
    });
    expect(sources[1]).toEqual({ url: "https://www.soundguys.com/best", title: "SoundGuys", models: ["anthropic", "gemini"], count: 2 });
    expect(sources).toHaveLength(3);
  });
});

describe("buildSearchResult", () => {
  // Asserted in the spec's JSON (one key per provider, per-provider flags), which the API sends.
  const wire = toWireResult;
  // The results here have the three providers the catalogue had first: the wire flags those it has (providersOf).
  const returnedBy = (...ids: ProviderId[]) =>
    Object.fromEntries((["openai", "anthropic", "gemini"] as const).map((id) => [id, ids.includes(id)])) as Record<ProviderId, boolean>;

  test("keys each provider's answer, frequencies and overlaps by provider id", () => {
    const built = buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 2, runs: { openai: [openai, openai], gemini: [gemini] } });
    expect(Object.keys(built.models)).toEqual(["openai", "gemini"]);
    expect(Object.keys(built.stats)).toEqual(["openai", "gemini"]);
    expect(built.commonProducts).toContainEqual({ name: "Sony WH-1000XM6", models: ["openai", "gemini"] });
    expect(built.schemaVersion).toBe(2);
  });

  test("one iteration with a failed provider: overlaps and totals over what came back, no stats", () => {
    const built = wire(
      buildSearchResult({
        query: "best headphones",
        executionTimeMs: 4321,
        iterations: 1,
        runs: { openai: [openai], anthropic: [failed("anthropic")], gemini: [gemini] },
      }),
    );
    expect(built.anthropic?.status).toBe("error");
    expect(built.anthropic?.error).toBe("429: rate limited");
    expect(built.commonProducts).toEqual([
      { name: "Sony WH-1000XM6", ...returnedBy("openai", "gemini") },
      { name: "Apple AirPods Max", ...returnedBy("openai", "gemini") },
    ]);
    expect(built.commonCompanies.map((c) => c.name)).toEqual(["Apple", "Sony"]);
    expect(built.commonSources).toEqual([{ url: "https://www.rtings.com/headphones/best", ...returnedBy("openai", "gemini") }]);
    expect(built).toMatchObject({ query: "best headphones", executionTimeMs: 4321, iterationCount: 1, totalProducts: 5, totalCompanies: 5, totalLinks: 3 });
    expect(built.openaiAggregatedStats).toBeUndefined();
    expect(built.geminiAggregatedStats).toBeUndefined();
  });

  test("a provider with no runs at all shows as off", () => {
    const built = wire(buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 1, runs: { openai: [openai], anthropic: [], gemini: [gemini] } }));
    expect(built.anthropic).toMatchObject({ provider: "anthropic", status: "off", products: [], sources: [] });
  });

  test("several iterations: the first ok run is shown, stats cover ok runs only", () => {
    const run = (names: string[], urls: string[] = []) =>
      result("openai", { products: names.map((name, i) => ({ name, rank: i + 1 })), sources: urls.map((url) => ({ url, cited: true })) });
    const openaiRuns = [
      failed("openai"),
      run(["Sony WH-1000XM6", "Bose QuietComfort Ultra", "Apple AirPods Max"], ["https://rtings.com/a?utm_source=openai"]),
      run(["Bose QuietComfort Ultra", "sony wh-1000xm6", "Apple AirPods Max"], ["https://rtings.com/a/"]),
      run(["Sony WH-1000XM6", "Sennheiser Momentum 4", "Bose QuietComfort Ultra"], ["https://soundguys.com/b"]),
      failed("openai"),
    ];
    const built = wire(
      buildSearchResult({
        query: "best headphones",
        executionTimeMs: 60000,
        iterations: 5,
        runs: { openai: openaiRuns, anthropic: [failed("anthropic"), failed("anthropic")], gemini: [gemini, gemini] },
      }),
    );

    expect(built.iterationCount).toBe(5);
    expect<unknown>(built.openai).toBe(openaiRuns[1]!);
    const stats = built.openaiAggregatedStats!;
    expect(stats.iterations).toBe(3);
    expect(stats.failedIterations).toBe(2);
    expect(stats.productFrequencies.map((f) => [f.name, f.count, f.percentage])).toEqual([
      ["Bose QuietComfort Ultra", 3, 100],
      ["Sony WH-1000XM6", 3, 100],
      ["Apple AirPods Max", 2, 66.7],
      ["Sennheiser Momentum 4", 1, 33.3],
    ]);
    expect(stats.sourceFrequencies.map((f) => [f.name, f.count])).toEqual([
      ["https://rtings.com/a", 2],
      ["https://soundguys.com/b", 1],
    ]);
    expect(stats.topProductsPerRun).toEqual([
      ["Sony WH-1000XM6", "Bose QuietComfort Ultra", "Apple AirPods Max"],
      ["Bose QuietComfort Ultra", "sony wh-1000xm6", "Apple AirPods Max"],
      ["Sony WH-1000XM6", "Sennheiser Momentum 4", "Bose QuietComfort Ultra"],
    ]);
    // Every run failed for anthropic: no stats to show, the card shows the error.
    expect(built.anthropicAggregatedStats).toBeUndefined();
    expect(built.anthropic?.status).toBe("error");
    expect(built.geminiAggregatedStats?.iterations).toBe(2);
    expect(built.geminiAggregatedStats?.productFrequencies.every((f) => f.percentage === 100)).toBe(true);
  });

  test("top 3 per run follows rank, then the listed order for unranked products", () => {
    const runs = [result("gemini", { products: [{ name: "D" }, { name: "C", rank: 2 }, { name: "B" }, { name: "A", rank: 1 }] }), result("gemini")];
    const built = wire(buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 2, runs: { openai: [], anthropic: [], gemini: runs } }));
    expect(built.geminiAggregatedStats?.topProductsPerRun).toEqual([["A", "C", "D"], []]);
  });
});

describe("stabilitySummary", () => {
  const stats = (topProductsPerRun: string[][]) => ({
    iterations: topProductsPerRun.length,
    failedIterations: 0,
    productFrequencies: [],
    companyFrequencies: [],
    sourceFrequencies: [],
    topProductsPerRun,
  });

  test("counts runs sharing the most common top-3 set, ignoring order and case", () => {
    const summary = stabilitySummary(
      stats([
        ["Sony WH-1000XM6", "Bose QC Ultra", "AirPods Max"],
        ["Bose QC Ultra", "sony wh-1000xm6", "AirPods Max"],
        ["Sony WH-1000XM6", "Sennheiser Momentum 4", "Bose QC Ultra"],
        ["AirPods Max", "Sony WH-1000XM6", "Bose QC Ultra"],
        ["Sennheiser Momentum 4", "Sony WH-1000XM6", "Bose QC Ultra"],
      ]),
    );
    expect(summary).toEqual({ identicalTop3: 3, runs: 5, mostCommonTop3: ["Sony WH-1000XM6", "Bose QC Ultra", "AirPods Max"] });
  });

  test("runs without products never agree", () => {
    expect(stabilitySummary(stats([[], []]))).toEqual({ identicalTop3: 0, runs: 2, mostCommonTop3: [] });
  });
});

describe("what a multi-iteration result lists (ADR 028)", () => {
  // OpenAI's first answer (on its card) names Sony and Bose; its second, Bose and Sennheiser.
  // Gemini's only answer names Sennheiser: a product the two share, though never on both cards.
  const first = result("openai", {
    products: [
      { name: "Sony WH-1000XM6", rank: 1, details: "Best overall" },
      { name: "Bose QuietComfort Ultra", rank: 2 },
    ],
    companies: [{ name: "Sony", products: ["Sony WH-1000XM6"] }, { name: "Bose" }],
    sources: [{ url: "https://rtings.com/a", title: "RTINGS", cited: true }],
  });
  const second = result("openai", {
    products: [
      { name: "bose quietcomfort ultra", rank: 1 },
      { name: "Sennheiser Momentum 4", rank: 2 },
    ],
    companies: [{ name: "Bose" }, { name: "Sennheiser" }],
    sources: [{ url: "https://soundguys.com/b", cited: true }],
  });
  const geminiAnswer = result("gemini", {
    products: [{ name: "Sennheiser Momentum 4", rank: 1 }],
    companies: [{ name: "Sennheiser" }],
    sources: [{ url: "https://soundguys.com/b/", cited: true }],
  });
  const built = buildSearchResult({
    query: "q",
    executionTimeMs: 1,
    iterations: 2,
    runs: { openai: [first, second], gemini: [geminiAnswer, failed("gemini")] },
  });

  test("every item returned in at least one completed iteration, with how often each provider returned it; details from the shown answer", () => {
    expect(listedProducts(built)).toEqual([
      { name: "Sennheiser Momentum 4", rank: 1, models: ["openai", "gemini"], count: 2, returned: { openai: { count: 1, n: 2 }, gemini: { count: 1, n: 1 } } },
      { name: "Sony WH-1000XM6", rank: 1, details: "Best overall", models: ["openai"], count: 1, returned: { openai: { count: 1, n: 2 } } },
      { name: "Bose QuietComfort Ultra", rank: 2, models: ["openai"], count: 1, returned: { openai: { count: 2, n: 2 } } },
    ]);
    expect(listedCompanies(built).map((c) => [c.name, c.models, c.returned])).toEqual([
      ["Sennheiser", ["openai", "gemini"], { openai: { count: 1, n: 2 }, gemini: { count: 1, n: 1 } }],
      ["Bose", ["openai"], { openai: { count: 2, n: 2 } }],
      ["Sony", ["openai"], { openai: { count: 1, n: 2 } }],
    ]);
    expect(listedSources(built).map((s) => [s.url, s.title, s.models])).toEqual([
      ["https://soundguys.com/b", undefined, ["openai", "gemini"]],
      ["https://rtings.com/a", "RTINGS", ["openai"]],
    ]);
  });

  test("the totals and overlaps are the lists' (what the Frequency Analysis shows, not only the cards)", () => {
    expect([built.totalProducts, built.totalCompanies, built.totalLinks]).toEqual([3, 3, 2]);
    expect(built.commonProducts).toEqual([{ name: "Sennheiser Momentum 4", models: ["openai", "gemini"] }]);
    expect(built.commonCompanies).toEqual([{ name: "Sennheiser", models: ["openai", "gemini"] }]);
    expect(built.commonSources).toEqual([{ url: "https://soundguys.com/b", models: ["openai", "gemini"] }]);
    expect(returnedCounts(built, "openai")).toEqual({ products: 3, companies: 3, sources: 2 });
    expect(returnedCounts(built, "anthropic")).toEqual({ products: 0, companies: 0, sources: 0 });
    // Each frequency's item is in the provider's list, most often first.
    expect(providerItems(built, "openai", "products").map((p) => [p.name, p.returned.count, p.rank])).toEqual([
      ["Bose QuietComfort Ultra", 2, 2],
      ["Sennheiser Momentum 4", 1, undefined],
      ["Sony WH-1000XM6", 1, 1],
    ]);
  });

  test("one iteration: the answers, each 1 of 1", () => {
    const single = buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 1, runs: { openai: [first], gemini: [geminiAnswer] } });
    expect(listedProducts(single).map((p) => [p.name, p.returned])).toEqual([
      ["Sennheiser Momentum 4", { gemini: { count: 1, n: 1 } }],
      ["Sony WH-1000XM6", { openai: { count: 1, n: 1 } }],
      ["Bose QuietComfort Ultra", { openai: { count: 1, n: 1 } }],
    ]);
    expect(single.totalProducts).toBe(3);
  });

  test("a result saved under the older rule (totals over the cards) is restated as it is read", () => {
    const old: SearchResult = { ...built, totalProducts: 2, totalCompanies: 2, totalLinks: 1, commonProducts: [], commonCompanies: [], commonSources: [] };
    expect(withListedTotals(old)).toEqual(built);
  });
});
