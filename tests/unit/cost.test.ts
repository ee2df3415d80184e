import { describe, expect, test } from "bun:test";
import { DEFAULT_PRICES, type PriceRow } from "#src/contract/prices.ts";
import { offModelResult, type ModelResult, type SearchResult } from "#src/contract/search-result.ts";
import { answerCost, estimateCost, estimateText, formatCost, formatUsd, priceOf, resultCost } from "#src/core/cost.ts";

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
