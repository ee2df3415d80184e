import type { TrendPoint } from "#src/contract/trend.ts";

/** A trend point as the API answers one (the brand on ChatGPT, 6 of 10 answers), with what a test changes. */
export function trendPoint(overrides: Partial<TrendPoint> = {}): TrendPoint {
  return {
    runId: "run-1",
    at: "2026-11-26T09:00:00.000Z",
    provider: "openai",
    subject: "HubSpot",
    isBrand: true,
    n: 10,
    k: 6,
    rate: 60,
    low: 31.27,
    high: 83.18,
    modelVersion: "gpt-5.1-2025-11-13",
    ...overrides,
  };
}
