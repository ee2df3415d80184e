import * as v from "valibot";

export const FREE_ITERATIONS = 1;
export const PRO_ITERATION_CHOICES = [1, 5, 10, 25, 50, 100] as const;
export const MAX_ITERATIONS = 100;

/** Spec §5: the search query is required; iterations are a whole number from 1 to 100. */
export const SearchQuery = v.pipe(v.string("Search query is required"), v.trim(), v.minLength(1, "Search query is required"), v.maxLength(500, "Search query must be at most 500 characters"));

export const Iterations = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\s*\d+\s*$/, "Iterations must be a whole number"), v.transform(Number))], "Iterations must be a whole number"),
  v.integer("Iterations must be a whole number"),
  v.minValue(1, "Iterations must be at least 1"),
  v.maxValue(MAX_ITERATIONS, `Iterations must be at most ${MAX_ITERATIONS}`),
);

export const SearchOptions = v.object({
  openaiContextSize: v.optional(v.picklist(["low", "medium", "high"], "openaiContextSize must be low, medium or high")),
  anthropicMaxUses: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20))),
  geminiThreshold: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  iterations: v.optional(Iterations),
});

export const SearchRequest = v.object({
  query: SearchQuery,
  iterations: v.optional(Iterations, FREE_ITERATIONS),
  options: v.optional(SearchOptions, {}),
});
export type SearchRequest = v.InferInput<typeof SearchRequest>;
