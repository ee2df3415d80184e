import * as v from "valibot";
import { ProviderId, ProviderMode, SearchQuery, Iterations } from "./search.ts";

/** A rephrasing of the query, and why a person might type it. */
export const Variant = v.object({ query: SearchQuery, reasoning: v.optional(v.string()) });
export type Variant = v.InferOutput<typeof Variant>;

/** POST /api/generate-variants (spec §7). */
export const GenerateVariants = v.object(
  {
    query: SearchQuery,
    iterations: v.optional(Iterations, 1),
    /** Start the searches of the variants as a batch too. */
    executeSearches: v.optional(v.boolean("executeSearches must be true or false"), false),
  },
  "The body must be a JSON object with a query",
);

export const GeneratedVariants = v.object({
  variants: v.array(v.object({ query: v.string(), reasoning: v.string() })),
  /** Which model wrote them. */
  generatedBy: v.object({ provider: ProviderId, model: v.string(), mode: ProviderMode }),
  /** With executeSearches: the batch running them. */
  batchId: v.optional(v.string()),
});
export type GeneratedVariants = v.InferOutput<typeof GeneratedVariants>;

export const BatchItemStatus = v.picklist(["pending", "queued", "running", "completed", "failed"]);
export type BatchItemStatus = v.InferOutput<typeof BatchItemStatus>;

/** One query of a batch: its search, once it has run. */
export const BatchItem = v.object({
  position: v.number(),
  query: v.string(),
  reasoning: v.nullable(v.string()),
  status: BatchItemStatus,
  searchId: v.nullable(v.string()),
  error: v.nullable(v.string()),
});
export type BatchItem = v.InferOutput<typeof BatchItem>;

/** Variants of one query, run as a batch that outlives the page (saved; runs on the server's job queue). */
export const VariantBatch = v.object({
  id: v.string(),
  query: v.string(),
  iterations: v.number(),
  createdAt: v.string(),
  items: v.array(BatchItem),
});
export type VariantBatch = v.InferOutput<typeof VariantBatch>;

/** POST /api/variant-batches: the variants as the person kept, edited or added them. */
export const CreateBatch = v.object(
  {
    query: SearchQuery,
    iterations: v.optional(Iterations, 1),
    variants: v.pipe(v.array(Variant, "variants must be a list"), v.minLength(1, "Add at least one variant"), v.maxLength(20, "At most 20 variants")),
  },
  "The body must be a JSON object with a query and variants",
);

/** POST /api/variant-batches/{id}/run: which items to run (positions); all not yet completed when absent. */
export const RunBatch = v.object({ positions: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0)))) });

/** GET /api/variant-batches?query=: the caller's latest batch for a query, if any. */
export const LatestBatch = v.object({ batch: v.nullable(VariantBatch) });
