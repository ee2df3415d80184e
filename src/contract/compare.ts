import * as v from "valibot";
import { Rate, SimulatedProviders } from "./lens.ts";
import { ProviderId } from "./provider-schemas.ts";

/** GET /api/compare: the original query and its variants (spec: compareQuery and compareVariants, repeated). */
export const CompareQuery = v.object({
  compareQuery: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1))),
  compareVariants: v.optional(v.union([v.pipe(v.string(), v.trim(), v.minLength(1)), v.array(v.pipe(v.string(), v.trim(), v.minLength(1)))])),
});

/** The saved search a query matched (the caller's latest, case-insensitive on the query text). */
export const ComparedSearch = v.object({
  query: v.string(),
  role: v.picklist(["original", "variant"]),
  id: v.string(),
  createdAt: v.string(),
  iterationCount: v.number(),
  /** The providers it asked (providersAsked): one saved before a provider joined did not ask it. */
  providers: v.array(ProviderId),
  /** Per provider, whether its answers in this search were simulated. */
  simulated: SimulatedProviders,
});
export type ComparedSearch = v.InferOutput<typeof ComparedSearch>;

/** In one search: which providers returned the item (in any completed iteration), and how often over the iterations (when there were several). */
export const ItemInSearch = v.object({
  providers: v.array(ProviderId),
  /** Per provider that returned it: in how many of its completed iterations (1 of 1 for a single answer). */
  returned: v.optional(v.record(ProviderId, v.object({ count: v.number(), n: v.number() }))),
  /** Over every provider's completed iterations together; absent for single-iteration searches. */
  frequency: v.optional(Rate),
});

/** An item against the original: the difference of frequencies and whether it is significant (Fisher's exact test, two-sided, α = 0.05). */
export const Difference = v.object({ pValue: v.number(), significant: v.boolean() });

export const ComparedItem = v.object({
  name: v.string(),
  /** Keyed by search id. */
  in: v.record(v.string(), ItemInSearch),
  /** Keyed by the variant's search id, against the original; only where both have several iterations. */
  difference: v.record(v.string(), Difference),
});
export type ComparedItem = v.InferOutput<typeof ComparedItem>;

const Top = v.array(v.object({ name: v.string(), searches: v.number() }));

export const CompareReport = v.object({
  searches: v.array(ComparedSearch),
  /** Queries asked for that match no saved search. */
  missing: v.array(v.string()),
  summary: v.object({
    uniqueProducts: v.number(),
    uniqueCompanies: v.number(),
    uniqueSources: v.number(),
    /** Spec §2: the top 5 of each by the number of searches containing them. */
    topProducts: Top,
    topCompanies: Top,
    topSources: Top,
  }),
  products: v.array(ComparedItem),
  companies: v.array(ComparedItem),
  sources: v.array(ComparedItem),
  /** Per search id, the web searches the models issued (fan-out), with how many iterations issued each. */
  fanOut: v.record(v.string(), v.array(v.object({ query: v.string(), count: v.number() }))),
});
export type CompareReport = v.InferOutput<typeof CompareReport>;
