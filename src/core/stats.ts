import type { Rate } from "#src/contract/lens.ts";
import type { Frequency } from "#src/contract/search-result.ts";
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
      const { percentage, low, high } = rate(count, n);
      return { name: mostCommonSpelling(spellings), count, percentage, low, high };
    })
    .sort((a, b) => b.count - a.count || compareNames(a.name, b.name));
}

/** `count` of `n` as a Rate: percentage and 95% Wilson bounds, each rounded to one decimal. */
export function rate(count: number, n: number): Rate {
  const { low, high } = wilsonInterval(count, n);
  return { count, n, percentage: percentOf(count, n), low: round1(low), high: round1(high) };
}

/** `part` as a percentage of `whole`, rounded to one decimal; 0 when the whole is 0. */
export function percentOf(part: number, whole: number): number {
  return whole > 0 ? round1((part / whole) * 100) : 0;
}

/**
 * Two-sided p-value of Fisher's exact test on the 2×2 table [[a, n1 − a], [b, n2 − b]]: the
 * probability, with the margins fixed (hypergeometric), of every table as likely as the observed
 * one or less. Chosen over the two-proportion z-test because a search has 1–100 iterations and
 * counts are often 0 or n, where the normal approximation is badly off. Log-factorials keep it
 * exact enough for n in the hundreds; the small relative tolerance counts tables whose
 * probability equals the observed one up to rounding, as R's fisher.test does.
 */
export function fisherExact(a: number, n1: number, b: number, n2: number): number {
  for (const value of [a, n1, b, n2]) if (!Number.isInteger(value) || value < 0) throw new RangeError("fisherExact takes whole, non-negative counts");
  if (a > n1 || b > n2) throw new RangeError("fisherExact: a count exceeds its total");
  const total = n1 + n2;
  const successes = a + b;
  const logDenominator = logChoose(total, successes);
  const logProbability = (x: number) => logChoose(n1, x) + logChoose(n2, successes - x) - logDenominator;
  const observed = logProbability(a) + 1e-7;
  let p = 0;
  let everyTable = true;
  for (let x = Math.max(0, successes - n2); x <= Math.min(successes, n1); x++) {
    const logP = logProbability(x);
    if (logP <= observed) p += Math.exp(logP);
    else everyTable = false;
  }
  // All tables counted: exactly 1, where the sum would come out a few ulps short.
  return everyTable ? 1 : Math.min(1, p);
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

// ln(k!) for k = 0, 1, …, grown on demand and kept: the sums are exact enough and cheap.
const logFactorials = [0];
function logFactorial(k: number): number {
  for (let i = logFactorials.length; i <= k; i++) logFactorials.push((logFactorials[i - 1] ?? 0) + Math.log(i));
  return logFactorials[k] ?? 0;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/**
 * A bound of a percentage's interval as text, to `decimals` places ("23", "31.3"), except that a
 * bound short of 100 (or above 0) never reads as 100 (or 0): it keeps the decimals it needs
 * ("99.8", "0.2"), since "92–100%" reads as certainty the figures do not have.
 */
export function boundText(value: number, decimals = 0): string {
  if (!Number.isFinite(value)) return "0";
  for (let places = decimals; places < 4; places++) {
    const text = value.toFixed(places);
    const shown = Number(text);
    if (!((shown >= 100 && value < 100) || (shown <= 0 && value > 0))) return text;
  }
  return value.toFixed(4);
}

/** A 95% interval in percent: "23–88%", "92–99.8%"; `decimals` as boundText. */
export function intervalText(low: number, high: number, decimals = 0): string {
  return `${boundText(low, decimals)}–${boundText(high, decimals)}`;
}
