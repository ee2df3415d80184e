import { normalQuantile, regularizedBeta, studentTCdf, studentTQuantile } from "./distributions.ts";
import { fisherExact, wilsonInterval } from "./stats.ts";

/*
 * How much a tracker's runs vary beyond the coin flips of their answers (ADR 050). The answers of
 * one run share that day's model build, search index and results, so a run's rate moves more from
 * run to run than k of n independent answers would: by a factor φ (the dispersion, or design
 * effect) on its variance. φ is read off the tracker's own runs, pooled over the series of a
 * provider that behave alike, with a weak prior for a tracker that has shown little yet; what was
 * estimated from few runs is widened by Student's t, so an interval or a test built on it keeps
 * its level. Counting answers as independent is φ = 1, which real assistants are not.
 */

/**
 * Before a tracker has shown its own spread: a dispersion of 2, worth 4 runs-to-run comparisons.
 * Measured trackers sit between 1 and 4 (ADR 050); the tracker's own runs outweigh it within a week.
 */
export const DISPERSION_PRIOR = { phi: 2, df: 4 } as const;

/** The evidence one series gives: its runs' squared standardized deviations, summed, and their degrees of freedom. */
export type DispersionEvidence = { sum: number; df: number };

/** A pooled dispersion: φ (at least 1), and the degrees of freedom behind it (the prior's included). */
export type Dispersion = { phi: number; df: number };

/** One run of a series: `k` of `n` answers, and what `k` was expected to be from the baseline (composition-adjusted). */
export type RunTally = { k: number; n: number; expected: number };

/** One run of a series as an estimate, and the variance its answers alone (taken as independent) would give it. */
export type RunEstimate = { value: number; variance: number };

/**
 * A series' evidence about φ from its runs (oldest first), read from successive runs (von
 * Neumann's mean squared successive difference): each run's estimate against the run before's,
 * over the variance independent answers would give the pair. A level that moved or slid inside
 * the runs read barely counts, where Pearson's X² about their mean would take the move for
 * spread. Its degrees of freedom are that estimator's effective ones, 2(B − 1)² / (3B − 4).
 */
export function successiveEvidence(runs: readonly RunEstimate[]): DispersionEvidence | null {
  const kept = runs.filter((run) => run.variance > 0 && Number.isFinite(run.value));
  if (kept.length < 2) return null;
  let sum = 0;
  for (let i = 1; i < kept.length; i++) sum += (kept[i]!.value - kept[i - 1]!.value) ** 2 / (kept[i]!.variance + kept[i - 1]!.variance);
  const pairs = kept.length - 1;
  const df = (2 * pairs * pairs) / (3 * kept.length - 4);
  return { sum: (sum / pairs) * df, df };
}

/**
 * A rate's runs as estimates: each run's deviation from what the series' rate predicts for it
 * (its questions' own rates, so a question missing from a run moves nothing), with the variance
 * of k of n independent answers at the series' rate. A series too sparse to say anything (under
 * one expected count's worth of binomial variance a run) gives none: a single mention in a
 * near-empty series would otherwise read as a huge dispersion.
 */
export function rateEstimates(runs: readonly RunTally[]): RunEstimate[] | null {
  const kept = runs.filter((run) => run.n > 0);
  const k = kept.reduce((sum, run) => sum + run.k, 0);
  const n = kept.reduce((sum, run) => sum + run.n, 0);
  if (kept.length < 2) return null;
  const spread = (k / n) * (1 - k / n);
  if (spread * (n / kept.length) < 1) return null;
  return kept.map((run) => ({ value: (run.k - run.expected) / run.n, variance: spread / run.n }));
}

/** A rate series' evidence about φ: successive differences of its runs' estimates. */
export function rateEvidence(runs: readonly RunTally[]): DispersionEvidence | null {
  const estimates = rateEstimates(runs);
  return estimates ? successiveEvidence(estimates) : null;
}

/**
 * A provider's dispersion: its own series' evidence, and the other providers' too when they vary
 * alike (the F test of the two estimates does not tell them apart at 10%). Three providers' runs
 * estimate φ three times as well as one's; a provider that varies its own way keeps its own.
 */
export function providerDispersion(own: readonly (DispersionEvidence | null)[], others: readonly (DispersionEvidence | null)[]): Dispersion {
  const mine = pooledDispersion(own);
  const a = raw(own);
  const b = raw(others);
  if (!a || !b) return mine;
  const f = fDistribution(a.phi / b.phi, a.df, b.df);
  return 2 * Math.min(f, 1 - f) > ALIKE ? pooledDispersion([...own, ...others]) : mine;
}

/** The two-sided level below which two providers' dispersions are taken to differ. */
const ALIKE = 0.1;

/** Evidence summed without the prior: its φ and degrees of freedom, or null without any. */
function raw(evidence: readonly (DispersionEvidence | null)[]): Dispersion | null {
  let sum = 0;
  let df = 0;
  for (const part of evidence)
    if (part) {
      sum += part.sum;
      df += part.df;
    }
  return df > 0 ? { phi: Math.max(sum / df, 1e-9), df } : null;
}

/** The F distribution function with d1 and d2 degrees of freedom. */
function fDistribution(f: number, d1: number, d2: number): number {
  return regularizedBeta((d1 * f) / (d1 * f + d2), d1 / 2, d2 / 2);
}

/** The series' evidence pooled with the prior: φ = (prior's weight + Σ X²) / (prior's df + Σ df), never below 1. */
export function pooledDispersion(evidence: readonly (DispersionEvidence | null)[], prior: { phi: number; df: number } = DISPERSION_PRIOR): Dispersion {
  let sum = prior.phi * prior.df;
  let df = prior.df;
  for (const part of evidence)
    if (part) {
      sum += part.sum;
      df += part.df;
    }
  return { phi: Math.max(1, sum / df), df };
}

/**
 * The dispersion to use for a two-sided interval or test at level `alpha`: φ widened by
 * (t_df / z)², the price of having estimated it from `df` degrees of freedom rather than known it.
 */
export function effectiveDispersion({ phi, df }: Dispersion, alpha: number): number {
  return phi * widening(alpha, df);
}

/** (t / z)², kept by level and degrees of freedom: a tracker's page asks for the same few thousands of times. */
const widenings = new Map<string, number>();
function widening(alpha: number, df: number): number {
  const key = `${alpha.toPrecision(6)}/${df.toPrecision(6)}`;
  let factor = widenings.get(key);
  if (factor === undefined) {
    factor = (studentTQuantile(1 - alpha / 2, df) / normalQuantile(1 - alpha / 2)) ** 2;
    if (widenings.size >= 10_000) widenings.clear();
    widenings.set(key, factor);
  }
  return factor;
}

/**
 * A rate's 95% interval with clustered answers: Wilson's, on the effective numbers of answers
 * (k / φ of n / φ), in percent. With φ = 1 it is Wilson's interval on the answers.
 */
export function clusteredInterval(k: number, n: number, phi: number): { low: number; high: number } {
  if (!(n > 0)) return { low: 0, high: 0 };
  const effectiveN = n / phi;
  const { low, high } = wilsonInterval((k / n) * effectiveN, effectiveN);
  return { low, high };
}

/**
 * Whether two rates differ beyond how much runs vary: Fisher's exact test on the effective counts,
 * each side's answers divided by the dispersion (Rao–Scott), its p read as a normal deviate and
 * referred to Student's t on the dispersion's degrees of freedom. Exact where counts are sparse,
 * and honest about a φ estimated from few runs. Two-sided.
 */
export function dispersedTest(before: { k: number; n: number }, after: { k: number; n: number }, { phi, df }: Dispersion): number {
  if (before.n === 0 || after.n === 0) return 1;
  const effective = ({ k, n }: { k: number; n: number }) => {
    const size = Math.max(1, Math.round(n / phi));
    return { k: Math.min(size, Math.max(0, Math.round((k / n) * size))), n: size };
  };
  const a = effective(before);
  const b = effective(after);
  const p = fisherExact(a.k, a.n, b.k, b.n);
  if (p >= 1) return 1;
  return 2 * (1 - studentTCdf(normalQuantile(1 - Math.max(p, 1e-300) / 2), df));
}
