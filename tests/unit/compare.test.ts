import { describe, expect, test } from "bun:test";
import { perProvider } from "#src/contract/providers.ts";
import type { Frequency } from "#src/contract/search-result.ts";
import { compareSearches } from "#src/core/compare.ts";
import { modelResult, runRecord, savedResult } from "#tests/support/results.ts";

const frequency = (name: string, count: number): Frequency => ({ name, count, percentage: 0, low: 0, high: 0 });

// The original kept its runs: OpenAI 3 completed (and 1 failed, ignored), Gemini 2, so n = 5.
const original = savedResult({
  id: "o",
  query: "best crm for startups",
  iterationCount: 5,
  models: {
    openai: modelResult("openai", {
      products: [
        { name: "HubSpot CRM", rank: 1 },
        { name: "Pipedrive", rank: 2 },
      ],
      companies: [{ name: "HubSpot" }],
      sources: [{ url: "https://hubspot.com/crm", cited: true }],
    }),
    gemini: modelResult("gemini", { products: [{ name: "HubSpot CRM" }, { name: "Zoho CRM" }], sources: [{ url: "https://g2.com/crm/", cited: true }] }),
  },
  runs: {
    openai: [
      runRecord({
        products: ["HubSpot CRM", "Pipedrive"],
        companies: ["HubSpot"],
        sources: ["https://hubspot.com/crm"],
        searchQueries: ["best crm startups", "hubspot pricing"],
      }),
      runRecord({
        products: ["hubspot crm", "Salesforce"],
        companies: ["HubSpot", "Salesforce"],
        sources: ["https://hubspot.com/crm", "https://g2.com/crm"],
        searchQueries: ["best crm startups"],
      }),
      runRecord({ products: ["Pipedrive"], companies: ["Pipedrive"], searchQueries: ["Best CRM startups"] }),
      runRecord({ status: "error", products: ["Zoho CRM", "Salesforce"], searchQueries: ["ignored"] }),
    ],
    gemini: [
      runRecord({ products: ["HubSpot CRM", "Zoho CRM"], sources: ["https://g2.com/crm"], searchQueries: ["crm for startups 2026"] }),
      runRecord({ products: ["HubSpot CRM"], searchQueries: ["best crm startups"] }),
    ],
  },
});

// An older variant without runs: its frequencies, OpenAI over 3 iterations and Anthropic over 2 (n = 5).
const smallBusiness = savedResult({
  id: "v1",
  query: "CRM for small business",
  iterationCount: 5,
  models: {
    openai: modelResult("openai", {
      products: [{ name: "Salesforce" }, { name: "HubSpot CRM" }],
      companies: [{ name: "Salesforce" }],
      sources: [{ url: "https://salesforce.com/", cited: true }],
    }),
    anthropic: modelResult("anthropic", { products: [{ name: "Salesforce" }], searchQueries: ["Salesforce SMB"] }),
  },
  stats: {
    openai: {
      iterations: 3,
      failedIterations: 0,
      productFrequencies: [frequency("Salesforce", 3), frequency("HubSpot CRM", 1)],
      companyFrequencies: [frequency("Salesforce", 3)],
      sourceFrequencies: [frequency("https://salesforce.com", 2)],
      topProductsPerRun: [],
      searchQueryFrequencies: [frequency("crm small business", 3)],
    },
    anthropic: {
      iterations: 2,
      failedIterations: 0,
      productFrequencies: [frequency("Salesforce", 2), frequency("Pipedrive", 1)],
      companyFrequencies: [],
      sourceFrequencies: [],
      topProductsPerRun: [], // no searchQueryFrequencies: an older result, so the displayed queries stand in
    },
  },
});

// A single-iteration variant: where it was found and by whom, no frequencies, no test.
// Its one answer came from a simulated OpenAI.
const free = savedResult({
  id: "v2",
  query: "free crm",
  iterationCount: 1,
  models: { openai: modelResult("openai", { products: [{ name: "HubSpot CRM" }], searchQueries: ["free crm"], simulated: true }) },
});

const report = compareSearches(original, [smallBusiness, free], {
  query: "best crm for startups",
  variants: ["crm for small business", "Free CRM", "crm for agencies"],
});

describe("compareSearches", () => {
  test("lists the searches with their roles, the providers each asked and which were simulated, and the asked queries that have none (case-insensitively)", () => {
    const live = perProvider(() => false);
    expect(report.searches).toEqual([
      {
        query: "best crm for startups",
        role: "original",
        id: "o",
        createdAt: "2026-11-23T09:00:00.000Z",
        iterationCount: 5,
        providers: ["openai", "gemini"],
        simulated: live,
      },
      {
        query: "CRM for small business",
        role: "variant",
        id: "v1",
        createdAt: "2026-11-23T09:00:00.000Z",
        iterationCount: 5,
        providers: ["openai", "anthropic"],
        simulated: live,
      },
      {
        query: "free crm",
        role: "variant",
        id: "v2",
        createdAt: "2026-11-23T09:00:00.000Z",
        iterationCount: 1,
        providers: ["openai"],
        simulated: { ...live, openai: true },
      },
    ]);
    expect(report.missing).toEqual(["crm for agencies"]);
  });

  test("products: the providers that returned each in any completed iteration and how often, its frequency over all providers' completed runs, most searches first", () => {
    // Original, n = 5: HubSpot CRM in 2 + 2 runs, Pipedrive 2, Salesforce 1, Zoho CRM 1.
    // Variant v1, n = 3 + 2: Salesforce 3 + 2, HubSpot CRM 1, Pipedrive 1 (only in Anthropic's runs,
    // on no card: still Anthropic's, ADR 028; the summary's count of searches and the ticks agree).
    expect(report.products.map(({ name, in: found }) => ({ name, in: found }))).toEqual([
      {
        name: "HubSpot CRM",
        in: {
          o: {
            providers: ["openai", "gemini"],
            returned: { openai: { count: 2, n: 3 }, gemini: { count: 2, n: 2 } },
            frequency: { count: 4, n: 5, percentage: 80, low: 37.6, high: 96.4 },
          },
          v1: { providers: ["openai"], returned: { openai: { count: 1, n: 3 } }, frequency: { count: 1, n: 5, percentage: 20, low: 3.6, high: 62.4 } },
          v2: { providers: ["openai"], returned: { openai: { count: 1, n: 1 } } },
        },
      },
      {
        name: "Pipedrive",
        in: {
          o: { providers: ["openai"], returned: { openai: { count: 2, n: 3 } }, frequency: { count: 2, n: 5, percentage: 40, low: 11.8, high: 76.9 } },
          v1: { providers: ["anthropic"], returned: { anthropic: { count: 1, n: 2 } }, frequency: { count: 1, n: 5, percentage: 20, low: 3.6, high: 62.4 } },
        },
      },
      {
        name: "Salesforce",
        in: {
          o: { providers: ["openai"], returned: { openai: { count: 1, n: 3 } }, frequency: { count: 1, n: 5, percentage: 20, low: 3.6, high: 62.4 } },
          v1: {
            providers: ["openai", "anthropic"],
            returned: { openai: { count: 3, n: 3 }, anthropic: { count: 2, n: 2 } },
            frequency: { count: 5, n: 5, percentage: 100, low: 56.6, high: 100 },
          },
        },
      },
      {
        name: "Zoho CRM",
        in: { o: { providers: ["gemini"], returned: { gemini: { count: 1, n: 2 } }, frequency: { count: 1, n: 5, percentage: 20, low: 3.6, high: 62.4 } } },
      },
    ]);
  });

  test("an item the summary counts in a search has a provider's tick in that search's column", () => {
    for (const items of [report.products, report.companies, report.sources]) {
      for (const item of items) for (const found of Object.values(item.in)) expect(found.providers.length).toBeGreaterThan(0);
    }
    const top = new Map(report.summary.topProducts.map((item) => [item.name, item.searches]));
    for (const item of report.products)
      if (top.has(item.name)) expect(Object.values(item.in).filter((found) => found.providers.length > 0)).toHaveLength(top.get(item.name) ?? -1);
  });

  test("differences: Fisher's exact test of original vs variant, only for variants with several iterations", () => {
    // Margins 5 and 5. HubSpot CRM 4/5 vs 1/5: tables as unlikely as C(5,4)² = 25 of C(10,5) = 252
    // are x = 0, 1, 4, 5: (1 + 25 + 25 + 1) / 252. Salesforce 1/5 vs 5/5: of C(10,6) = 210, x = 1
    // and x = 5 weigh 5 each: 10 / 210.
    const differences = Object.fromEntries(report.products.map((item) => [item.name, item.difference]));
    expect(Object.keys(differences["HubSpot CRM"] ?? {})).toEqual(["v1"]);
    expect(differences["HubSpot CRM"]?.v1?.pValue).toBeCloseTo(52 / 252, 12);
    expect(differences["HubSpot CRM"]?.v1?.significant).toBe(false);
    expect(differences["Salesforce"]?.v1?.pValue).toBeCloseTo(10 / 210, 12);
    expect(differences["Salesforce"]?.v1?.significant).toBe(true);
    expect(differences["Pipedrive"]?.v1).toEqual({ pValue: 1, significant: false });
    expect(differences["Zoho CRM"]?.v1).toEqual({ pValue: 1, significant: false }); // 1/5 vs 0/5
  });

  test("companies and sources are compared the same way, sources by normalised URL", () => {
    expect(report.companies.map((item) => [item.name, Object.keys(item.in), item.difference.v1?.pValue])).toEqual([
      ["Salesforce", ["o", "v1"], expect.closeTo(0.5238095, 6)], // 1/5 vs 3/5
      ["HubSpot", ["o"], expect.closeTo(0.4444444, 6)], // 2/5 vs 0/5
      ["Pipedrive", ["o"], 1],
    ]);
    expect(report.sources.map((item) => [item.name, item.in])).toEqual([
      [
        "https://g2.com/crm",
        {
          o: {
            providers: ["openai", "gemini"],
            returned: { openai: { count: 1, n: 3 }, gemini: { count: 1, n: 2 } },
            frequency: { count: 2, n: 5, percentage: 40, low: 11.8, high: 76.9 },
          },
        },
      ],
      [
        "https://hubspot.com/crm",
        { o: { providers: ["openai"], returned: { openai: { count: 2, n: 3 } }, frequency: { count: 2, n: 5, percentage: 40, low: 11.8, high: 76.9 } } },
      ],
      [
        "https://salesforce.com",
        { v1: { providers: ["openai"], returned: { openai: { count: 2, n: 3 } }, frequency: { count: 2, n: 5, percentage: 40, low: 11.8, high: 76.9 } } },
      ],
    ]);
  });

  test("summary: unique items across searches, and the top ones by the searches containing them, ties by name", () => {
    expect(report.summary).toEqual({
      uniqueProducts: 4,
      uniqueCompanies: 3,
      uniqueSources: 3,
      topProducts: [
        { name: "HubSpot CRM", searches: 3 },
        { name: "Pipedrive", searches: 2 },
        { name: "Salesforce", searches: 2 },
        { name: "Zoho CRM", searches: 1 },
      ],
      topCompanies: [
        { name: "Salesforce", searches: 2 },
        { name: "HubSpot", searches: 1 },
        { name: "Pipedrive", searches: 1 },
      ],
      topSources: [
        { name: "https://g2.com/crm", searches: 1 },
        { name: "https://hubspot.com/crm", searches: 1 },
        { name: "https://salesforce.com", searches: 1 },
      ],
    });
  });

  test("fan-out: runs issuing each search query, merged across providers; else frequencies; else the displayed queries", () => {
    expect(report.fanOut).toEqual({
      // OpenAI 3 runs + Gemini 1 ("Best CRM startups" is the same query), then ties by text.
      o: [
        { query: "best crm startups", count: 4 },
        { query: "crm for startups 2026", count: 1 },
        { query: "hubspot pricing", count: 1 },
      ],
      v1: [
        { query: "crm small business", count: 3 },
        { query: "Salesforce SMB", count: 1 },
      ],
      v2: [{ query: "free crm", count: 1 }],
    });
  });

  test("top lists stop at 5", () => {
    const many = savedResult({ id: "m", models: { openai: modelResult("openai", { products: ["F", "E", "D", "C", "B", "A"].map((name) => ({ name })) }) } });
    const compared = compareSearches(many, [], { query: many.query, variants: [] });
    expect(compared.summary.uniqueProducts).toBe(6);
    expect(compared.summary.topProducts.map((top) => top.name)).toEqual(["A", "B", "C", "D", "E"]);
  });
});

describe("compareSearches without an original", () => {
  const compared = compareSearches(undefined, [smallBusiness, smallBusiness], { query: "best crm for startups", variants: ["crm for small business"] });

  test("reports the original query missing, lists each variant once, and tests no difference", () => {
    expect(compared.missing).toEqual(["best crm for startups"]);
    expect(compared.searches.map((search) => [search.id, search.role])).toEqual([["v1", "variant"]]);
    expect(compared.products.every((item) => Object.keys(item.difference).length === 0)).toBe(true);
    expect(compared.products.map((item) => item.name)).toEqual(["HubSpot CRM", "Pipedrive", "Salesforce"]);
  });
});
