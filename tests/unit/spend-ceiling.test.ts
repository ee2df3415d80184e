import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_PRICES } from "#src/contract/prices.ts";
import { answerCharge, answerCost, ceilingPrice, estimateCharge, estimateCost } from "#src/core/cost.ts";
import { parseEnv } from "#src/server/env.ts";

/* ADR 052: what a model without a price is charged (the table's highest rates), and the new variables. */

const answer = (model: string) => ({
  simulated: false,
  status: "ok" as const,
  modelVersion: model,
  usage: { inputTokens: 10_000, cachedInputTokens: 2_000, outputTokens: 1_000, searches: 2 },
  extractor: { provider: "openai" as const, model },
  extractionUsage: { inputTokens: 3_000, outputTokens: 500, searches: 0 },
});

describe("the ceiling a model without a price is charged at", () => {
  test("the built-in table's highest rate of each kind, every web search billed on its own", () => {
    expect(ceilingPrice(DEFAULT_PRICES)).toMatchObject({ inputPerMTok: 3, cachedInputPerMTok: 0.3, outputPerMTok: 15, searchesPerK: 35, searchUnit: "search" });
  });

  test("an unpriced answer's cost stays unknown, its charge is its usage at the ceiling; a priced one is charged its cost", () => {
    const unpriced = answer("gemini-9-unpriced");
    expect(answerCost(unpriced, DEFAULT_PRICES)).toMatchObject({ usd: null, unpriced: ["gemini-9-unpriced"] });
    // (8,000 × $3 + 2,000 × $0.30 + 1,000 × $15) / 1M + 2 × $0.035 + (3,000 × $3 + 500 × $15) / 1M
    expect(answerCharge(unpriced, DEFAULT_PRICES)).toBeCloseTo(0.0396 + 0.07 + 0.0165, 12);
    const priced = answer("gpt-5-mini");
    expect(answerCharge(priced, DEFAULT_PRICES)).toBe(answerCost(priced, DEFAULT_PRICES).usd!);
    expect(answerCharge({ ...unpriced, simulated: true }, DEFAULT_PRICES)).toBe(0);
  });

  test("the estimate held at admission prices unpriced models at the ceiling and names them; priced ones as the estimate does", () => {
    const providers = [
      { id: "openai" as const, model: "gpt-5-mini", extractionModel: "gpt-5-mini", simulated: false },
      { id: "gemini" as const, model: "gemini-9-unpriced", extractionModel: "gemini-9-unpriced", simulated: false },
    ];
    expect(estimateCost(4, providers, DEFAULT_PRICES).usd).toBeNull();
    const charge = estimateCharge(4, providers, DEFAULT_PRICES);
    expect(charge.unpriced).toEqual(["gemini-9-unpriced"]);
    expect(charge.usd).toBeCloseTo(estimateCost(4, [providers[0]!], DEFAULT_PRICES).usd! + 4 * 0.1075, 12);
    expect(estimateCharge(4, [providers[0]!], DEFAULT_PRICES)).toEqual({ usd: estimateCost(4, [providers[0]!], DEFAULT_PRICES).usd!, unpriced: [] });
  });
});

describe("the spend variables", () => {
  const dataDir = () => mkdtempSync(join(tmpdir(), "env-spend-"));

  test("defaults: trackers get half the day, unpriced models are charged the ceiling, 20 trackers, 1,500 answers a run, 30 Run now a day", () => {
    expect(parseEnv({ DATA_DIR: dataDir() })).toMatchObject({
      TRACKER_SPEND_SHARE: 0.5,
      UNPRICED_MODELS: "charge-ceiling",
      MAX_TRACKERS_PER_ACCOUNT: 20,
      MAX_TRACKER_RUN_ANSWERS: 1500,
      TRACKER_MANUAL_RUNS_PER_DAY: 30,
    });
  });

  test("bad values stop the start naming the variable", () => {
    expect(() => parseEnv({ DATA_DIR: dataDir(), TRACKER_SPEND_SHARE: "1.5" })).toThrow(
      /^Invalid environment variable TRACKER_SPEND_SHARE: expected a share from 0 to 1/,
    );
    expect(() => parseEnv({ DATA_DIR: dataDir(), TRACKER_SPEND_SHARE: "half" })).toThrow("TRACKER_SPEND_SHARE");
    expect(() => parseEnv({ DATA_DIR: dataDir(), UNPRICED_MODELS: "free" })).toThrow(
      /^Invalid environment variable UNPRICED_MODELS: expected charge-ceiling or refuse/,
    );
    expect(() => parseEnv({ DATA_DIR: dataDir(), MAX_TRACKER_RUN_ANSWERS: "0" })).toThrow("MAX_TRACKER_RUN_ANSWERS");
    expect(parseEnv({ DATA_DIR: dataDir(), UNPRICED_MODELS: "refuse", TRACKER_SPEND_SHARE: "0.25" })).toMatchObject({
      UNPRICED_MODELS: "refuse",
      TRACKER_SPEND_SHARE: 0.25,
    });
  });
});
