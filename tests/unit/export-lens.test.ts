import { describe, expect, test } from "bun:test";
import type { LensReport } from "#src/contract/lens.ts";
import { toWireResult } from "#src/contract/search-wire.ts";
import { lensCsvRows, resultToCsv, resultToJson } from "#src/core/export.ts";
import { modelResult, savedResult } from "#tests/support/results.ts";

const result = savedResult({
  query: "best wiki for startups",
  iterationCount: 4,
  models: { openai: modelResult("openai", { products: [{ name: "Notion", rank: 1 }] }), gemini: modelResult("gemini") },
});

const lens: LensReport = {
  brand: { name: "Notion", aliases: [], domains: ["notion.so"] },
  competitors: [{ name: "Coda, Inc.", aliases: [], domains: [] }],
  basis: "iterations",
  providers: {
    // Listed out of catalogue order: the export puts OpenAI before Gemini all the same.
    gemini: {
      simulated: true,
      mentionRate: { count: 0, n: 1, percentage: 0, low: 0, high: 79.3 },
      shareOfVoice: [
        { name: "Notion", mentions: 0, share: 0, isBrand: true },
        { name: "Coda, Inc.", mentions: 1, share: 100, isBrand: false },
      ],
      positions: [],
      notRecommended: 1,
      domainCited: { count: 0, n: 1, percentage: 0, low: 0, high: 79.3 },
    },
    openai: {
      simulated: false,
      mentionRate: { count: 3, n: 4, percentage: 75, low: 30.1, high: 95.4 },
      shareOfVoice: [
        { name: "Notion", mentions: 3, share: 60, isBrand: true },
        { name: "Coda, Inc.", mentions: 2, share: 40, isBrand: false },
      ],
      positions: [
        { position: 1, count: 2 },
        { position: 3, count: 1 },
      ],
      notRecommended: 1,
      domainCited: { count: 2, n: 4, percentage: 50, low: 15, high: 85 },
    },
  },
};

describe("resultToCsv with a lens", () => {
  test("adds a Brand Lens section after the others, which stay byte for byte as they were", () => {
    const lines = [
      "Brand Lens",
      "Provider,Brand,Metric,Value,Low,High,N",
      "OpenAI,Notion,Mention rate (%),75,30.1,95.4,4",
      "OpenAI,Notion,Domain cited (%),50,15,85,4",
      "OpenAI,Notion,Mentions,3,,,4",
      "OpenAI,Notion,Share of voice (%),60,,,5",
      'OpenAI,"Coda, Inc.",Mentions,2,,,4',
      'OpenAI,"Coda, Inc.",Share of voice (%),40,,,5',
      "OpenAI,Notion,Position 1,2,,,4",
      "OpenAI,Notion,Position 3,1,,,4",
      "OpenAI,Notion,Not recommended,1,,,4",
      "Gemini,Notion,Mention rate (%),0,0,79.3,1",
      "Gemini,Notion,Domain cited (%),0,0,79.3,1",
      "Gemini,Notion,Mentions,0,,,1",
      "Gemini,Notion,Share of voice (%),0,,,1",
      'Gemini,"Coda, Inc.",Mentions,1,,,1',
      'Gemini,"Coda, Inc.",Share of voice (%),100,,,1',
      "Gemini,Notion,Not recommended,1,,,1",
    ];
    expect(resultToCsv(result, { lens })).toBe(`${resultToCsv(result)}\r\n${lines.join("\r\n")}\r\n`);
  });

  test("without a lens, or with an empty one, the CSV has no lens rows", () => {
    expect(resultToCsv(result, {})).toBe(resultToCsv(result));
    expect(resultToCsv(result).includes("Brand Lens")).toBe(false);
    expect(lensCsvRows({ ...lens, providers: {} })).toEqual([]);
  });
});

describe("resultToJson with a lens", () => {
  test("adds the lens under a last key, leaving the rest as without it", () => {
    const parsed = JSON.parse(resultToJson(result, { lens }));
    expect(parsed.lens).toEqual(lens);
    expect(Object.keys(parsed).at(-1)).toBe("lens");
    const { lens: _, ...rest } = parsed;
    expect(rest).toEqual(JSON.parse(resultToJson(result)));
    expect(JSON.parse(resultToJson(result))).toEqual(JSON.parse(JSON.stringify(toWireResult(result))));
  });
});
