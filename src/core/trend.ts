import type { BrandEntry } from "#src/contract/lens.ts";
import type { RunRecord } from "#src/contract/search-result.ts";
import type { TrendMetric } from "#src/contract/trend.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import {
  clusteredInterval,
  DISPERSION_PRIOR,
  effectiveDispersion,
  providerDispersion,
  rateEvidence,
  successiveEvidence,
  type Dispersion,
  type DispersionEvidence,
} from "./dispersion.ts";
import { studentTQuantile } from "./distributions.ts";
import { isOwnHost, ownDomains } from "./lens.ts";
import { answerText, brandMatcher } from "./mentions.ts";
import { hostOf } from "./urls.ts";

/*
 * A tracker's trend is read from counts written when each run ends (its rollups): per
 * provider, query and subject (the brand or a competitor), how many answers there were and in how
 * many the subject was named, cited from its own domains, and ranked among the products. The
 * rates and their intervals are computed from those counts when read, so the rollups stay sums
 * that add up across queries. An interval covers the tracker's rate, not only the run's answers:
 * it is widened by how much the tracker's runs vary beyond their answers' coin flips (ADR 050).
 */

/** One subject's counts over a set of answers. */
export type SubjectCounts = {
  subject: string;
  isBrand: boolean;
  /** Answers counted. */
  answers: number;
  /** Answers naming the subject (never in a "could not find"). */
  mentions: number;
  /** Mentions of every subject in these answers: the share of voice's denominator. */
  allMentions: number;
  /** Answers citing one of the subject's own domains among their sources. */
  cited: number;
  /** Answers whose products include the subject, and the sum of its positions there (1 = first) and of their squares. */
  ranked: number;
  positionSum: number;
  positionSquares: number;
  /**
   * For share of voice with the answer as its unit: over the answers naming the subject, how many
   * subjects each named (summed); over every answer, the square of how many it named (summed).
   * Null in rollups written before they were counted.
   */
  coMentions: number | null;
  mentionSquares: number | null;
};

/** Each subject's counts over `runs` (the brand first, then the competitors). */
export function subjectCounts(runs: readonly RunRecord[], brand: BrandEntry, competitors: readonly BrandEntry[]): SubjectCounts[] {
  const subjects = [brand, ...competitors].map((entry, index) => ({ entry, isBrand: index === 0, matcher: brandMatcher(entry), domains: ownDomains(entry) }));
  const answers = runs.map((run) => ({ run, text: answerText(run.text) }));
  const named = answers.map(({ run, text }) => subjects.map(({ matcher }) => matcher.inAnswer({ ...run, text })));
  const perAnswer = named.map((flags) => flags.filter(Boolean).length);
  const mentionSquares = perAnswer.reduce((sum, count) => sum + count * count, 0);
  const counts = subjects.map(({ entry, isBrand, matcher, domains }, s) => {
    let mentions = 0;
    let coMentions = 0;
    let cited = 0;
    let ranked = 0;
    let positionSum = 0;
    let positionSquares = 0;
    answers.forEach(({ run }, i) => {
      if (named[i]![s]) {
        mentions++;
        coMentions += perAnswer[i]!;
      }
      if (domains.length > 0 && run.sources.some((url) => isOwnHost(hostOf(url), domains))) cited++;
      const index = run.products.findIndex((product) => matcher.inName(product));
      if (index !== -1) {
        ranked++;
        positionSum += index + 1;
        positionSquares += (index + 1) ** 2;
      }
    });
    return {
      subject: entry.name,
      isBrand,
      answers: runs.length,
      mentions,
      allMentions: 0,
      cited,
      ranked,
      positionSum,
      positionSquares,
      coMentions,
      mentionSquares,
    };
  });
  const allMentions = counts.reduce((sum, entry) => sum + entry.mentions, 0);
  return counts.map((entry) => ({ ...entry, allMentions }));
}

/** Counts added up (the same subject over several queries). */
export function addCounts(a: SubjectCounts, b: SubjectCounts): SubjectCounts {
  return {
    subject: a.subject,
    isBrand: a.isBrand,
    answers: a.answers + b.answers,
    mentions: a.mentions + b.mentions,
    allMentions: a.allMentions + b.allMentions,
    cited: a.cited + b.cited,
    ranked: a.ranked + b.ranked,
    positionSum: a.positionSum + b.positionSum,
    positionSquares: a.positionSquares + b.positionSquares,
    coMentions: a.coMentions === null || b.coMentions === null ? null : a.coMentions + b.coMentions,
    mentionSquares: a.mentionSquares === null || b.mentionSquares === null ? null : a.mentionSquares + b.mentionSquares,
  };
}

/**
 * A metric read from counts, with its 95% interval for the tracker's rate given how much its runs
 * vary (`dispersion`, from trendDispersions; without one, the prior a tracker starts with):
 * - mention, citation: k of n answers, the rate in percent, Wilson's interval on the effective
 *   numbers of answers (k / φ of n / φ);
 * - sov: the subject's mentions (k) of every tracked subject's (n), in percent; its interval
 *   counts the answer as the unit (a ratio of two counts over the same answers, linearized), not
 *   each mention as a trial;
 * - position: the mean position over the k answers ranking the subject, of n; it says nothing of
 *   the answers that did not rank it. A t interval on k − 1 degrees of freedom (none under two).
 * Rates are null when n is 0; position when k is 0.
 */
export function metricOf(
  metric: TrendMetric,
  counts: SubjectCounts,
  dispersion: Dispersion = DISPERSION_PRIOR,
): { n: number; k: number; rate: number | null; low: number | null; high: number | null } {
  if (metric === "position") {
    const { ranked: k, answers: n } = counts;
    if (k === 0) return { n, k, rate: null, low: null, high: null };
    const { mean, variance } = positionOf(counts);
    if (k < 2) return { n, k, rate: round2(mean), low: null, high: null };
    const half = studentTQuantile(0.975, Math.min(k - 1, dispersion.df)) * Math.sqrt((dispersion.phi * variance) / k);
    return { n, k, rate: round2(mean), low: round2(Math.max(1, mean - half)), high: round2(mean + half) };
  }
  const phi = effectiveDispersion(dispersion, 0.05);
  if (metric === "sov") {
    const { mentions: k, allMentions: n } = counts;
    if (n === 0) return { n, k, rate: null, low: null, high: null };
    const share = k / n;
    // Wilson's interval on what the share is worth in answers: its linearized variance, clustered. None varies (every answer names the same subjects): none wide.
    const variance = shareVariance(counts);
    if (variance === 0 || share === 0 || share === 1) {
      const edge = variance === 0 ? { low: share * 100, high: share * 100 } : clusteredInterval(k, counts.answers, phi);
      return { n, k, rate: round2(share * 100), low: round2(edge.low), high: round2(edge.high) };
    }
    const effective = (share * (1 - share)) / variance / phi;
    const { low, high } = clusteredInterval(share * effective, effective, 1);
    return { n, k, rate: round2(share * 100), low: round2(low), high: round2(high) };
  }
  const [k, n] = metric === "mention" ? [counts.mentions, counts.answers] : [counts.cited, counts.answers];
  if (n === 0) return { n, k, rate: null, low: null, high: null };
  const { low, high } = clusteredInterval(k, n, phi);
  return { n, k, rate: round2((k / n) * 100), low: round2(low), high: round2(high) };
}

/** A series of the trend: one provider × subject (at one level: over all questions, or one question), its runs oldest first. */
export type TrendSeries = { provider: ProviderId; runs: ReadonlyArray<{ segment: number; counts: SubjectCounts }> };

/**
 * How much each provider's runs vary on `metric` beyond their answers (ADR 050): each series'
 * successive runs within a segment (an edit restarts the comparison), pooled over the provider's
 * series, and over other providers' when they vary alike.
 */
export function trendDispersions(metric: TrendMetric, series: readonly TrendSeries[]): Map<ProviderId, Dispersion> {
  const evidence = new Map<ProviderId, Array<DispersionEvidence | null>>();
  for (const { provider, runs } of series) {
    const list = evidence.get(provider) ?? [];
    let piece: SubjectCounts[] = [];
    const close = () => {
      if (piece.length > 1) list.push(evidenceOf(metric, piece));
      piece = [];
    };
    runs.forEach((run, index) => {
      if (index > 0 && runs[index - 1]!.segment !== run.segment) close();
      piece.push(run.counts);
    });
    close();
    evidence.set(provider, list);
  }
  const dispersions = new Map<ProviderId, Dispersion>();
  for (const [provider, own] of evidence)
    dispersions.set(
      provider,
      providerDispersion(
        own,
        [...evidence].flatMap(([other, list]) => (other === provider ? [] : list)),
      ),
    );
  return dispersions;
}

/** One series' evidence about its runs' dispersion, for the metric. */
function evidenceOf(metric: TrendMetric, runs: readonly SubjectCounts[]): DispersionEvidence | null {
  if (metric === "mention" || metric === "citation") {
    const tallies = runs.map((counts) => (metric === "mention" ? { k: counts.mentions, n: counts.answers } : { k: counts.cited, n: counts.answers }));
    const k = tallies.reduce((sum, run) => sum + run.k, 0);
    const n = tallies.reduce((sum, run) => sum + run.n, 0);
    return n > 0 ? rateEvidence(tallies.map((run) => ({ ...run, expected: (run.n * k) / n }))) : null;
  }
  if (metric === "sov")
    return successiveEvidence(
      runs.filter((counts) => counts.allMentions > 0).map((counts) => ({ value: counts.mentions / counts.allMentions, variance: shareVariance(counts) })),
    );
  return successiveEvidence(
    runs.filter((counts) => counts.ranked >= 2).map((counts) => ({ value: positionOf(counts).mean, variance: positionOf(counts).variance / counts.ranked })),
  );
}

/** The mean position over the answers ranking the subject, and the variance of one answer's position (at least a quarter: two answers ranking it alike are not proof it never moves). */
function positionOf({ ranked: k, positionSum, positionSquares }: SubjectCounts): { mean: number; variance: number } {
  const mean = positionSum / k;
  const variance = k > 1 ? Math.max(0, (positionSquares - k * mean * mean) / (k - 1)) : 0;
  return { mean, variance: Math.max(variance, 0.25) };
}

/**
 * The variance of a share of voice with the answer as its unit (a ratio estimator, linearized):
 * Σ (x − R·y)² / Y², x an answer naming the subject, y how many subjects it named. Rollups from
 * before those sums were kept are read as if each answer named the average number of subjects.
 */
function shareVariance(counts: SubjectCounts): number {
  const { mentions: x, allMentions: y, answers: n } = counts;
  if (y === 0 || n === 0) return 0;
  const share = x / y;
  const spread =
    counts.coMentions === null || counts.mentionSquares === null ? x * (1 - x / n) : x - 2 * share * counts.coMentions + share * share * counts.mentionSquares;
  return (Math.max(0, spread) * (n > 1 ? n / (n - 1) : 1)) / (y * y);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
