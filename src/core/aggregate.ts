import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { offModelResult, SEARCH_RESULT_VERSION, type AggregatedStats, type ModelResult, type Product, type RunRecord, type SearchResult } from "#src/contract/search.ts";
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

/**
 * The saved/streamed search result. `runs[p]` holds every iteration of provider p in completion
 * order. Each card shows the provider's first "ok" run (else its first run, else "off"); the
 * totals and overlaps are over those. With more than one iteration, each provider with an ok run
 * also gets frequency stats over its ok runs.
 */
export function buildSearchResult(input: { query: string; executionTimeMs: number; iterations: number; runs: Partial<Record<ProviderId, ModelResult[]>> }): SearchResult {
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
  const products = aggregateProducts(models);
  const companies = aggregateCompanies(models);
  const sources = aggregateSources(models);
  const shared = <T extends { count: number; models: ProviderId[] }>(items: T[]) => items.filter((item) => item.count >= 2);
  return {
    schemaVersion: SEARCH_RESULT_VERSION,
    query: input.query,
    executionTimeMs: input.executionTimeMs,
    totalLinks: sources.length,
    totalProducts: products.length,
    totalCompanies: companies.length,
    iterationCount: input.iterations,
    models,
    stats,
    runs: records,
    commonProducts: shared(products).map(({ name, models: ids }) => ({ name, models: ids })),
    commonCompanies: shared(companies).map(({ name, models: ids }) => ({ name, models: ids })),
    commonSources: shared(sources).map(({ url, models: ids }) => ({ url, models: ids })),
  };
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
    topProductsPerRun: ok.map((run) => byRank(run.products).slice(0, 3).map((product) => product.name)),
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
