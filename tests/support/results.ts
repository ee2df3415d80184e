import type { ProviderId } from "#src/contract/providers.ts";
import type { ModelResult } from "#src/contract/search.ts";

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
