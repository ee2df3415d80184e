import { nameKey } from "./names.ts";

/** Persistence of rank-biased overlap: 0.9 weighs the first ten places most (Webber et al., 2010). */
export const RBO_P = 0.9;
/** Stability compares the top 3, the places a card shows. */
export const STABILITY_K = 3;

/** |A ∩ B| / |A ∪ B| of two lists as sets (names compared case-insensitively); 1 for two empty lists. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  const left = new Set(a.map(nameKey));
  const right = new Set(b.map(nameKey));
  if (left.size === 0 && right.size === 0) return 1;
  let shared = 0;
  for (const item of left) if (right.has(item)) shared++;
  return shared / (left.size + right.size - shared);
}

/**
 * Rank-biased overlap of two ranked lists, extrapolated to their full depth (RBO_ext, Webber,
 * Moffat and Zobel 2010, eq. 32): agreement at each depth d (the shared share of both top-d
 * prefixes), weighted by p^d so the top counts most. 1 for identical lists, 0 for disjoint ones.
 * A shorter list counts as having nothing more below its end.
 */
export function rankBiasedOverlap(a: readonly string[], b: readonly string[], p = RBO_P): number {
  const depth = Math.max(a.length, b.length);
  if (depth === 0) return 1;
  const seenA = new Set<string>();
  const seenB = new Set<string>();
  let overlap = 0;
  let sum = 0;
  for (let d = 1; d <= depth; d++) {
    const x = a[d - 1] === undefined ? undefined : nameKey(a[d - 1] as string);
    const y = b[d - 1] === undefined ? undefined : nameKey(b[d - 1] as string);
    if (x !== undefined && x === y) overlap++;
    else {
      if (x !== undefined && seenB.has(x)) overlap++;
      if (y !== undefined && seenA.has(y)) overlap++;
    }
    if (x !== undefined) seenA.add(x);
    if (y !== undefined) seenB.add(y);
    sum += (overlap / d) * p ** d;
  }
  return (overlap / depth) * p ** depth + ((1 - p) / p) * sum;
}

/**
 * How alike a provider's iterations are: the mean top-k Jaccard and the mean RBO over every pair
 * of runs that named at least one product. Undefined with fewer than 2 such runs.
 */
export function stabilityOf(lists: readonly (readonly string[])[], k = STABILITY_K): { k: number; jaccard: number; rbo: number; pairs: number } | undefined {
  const named = lists.filter((list) => list.length > 0);
  if (named.length < 2) return undefined;
  let jaccardSum = 0;
  let rboSum = 0;
  let pairs = 0;
  for (let i = 0; i < named.length; i++) {
    for (let j = i + 1; j < named.length; j++) {
      const [a, b] = [named[i] ?? [], named[j] ?? []];
      jaccardSum += jaccard(a.slice(0, k), b.slice(0, k));
      rboSum += rankBiasedOverlap(a, b);
      pairs++;
    }
  }
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  return { k, jaccard: round3(jaccardSum / pairs), rbo: round3(rboSum / pairs), pairs };
}
