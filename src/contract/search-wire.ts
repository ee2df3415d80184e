/*
 * The wire form (spec §3): a result as the API sends it and the JSON export writes it, one key per
 * provider, and the conversions between it and the result kept (search-result.ts).
 */
import * as v from "valibot";

import { ProviderId } from "./provider-schemas.ts";
import { perProvider, providerIds } from "./providers.ts";
import { truncationOf } from "./provider-config.ts";
import { SearchOptions } from "./search-request.ts";
import {
  AggregatedStats,
  ModelResult,
  modelOf,
  providersOf,
  resultSummary,
  SEARCH_RESULT_VERSION,
  SearchResult,
  type SavedSearchResult,
  SearchOrigin,
  StoppedStatus,
} from "./search-result.ts";

type StatsKey = `${ProviderId}AggregatedStats`;
const statsKey = (id: ProviderId): StatsKey => `${id}AggregatedStats`;

// A flag missing from an older result reads as false; a provider missing reads as not searched.
const wireFlags = perProvider(() => v.optional(v.boolean(), false));
export const WireCommonItem = v.object({ name: v.string(), ...wireFlags });
export const WireCommonSource = v.object({ url: v.string(), ...wireFlags });
/**
 * One provider's answer in the spec's JSON: a cut is the provider's finish signal alone, as it
 * has been since the first version, so the API, its stream and the JSON export keep their shape;
 * fromWireModel gives it back its kind.
 */
export const WireModelResult = v.object({ ...ModelResult.entries, truncated: v.optional(v.string()) });
export type WireModelResult = v.InferOutput<typeof WireModelResult>;

export function toWireModel(model: ModelResult): WireModelResult {
  const { truncated } = model;
  return truncated ? { ...model, truncated: truncated.signal } : (model as Omit<ModelResult, "truncated">);
}

export function fromWireModel({ truncated, ...model }: WireModelResult): ModelResult {
  return truncated ? { ...model, truncated: truncationOf(model.provider, truncated) } : model;
}

const wireModels = perProvider(() => v.optional(WireModelResult));
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

/**
 * The spec's JSON for a result: one key per provider it has (providersOf; an "off" card where one
 * of them has no answer), so a result saved before a provider joined reads as it did.
 */
export function toWireResult(result: SearchResult): SearchResultWire {
  const { schemaVersion: _, models, stats, runs: __, commonProducts, commonCompanies, commonSources, ...summary } = result;
  const providers = providersOf(result);
  const flags = (ids: ProviderId[]) => Object.fromEntries(providers.map((id) => [id, ids.includes(id)]));
  const wire: Record<string, unknown> = {
    ...summary,
    commonProducts: commonProducts.map(({ name, models: ids }) => ({ name, ...flags(ids) })),
    commonCompanies: commonCompanies.map(({ name, models: ids }) => ({ name, ...flags(ids) })),
    commonSources: commonSources.map(({ url, models: ids }) => ({ url, ...flags(ids) })),
  };
  for (const id of providers) {
    wire[id] = toWireModel(modelOf(result, id));
    if (stats[id]) wire[statsKey(id)] = stats[id];
  }
  return wire as SearchResultWire;
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
    ...pick(rest, ["id", "query", "createdAt", "executionTimeMs", "totalLinks", "totalProducts", "totalCompanies", "iterationCount", "cost", "spendLimit"]),
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
    if (model) result.models[id] = fromWireModel(model);
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
/**
 * GET /api/search/{id}; `status` only for a search stopped part-way (what had finished, error cards for the rest);
 * `tracker` only for its owner, when a tracker's run asked it.
 */
export const SavedSearchResponse = v.object({
  ...SearchResultWire.entries,
  id: v.string(),
  status: v.optional(StoppedStatus),
  tracker: v.optional(SearchOrigin),
});

/** GET /api/search/{id}'s answer (and a shared search's): the saved result in the spec's JSON, with its id and how it stopped. */
export function toSavedWire({ status, tracker, ...result }: SavedSearchResult): v.InferOutput<typeof SavedSearchResponse> {
  return { ...toWireResult(result), id: result.id, ...(status ? { status } : {}), ...(tracker ? { tracker } : {}) };
}

/** GET /api/search/{id}'s answer read back: the result keyed by provider, with its id and how it stopped. */
export function fromSavedWire({ status, tracker, ...wire }: v.InferOutput<typeof SavedSearchResponse>): SavedSearchResult {
  return { ...fromWireResult(wire), id: wire.id, ...(status ? { status } : {}), ...(tracker ? { tracker } : {}) };
}
