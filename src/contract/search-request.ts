/* What a search asks for: the query, the iterations and the providers' options (POST /api/search and its stream). */
import * as v from "valibot";

import { FREE_ITERATIONS, MAX_ITERATIONS, QUERY_MAX_LENGTH } from "./constants.ts";
import { Location, LocationInput } from "./location.ts";
import { visibleOnly } from "./visible-input.ts";

/** Spec §5: the search query is required. Without an invisible character (a search's, a tracker's, a variant's). */
export const SearchQuery = v.pipe(
  v.string("Search query is required"),
  v.trim(),
  v.minLength(1, "Search query is required"),
  v.maxLength(QUERY_MAX_LENGTH, `Search query must be at most ${QUERY_MAX_LENGTH} characters`),
  visibleOnly("Search query"),
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
    v.pipe(
      v.number("anthropicMaxUses must be a number"),
      v.integer("anthropicMaxUses must be a whole number"),
      v.minValue(1, "anthropicMaxUses must be at least 1"),
      v.maxValue(20, "anthropicMaxUses must be at most 20"),
    ),
  ),
  /**
   * Accepted and stored for compatibility; Gemini ≥ 2.0 always grounds with Google Search
   * (`googleSearchRetrieval`'s dynamic threshold no longer exists).
   */
  geminiThreshold: v.optional(
    v.pipe(
      v.number("geminiThreshold must be a number"),
      v.minValue(0, "geminiThreshold must be between 0 and 1"),
      v.maxValue(1, "geminiThreshold must be between 0 and 1"),
    ),
  ),
  iterations: v.optional(Iterations),
  /**
   * Where the search is asked from: each provider's web search tool that takes it gets it as the
   * approximate user location; the others' cards say they do not (ADR 042). Free: it costs no more.
   */
  location: v.optional(Location),
});
export type SearchOptions = v.InferOutput<typeof SearchOptions>;

/** SearchOptions as a request writes them: the location's place names checked (LocationInput); a saved search's are read back as SearchOptions. */
const SearchOptionsInput = v.object({ ...SearchOptions.entries, location: v.optional(LocationInput) });

/** What a search asks the providers' web search for when the options say nothing. */
export const DEFAULT_OPENAI_CONTEXT_SIZE = "medium";
export const DEFAULT_ANTHROPIC_MAX_USES = 5;

/**
 * The option a free caller may not choose, in words for the refusal; undefined if there is none.
 * Asking the providers for more than a default search does (a "high" context, more than 5 web
 * searches per answer) costs the most, and that is Pro (ADR 026).
 */
export function proOnlyOption(options: SearchOptions): string | undefined {
  if (options.openaiContextSize === "high") return 'openaiContextSize "high"';
  if (options.anthropicMaxUses !== undefined && options.anthropicMaxUses > DEFAULT_ANTHROPIC_MAX_USES)
    return `anthropicMaxUses above ${DEFAULT_ANTHROPIC_MAX_USES}`;
  return undefined;
}

export const SearchRequest = v.object(
  {
    query: SearchQuery,
    iterations: v.optional(Iterations),
    options: v.optional(SearchOptionsInput, {}),
  },
  "The body must be a JSON object with a query",
);
export type SearchRequest = v.InferInput<typeof SearchRequest>;
export type ParsedSearchRequest = v.InferOutput<typeof SearchRequest>;

/** Iterations may come at the top level or inside options (spec §7); the top level wins. */
export function requestedIterations(request: ParsedSearchRequest): number {
  return request.iterations ?? request.options.iterations ?? FREE_ITERATIONS;
}
