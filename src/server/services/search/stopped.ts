import * as v from "valibot";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { SearchOptions } from "#src/contract/search-request.ts";
import { offModelResult, type ModelResult, type SearchResult, type StoppedStatus } from "#src/contract/search-result.ts";
import { StoredSearchResult } from "#src/contract/search-wire.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";

export const PROVIDER_INTERRUPTED = "Interrupted: the server stopped before this provider answered.";
export const PROVIDER_CANCELLED = "Cancelled before this provider answered.";

/**
 * A search stopped part-way, as its saved page shows it: what had finished (its server stopped:
 * the row's last checkpoint; cancelled: what had finished when it was), and an error card saying
 * so for every provider that had not answered, so the page explains itself (ADR 018, ADR 030).
 */
export function stoppedResult(row: { result: unknown; query: string; iterations: number; options: unknown }, how: StoppedStatus): SearchResult {
  const partial = row.result
    ? v.parse(StoredSearchResult, row.result)
    : buildSearchResult({ query: row.query, executionTimeMs: 0, iterations: row.iterations, runs: {} });
  const options = v.safeParse(SearchOptions, row.options);
  const models = { ...partial.models };
  for (const id of providerIds) models[id] ??= stoppedCard(id, how);
  return { ...partial, models, ...(options.success ? { options: options.output } : {}) };
}

function stoppedCard(provider: ProviderId, how: StoppedStatus): ModelResult {
  return { ...offModelResult(provider), status: "error", stopped: how, error: how === "cancelled" ? PROVIDER_CANCELLED : PROVIDER_INTERRUPTED };
}
