import type { ComparedItem, ComparedSearch, CompareReport } from "#src/contract/compare.ts";
import { simulatedOf } from "#src/contract/lens.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providersAsked, type Frequency, type SavedSearchResult } from "#src/contract/search-result.ts";
import { listedCompanies, listedProducts, listedSources } from "./aggregate.ts";
import { betterCasing, compareNames, nameKey } from "./names.ts";
import { keptRuns } from "./runs.ts";
import { fisherExact, frequencies, rate } from "./stats.ts";
import { normalizeUrl } from "./urls.ts";

/** A difference is significant below this p-value (Fisher's exact test, two-sided). */
export const SIGNIFICANCE_LEVEL = 0.05;
const TOP = 5;

/**
 * A query against its variants (spec §2 "compare"): what each search returned, which items came
 * back in which searches and by which providers, how often over the iterations, whether a
 * variant's frequency differs significantly from the original's, and what the models searched
 * for. A search asked for but not found is listed in `missing`.
 */
export function compareSearches(
  original: SavedSearchResult | undefined,
  variants: SavedSearchResult[],
  asked: { query?: string; variants: string[] },
): CompareReport {
  const searches: Array<{ result: SavedSearchResult; role: ComparedSearch["role"] }> = [];
  for (const [result, role] of [...(original ? [[original, "original"] as const] : []), ...variants.map((variant) => [variant, "variant"] as const)]) {
    if (!searches.some((search) => search.result.id === result.id)) searches.push({ result, role });
  }
  const found = (query: string) => searches.some((search) => nameKey(search.result.query) === nameKey(query));
  const missing = [...(asked.query !== undefined && !original ? [asked.query] : []), ...asked.variants.filter((query) => !found(query))];

  const read = searches.map((search) => search.result);
  const products = compareKind(read, KINDS.products, original);
  const companies = compareKind(read, KINDS.companies, original);
  const sources = compareKind(read, KINDS.sources, original);
  const top = (items: ComparedItem[]) => items.slice(0, TOP).map((item) => ({ name: item.name, searches: Object.keys(item.in).length }));

  return {
    searches: searches.map(({ result, role }) => ({
      query: result.query,
      role,
      id: result.id,
      createdAt: result.createdAt ?? "",
      iterationCount: result.iterationCount,
      providers: providersAsked(result),
      simulated: simulatedOf(result),
    })),
    missing,
    summary: {
      uniqueProducts: products.length,
      uniqueCompanies: companies.length,
      uniqueSources: sources.length,
      topProducts: top(products),
      topCompanies: top(companies),
      topSources: top(sources),
    },
    products,
    companies,
    sources,
    fanOut: Object.fromEntries(read.map((result) => [result.id, fanOut(result)])),
  };
}

// ---------------------------------------------------------------------------------------------

/** How one kind of item is read from a search: its key, its shown name, and the search's list of it (ADR 028). */
type Kind = {
  key(name: string): string;
  shown(name: string): string;
  listed(search: SavedSearchResult): Array<{ name: string; models: ProviderId[]; returned: ItemIn["returned"] }>;
};

const KINDS = {
  products: { key: nameKey, shown: (name) => name.trim(), listed: listedProducts },
  companies: { key: nameKey, shown: (name) => name.trim(), listed: listedCompanies },
  sources: { key: normalizeUrl, shown: normalizeUrl, listed: (search) => listedSources(search).map((source) => ({ ...source, name: source.url })) },
} satisfies Record<string, Kind>;

type ItemIn = ComparedItem["in"][string];

/**
 * Every item of one kind across the searches, in the searches that list it (returned by a
 * provider in any completed iteration: the rule the searches' own pages follow), with the
 * providers that returned it and how often; most widespread first, then by name.
 */
function compareKind(searches: SavedSearchResult[], kind: Kind, original: SavedSearchResult | undefined): ComparedItem[] {
  const items = new Map<string, ComparedItem>();
  const pooledBySearch = new Map<string, number>();
  for (const search of searches) {
    const n = pooledRuns(search);
    if (n !== undefined) pooledBySearch.set(search.id, n);
    for (const listed of kind.listed(search)) {
      const key = kind.key(listed.name);
      if (!key) continue;
      let item = items.get(key);
      if (!item) items.set(key, (item = { name: kind.shown(listed.name), in: {}, difference: {} }));
      else item.name = betterCasing(item.name, kind.shown(listed.name));
      const count = Object.values(listed.returned ?? {}).reduce((sum, returned) => sum + returned.count, 0);
      item.in[search.id] = { providers: listed.models, returned: listed.returned, ...(n === undefined ? {} : { frequency: rate(count, n) }) };
    }
  }

  const originalRuns = original && pooledBySearch.get(original.id);
  const countIn = (item: ComparedItem, searchId: string) => item.in[searchId]?.frequency?.count ?? 0;
  for (const item of items.values()) {
    for (const [searchId, n] of pooledBySearch) {
      if (!original || originalRuns === undefined || searchId === original.id) continue;
      const pValue = fisherExact(countIn(item, original.id), originalRuns, countIn(item, searchId), n);
      item.difference[searchId] = { pValue, significant: pValue < SIGNIFICANCE_LEVEL };
    }
  }
  const spread = (item: ComparedItem) => Object.keys(item.in).length;
  return [...items.values()].sort((a, b) => spread(b) - spread(a) || compareNames(a.name, b.name));
}

/** With several iterations: all providers' completed iterations together (the denominator of an item's share). */
function pooledRuns(search: SavedSearchResult): number | undefined {
  if (search.iterationCount <= 1) return undefined;
  const n = providerIds.reduce((sum, id) => sum + (search.stats[id]?.iterations ?? keptRuns(search, id)?.length ?? 0), 0);
  return n > 0 ? n : undefined;
}

/**
 * The web searches the models issued, merged across providers: how many iterations issued each
 * (from the kept runs, else the provider's frequencies, else its displayed answer as one).
 */
function fanOut(search: SavedSearchResult): Array<{ query: string; count: number }> {
  const merged = new Map<string, { query: string; count: number }>();
  for (const id of providerIds) {
    for (const { name, count } of providerQueries(search, id)) {
      const key = nameKey(name);
      const seen = merged.get(key);
      if (!seen) merged.set(key, { query: name, count });
      else {
        seen.count += count;
        seen.query = betterCasing(seen.query, name);
      }
    }
  }
  return [...merged.values()].sort((a, b) => b.count - a.count || compareNames(a.query, b.query));
}

function providerQueries(search: SavedSearchResult, id: ProviderId): Frequency[] {
  const runs = keptRuns(search, id);
  if (runs)
    return frequencies(
      runs.map((run) => run.searchQueries),
      runs.length,
    );
  const model = search.models[id];
  return search.stats[id]?.searchQueryFrequencies ?? (model?.status === "ok" ? frequencies([model.searchQueries], 1) : []);
}
