import type { ComparedItem, ComparedSearch, CompareReport } from "#src/contract/compare.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { AggregatedStats, Frequency, ModelResult, RunRecord, SavedSearchResult } from "#src/contract/search.ts";
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
export function compareSearches(original: SavedSearchResult | undefined, variants: SavedSearchResult[], asked: { query?: string; variants: string[] }): CompareReport {
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
    searches: searches.map(({ result, role }) => ({ query: result.query, role, id: result.id, createdAt: result.createdAt ?? "", iterationCount: result.iterationCount })),
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

/** How one kind of item is read from a search: its key, its shown name, and where it is listed. */
type Kind = {
  key(name: string): string;
  shown(name: string): string;
  displayed(model: ModelResult): string[];
  inRun(run: RunRecord): string[];
  frequencies(stats: AggregatedStats): Frequency[];
};

const KINDS = {
  products: { key: nameKey, shown: (name) => name.trim(), displayed: (model) => model.products.map((p) => p.name), inRun: (run) => run.products, frequencies: (stats) => stats.productFrequencies },
  companies: { key: nameKey, shown: (name) => name.trim(), displayed: (model) => model.companies.map((c) => c.name), inRun: (run) => run.companies, frequencies: (stats) => stats.companyFrequencies },
  sources: { key: normalizeUrl, shown: normalizeUrl, displayed: (model) => model.sources.map((s) => s.url), inRun: (run) => run.sources, frequencies: (stats) => stats.sourceFrequencies },
} satisfies Record<string, Kind>;

type Pooled = { n: number; counts: Map<string, { name: string; count: number }> };
type ItemIn = ComparedItem["in"][string];

/**
 * Every item of one kind across the searches, in the searches that returned it (displayed by a
 * provider, or in any completed iteration), most widespread first, then by name.
 */
function compareKind(searches: SavedSearchResult[], kind: Kind, original: SavedSearchResult | undefined): ComparedItem[] {
  const items = new Map<string, ComparedItem>();
  const itemIn = (key: string, name: string, searchId: string): ItemIn => {
    let item = items.get(key);
    if (!item) items.set(key, (item = { name: kind.shown(name), in: {}, difference: {} }));
    else item.name = betterCasing(item.name, kind.shown(name));
    return (item.in[searchId] ??= { providers: [] });
  };

  const pooledBySearch = new Map<string, Pooled>();
  for (const search of searches) {
    for (const [key, { name, providers }] of displayedItems(search, kind)) itemIn(key, name, search.id).providers = providers;
    const pooled = pooledCounts(search, kind);
    if (!pooled) continue;
    pooledBySearch.set(search.id, pooled);
    for (const [key, { name }] of pooled.counts) itemIn(key, name, search.id);
  }

  const originalPooled = original && pooledBySearch.get(original.id);
  for (const [key, item] of items) {
    for (const [searchId, pooled] of pooledBySearch) {
      const found = item.in[searchId];
      if (found) found.frequency = rate(pooled.counts.get(key)?.count ?? 0, pooled.n);
      if (!originalPooled || searchId === original?.id) continue;
      const pValue = fisherExact(originalPooled.counts.get(key)?.count ?? 0, originalPooled.n, pooled.counts.get(key)?.count ?? 0, pooled.n);
      item.difference[searchId] = { pValue, significant: pValue < SIGNIFICANCE_LEVEL };
    }
  }
  const spread = (item: ComparedItem) => Object.keys(item.in).length;
  return [...items.values()].sort((a, b) => spread(b) - spread(a) || compareNames(a.name, b.name));
}

/** The items on the providers' cards, each with the providers that returned it, in catalogue order. */
function displayedItems(search: SavedSearchResult, kind: Kind): Map<string, { name: string; providers: ProviderId[] }> {
  const items = new Map<string, { name: string; providers: ProviderId[] }>();
  for (const id of providerIds) {
    const model = search.models[id];
    for (const name of model ? kind.displayed(model) : []) {
      const key = kind.key(name);
      if (!key) continue;
      let item = items.get(key);
      if (!item) items.set(key, (item = { name, providers: [] }));
      if (!item.providers.includes(id)) item.providers.push(id);
    }
  }
  return items;
}

/**
 * With several iterations: in how many of all providers' completed iterations each item came
 * back (n = those iterations), from the kept runs, else from each provider's frequencies.
 */
function pooledCounts(search: SavedSearchResult, kind: Kind): Pooled | undefined {
  if (search.iterationCount <= 1) return undefined;
  const pooled: Pooled = { n: 0, counts: new Map() };
  const add = (name: string, count: number) => {
    const key = kind.key(name);
    if (!key) return;
    const seen = pooled.counts.get(key);
    if (seen) seen.count += count;
    else pooled.counts.set(key, { name, count });
  };
  for (const id of providerIds) {
    const runs = keptRuns(search, id);
    const stats = search.stats[id];
    if (runs) {
      pooled.n += runs.length;
      for (const frequency of frequencies(runs.map(kind.inRun), runs.length)) add(frequency.name, frequency.count);
    } else if (stats) {
      pooled.n += stats.iterations;
      for (const frequency of kind.frequencies(stats)) add(frequency.name, frequency.count);
    }
  }
  return pooled.n > 0 ? pooled : undefined;
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
  if (runs) return frequencies(runs.map((run) => run.searchQueries), runs.length);
  const model = search.models[id];
  return search.stats[id]?.searchQueryFrequencies ?? (model?.status === "ok" ? frequencies([model.searchQueries], 1) : []);
}
