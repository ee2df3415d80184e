/* A search's result as the product keeps it: each provider's answer and statistics, keyed by provider id. */
import * as v from "valibot";

import { ProviderFailure, ProviderId } from "./provider-schemas.ts";
import { providerIds } from "./providers.ts";
import { truncationKinds, truncationOf, type Truncation as TruncationType, providerConfig } from "./provider-config.ts";
import { LocationApplied } from "./location.ts";
import { SearchOptions } from "./search-request.ts";

/**
 * Where the answer first names an item: [start, end) in its text (rawResponse, UTF-16 offsets),
 * and the item's place among its kind (products or companies) in order of first mention, from 1.
 * Absent when the answer never names it in so many words, and in results saved before it was kept.
 */
export const Mention = v.object({ start: v.number(), end: v.number(), order: v.number() });
export type Mention = v.InferOutput<typeof Mention>;

export const Product = v.object({
  name: v.string(),
  rank: v.optional(v.number()),
  details: v.optional(v.string()),
  mention: v.optional(Mention),
});
export type Product = v.InferOutput<typeof Product>;

export const Company = v.object({
  name: v.string(),
  products: v.optional(v.array(v.string())),
  mention: v.optional(Mention),
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
  /** Every input token, those read from the provider's cache included. */
  inputTokens: v.number(),
  outputTokens: v.number(),
  /** Web searches the provider billed for. */
  searches: v.number(),
  /** Of `inputTokens`, those read from the provider's cache (billed less); absent in results saved before it was kept. */
  cachedInputTokens: v.optional(v.number()),
  /**
   * What the provider itself says the call cost, in USD (Perplexity's `usage.cost`): its total and
   * the part for web searches. Priced from this rather than the price table where present.
   */
  reportedUsd: v.optional(v.object({ total: v.number(), searches: v.number() })),
});
export type Usage = v.InferOutput<typeof Usage>;

/**
 * What answers cost, in USD, from their usage and the price table (ADR 041): the search call's
 * tokens, its web searches, and the call that read the answer. `null` is unknown (a model the
 * table has no price for, or usage a result saved before did not keep), never $0.
 */
export const Cost = v.object({
  usd: v.nullable(v.number()),
  searchTokensUsd: v.nullable(v.number()),
  searchesUsd: v.nullable(v.number()),
  readingUsd: v.nullable(v.number()),
  /** Simulated answers: $0, and said so. */
  simulated: v.boolean(),
  /** The models without a price that made it unknown. */
  unpriced: v.optional(v.array(v.string())),
});
export type Cost = v.InferOutput<typeof Cost>;

/** A search's cost: each provider's over all its iterations, and the total. */
export const SearchCost = v.object({ total: Cost, providers: v.record(ProviderId, Cost) });
export type SearchCost = v.InferOutput<typeof SearchCost>;

/**
 * A cut answer: what the provider's finish signal means (its catalogue row's truncationSignals)
 * and the signal as sent. Results saved before the kind was kept hold the signal alone, a string:
 * it reads back through the same catalogue rows (a signal two providers send means the same to both), so the
 * meaning of a signal is written once and an old result shows the note it always did.
 */
export const Truncation = v.union([v.object({ kind: v.picklist(truncationKinds), signal: v.string() }), v.pipe(v.string(), v.transform(savedSignal))]);
export type Truncation = TruncationType;

function savedSignal(signal: string): TruncationType {
  const provider = providerIds.find((id) => Object.hasOwn(providerConfig[id].truncationSignals, signal));
  return provider ? truncationOf(provider, signal) : { kind: "other", signal };
}

/** One provider's answer (spec §3 "Model result"), with what the spec leaves out but users need. */
export const ModelResult = v.object({
  provider: ProviderId,
  status: v.picklist(["ok", "error", "off"]),
  simulated: v.boolean(),
  modelName: v.string(),
  modelVersion: v.string(),
  /** The web-search tool it was asked with (provider-config searchTool); absent in answers saved before it was kept. */
  searchTool: v.optional(v.string()),
  products: v.array(Product),
  companies: v.array(Company),
  sources: v.array(Source),
  rawResponse: v.optional(v.string()),
  /** Whether the model ran a web search at all. */
  searched: v.boolean(),
  /** The queries the model sent to its search engine (fan-out). */
  searchQueries: v.array(v.string()),
  /** The search call's usage. */
  usage: Usage,
  /**
   * How the provider was asked: "as typed", the person's query and nothing else (ADR 039). Absent
   * in answers saved before, which were asked the query followed by instructions to end the answer
   * with a JSON list of the products it recommends.
   */
  asked: v.optional(v.picklist(["as typed"])),
  /**
   * How the products and companies were read from the answer: by the extraction model's call
   * (`extractor`), or, when that call failed, by the deterministic reading of the prose (`prose`);
   * `none` when there was no answer text. Answers asked the old way were read from their JSON block
   * (`inline`) or, without one, by a second call (`fallback`).
   */
  extraction: v.picklist(["extractor", "prose", "none", "inline", "fallback"]),
  /** The model that read the answer (`extraction: "extractor"`), and what its call used. */
  extractor: v.optional(v.object({ provider: ProviderId, model: v.string() })),
  extractionUsage: v.optional(Usage),
  /** What this answer cost (its search and its reading); absent in answers saved before costs were kept. */
  cost: v.optional(Cost),
  /** Names the extraction model returned that the answer does not contain: dropped, never shown. */
  ungrounded: v.optional(v.number()),
  /**
   * Whether the search's location reached this provider's web search (`applied`) or the provider
   * takes none (`not supported`: its answer is not localised). Absent when the search had no location.
   */
  location: v.optional(LocationApplied),
  /** Why the provider cut the answer short; absent when it finished. */
  truncated: v.optional(Truncation),
  durationMs: v.number(),
  error: v.optional(v.string()),
  /** Why the provider failed, when we know (ADR 040): `error` then names the cause and the remedy. */
  failure: v.optional(ProviderFailure),
  /** The provider answered 429 this many times, and the search waited as it asked (`Retry-After`); absent when it never did. */
  rateLimited: v.optional(v.object({ count: v.number(), waitedMs: v.number() })),
  /**
   * Why an error card has no answer when the provider did not fail: the search's time limit cut it
   * off (`deadline`), its server stopped (`interrupted`), its owner cancelled it (`cancelled`), or
   * a daily spend limit was reached before it started (`spend-limit`, ADR 041). Absent for the
   * provider's own errors.
   */
  stopped: v.optional(v.picklist(["deadline", "interrupted", "cancelled", "spend-limit"])),
});
export type ModelResult = v.InferOutput<typeof ModelResult>;

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
  /**
   * How alike the iterations' product lists are: the mean Jaccard overlap of their top `k`, and
   * the mean rank-biased overlap (p = 0.9) of the whole ranked lists, over every pair of runs
   * (0 = nothing shared, 1 = identical). Absent with fewer than 2 completed runs, and in older results.
   */
  stability: v.optional(v.object({ k: v.number(), jaccard: v.number(), rbo: v.number(), pairs: v.number() })),
  /** The web searches the model issued (fan-out), by how many iterations issued each. Absent in older results. */
  searchQueryFrequencies: v.optional(v.array(Frequency)),
});
export type AggregatedStats = v.InferOutput<typeof AggregatedStats>;

/**
 * One iteration of one provider as kept for later analysis (the brand lens): what the answer
 * recommended, in its order, what it named and cited, and its text. Kept with the saved result
 * (not sent on the wire), so a brand named later can still be looked for in every answer.
 */
export const RunRecord = v.object({
  status: v.picklist(["ok", "error"]),
  /** Product names in the answer's order of recommendation (rank, then as listed). */
  products: v.array(v.string()),
  companies: v.array(v.string()),
  /** Normalised URLs of the sources (cited and retrieved). */
  sources: v.array(v.string()),
  searchQueries: v.array(v.string()),
  text: v.string(),
  /** What its search call and its reading used (tokens, cached tokens, web searches); absent in results saved before it was kept. */
  usage: v.optional(Usage),
  extractionUsage: v.optional(Usage),
});
export type RunRecord = v.InferOutput<typeof RunRecord>;

/**
 * A search as the product keeps it (version 2): each provider's answer and frequencies keyed by
 * provider id, overlaps as lists of ids. The spec's flat `openai`/`anthropic`/`gemini` JSON is
 * the wire form (search-wire.ts), produced only at the API edge. A provider missing from `models` was not
 * part of this search (a result saved before it was added).
 */
export const SEARCH_RESULT_VERSION = 2;

const ProviderList = v.array(ProviderId);
export const CommonItem = v.object({ name: v.string(), models: ProviderList });
export type CommonItem = v.InferOutput<typeof CommonItem>;
export const CommonSource = v.object({ url: v.string(), models: ProviderList });
export type CommonSource = v.InferOutput<typeof CommonSource>;

/** The fields a result has in both its forms, kept (search-result.ts) and sent (search-wire.ts). */
export const resultSummary = {
  id: v.optional(v.string()),
  query: v.string(),
  createdAt: v.optional(v.string()),
  executionTimeMs: v.number(),
  /** How many sources, products and companies the result lists: every one returned in any completed iteration (ADR 028). */
  totalLinks: v.number(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  iterationCount: v.number(),
  /** What the search cost, per provider and in total (ADR 041); a result saved before has it worked out when read. */
  cost: v.optional(SearchCost),
  /** Why iterations were not started: a daily spend limit was reached (its words); absent when none was kept from starting. */
  spendLimit: v.optional(v.string()),
};

export const SearchResult = v.object({
  schemaVersion: v.literal(SEARCH_RESULT_VERSION),
  ...resultSummary,
  /** Each provider's displayed answer: its first successful iteration, else its first. */
  models: v.record(ProviderId, ModelResult),
  /** Frequencies over the iterations (more than one), for each provider that answered at least once. */
  stats: v.record(ProviderId, AggregatedStats),
  /** Every iteration of every provider, for analyses made later (absent in results saved before it was kept). */
  runs: v.optional(v.record(ProviderId, v.array(RunRecord))),
  commonProducts: v.array(CommonItem),
  commonCompanies: v.array(CommonItem),
  commonSources: v.array(CommonSource),
  options: v.optional(SearchOptions),
});
export type SearchResult = v.InferOutput<typeof SearchResult>;

/**
 * A saved search that did not run to its end, keeping what had finished: its server stopped
 * (`interrupted`), or its owner cancelled it (`cancelled`: the cancel call, a newer search, a
 * closed connection; ADR 030).
 */
export const StoppedStatus = v.picklist(["interrupted", "cancelled"]);
export type StoppedStatus = v.InferOutput<typeof StoppedStatus>;
/** How a listed search ended. */
export const SearchStatus = v.picklist(["completed", ...StoppedStatus.options]);

/** The tracker and run that asked a saved search: its owner's way back to them (never on a share link). */
export const SearchOrigin = v.object({ id: v.string(), name: v.string(), runId: v.string(), scheduledFor: v.string() });
export type SearchOrigin = v.InferOutput<typeof SearchOrigin>;

/** A search as read back from storage: it has its id, `status` when it stopped part-way, and `tracker` when a tracker's run asked it (for its owner). */
export type SavedSearchResult = SearchResult & { id: string; status?: StoppedStatus; tracker?: SearchOrigin };

/** A provider's card when it produced no run at all (not connected, or not part of this search). */
export function offModelResult(provider: ProviderId): ModelResult {
  return {
    provider,
    status: "off",
    simulated: false,
    modelName: "",
    modelVersion: "",
    products: [],
    companies: [],
    sources: [],
    searched: false,
    searchQueries: [],
    usage: { inputTokens: 0, outputTokens: 0, searches: 0 },
    extraction: "none",
    durationMs: 0,
  };
}

/**
 * The providers a result has a card for, in catalogue order: those it asked, and those off when it
 * ran. A result saved before a provider joined the catalogue has none for it, and reads as it did.
 */
export function providersOf(result: Pick<SearchResult, "models">): ProviderId[] {
  const listed = providerIds.filter((id) => result.models[id]);
  return listed.length > 0 ? listed : providerIds;
}

/**
 * The providers a result asked, in catalogue order: its cards that are not "off". One saved before
 * a provider joined the catalogue did not ask it, and neither did one that ran with it off.
 */
export function providersAsked(result: Pick<SearchResult, "models">): ProviderId[] {
  return providerIds.filter((id) => {
    const model = result.models[id];
    return model !== undefined && model.status !== "off";
  });
}

/** The provider's answer, or an "off" card when it was not part of the search. */
export function modelOf(result: Pick<SearchResult, "models">, provider: ProviderId): ModelResult {
  return result.models[provider] ?? offModelResult(provider);
}
