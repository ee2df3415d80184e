/** The web searches behind an answer: the queries run, the pages retrieved, and those cited. */
import type { SourcePage } from "./catalogue.ts";
import type { Plan } from "./plan.ts";
import type { Rng } from "./random.ts";
import type { Effect } from "./run-effects.ts";

export interface Search {
  query: string;
  results: SourcePage[];
}

export interface SearchRun {
  searches: Search[];
  retrieved: SourcePage[];
  cited: SourcePage[];
}

export const NO_SEARCH: SearchRun = { searches: [], retrieved: [], cited: [] };

/**
 * Earlier (more relevant) pages are likelier to be retrieved and cited; some retrieved pages go
 * uncited. The run's effect, when given, scales a page's weight by exp(effect of its URL), as the
 * day's search index ranks some pages higher.
 */
export function runSearches(rng: Rng, query: string, plan: Plan, range: { min: number; max: number }, effect?: Effect): SearchRun {
  const pages = [...new Map(plan.pages.map((page) => [page.url, page])).values()];
  if (!plan.search || pages.length === 0) return NO_SEARCH;
  const rank = (page: SourcePage) => pages.length - pages.indexOf(page) + 2;
  const weight = effect ? (page: SourcePage) => rank(page) * Math.exp(effect(page.url)) : rank;
  const retrieved = rng.weightedSample(pages, weight, rng.int(Math.min(6, pages.length), Math.min(12, pages.length)));
  const citable = Math.min(5, retrieved.length - 1);
  const cited = plan.cite ? (citable >= 2 ? rng.weightedSample(retrieved, weight, rng.int(2, citable)) : retrieved.slice(0, 1)) : [];
  const q = query
    .toLowerCase()
    .replace(/[?!.]+$/, "")
    .trim();
  const count = rng.int(Math.max(1, range.min), Math.max(1, range.min, range.max));
  const queries = [...new Set([q, ...rng.shuffle(plan.searches)])].slice(0, count);
  const searches = queries.map((text, i) => ({ query: text, results: retrieved.filter((_, j) => j % queries.length === i) }));
  return { searches: searches.filter((s) => s.results.length > 0), retrieved, cited };
}
