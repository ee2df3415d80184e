import * as v from "valibot";

import { FREE_ITERATIONS, MAX_ITERATIONS, providerIds } from "./constants.ts";

export { FREE_ITERATIONS, MAX_ITERATIONS, PRO_ITERATION_CHOICES, providerIds } from "./constants.ts";
export const ProviderId = v.picklist(providerIds);
export type ProviderId = v.InferOutput<typeof ProviderId>;

/** live: the real service with our key; simulated: our loopback simulator; off: not connected. */
export const ProviderMode = v.picklist(["live", "simulated", "off"]);
export type ProviderMode = v.InferOutput<typeof ProviderMode>;


// ---------------------------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------------------------

/** Spec §5: the search query is required. */
export const SearchQuery = v.pipe(
  v.string("Search query is required"),
  v.trim(),
  v.minLength(1, "Search query is required"),
  v.maxLength(500, "Search query must be at most 500 characters"),
);

/** Spec §5: coerced to a whole number from 1 to 100. */
export const Iterations = v.pipe(
  v.union(
    [v.number(), v.pipe(v.string(), v.regex(/^\s*\d+\s*$/, "Iterations must be a whole number"), v.transform(Number))],
    "Iterations must be a whole number",
  ),
  v.integer("Iterations must be a whole number"),
  v.minValue(1, "Iterations must be at least 1"),
  v.maxValue(MAX_ITERATIONS, `Iterations must be at most ${MAX_ITERATIONS}`),
);

export const SearchOptions = v.object({
  /** OpenAI web_search `search_context_size`. */
  openaiContextSize: v.optional(v.picklist(["low", "medium", "high"], "openaiContextSize must be low, medium or high")),
  /** Anthropic web_search `max_uses`. */
  anthropicMaxUses: v.optional(
    v.pipe(v.number("anthropicMaxUses must be a number"), v.integer("anthropicMaxUses must be a whole number"), v.minValue(1, "anthropicMaxUses must be at least 1"), v.maxValue(20, "anthropicMaxUses must be at most 20")),
  ),
  /**
   * Accepted and stored for compatibility; Gemini ≥ 2.0 always grounds with Google Search
   * (`googleSearchRetrieval`'s dynamic threshold no longer exists).
   */
  geminiThreshold: v.optional(v.pipe(v.number("geminiThreshold must be a number"), v.minValue(0, "geminiThreshold must be between 0 and 1"), v.maxValue(1, "geminiThreshold must be between 0 and 1"))),
  iterations: v.optional(Iterations),
});
export type SearchOptions = v.InferOutput<typeof SearchOptions>;

export const SearchRequest = v.object(
  {
    query: SearchQuery,
    iterations: v.optional(Iterations),
    options: v.optional(SearchOptions, {}),
  },
  "The body must be a JSON object with a query",
);
export type SearchRequest = v.InferInput<typeof SearchRequest>;
export type ParsedSearchRequest = v.InferOutput<typeof SearchRequest>;

/** Iterations may come at the top level or inside options (spec §7); the top level wins. */
export function requestedIterations(request: ParsedSearchRequest): number {
  return request.iterations ?? request.options.iterations ?? FREE_ITERATIONS;
}

// ---------------------------------------------------------------------------------------------
// Result
// ---------------------------------------------------------------------------------------------

export const Product = v.object({
  name: v.string(),
  rank: v.optional(v.number()),
  details: v.optional(v.string()),
});
export type Product = v.InferOutput<typeof Product>;

export const Company = v.object({
  name: v.string(),
  products: v.optional(v.array(v.string())),
});
export type Company = v.InferOutput<typeof Company>;

/** A source from the provider's citation metadata; `cited` false = retrieved but not cited. */
export const Source = v.object({
  url: v.string(),
  title: v.optional(v.string()),
  cited: v.boolean(),
});
export type Source = v.InferOutput<typeof Source>;

export const Usage = v.object({
  inputTokens: v.number(),
  outputTokens: v.number(),
  /** Web searches the provider billed for. */
  searches: v.number(),
});
export type Usage = v.InferOutput<typeof Usage>;

/** One provider's answer (spec §3 "Model result"), with what the spec leaves out but users need. */
export const ModelResult = v.object({
  provider: ProviderId,
  status: v.picklist(["ok", "error", "off"]),
  simulated: v.boolean(),
  modelName: v.string(),
  modelVersion: v.string(),
  products: v.array(Product),
  companies: v.array(Company),
  sources: v.array(Source),
  rawResponse: v.optional(v.string()),
  /** Whether the model ran a web search at all. */
  searched: v.boolean(),
  /** The queries the model sent to its search engine (fan-out). */
  searchQueries: v.array(v.string()),
  usage: Usage,
  /** inline: parsed from the answer; fallback: a second extraction call; none: nothing usable. */
  extraction: v.picklist(["inline", "fallback", "none"]),
  durationMs: v.number(),
  error: v.optional(v.string()),
});
export type ModelResult = v.InferOutput<typeof ModelResult>;

const providerFlags = { openai: v.boolean(), anthropic: v.boolean(), gemini: v.boolean() };
export const CommonItem = v.object({ name: v.string(), ...providerFlags });
export type CommonItem = v.InferOutput<typeof CommonItem>;
export const CommonSource = v.object({ url: v.string(), ...providerFlags });
export type CommonSource = v.InferOutput<typeof CommonSource>;

/** How often an item came back over N iterations, with a 95% Wilson interval (0..100). */
export const Frequency = v.object({
  name: v.string(),
  count: v.number(),
  percentage: v.number(),
  low: v.number(),
  high: v.number(),
});
export type Frequency = v.InferOutput<typeof Frequency>;

export const AggregatedStats = v.object({
  /** Iterations that completed for this provider (the denominator of every percentage). */
  iterations: v.number(),
  failedIterations: v.number(),
  productFrequencies: v.array(Frequency),
  companyFrequencies: v.array(Frequency),
  sourceFrequencies: v.array(Frequency),
  /** Per completed iteration, its top 3 product names in rank order (for stability summaries). */
  topProductsPerRun: v.array(v.array(v.string())),
});
export type AggregatedStats = v.InferOutput<typeof AggregatedStats>;

export const SearchResult = v.object({
  id: v.optional(v.string()),
  query: v.string(),
  createdAt: v.optional(v.string()),
  executionTimeMs: v.number(),
  totalLinks: v.number(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  iterationCount: v.number(),
  commonProducts: v.array(CommonItem),
  commonCompanies: v.array(CommonItem),
  commonSources: v.array(CommonSource),
  openai: ModelResult,
  anthropic: ModelResult,
  gemini: ModelResult,
  openaiAggregatedStats: v.optional(AggregatedStats),
  anthropicAggregatedStats: v.optional(AggregatedStats),
  geminiAggregatedStats: v.optional(AggregatedStats),
  options: v.optional(SearchOptions),
  /** How many searches the caller has left today (free tier); absent for Pro. */
  remainingSearches: v.optional(v.number()),
});
export type SearchResult = v.InferOutput<typeof SearchResult>;

// ---------------------------------------------------------------------------------------------
// Streaming (Server-Sent Events on POST /api/search/stream)
// ---------------------------------------------------------------------------------------------

export type SearchEvent =
  | { type: "started"; query: string; iterations: number; modes: Record<ProviderId, ProviderMode>; remainingSearches?: number }
  | { type: "progress"; provider: ProviderId; completed: number; failed: number; total: number }
  | { type: "result"; provider: ProviderId; result: ModelResult }
  | { type: "done"; id: string; result: SearchResult }
  | { type: "error"; message: string; status: number; remainingSearches?: number };

// ---------------------------------------------------------------------------------------------
// History and status
// ---------------------------------------------------------------------------------------------

export const SavedSearchListItem = v.object({
  id: v.string(),
  query: v.string(),
  timestamp: v.string(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  totalLinks: v.number(),
  iterationCount: v.number(),
  status: v.string(),
});
export type SavedSearchListItem = v.InferOutput<typeof SavedSearchListItem>;

export const SavedSearchList = v.object({
  searches: v.array(SavedSearchListItem),
  /** Pass as `before` to get the next page; absent on the last page. */
  nextCursor: v.optional(v.string()),
});
export type SavedSearchList = v.InferOutput<typeof SavedSearchList>;

export const SavedSearchListQuery = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^\d+$/, "limit must be a whole number"), v.transform(Number), v.minValue(1, "limit must be at least 1"), v.maxValue(100, "limit must be at most 100")),
  ),
  before: v.optional(v.pipe(v.string(), v.isoTimestamp("before must be an ISO timestamp"))),
});

export const ApiStatus = v.object({
  openai: v.boolean(),
  anthropic: v.boolean(),
  gemini: v.boolean(),
  modes: v.object({ openai: ProviderMode, anthropic: ProviderMode, gemini: ProviderMode }),
});
export type ApiStatus = v.InferOutput<typeof ApiStatus>;
