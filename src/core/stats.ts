import type { Frequency } from "#src/contract/search.ts";
import { betterCasing, compareNames, nameKey } from "./names.ts";

/**
 * Wilson score interval for `count` successes in `n` runs, in percent (0..100). Unlike the plain
 * count / n ± error it stays inside 0..100 and is honest for 0 of n and n of n, which are exactly
 * the cases a 5-run search produces most.
 */
export function wilsonInterval(count: number, n: number, z = 1.959964): { low: number; high: number } {
  if (!(n > 0)) return { low: 0, high: 0 };
  const k = Math.min(Math.max(count, 0), n);
  const p = k / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Pin the ends exactly: floating point would otherwise give 1e-17 or 99.99999.
  const low = k === 0 ? 0 : Math.max(0, centre - half);
  const high = k === n ? 1 : Math.min(1, centre + half);
  return { low: low * 100, high: high * 100 };
}

/**
 * In how many of the runs each name came back. `runs` holds each completed run's names; a name
 * counts at most once per run, case-insensitively, and is shown in its most frequent spelling.
 * `n` is the denominator (completed runs). Percentages and bounds are rounded to one decimal.
 * Sorted by count descending, then name ascending.
 */
export function frequencies(runs: string[][], n: number): Frequency[] {
  const tallies = new Map<string, { count: number; spellings: Map<string, number> }>();
  for (const run of runs) {
    const seenInRun = new Set<string>();
    for (const raw of run) {
      const name = raw.trim();
      if (name === "") continue;
      const key = nameKey(name);
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, (tally = { count: 0, spellings: new Map() }));
      tally.spellings.set(name, (tally.spellings.get(name) ?? 0) + 1);
      if (seenInRun.has(key)) continue;
      seenInRun.add(key);
      tally.count += 1;
    }
  }
  return [...tallies.values()]
    .map(({ count, spellings }) => {
      const { low, high } = wilsonInterval(count, n);
      return {
        name: mostCommonSpelling(spellings),
        count,
        percentage: n > 0 ? round1((count / n) * 100) : 0,
        low: round1(low),
        high: round1(high),
      };
    })
    .sort((a, b) => b.count - a.count || compareNames(a.name, b.name));
}

// Most frequent spelling; a tie goes to the better-cased one, then to the first seen.
function mostCommonSpelling(spellings: Map<string, number>): string {
  let best = "";
  let bestCount = 0;
  for (const [spelling, count] of spellings) {
    if (count > bestCount) {
      best = spelling;
      bestCount = count;
    } else if (count === bestCount) {
      best = betterCasing(best, spelling);
    }
  }
  return best;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
