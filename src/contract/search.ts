import * as v from "valibot";

import { BillingMode } from "./billing.ts";
import { FREE_ITERATIONS, MAX_ITERATIONS, QUERY_MAX_LENGTH } from "./constants.ts";
import { ErrorBody } from "./errors.ts";
import { perProvider, providerIds, type ProviderId as Id } from "./providers.ts";

export { FREE_ITERATIONS, MAX_ITERATIONS, PRO_ITERATION_CHOICES, QUERY_MAX_LENGTH } from "./constants.ts";
export const ProviderId = v.picklist(providerIds);
export type ProviderId = Id;

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
  v.maxLength(QUERY_MAX_LENGTH, `Search query must be at most ${QUERY_MAX_LENGTH} characters`),
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
});
export type SearchOptions = v.InferOutput<typeof SearchOptions>;

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
  /** Why the provider cut the answer short, in its own words (max_output_tokens, max_tokens, MAX_TOKENS…); absent when it finished. */
  truncated: v.optional(v.string()),
  durationMs: v.number(),
  error: v.optional(v.string()),
  /**
   * Why an error card has no answer when the provider did not fail: the search's time limit cut it
   * off (`deadline`), its server stopped (`interrupted`), or its owner cancelled it (`cancelled`).
   * Absent for the provider's own errors.
   */
  stopped: v.optional(v.picklist(["deadline", "interrupted", "cancelled"])),
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
});
export type RunRecord = v.InferOutput<typeof RunRecord>;

/**
 * A search as the product keeps it (version 2): each provider's answer and frequencies keyed by
 * provider id, overlaps as lists of ids. The spec's flat `openai`/`anthropic`/`gemini` JSON is
 * the wire form below, produced only at the API edge. A provider missing from `models` was not
 * part of this search (a result saved before it was added).
 */
export const SEARCH_RESULT_VERSION = 2;

const ProviderList = v.array(ProviderId);
export const CommonItem = v.object({ name: v.string(), models: ProviderList });
export type CommonItem = v.InferOutput<typeof CommonItem>;
export const CommonSource = v.object({ url: v.string(), models: ProviderList });
export type CommonSource = v.InferOutput<typeof CommonSource>;

const resultSummary = {
  id: v.optional(v.string()),
  query: v.string(),
  createdAt: v.optional(v.string()),
  executionTimeMs: v.number(),
  /** How many sources, products and companies the result lists: every one returned in any completed iteration (ADR 028). */
  totalLinks: v.number(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  iterationCount: v.number(),
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

/** A search as read back from storage: it has its id, and `status` when it stopped part-way. */
export type SavedSearchResult = SearchResult & { id: string; status?: StoppedStatus };

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

/** The provider's answer, or an "off" card when it was not part of the search. */
export function modelOf(result: Pick<SearchResult, "models">, provider: ProviderId): ModelResult {
  return result.models[provider] ?? offModelResult(provider);
}

// ---------------------------------------------------------------------------------------------
// The wire form (spec §3): what the API sends and the JSON export writes
// ---------------------------------------------------------------------------------------------

type StatsKey = `${ProviderId}AggregatedStats`;
const statsKey = (id: ProviderId): StatsKey => `${id}AggregatedStats`;

// A flag missing from an older result reads as false; a provider missing reads as not searched.
const wireFlags = perProvider(() => v.optional(v.boolean(), false));
export const WireCommonItem = v.object({ name: v.string(), ...wireFlags });
export const WireCommonSource = v.object({ url: v.string(), ...wireFlags });
const wireModels = perProvider(() => v.optional(ModelResult));
const wireStats = Object.fromEntries(providerIds.map((id) => [statsKey(id), v.optional(AggregatedStats)])) as Record<
  StatsKey,
  v.OptionalSchema<typeof AggregatedStats, undefined>
>;

export const SearchResultWire = v.object({
  ...resultSummary,
  commonProducts: v.array(WireCommonItem),
  commonCompanies: v.array(WireCommonItem),
  commonSources: v.array(WireCommonSource),
  ...wireModels,
  ...wireStats,
  options: v.optional(SearchOptions),
});
export type SearchResultWire = v.InferOutput<typeof SearchResultWire>;

/** The spec's JSON for a result: one key per provider (an "off" card where it has none). */
export function toWireResult(result: SearchResult): SearchResultWire & Record<ProviderId, ModelResult> {
  const { schemaVersion: _, models, stats, runs: __, commonProducts, commonCompanies, commonSources, ...summary } = result;
  const flags = (ids: ProviderId[]) => perProvider((id) => ids.includes(id));
  const wire: Record<string, unknown> = {
    ...summary,
    commonProducts: commonProducts.map(({ name, models: ids }) => ({ name, ...flags(ids) })),
    commonCompanies: commonCompanies.map(({ name, models: ids }) => ({ name, ...flags(ids) })),
    commonSources: commonSources.map(({ url, models: ids }) => ({ url, ...flags(ids) })),
  };
  for (const id of providerIds) {
    wire[id] = modelOf(result, id);
    if (stats[id]) wire[statsKey(id)] = stats[id];
  }
  return wire as SearchResultWire & Record<ProviderId, ModelResult>;
}

type Flags = Partial<Record<ProviderId, boolean>>;
/** The wire form as a reader may meet it: a provider, or a flag, that an older result lacks is absent. */
export type SearchResultWireIn = Omit<SearchResultWire, "commonProducts" | "commonCompanies" | "commonSources"> & {
  commonProducts: Array<{ name: string } & Flags>;
  commonCompanies: Array<{ name: string } & Flags>;
  commonSources: Array<{ url: string } & Flags>;
};

/** The wire form (or a version 1 saved result, which had the same shape) read back into a result. */
export function fromWireResult(wire: SearchResultWireIn): SearchResult {
  const { commonProducts, commonCompanies, commonSources, options, ...rest } = wire;
  const listed = (flags: Partial<Record<ProviderId, boolean>>) => providerIds.filter((id) => flags[id]);
  const result: SearchResult = {
    schemaVersion: SEARCH_RESULT_VERSION,
    ...pick(rest, ["id", "query", "createdAt", "executionTimeMs", "totalLinks", "totalProducts", "totalCompanies", "iterationCount"]),
    models: {},
    stats: {},
    commonProducts: commonProducts.map((item) => ({ name: item.name, models: listed(item) })),
    commonCompanies: commonCompanies.map((item) => ({ name: item.name, models: listed(item) })),
    commonSources: commonSources.map((item) => ({ url: item.url, models: listed(item) })),
    ...(options ? { options } : {}),
  };
  for (const id of providerIds) {
    const model = wire[id];
    const stats = wire[statsKey(id)];
    if (model) result.models[id] = model;
    if (stats) result.stats[id] = stats;
  }
  return result;
}

/** What storage holds: version 2, or a version 1 row (the wire shape), upgraded as it is read. */
export const StoredSearchResult = v.union([
  SearchResult,
  v.pipe(
    SearchResultWire,
    v.transform((wire) => fromWireResult(wire)),
  ),
]);

function pick<T extends object, K extends keyof T>(from: T, keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (from[key] !== undefined) out[key] = from[key];
  return out;
}

/** POST /api/search: the saved result, and the free searches left (absent for Pro). */
export const SearchResponse = v.object({ ...SearchResultWire.entries, id: v.string(), remainingSearches: v.optional(v.number()) });
/** GET /api/search/{id}; `status` only for a search stopped part-way (what had finished, error cards for the rest). */
export const SavedSearchResponse = v.object({ ...SearchResultWire.entries, id: v.string(), status: v.optional(StoppedStatus) });

// ---------------------------------------------------------------------------------------------
// Streaming (Server-Sent Events on POST /api/search/stream)
// ---------------------------------------------------------------------------------------------

const Remaining = { remainingSearches: v.optional(v.number()) };
const StartedEvent = v.object({
  type: v.literal("started"),
  query: v.string(),
  iterations: v.number(),
  modes: v.object(perProvider(() => ProviderMode)),
  ...Remaining,
});
const ProgressEvent = v.object({ type: v.literal("progress"), provider: ProviderId, completed: v.number(), failed: v.number(), total: v.number() });
const ResultEvent = v.object({ type: v.literal("result"), provider: ProviderId, result: ModelResult });
/** A failure after the stream began: an error answer's body and its status. */
const ErrorEvent = v.object({ type: v.literal("error"), ...ErrorBody.entries, status: v.number() });
/** `done` carries exactly what POST /api/search answers. */
const DoneEvent = v.object({ type: v.literal("done"), id: v.string(), result: SearchResponse });
/** The search was cancelled after an answer: what had finished, saved, as GET /api/search/{id} answers it (ADR 030). */
const CancelledEvent = v.object({ type: v.literal("cancelled"), id: v.string(), result: SavedSearchResponse, ...Remaining });

/** One event of the stream as sent. */
export const SearchEventWire = v.variant("type", [StartedEvent, ProgressEvent, ResultEvent, DoneEvent, CancelledEvent, ErrorEvent]);
export type SearchEventWire = v.InferOutput<typeof SearchEventWire>;

/** The same event as a client reads it: `done` carries the result keyed by provider, and the searches left. */
export const SearchEvent = v.variant("type", [
  StartedEvent,
  ProgressEvent,
  ResultEvent,
  v.pipe(
    DoneEvent,
    v.transform(({ id, result: { remainingSearches, ...wire } }) => ({
      type: "done" as const,
      id,
      result: { ...fromWireResult(wire), id },
      ...(remainingSearches === undefined ? {} : { remainingSearches }),
    })),
  ),
  v.pipe(
    CancelledEvent,
    v.transform(({ id, result, remainingSearches }) => ({
      type: "cancelled" as const,
      id,
      result: fromSavedWire(result),
      ...(remainingSearches === undefined ? {} : { remainingSearches }),
    })),
  ),
  ErrorEvent,
]);
export type SearchEvent = v.InferOutput<typeof SearchEvent>;

/** GET /api/search/{id}'s answer read back: the result keyed by provider, with its id and how it stopped. */
export function fromSavedWire({ status, ...wire }: v.InferOutput<typeof SavedSearchResponse>): SavedSearchResult {
  return { ...fromWireResult(wire), id: wire.id, ...(status ? { status } : {}) };
}

/** POST /api/cancel-search. */
export const CancelResult = v.object({ cancelled: v.boolean() });

// ---------------------------------------------------------------------------------------------
// History and status
// ---------------------------------------------------------------------------------------------

export const SavedSearchListItem = v.object({
  id: v.string(),
  query: v.string(),
  /** The name its owner gave it (shown instead of the query); absent until renamed. */
  title: v.optional(v.string()),
  timestamp: v.string(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  totalLinks: v.number(),
  iterationCount: v.number(),
  status: SearchStatus,
  /** Some provider's answers in it came from its simulator (each result says which). */
  simulated: v.boolean(),
});
export type SavedSearchListItem = v.InferOutput<typeof SavedSearchListItem>;

export const SavedSearchList = v.object({
  searches: v.array(SavedSearchListItem),
  /** Pass as `before` to get the next page; absent on the last page. */
  nextCursor: v.optional(v.string()),
});
export type SavedSearchList = v.InferOutput<typeof SavedSearchList>;

/**
 * Whether an ISO timestamp names a moment a Date can hold. valibot's format check passes
 * "…T00:00:00+05", "…-23" offsets, 30 February and year 0000, which the database refuses.
 */
export function isRealTimestamp(text: string): boolean {
  const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text) ?? [];
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return y >= 1 && days !== undefined && d >= 1 && d <= days && !Number.isNaN(new Date(text).getTime());
}

/** A day (YYYY-MM-DD, in UTC) or a moment (ISO timestamp), for the history's date range. */
const HistoryDate = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => (v.ISO_DATE_REGEX.test(text) || v.ISO_TIMESTAMP_REGEX.test(text)) && isRealTimestamp(text),
      `${name} must be a date (YYYY-MM-DD) or an ISO timestamp`,
    ),
  );

/** The history's list parameters, one by one (the CLI's flags take theirs from here). */
export const SavedSearchListFields = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "limit must be a whole number"),
      v.transform(Number),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(100, "limit must be at most 100"),
    ),
  ),
  before: v.optional(v.pipe(v.string(), v.isoTimestamp("before must be an ISO timestamp"), v.check(isRealTimestamp, "before must be an ISO timestamp"))),
  /** Only the searches of this query text, in any letter case (spec §5). */
  query: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "query must not be empty"),
      v.maxLength(QUERY_MAX_LENGTH, `query must be at most ${QUERY_MAX_LENGTH} characters`),
    ),
  ),
  /** Searches whose query or title contains this text, in any letter case. */
  q: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(1, "q must not be empty"), v.maxLength(QUERY_MAX_LENGTH, `q must be at most ${QUERY_MAX_LENGTH} characters`)),
  ),
  /** Searches in which this provider answered. */
  provider: v.optional(v.picklist(providerIds, `provider must be one of ${providerIds.join(", ")}`)),
  /** Searches of this many iterations. */
  iterations: v.optional(Iterations),
  /** Searches made from this day (its start, UTC) or moment on. */
  from: v.optional(HistoryDate("from")),
  /** Searches made up to this day (its end, UTC) or moment. */
  to: v.optional(HistoryDate("to")),
});

/** GET /api/user/searches: a page of the history, filtered; every filter keeps `before` paging as it does. */
export const SavedSearchListQuery = v.pipe(
  SavedSearchListFields,
  v.forward(
    v.check(({ from, to }) => {
      const range = historyRange({ from, to });
      return !range.from || !range.until || range.from < range.until;
    }, "from must not be after to"),
    ["from"],
  ),
);
export type SavedSearchListQuery = v.InferInput<typeof SavedSearchListQuery>;

/** The moments a history range covers: from `from` (a day's start, UTC) to before `until` (the day after `to`, or just after its moment). */
export function historyRange({ from, to }: { from?: string | undefined; to?: string | undefined }): { from?: Date; until?: Date } {
  const dayOnly = (text: string) => v.ISO_DATE_REGEX.test(text);
  return {
    ...(from ? { from: new Date(dayOnly(from) ? `${from}T00:00:00Z` : from) } : {}),
    ...(to ? { until: new Date(new Date(dayOnly(to) ? `${to}T00:00:00Z` : to).getTime() + (dayOnly(to) ? 86_400_000 : 1)) } : {}),
  };
}

/** PATCH /api/search/{id}: a name for a saved search, shown instead of its query; empty or null gives the query back. */
export const RenameSearch = v.object(
  {
    title: v.nullable(v.pipe(v.string("title must be text or null"), v.trim(), v.maxLength(200, "title must be at most 200 characters"))),
  },
  "The body must be a JSON object with a title",
);

/** The answers of PATCH and DELETE /api/search/{id}. */
export const RenamedSearch = v.object({ id: v.string(), title: v.nullable(v.string()) });
export const DeletedSearch = v.object({ success: v.literal(true) });

/** GET /api/status: spec §3 "API status" (a boolean per provider), with each provider's mode and how payments run. */
export const ApiStatus = v.object({
  ...perProvider(() => v.boolean()),
  modes: v.object(perProvider(() => ProviderMode)),
  billing: BillingMode,
});
export type ApiStatus = v.InferOutput<typeof ApiStatus>;
