import type { BrandEntry } from "#src/contract/lens.ts";
import type { RunRecord } from "#src/contract/search-result.ts";
import type { TrendMetric } from "#src/contract/trend.ts";
import { isOwnHost, ownDomains } from "./lens.ts";
import { answerText, brandMatcher } from "./mentions.ts";
import { wilsonInterval } from "./stats.ts";
import { hostOf } from "./urls.ts";

/*
 * A tracker's trend (issue 26) is read from counts written when each run ends (its rollups): per
 * provider, query and subject (the brand or a competitor), how many answers there were and in how
 * many the subject was named, cited from its own domains, and ranked among the products. The
 * rates and their intervals are computed from those counts when read, so the rollups stay sums
 * that add up across queries.
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
};

/** Each subject's counts over `runs` (the brand first, then the competitors). */
export function subjectCounts(runs: readonly RunRecord[], brand: BrandEntry, competitors: readonly BrandEntry[]): SubjectCounts[] {
  const subjects = [brand, ...competitors].map((entry, index) => ({ entry, isBrand: index === 0, matcher: brandMatcher(entry), domains: ownDomains(entry) }));
  const answers = runs.map((run) => ({ run, text: answerText(run.text) }));
  const counts = subjects.map(({ entry, isBrand, matcher, domains }) => {
    let mentions = 0;
    let cited = 0;
    let ranked = 0;
    let positionSum = 0;
    let positionSquares = 0;
    for (const { run, text } of answers) {
      if (matcher.inAnswer({ ...run, text })) mentions++;
      if (domains.length > 0 && run.sources.some((url) => isOwnHost(hostOf(url), domains))) cited++;
      const index = run.products.findIndex((product) => matcher.inName(product));
      if (index !== -1) {
        ranked++;
        positionSum += index + 1;
        positionSquares += (index + 1) ** 2;
      }
    }
    return { subject: entry.name, isBrand, answers: runs.length, mentions, allMentions: 0, cited, ranked, positionSum, positionSquares };
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
  };
}

/**
 * A metric read from counts: `k` of `n` and its rate with a 95% interval, in percent, for the
 * rates (mention, share of voice, citation: Wilson); for position, `k` answers ranking the subject
 * of `n`, and the mean position among them with a 95% normal interval (null when never ranked).
 */
export function metricOf(metric: TrendMetric, counts: SubjectCounts): { n: number; k: number; rate: number | null; low: number | null; high: number | null } {
  if (metric === "position") {
    const { ranked: k, answers: n, positionSum, positionSquares } = counts;
    if (k === 0) return { n, k, rate: null, low: null, high: null };
    const mean = positionSum / k;
    const variance = k > 1 ? Math.max(0, (positionSquares - k * mean * mean) / (k - 1)) : 0;
    const half = 1.959964 * Math.sqrt(variance / k);
    return { n, k, rate: round2(mean), low: round2(Math.max(1, mean - half)), high: round2(mean + half) };
  }
  const [k, n] =
    metric === "mention" ? [counts.mentions, counts.answers] : metric === "sov" ? [counts.mentions, counts.allMentions] : [counts.cited, counts.answers];
  if (n === 0) return { n, k, rate: null, low: null, high: null };
  const { low, high } = wilsonInterval(k, n);
  return { n, k, rate: round2((k / n) * 100), low: round2(low), high: round2(high) };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
