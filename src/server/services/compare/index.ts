import type { CompareReport } from "#src/contract/compare.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { compareSearches } from "#src/core/compare.ts";
import type { Billing } from "../billing/index.ts";
import { DomainError } from "../errors.ts";
import type { Owner } from "../owner.ts";
import type { SearchService } from "../search/index.ts";

/**
 * Spec §2 compare (Pro): the original query against its variants, each as the caller's latest
 * saved search of that query (any letter case, spec §5), with per-item frequencies and tests.
 */
export function createCompare({ billing, search }: { billing: Billing; search: SearchService }) {
  return {
    async compare(owner: Owner, asked: { query?: string; variants: string[] }): Promise<CompareReport> {
      await billing.requirePro(owner.userId);
      if (!asked.query && asked.variants.length === 0) throw new DomainError("INVALID_INPUT", "No queries specified");
      const latest = (query: string) => search.latestFor(owner, query);
      const original = asked.query ? ((await latest(asked.query)) ?? undefined) : undefined;
      const variants = (await Promise.all(distinct(asked.variants, asked.query).map(latest))).filter((found): found is SavedSearchResult => found !== null);
      return compareSearches(original, variants, asked);
    },
  };
}

export type Compare = ReturnType<typeof createCompare>;

/** Each variant once, and not the original again (any letter case). */
function distinct(variants: string[], original: string | undefined): string[] {
  const seen = new Set(original ? [original.trim().toLowerCase()] : []);
  return variants.filter((query) => {
    const key = query.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
