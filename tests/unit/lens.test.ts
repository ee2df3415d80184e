import { describe, expect, test } from "bun:test";
import type { BrandEntry } from "#src/contract/lens.ts";
import { brandLens, lensSettings } from "#src/core/lens.ts";
import { modelResult, runRecord, savedResult } from "#tests/support/results.ts";

const notion: BrandEntry = { name: "Notion", aliases: [], domains: ["notion.so"] };
const coda: BrandEntry = { name: "Coda", aliases: [], domains: ["coda.io"] };
const confluence: BrandEntry = { name: "Confluence", aliases: ["Atlassian Confluence"], domains: [] };
const competitors: BrandEntry[] = [coda, confluence];

// OpenAI: four completed iterations and a failed one; Anthropic: only failures; Gemini: one.
const result = savedResult({
  iterationCount: 5,
  runs: {
    openai: [
      runRecord({
        products: ["Notion", "Coda", "Confluence"],
        companies: ["Notion Labs"],
        sources: ["https://www.notion.so/pricing", "https://example.com/wikis"],
        text: "1. Notion — flexible pages. 2. Coda. 3. Confluence.",
      }),
      runRecord({
        products: ["Confluence", "Notion AI"],
        sources: ["https://help.notion.so/guides"],
        text: "Confluence suits larger teams; Notion AI is the quicker start.",
      }),
      runRecord({
        products: ["Coda", "Slite"],
        sources: ["https://notnotion.so/blog"], // a suffix, not a subdomain
        text: "Consider Coda. I couldn't find any information about Notion pricing for 2027.",
      }),
      runRecord({ products: ["Slite"], text: "Teams that outgrow Slite often move to Notion." }),
      runRecord({ status: "error", products: ["Notion"], sources: ["https://notion.so"], text: "Notion" }),
    ],
    anthropic: [runRecord({ status: "error", text: "Notion" })],
    gemini: [runRecord({ companies: ["Coda"], text: "For docs-heavy teams, Coda is flexible." })],
  },
});

describe("brandLens over the kept iterations", () => {
  const lens = brandLens(result, { brand: notion, competitors });

  test("reads every completed iteration, and leaves out a provider without one", () => {
    expect(lens.basis).toBe("iterations");
    expect(lens.brand).toEqual(notion);
    expect(lens.competitors).toEqual(competitors);
    expect(Object.keys(lens.providers)).toEqual(["openai", "gemini"]);
  });

  test("mention rate: by product, company or text, not in a 'could not find' statement, of the completed runs", () => {
    // Runs 1 (products), 2 ("Notion AI") and 4 (text) name it; run 3 only says its pricing was not found.
    expect(lens.providers.openai?.mentionRate).toEqual({ count: 3, n: 4, percentage: 75, low: 30.1, high: 95.4 });
    expect(lens.providers.gemini?.mentionRate).toEqual({ count: 0, n: 1, percentage: 0, low: 0, high: 79.3 });
  });

  test("share of voice: each one's runs over the sum of all of theirs (3 + 2 + 2)", () => {
    expect(lens.providers.openai?.shareOfVoice).toEqual([
      { name: "Notion", mentions: 3, isBrand: true, share: 42.9 },
      { name: "Coda", mentions: 2, isBrand: false, share: 28.6 },
      { name: "Confluence", mentions: 2, isBrand: false, share: 28.6 },
    ]);
    expect(lens.providers.gemini?.shareOfVoice).toEqual([
      { name: "Notion", mentions: 0, isBrand: true, share: 0 },
      { name: "Coda", mentions: 1, isBrand: false, share: 100 },
      { name: "Confluence", mentions: 0, isBrand: false, share: 0 },
    ]);
  });

  test("positions: the first product naming the brand, 1-based; the rest are not recommended", () => {
    expect(lens.providers.openai?.positions).toEqual([
      { position: 1, count: 1 },
      { position: 2, count: 1 },
    ]);
    expect(lens.providers.openai?.notRecommended).toBe(2);
    expect(lens.providers.gemini?.positions).toEqual([]);
    expect(lens.providers.gemini?.notRecommended).toBe(1);
  });

  test("domain cited: the domain or a subdomain, never a mere suffix", () => {
    expect(lens.providers.openai?.domainCited).toEqual({ count: 2, n: 4, percentage: 50, low: 15, high: 85 });
    expect(lens.providers.gemini?.domainCited).toEqual({ count: 0, n: 1, percentage: 0, low: 0, high: 79.3 });
  });

  test("a competitor's alias counts for it", () => {
    const onlyAlias = savedResult({ runs: { openai: [runRecord({ text: "Large companies standardise on Atlassian Confluence." })] } });
    const view = brandLens(onlyAlias, { brand: notion, competitors }).providers.openai;
    expect(view?.shareOfVoice.map((entry) => entry.mentions)).toEqual([0, 0, 1]);
  });

  test("without competitors the brand has all of its own voice, or none", () => {
    expect(brandLens(result, { brand: notion, competitors: [] }).providers.openai?.shareOfVoice).toEqual([
      { name: "Notion", mentions: 3, isBrand: true, share: 100 },
    ]);
  });
});

describe("brandLens on a result that kept no runs", () => {
  const older = savedResult({
    models: {
      openai: modelResult("openai", {
        products: [
          { name: "Coda", rank: 2 },
          { name: "Notion", rank: 1 },
        ],
        sources: [{ url: "https://www.notion.so/", cited: true }],
        rawResponse: "Notion leads, Coda follows.",
      }),
      anthropic: modelResult("anthropic", { status: "error", products: [{ name: "Notion" }], error: "500: upstream" }),
    },
  });
  const lens = brandLens(older, { brand: notion, competitors });

  test("reads each provider's displayed answer as one run (basis 'displayed'), and skips a failed one", () => {
    expect(lens.basis).toBe("displayed");
    expect(Object.keys(lens.providers)).toEqual(["openai"]);
    expect(lens.providers.openai?.mentionRate).toEqual({ count: 1, n: 1, percentage: 100, low: 20.7, high: 100 });
    expect(lens.providers.openai?.domainCited).toEqual({ count: 1, n: 1, percentage: 100, low: 20.7, high: 100 });
  });

  test("the products are taken in rank order", () => {
    expect(lens.providers.openai?.positions).toEqual([{ position: 1, count: 1 }]);
    expect(lens.providers.openai?.notRecommended).toBe(0);
  });
});

describe("lensSettings: the saved lens, or a brand named on one result against the same market", () => {
  const saved = { brand: notion, competitors };

  test("no override: the saved brand and competitors; none without a saved brand", () => {
    expect(lensSettings(saved)).toEqual(saved);
    expect(lensSettings({ brand: null, competitors })).toBeNull();
  });

  test("the saved brand by name or other name, in any letter case: exactly the saved lens", () => {
    expect(lensSettings(saved, { brand: "NOTION" })).toEqual(saved);
    expect(lensSettings({ brand: { ...notion, aliases: ["Notion Labs"] }, competitors }, { brand: "notion labs" })).toEqual({
      brand: { ...notion, aliases: ["Notion Labs"] },
      competitors,
    });
  });

  test("a saved competitor keeps its other names, against the saved brand and the other competitors", () => {
    expect(lensSettings(saved, { brand: "atlassian confluence" })).toEqual({ brand: confluence, competitors: [notion, coda] });
  });

  test("another brand is measured against the whole saved market; competitors named replace it; aliases and domains add to the entry's", () => {
    const slite: BrandEntry = { name: "Slite", aliases: [], domains: [] };
    expect(lensSettings(saved, { brand: "Slite" })).toEqual({ brand: slite, competitors: [notion, ...competitors] });
    expect(lensSettings(saved, { brand: "Notion", domains: ["notion.com", "NOTION.SO"], competitors: ["Coda", "Slite", "notion"] })).toEqual({
      brand: { ...notion, domains: ["notion.so", "notion.com"] },
      competitors: [coda, slite],
    });
    expect(lensSettings({ brand: null, competitors: [] }, { brand: "Slite" })).toEqual({ brand: slite, competitors: [] });
  });
});

describe("brandLens reads the answer's text, whatever the extraction returned", () => {
  test("a brand the text names counts though the extracted lists omit it; one only the lists name does not", () => {
    const lensOf = (runs: ReturnType<typeof runRecord>[]) =>
      brandLens(savedResult({ iterationCount: runs.length, runs: { openai: runs } }), { brand: notion, competitors: [coda] }).providers.openai;
    const openai = lensOf([
      // The extractor missed Notion; the text recommends it.
      runRecord({ products: ["Coda"], text: "Coda is flexible, but most startups pick Notion for its wiki." }),
      // The extractor listed Coda and Notion; the text names neither.
      runRecord({ products: ["Notion", "Coda"], companies: ["Notion Labs", "Coda"], text: "Confluence suits larger teams." }),
    ]);
    expect(openai?.mentionRate.count).toBe(1);
    expect(openai?.shareOfVoice.map((entry) => [entry.name, entry.mentions])).toEqual([
      ["Notion", 1],
      ["Coda", 1],
    ]);
  });
});
