import * as v from "valibot";
import { BATCH_ITEM_STATUSES } from "./batch-status.ts";
import { MAX_VARIANTS, QUERY_MAX_LENGTH } from "./constants.ts";
import { ProviderId, ProviderMode } from "./provider-schemas.ts";
import { SearchQuery, Iterations } from "./search-request.ts";
import { visibleOnly } from "./visible-input.ts";

export { MAX_VARIANTS } from "./constants.ts";
export { isActive, isFinished, isRunnable } from "./batch-status.ts";

/** A rephrasing of the query, and why a person might type it. */
export const Variant = v.object({ query: SearchQuery, reasoning: v.optional(v.string()), own: v.optional(v.boolean()) });
export type Variant = v.InferOutput<typeof Variant>;

/** POST /api/generate-variants (spec §7). */
export const GenerateVariants = v.object(
  {
    query: SearchQuery,
    iterations: v.optional(Iterations, 1),
    /** Start the searches of the variants as a batch too. */
    executeSearches: v.optional(v.boolean("executeSearches must be true or false"), false),
    /** Write a new set even though one is saved for this query (it replaces the saved one, edits and all). */
    regenerate: v.optional(v.boolean("regenerate must be true or false"), false),
  },
  "The body must be a JSON object with a query",
);

/** Which model wrote a set of variants. */
export const GeneratedBy = v.object({ provider: ProviderId, model: v.string(), mode: ProviderMode });
export type GeneratedBy = v.InferOutput<typeof GeneratedBy>;

/** A variant of a saved set: `reasoning` is "" for one the person wrote (`own`). */
export const SavedVariant = v.object({ query: v.string(), reasoning: v.string(), own: v.optional(v.boolean()) });
export type SavedVariant = v.InferOutput<typeof SavedVariant>;

/**
 * The caller's current variants of a query: written once, kept (with the person's edits) until
 * they ask for new ones. Spec §7's answer (`variants`, each a query and reasoning) is its first field.
 */
export const VariantSet = v.object({
  variants: v.array(SavedVariant),
  /** Absent for a set first saved as a batch of the person's own (POST /api/variant-batches). */
  generatedBy: v.optional(GeneratedBy),
  /** The original query, as first asked. */
  query: v.string(),
  /** The person changed the list since it was written. */
  edited: v.boolean(),
  /** The batch the set ran as (executeSearches, or a batch saved from it): its queries are fixed from then on. */
  batchId: v.optional(v.string()),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type VariantSet = v.InferOutput<typeof VariantSet>;

/** POST /api/generate-variants answers the saved set (written now, or earlier). */
export const GeneratedVariants = VariantSet;
export type GeneratedVariants = VariantSet;

/** GET /api/variants and /api/variant-batches: `?query=`, the original query. */
export const QueryParam = v.object({
  query: v.pipe(
    v.string("query is required"),
    v.trim(),
    v.minLength(1, "query is required"),
    v.maxLength(QUERY_MAX_LENGTH, `query must be at most ${QUERY_MAX_LENGTH} characters`),
  ),
});

/** GET /api/variants?query=: the caller's saved set for a query, or null before one is written. */
export const CurrentVariants = v.object({ set: v.nullable(VariantSet) });

/** A variant's reasoning is one line: a model's longer one is cut to this (the page's edits send it back). */
export const MAX_VARIANT_REASONING = 500;

/** A variant as the person is editing it: its query may be blank or repeat another until the set runs. */
const DraftVariant = v.object({
  query: v.pipe(
    v.string("Each variant needs a query"),
    v.maxLength(QUERY_MAX_LENGTH, `A variant must be at most ${QUERY_MAX_LENGTH} characters`),
    visibleOnly("A variant"),
  ),
  reasoning: v.optional(v.pipe(v.string(), v.maxLength(MAX_VARIANT_REASONING, `A reasoning must be at most ${MAX_VARIANT_REASONING} characters`)), ""),
  own: v.optional(v.boolean()),
});

/** PUT /api/variants: the saved set of a query, as the person edited it. */
export const SaveVariants = v.object(
  {
    query: SearchQuery,
    variants: v.pipe(
      v.array(DraftVariant, "variants must be a list"),
      v.minLength(1, "Keep at least one variant"),
      v.maxLength(MAX_VARIANTS, `At most ${MAX_VARIANTS} variants`),
    ),
  },
  "The body must be a JSON object with a query and variants",
);
export type SaveVariants = v.InferInput<typeof SaveVariants>;

export const BatchItemStatus = v.picklist(BATCH_ITEM_STATUSES);
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
    variants: v.pipe(
      v.array(Variant, "variants must be a list"),
      v.minLength(1, "Add at least one variant"),
      v.maxLength(MAX_VARIANTS, `At most ${MAX_VARIANTS} variants`),
    ),
  },
  "The body must be a JSON object with a query and variants",
);

/** POST /api/variant-batches/{id}/run: which items to run (positions); all not yet completed when absent. */
export const RunBatch = v.object({ positions: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0)))) });

/** GET /api/variant-batches?query=: the caller's latest batch for a query, if any. */
export const LatestBatch = v.object({ batch: v.nullable(VariantBatch) });

/**
 * POST /api/question-suggestions: buyer questions for a tracker, written by the variants' model
 * from a category ("CRM for small teams") and the brand; none of `exclude` (the form's questions) is proposed again.
 */
export const SuggestQuestions = v.object(
  {
    category: v.pipe(
      v.string("category must be text"),
      v.trim(),
      v.minLength(1, "category is required"),
      v.maxLength(QUERY_MAX_LENGTH, `category must be at most ${QUERY_MAX_LENGTH} characters`),
      visibleOnly("category"),
    ),
    brand: v.optional(v.pipe(v.string("brand must be text"), v.trim(), v.maxLength(80, "brand must be at most 80 characters"), visibleOnly("brand"))),
    exclude: v.optional(v.pipe(v.array(v.string("exclude must be a list of questions")), v.maxLength(50, "exclude may hold at most 50 questions")), []),
  },
  "The body must be a JSON object with a category",
);
export type SuggestQuestions = v.InferOutput<typeof SuggestQuestions>;

/** The suggested questions (none saved), each with one line on who would ask it, and which model wrote them. */
export const QuestionSuggestions = v.object({
  suggestions: v.array(v.object({ query: v.string(), reasoning: v.string() })),
  generatedBy: GeneratedBy,
});
export type QuestionSuggestions = v.InferOutput<typeof QuestionSuggestions>;
