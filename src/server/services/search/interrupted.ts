import * as v from "valibot";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { offModelResult, SearchOptions, StoredSearchResult, type ModelResult, type SearchResult } from "#src/contract/search.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";

export const PROVIDER_INTERRUPTED = "Interrupted: the server stopped before this provider answered.";

/**
 * An interrupted search as its saved page shows it: what finished before the server stopped (the
 * row's last checkpoint), and an error card saying so for every provider that had not answered,
 * so the page explains itself even when nothing finished.
 */
export function interruptedResult(row: { result: unknown; query: string; iterations: number; options: unknown }): SearchResult {
  const partial = row.result ? v.parse(StoredSearchResult, row.result) : buildSearchResult({ query: row.query, executionTimeMs: 0, iterations: row.iterations, runs: {} });
  const options = v.safeParse(SearchOptions, row.options);
  const models = { ...partial.models };
  for (const id of providerIds) models[id] ??= interruptedCard(id);
  return { ...partial, models, ...(options.success ? { options: options.output } : {}) };
}

function interruptedCard(provider: ProviderId): ModelResult {
  return { ...offModelResult(provider), status: "error", stopped: "interrupted", error: PROVIDER_INTERRUPTED };
}
