import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PriceRow } from "#src/contract/prices.ts";
import { perProvider, providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";

/*
 * A known price table for the cost tests (ADR 041): whatever the default models are today, each
 * search model at SEARCH_PRICE (Gemini's searches priced per grounded prompt), and each provider's
 * reading model, named apart (the defaults may be one model for both), at READING_PRICE.
 */

export const SEARCH_PRICE = { inputPerMTok: 1, cachedInputPerMTok: 0.1, outputPerMTok: 10, searchesPerK: 10 };
export const READING_PRICE = { inputPerMTok: 0.5, cachedInputPerMTok: 0.05, outputPerMTok: 2, searchesPerK: 0 };

/** The reading model each provider is given (its extraction-model variable), priced apart from the search model. */
export const READER = perProvider((id) => `test-reader-${id}`);

export function testPrices(): PriceRow[] {
  const row = (model: string, price: typeof SEARCH_PRICE, searchUnit: PriceRow["searchUnit"] = "search"): PriceRow => ({
    model,
    ...price,
    searchUnit,
    source: "test",
    read: "2026-11-26",
  });
  return providerIds.flatMap((id) => [
    id === "gemini"
      ? row(providerConfig[id].defaultModel, { ...SEARCH_PRICE, searchesPerK: 35 }, "prompt")
      : row(providerConfig[id].defaultModel, SEARCH_PRICE),
    row(READER[id], READING_PRICE),
  ]);
}

/** The rows written to a new file, for PRICES_FILE. */
export function pricesFile(rows: PriceRow[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "prices-")), "prices.json");
  writeFileSync(file, JSON.stringify(rows));
  return file;
}
