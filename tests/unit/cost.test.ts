import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { DEFAULT_PRICES, type PriceRow, PriceTable } from "#src/contract/prices.ts";
import { offModelResult, type ModelResult, type SearchResult } from "#src/contract/search-result.ts";
import {
  answerCharge,
  answerCost,
  ceilingPrice,
  estimateCost,
  estimateText,
  formatCents,
  formatCost,
  formatEstimate,
  formatUsd,
  priceOf,
  resultCost,
  roundUsd,
  usdField,
} from "#src/core/cost.ts";

const ROW: PriceRow = {
  model: "gpt-5-mini",
  inputPerMTok: 1,
  cachedInputPerMTok: 0.1,
  outputPerMTok: 10,
  searchesPerK: 10,
  searchUnit: "search",
  source: "test",
  read: "2026-11-26",
};

function answer(overrides: Partial<ModelResult> = {}): ModelResult {
  return {
    ...offModelResult("openai"),
    status: "ok",
    modelName: "gpt-5-mini",
    modelVersion: "gpt-5-mini-2025-08-07",
    usage: { inputTokens: 10_000, outputTokens: 1_000, searches: 2 },
    extraction: "extractor",
    extractor: { provider: "openai", model: "gpt-5-mini" },
    extractionUsage: { inputTokens: 1_000, outputTokens: 100, searches: 0 },
    ...overrides,
  };
}

function saved(models: SearchResult["models"], iterationCount: number): SearchResult {
  return {
    schemaVersion: 2,
    query: "q",
    executionTimeMs: 1,
    totalLinks: 0,
    totalProducts: 0,
    totalCompanies: 0,
    iterationCount,
    models,
    stats: {},
    commonProducts: [],
    commonCompanies: [],
    commonSources: [],
  };
}

describe("costs", () => {
  test("a dated model version is priced as its model; an unknown one has no price", () => {
    expect(priceOf([ROW], "gpt-5-mini-2025-08-07")).toBe(ROW);
    expect(priceOf([ROW], "gpt-5-mini")).toBe(ROW);
    expect(priceOf([ROW], "gpt-5-mini-pro")).toBe(ROW);
    expect(priceOf([ROW], "gpt-5")).toBeUndefined();
  });

  test("cached input tokens are billed at the cached price", () => {
    const plain = answerCost(answer(), [ROW]);
    const cached = answerCost(answer({ usage: { inputTokens: 10_000, cachedInputTokens: 4_000, outputTokens: 1_000, searches: 2 } }), [ROW]);
    expect(plain.searchTokensUsd).toBeCloseTo(0.02, 12);
    // 6,000 × $1 + 4,000 × $0.10 + 1,000 × $10, per million.
    expect(cached.searchTokensUsd).toBeCloseTo(0.0164, 12);
    expect(cached.searchesUsd).toBeCloseTo(0.02, 12);
    expect(cached.readingUsd).toBeCloseTo(0.002, 12);
  });

  test("a result saved before costs were kept: one answer is priced from its usage, several iterations are unknown (only the shown answer's usage was kept)", () => {
    const one = resultCost(saved({ openai: answer() }, 1), [ROW]);
    expect(one.total.usd).toBeCloseTo(0.042, 12);
    const many = resultCost(saved({ openai: answer() }, 5), [ROW]);
    expect(many.total.usd).toBeNull();
    expect(formatCost(many.total)).toBe("unknown");
    const simulated = resultCost(saved({ openai: answer({ simulated: true }) }, 5), [ROW]);
    expect(formatCost(simulated.total)).toBe("$0.00 (simulated)");
  });

  test("the estimate: typical usage per answer priced with the table, times the iterations", () => {
    const providers = [{ id: "openai" as const, model: "gpt-5-mini", extractionModel: "gpt-5-mini", simulated: false }];
    const one = estimateCost(1, providers, [ROW]);
    const fifty = estimateCost(50, providers, [ROW]);
    expect(fifty.usd).toBeCloseTo((one.usd ?? 0) * 50, 9);
    expect(estimateText(fifty, 50)).toBe(`about ${formatUsd(fifty.usd)} for 50 iterations`);
    expect(estimateText(estimateCost(50, [{ ...providers[0]!, model: "gpt-x" }], [ROW]), 50)).toBe("unknown for 50 iterations (no price for gpt-x)");
    expect(estimateText(estimateCost(5, [{ ...providers[0]!, simulated: true }], [ROW]), 5)).toBe("$0.00 for 5 iterations (simulated)");
  });

  test("the built-in table prices the default and extraction models, each row with its source and the day it was read", async () => {
    const { providerIds } = await import("#src/contract/providers.ts");
    const { providerConfig } = await import("#src/contract/provider-config.ts");
    for (const id of providerIds) {
      expect(priceOf(DEFAULT_PRICES, providerConfig[id].defaultModel)).toBeDefined();
      expect(priceOf(DEFAULT_PRICES, providerConfig[id].defaultExtractionModel)).toBeDefined();
    }
    for (const row of DEFAULT_PRICES) {
      expect(row.source).toMatch(/^https:\/\//);
      expect(row.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("prices that follow the tiers (ADR 062)", () => {
  const haiku = priceOf(DEFAULT_PRICES, "claude-haiku-5-5")!;
  const claude = (inputTokens: number, cachedInputTokens = 0): ModelResult =>
    answer({
      provider: "anthropic",
      modelVersion: "claude-haiku-5-5",
      usage: { inputTokens, cachedInputTokens, outputTokens: 2_000, searches: 5 },
      extractor: { provider: "anthropic", model: "claude-haiku-5-5" },
      extractionUsage: { inputTokens: 3_000, outputTokens: 400, searches: 0 },
    });

  test("Haiku 5.5: a prompt up to 100,000 tokens at $0.10 / $0.01 / $0.50, one over it wholly at $0.50 / $0.05 / $2.50", () => {
    expect(haiku.above).toEqual([{ inputTokens: 100_000, inputPerMTok: 0.5, cachedInputPerMTok: 0.05, outputPerMTok: 2.5 }]);
    // At the threshold: (80,000 × $0.10 + 20,000 × $0.01 + 2,000 × $0.50) / 1M.
    expect(answerCost(claude(100_000, 20_000), DEFAULT_PRICES).searchTokensUsd).toBeCloseTo(0.0092, 12);
    // One token over, cached tokens included in the prompt: (80,001 × $0.50 + 20,000 × $0.05 + 2,000 × $2.50) / 1M.
    expect(answerCost(claude(100_001, 20_000), DEFAULT_PRICES).searchTokensUsd).toBeCloseTo(0.0460005, 12);
    // The reading is its own prompt, well under: (3,000 × $0.10 + 400 × $0.50) / 1M; five searches $0.05.
    const over = answerCost(claude(150_000), DEFAULT_PRICES);
    expect(over.readingUsd).toBeCloseTo(0.0005, 12);
    expect(over.searchesUsd).toBeCloseTo(0.05, 12);
    expect(formatCost(over)).toBe("$0.131");
  });

  test("of several tiers, the largest threshold the prompt is over applies", () => {
    const row: PriceRow = {
      ...ROW,
      above: [
        { inputTokens: 200_000, inputPerMTok: 4, cachedInputPerMTok: 0.4, outputPerMTok: 40 },
        { inputTokens: 100_000, inputPerMTok: 2, cachedInputPerMTok: 0.2, outputPerMTok: 20 },
      ],
    };
    const tokens = (inputTokens: number) => answerCost(answer({ usage: { inputTokens, outputTokens: 0, searches: 0 } }), [row]).searchTokensUsd;
    expect(tokens(100_000)).toBeCloseTo(0.1, 12);
    expect(tokens(150_000)).toBeCloseTo(0.3, 12);
    expect(tokens(250_000)).toBeCloseTo(1, 12);
  });

  test("a model without a price is charged at the highest rate of any row or tier", () => {
    const dear: PriceRow = { ...ROW, model: "dear", above: [{ inputTokens: 1_000, inputPerMTok: 50, cachedInputPerMTok: 5, outputPerMTok: 90 }] };
    expect(ceilingPrice([ROW, dear])).toMatchObject({ inputPerMTok: 50, cachedInputPerMTok: 5, outputPerMTok: 90, searchesPerK: 10 });
    // A small prompt of an unpriced model is still charged at the tier's rates: a ceiling, whatever the prompt.
    const unpriced = answer({
      modelVersion: "gpt-x",
      extractor: { provider: "openai", model: "gpt-x" },
      usage: { inputTokens: 10, outputTokens: 0, searches: 0 },
    });
    expect(answerCharge({ ...unpriced, extractionUsage: undefined }, [ROW, dear])).toBeCloseTo((10 * 50) / 1_000_000, 15);
  });

  test("Gemini 3 rows list their 5,000 free search queries a month, and their searches are still priced as paid", () => {
    for (const model of ["gemini-3-flash-preview", "gemini-3.5-flash", "gemini-3.8-flash"])
      expect(priceOf(DEFAULT_PRICES, model)?.freeSearchesPerMonth).toBe(5_000);
    expect(priceOf(DEFAULT_PRICES, "gemini-2.5-flash")?.freeSearchesPerMonth).toBeUndefined();
    const gemini = answer({
      provider: "gemini",
      modelVersion: "gemini-3.8-flash",
      usage: { inputTokens: 0, outputTokens: 0, searches: 3 },
      extractionUsage: undefined,
    });
    expect(answerCost(gemini, DEFAULT_PRICES).searchesUsd).toBeCloseTo(0.042, 12);
  });

  test("a price file takes tiers and allowances, and refuses a tier without its threshold", () => {
    const rows = [{ ...ROW, above: [{ inputTokens: 100_000, inputPerMTok: 2, cachedInputPerMTok: 0.2, outputPerMTok: 20 }], freeSearchesPerMonth: 5_000 }];
    expect(v.parse(PriceTable, JSON.parse(JSON.stringify(rows)))).toEqual(rows);
    const bad = v.safeParse(PriceTable, [{ ...ROW, above: [{ inputPerMTok: 2, cachedInputPerMTok: 0.2, outputPerMTok: 20 }] }]);
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0]?.path?.map((step) => String(step.key))).toEqual(["0", "above", "0", "inputTokens"]);
  });
});

describe("the provider's own reported cost", () => {
  test("an answer that says what it cost is that cost, whatever the table says, and is charged so against the limits", () => {
    const reported = answer({
      usage: { inputTokens: 10_000, outputTokens: 1_000, searches: 2, reportedUsd: { total: 0.0123, searches: 0.01 } },
      extractionUsage: { inputTokens: 1_000, outputTokens: 100, searches: 0, reportedUsd: { total: 0.0007, searches: 0 } },
    });
    const cost = answerCost(reported, [ROW]);
    expect(cost.searchTokensUsd).toBeCloseTo(0.0023, 12);
    expect(cost.searchesUsd).toBeCloseTo(0.01, 12);
    expect(cost.readingUsd).toBeCloseTo(0.0007, 12);
    expect(formatCost(cost)).toBe("$0.013");
    // A model the table does not know: the reported cost is still known, and charged as it is.
    const unpriced = { ...reported, modelVersion: "sonar-x", extractor: { provider: "openai" as const, model: "sonar-x" } };
    expect(answerCost(unpriced, [ROW]).usd).toBeCloseTo(0.013, 12);
    expect(answerCharge(unpriced, [ROW])).toBeCloseTo(0.013, 12);
  });
});

describe("money as shown", () => {
  test("halves round up on the decimal value, not on its binary neighbour", () => {
    expect(formatUsd(10.085)).toBe("$10.09");
    expect(formatEstimate(10.085, false)).toBe("about $10.09");
    expect(formatUsd(1.005)).toBe("$1.01");
    expect(formatUsd(2.675)).toBe("$2.68");
    expect(roundUsd(0.005, 2)).toBe(0.01);
    expect(roundUsd(10.085, 2)).toBe(10.09);
    expect(roundUsd(1.005, 2)).toBe(1.01);
    expect(roundUsd(2.675, 2)).toBe(2.68);
    // A sum that lands a hair under the half still reads as the half it is.
    expect(formatUsd(10 + 0.085)).toBe("$10.09");
    expect(formatUsd(0.0005 + 0.0045)).toBe("$0.0050");
  });

  test("the places follow the amount, rounded: four under a cent, three under a dollar, two above", () => {
    expect(formatUsd(0.00424)).toBe("$0.0042");
    expect(formatUsd(0.0099996)).toBe("$0.010");
    expect(formatUsd(0.0615)).toBe("$0.062");
    expect(formatUsd(0.99951)).toBe("$1.00");
    expect(formatUsd(1234.5)).toBe("$1234.50");
    expect(estimateText({ usd: 10.085, simulated: false }, 50)).toBe("about $10.09 for 50 iterations");
    expect(usdField(0.0000125)).toBe("0.000013");
    expect(formatCents(0.5)).toBe("$0.50");
    expect(formatCents(10.085)).toBe("$10.09");
    expect(usdField(2.675)).toBe("2.675");
  });
});
