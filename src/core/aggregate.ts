import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import {
  offModelResult,
  SEARCH_RESULT_VERSION,
  type AggregatedStats,
  type Frequency,
  type ModelResult,
  type Product,
  type RunRecord,
  type SearchResult,
} from "#src/contract/search-result.ts";
import { searchCost } from "./cost.ts";
import { stabilityOf } from "./stability.ts";
import { betterCasing, compareNames, nameKey } from "./names.ts";
import { frequencies } from "./stats.ts";
import { dedupeSources, normalizeUrl } from "./urls.ts";

/** Spec §9: a product without a rank sorts as rank 999. */
export const MISSING_RANK = 999;

export type AggregatedProduct = { name: string; rank?: number; details?: string; models: ProviderId[]; count: number };
export type AggregatedCompany = { name: string; products: string[]; models: ProviderId[]; count: number };
export type AggregatedSource = { url: string; title?: string; models: ProviderId[]; count: number };
type Results = Partial<Record<ProviderId, ModelResult>>;

/**
 * Spec §4: products merged across models by case-insensitive name — best (lowest) rank, first
 * details, better-cased spelling — sorted by number of models desc, rank asc (missing = 999),
 * then name. `count` is the number of models.
 */
export function aggregateProducts(results: Results): AggregatedProduct[] {
  return mergeAcross(
    results,
    (result) => result.products,
    (product) => nameKey(product.name),
    (product): Omit<AggregatedProduct, "models" | "count"> => ({ name: product.name.trim() }),
    (seen, product) => {
      seen.name = betterCasing(seen.name, product.name.trim());
      if (product.rank !== undefined && (seen.rank === undefined || product.rank < seen.rank)) seen.rank = product.rank;
      if (!seen.details && product.details) seen.details = product.details;
    },
  ).sort(byProductOrder);
}

/** Companies merged like products, their product lists united; sorted by number of models desc, then name. */
export function aggregateCompanies(results: Results): AggregatedCompany[] {
  return mergeAcross(
    results,
    (result) => result.companies,
    (company) => nameKey(company.name),
    (company) => ({ name: company.name.trim(), products: [] as string[], productKeys: new Map<string, number>() }),
    (seen, company) => {
      seen.name = betterCasing(seen.name, company.name.trim());
      for (const product of company.products ?? []) {
        const productKey = nameKey(product);
        if (!productKey) continue;
        const at = seen.productKeys.get(productKey);
        if (at === undefined) {
          seen.productKeys.set(productKey, seen.products.length);
          seen.products.push(product.trim());
        } else {
          seen.products[at] = betterCasing(seen.products[at] ?? product, product.trim());
        }
      }
    },
  )
    .map(({ productKeys: _, ...company }) => company)
    .sort((a, b) => b.count - a.count || compareNames(a.name, b.name));
}

/**
 * Sources merged by normalised URL, which is also the url shown (tracking parameters, fragment
 * and trailing slash removed); the first title wins. Sorted by number of models desc, then url.
 */
export function aggregateSources(results: Results): AggregatedSource[] {
  return mergeAcross(
    results,
    (result) => result.sources,
    (source) => normalizeUrl(source.url),
    (source): Omit<AggregatedSource, "models" | "count"> => ({ url: normalizeUrl(source.url) }),
    (seen, source) => {
      const title = source.title?.trim();
      if (!seen.title && title) seen.title = title;
    },
  ).sort((a, b) => b.count - a.count || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}

/** How often a provider returned an item: in `count` of its `n` completed iterations (1 of 1 for a single answer). */
export type Returned = { count: number; n: number };
/** Where a listed item came from: the providers that returned it at least once, and how often each did. */
export type ReturnedBy = { returned: Partial<Record<ProviderId, Returned>> };
export type ListedProduct = AggregatedProduct & ReturnedBy;
export type ListedCompany = AggregatedCompany & ReturnedBy;
export type ListedSource = AggregatedSource & ReturnedBy;
type Listable = Pick<SearchResult, "models" | "stats" | "iterationCount"> & Partial<Pick<SearchResult, "runs">>;

/*
 * What a result lists (ADR 028): every item any provider returned in at least one completed
 * iteration, with how often each provider returned it. With one iteration that is the providers'
 * answers; with several, every iteration (the frequencies), so the header's totals, the Products,
 * Companies and All Links tabs, the overlaps, the comparison, the exports and the CLI all count
 * the same items that the Frequency Analysis shows. Details (rank, details, title, a company's
 * products) come from the answer each card shows, where it has the item. Ordered as spec §4.
 */

export function listedProducts(result: Listable): ListedProduct[] {
  return listed(result, LIST_KINDS.products);
}

export function listedCompanies(result: Listable): ListedCompany[] {
  return listed(result, LIST_KINDS.companies);
}

export function listedSources(result: Listable): ListedSource[] {
  return listed(result, LIST_KINDS.sources);
}

/** How many of the listed products, companies and sources one provider returned (the comparison table's and the CLI's counts). */
export function returnedCounts(result: Listable, id: ProviderId): { products: number; companies: number; sources: number } {
  const of = (items: { models: ProviderId[] }[]) => items.filter((item) => item.models.includes(id)).length;
  return { products: of(listedProducts(result)), companies: of(listedCompanies(result)), sources: of(listedSources(result)) };
}

/** The result's totals and overlaps as its lists have them: how a result is built, and how one saved under an older rule is read. */
export function withListedTotals<T extends SearchResult>(result: T): T {
  const products = listedProducts(result);
  const companies = listedCompanies(result);
  const sources = listedSources(result);
  const shared = <I extends { models: ProviderId[] }>(items: I[]) => items.filter((item) => item.models.length >= 2);
  return {
    ...result,
    totalLinks: sources.length,
    totalProducts: products.length,
    totalCompanies: companies.length,
    commonProducts: shared(products).map(({ name, models: ids }) => ({ name, models: ids })),
    commonCompanies: shared(companies).map(({ name, models: ids }) => ({ name, models: ids })),
    commonSources: shared(sources).map(({ url, models: ids }) => ({ url, models: ids })),
  };
}

/**
 * The saved/streamed search result. `runs[p]` holds every iteration of provider p in completion
 * order. Each card shows the provider's first "ok" run (else its first run, else "off"). With more
 * than one iteration, each provider with an ok run also gets frequency stats over its ok runs. The
 * totals and overlaps are over what the result lists (withListedTotals, ADR 028).
 */
export function buildSearchResult(input: {
  query: string;
  executionTimeMs: number;
  iterations: number;
  runs: Partial<Record<ProviderId, ModelResult[]>>;
}): SearchResult {
  const models: SearchResult["models"] = {};
  const stats: SearchResult["stats"] = {};
  const records: NonNullable<SearchResult["runs"]> = {};
  for (const id of providerIds) {
    const runs = input.runs[id];
    if (!runs) continue;
    models[id] = displayedRun(id, runs);
    const frequencies = input.iterations > 1 ? aggregatedStats(runs) : undefined;
    if (frequencies) stats[id] = frequencies;
    records[id] = runs.filter((run) => run.status !== "off").map(runRecord);
  }
  return withListedTotals({
    schemaVersion: SEARCH_RESULT_VERSION,
    query: input.query,
    executionTimeMs: input.executionTimeMs,
    totalLinks: 0,
    totalProducts: 0,
    totalCompanies: 0,
    iterationCount: input.iterations,
    models,
    stats,
    runs: records,
    commonProducts: [],
    commonCompanies: [],
    commonSources: [],
    cost: searchCost(input.runs),
  });
}

/**
 * For "top 3 products identical in k of N runs": how many runs share the most common top-3 set
 * (order and case ignored), and that set as the first such run listed it. Runs without products
 * never count as agreeing.
 */
export function stabilitySummary(stats: AggregatedStats): { identicalTop3: number; runs: number; mostCommonTop3: string[] } {
  const bySet = new Map<string, { count: number; names: string[] }>();
  for (const top of stats.topProductsPerRun) {
    if (top.length === 0) continue;
    const key = top.map(nameKey).sort().join("\u0000");
    const entry = bySet.get(key);
    if (entry) entry.count++;
    else bySet.set(key, { count: 1, names: top });
  }
  let best: { count: number; names: string[] } | undefined;
  for (const entry of bySet.values()) if (!best || entry.count > best.count) best = entry; // ties: first seen
  return { identicalTop3: best?.count ?? 0, runs: stats.topProductsPerRun.length, mostCommonTop3: best?.names ?? [] };
}

/**
 * A model's products in the order it ranked them: by rank (missing = 999), then as listed. Each
 * keeps the number it is shown with: its rank, else its position in this order.
 */
export function byRank(products: readonly Product[]): Array<Product & { number: number }> {
  return products
    .map((product, position) => ({ product, position }))
    .sort((a, b) => (a.product.rank ?? MISSING_RANK) - (b.product.rank ?? MISSING_RANK) || a.position - b.position)
    .map(({ product }, index) => ({ ...product, number: product.rank ?? index + 1 }));
}

// ---------------------------------------------------------------------------------------------

function displayedRun(provider: ProviderId, runs: ModelResult[]): ModelResult {
  return runs.find((run) => run.status === "ok") ?? runs[0] ?? offModelResult(provider);
}

function aggregatedStats(runs: ModelResult[]): AggregatedStats | undefined {
  const ok = runs.filter((run) => run.status === "ok");
  if (ok.length === 0) return undefined;
  return {
    iterations: ok.length,
    failedIterations: runs.filter((run) => run.status === "error").length,
    productFrequencies: frequencies(
      ok.map((run) => run.products.map((p) => p.name)),
      ok.length,
    ),
    companyFrequencies: frequencies(
      ok.map((run) => run.companies.map((c) => c.name)),
      ok.length,
    ),
    // All sources the run returned (cited or only retrieved), by normalised URL.
    sourceFrequencies: frequencies(
      ok.map((run) => run.sources.map((s) => normalizeUrl(s.url))),
      ok.length,
    ),
    topProductsPerRun: ok.map((run) =>
      byRank(run.products)
        .slice(0, 3)
        .map((product) => product.name),
    ),
    ...optional("stability", stabilityOf(ok.map((run) => byRank(run.products).map((product) => product.name)))),
    searchQueryFrequencies: frequencies(
      ok.map((run) => run.searchQueries),
      ok.length,
    ),
  };
}

/** One iteration as kept for later analysis (contract RunRecord). */
export function runRecord(run: ModelResult): RunRecord {
  return {
    status: run.status === "ok" ? "ok" : "error",
    products: byRank(run.products).map((product) => product.name),
    companies: run.companies.map((company) => company.name),
    sources: dedupeSources(run.sources).map((source) => normalizeUrl(source.url)),
    searchQueries: run.searchQueries,
    text: run.rawResponse ?? "",
    usage: run.usage,
    ...optional("extractionUsage", run.extractionUsage),
  };
}

function optional<K extends string, T>(key: K, value: T | undefined): Partial<Record<K, T>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, T>);
}

function byProductOrder(a: AggregatedProduct, b: AggregatedProduct): number {
  return b.count - a.count || (a.rank ?? MISSING_RANK) - (b.rank ?? MISSING_RANK) || compareNames(a.name, b.name);
}

function resultsInOrder(results: Results): [ProviderId, ModelResult][] {
  return providerIds.flatMap((id) => {
    const result = results[id];
    return result ? [[id, result] as [ProviderId, ModelResult]] : [];
  });
}

/**
 * Every model's items merged under their key, in catalogue order: `create` starts an entry from
 * the first item with a key, `update` folds in each item (that first one too); every entry lists
 * the models that returned it. Items without a key are left out.
 */
function mergeAcross<T, E extends object>(
  results: Results,
  itemsOf: (result: ModelResult) => readonly T[],
  keyOf: (item: T) => string,
  create: (item: T) => E,
  update: (entry: E & { models: ProviderId[]; count: number }, item: T) => void,
): Array<E & { models: ProviderId[]; count: number }> {
  const merged = new Map<string, E & { models: ProviderId[]; count: number }>();
  for (const [provider, result] of resultsInOrder(results)) {
    for (const item of itemsOf(result)) {
      const key = keyOf(item);
      if (!key) continue;
      let entry = merged.get(key);
      if (!entry) merged.set(key, (entry = { ...create(item), models: [], count: 0 }));
      update(entry, item);
      if (!entry.models.includes(provider)) {
        entry.models.push(provider);
        entry.count = entry.models.length;
      }
    }
  }
  return [...merged.values()];
}

/** How one kind of item is listed: where a model and its frequencies hold it, its key, and how spec §4 merges it. */
type ListField = "products" | "companies" | "sources";
type ListKind<K extends ListField, E> = {
  field: K;
  merge: (results: Results) => E[];
  frequencies: (stats: AggregatedStats) => Frequency[];
  /** The name (a source's URL) an item or a merged entry goes by. */
  text: (item: ModelResult[K][number] | E) => string;
  /** The key the frequencies merged it under. */
  key: (text: string) => string;
  /** An item from a frequency's name, with what the shown answer says about it. */
  fromFrequency: (name: string, shown: ModelResult[K][number] | undefined) => ModelResult[K][number];
};

const LIST_KINDS = {
  products: {
    field: "products",
    merge: aggregateProducts,
    frequencies: (stats) => stats.productFrequencies,
    text: (item) => item.name,
    key: nameKey,
    fromFrequency: (name, shown) => ({ ...shown, name }),
  } satisfies ListKind<"products", AggregatedProduct>,
  companies: {
    field: "companies",
    merge: aggregateCompanies,
    frequencies: (stats) => stats.companyFrequencies,
    text: (item) => item.name,
    key: nameKey,
    fromFrequency: (name, shown) => ({ ...shown, name }),
  } satisfies ListKind<"companies", AggregatedCompany>,
  sources: {
    field: "sources",
    merge: aggregateSources,
    frequencies: (stats) => stats.sourceFrequencies,
    text: (item) => item.url,
    key: (url) => nameKey(normalizeUrl(url)),
    fromFrequency: (url, shown) => ({ cited: true, ...shown, url }),
  } satisfies ListKind<"sources", AggregatedSource>,
};

/**
 * One kind of item as the result lists it: each provider's items (providerItems) merged as spec
 * §4 merges answers, each with how often each provider returned it.
 */
function listed<K extends ListField, E extends { models: ProviderId[]; count: number }>(result: Listable, kind: ListKind<K, E>): Array<E & ReturnedBy> {
  const lists: Results = {};
  const counts = new Map<ProviderId, Map<string, Returned>>();
  for (const [id, model] of resultsInOrder(result.models)) {
    const items = itemsOf(result, id, kind);
    lists[id] = { ...model, [kind.field]: items };
    counts.set(id, new Map(items.map((item) => [kind.key(kind.text(item)), item.returned])));
  }
  return kind.merge(lists).map((item) => {
    const key = kind.key(kind.text(item));
    const returned: ReturnedBy["returned"] = {};
    for (const id of item.models) returned[id] = counts.get(id)?.get(key) ?? { count: 1, n: 1 };
    return { ...item, returned };
  });
}

/**
 * One provider's items of a kind as the result lists them, each with how often it came back.
 * With one iteration: its answer's, as listed (1 of 1 each). With several: every item of its
 * frequencies (most often first) with what the shown answer says about it, then anything the
 * shown answer has that they lack (none, in a result this product built: that answer is one of
 * the iterations), as returned at least once.
 */
export function providerItems<K extends ListField>(result: Listable, id: ProviderId, field: K): Array<ModelResult[K][number] & { returned: Returned }> {
  return itemsOf(result, id, LIST_KINDS[field] as unknown as ListKind<K, never>);
}

function itemsOf<K extends ListField, E>(result: Listable, id: ProviderId, kind: ListKind<K, E>): Array<ModelResult[K][number] & { returned: Returned }> {
  const model = result.models[id];
  if (!model || model.status !== "ok") return [];
  const shownItems: ModelResult[K][number][] = model[kind.field];
  const over = iterationsOf(result, id, kind);
  if (!over) return shownItems.map((item) => ({ ...item, returned: { count: 1, n: 1 } }));
  const shown = new Map<string, ModelResult[K][number]>();
  for (const item of shownItems) if (!shown.has(kind.key(kind.text(item)))) shown.set(kind.key(kind.text(item)), item);
  const items = over.frequencies.map((frequency) => ({
    ...kind.fromFrequency(frequency.name, shown.get(kind.key(frequency.name))),
    returned: { count: frequency.count, n: over.n },
  }));
  const listedKeys = new Set(items.map((item) => kind.key(kind.text(item))));
  const missing = [...shown].filter(([key]) => !listedKeys.has(key)).map(([, item]) => ({ ...item, returned: { count: 1, n: over.n } }));
  return [...items, ...missing];
}

/** A provider's frequencies over several iterations: as saved, else from the kept runs of a result that has no frequencies. */
function iterationsOf<K extends ListField, E>(result: Listable, id: ProviderId, kind: ListKind<K, E>): { frequencies: Frequency[]; n: number } | undefined {
  const stats = result.stats[id];
  if (stats) return { frequencies: kind.frequencies(stats), n: stats.iterations };
  const runs = result.runs?.[id]?.filter((run) => run.status === "ok");
  if (!runs || runs.length === 0 || result.iterationCount <= 1) return undefined;
  return {
    frequencies: frequencies(
      runs.map((run) => run[kind.field]),
      runs.length,
    ),
    n: runs.length,
  };
}
