import type { ProviderId } from "#src/contract/providers.ts";
import { SEARCH_RESULT_VERSION, type ModelResult, type RunRecord, type SavedSearchResult } from "#src/contract/search-result.ts";

/** One provider's answer, for tests: answered with web search, nothing found unless `parts` says so. */
export function modelResult(provider: ProviderId, parts: Partial<ModelResult> = {}): ModelResult {
  return {
    provider,
    status: "ok",
    simulated: false,
    modelName: `${provider}-model`,
    modelVersion: `${provider}-model-1`,
    products: [],
    companies: [],
    sources: [],
    searched: true,
    searchQueries: [],
    usage: { inputTokens: 100, outputTokens: 50, searches: 1 },
    extraction: "inline",
    durationMs: 1000,
    ...parts,
  };
}

/** One completed iteration as kept with a result, for tests: empty unless `parts` says so. */
export function runRecord(parts: Partial<RunRecord> = {}): RunRecord {
  return { status: "ok", products: [], companies: [], sources: [], searchQueries: [], text: "", ...parts };
}

/** A saved search, for tests: no providers, no runs kept, unless `parts` says so. */
export function savedResult(parts: Partial<SavedSearchResult> = {}): SavedSearchResult {
  return {
    schemaVersion: SEARCH_RESULT_VERSION,
    id: "search-1",
    query: "best wiki for startups",
    createdAt: "2026-11-23T09:00:00.000Z",
    executionTimeMs: 1000,
    totalLinks: 0,
    totalProducts: 0,
    totalCompanies: 0,
    iterationCount: 1,
    models: {},
    stats: {},
    commonProducts: [],
    commonCompanies: [],
    commonSources: [],
    ...parts,
  };
}
