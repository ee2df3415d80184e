import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SummaryChange, SummaryFigures, SummaryPeriod, SummaryPeriodName, SummarySpan, SummaryVerdict } from "#src/contract/summary.ts";
import type { TrendPoint } from "#src/contract/trend.ts";
import { benjaminiHochberg, compareWindows, DEFAULT_ALERT_RULES, type SeriesRun } from "./alerts.ts";
import { clusteredInterval, DISPERSION_PRIOR, dispersedTest, effectiveDispersion, type Dispersion } from "./dispersion.ts";

/*
 * A tracker's headline for a period, from its trend's per-question mention points (the rollups):
 * the brand's mention rate with the trend's interval (Wilson's on the answers divided by the
 * dispersion its runs show), its rank and share of voice among the tracked brands, and a change
 * against the period before told only when the alerts' test tells it: the same question-by-question
 * comparison, the same dispersed Fisher test, Benjamini–Hochberg at the alerts' q over the summary's
 * tests (across providers and each provider's).
 */

/** A per-question mention point of the trend: `k` of `n` answers named `subject`. */
export type SummaryPoint = Pick<TrendPoint, "runId" | "at" | "provider" | "query" | "subject" | "isBrand" | "k" | "n">;

/** A span of runs read: scheduled in [from, until), or exactly the runs named (a run period). */
export type SummaryWindow = { from: Date; until: Date; runIds?: readonly string[] };

export type ResolvedPeriod = { kind: SummaryPeriod["kind"]; current: SummaryWindow; previous: SummaryWindow };

const DAY_MS = 86_400_000;
const DAYS: Record<Exclude<SummaryPeriodName, "run">, number> = { "7d": 7, "30d": 30 };

/**
 * The period asked for, as of `now`: a run (the newest of `runs`, which are the runs with figures,
 * oldest first; against the one before it), the last 7 or 30 days, or `from`–`to` (`until` exclusive);
 * without `from`, the 7 days before `until`; without `until`, up to now. The previous period is as
 * long and ends where this one starts.
 */
export function summaryPeriod(
  asked: { period?: SummaryPeriodName | undefined; from?: Date | undefined; until?: Date | undefined },
  now: Date,
  runs: ReadonlyArray<{ runId: string; at: string }>,
): ResolvedPeriod {
  if (asked.period === "run") {
    // No run (or none before the newest): an empty window where it would be, never after the run read (the answers are read from the previous window's start on).
    const window = (run: { runId: string; at: string } | undefined, at: Date): SummaryWindow =>
      run ? { from: new Date(run.at), until: new Date(run.at), runIds: [run.runId] } : { from: at, until: at, runIds: [] };
    const current = window(runs.at(-1), now);
    return { kind: "run", current, previous: window(runs.at(-2), current.from) };
  }
  const custom = !asked.period && (asked.from || asked.until);
  const until = custom ? (asked.until ?? now) : now;
  const from = custom ? (asked.from ?? new Date(until.getTime() - 7 * DAY_MS)) : new Date(until.getTime() - DAYS[asked.period ?? "7d"] * DAY_MS);
  const length = until.getTime() - from.getTime();
  return {
    kind: custom ? "range" : (asked.period ?? "7d"),
    current: { from, until },
    previous: { from: new Date(from.getTime() - length), until: from },
  };
}

/** Whether a point is in the window. */
export function inWindow(point: Pick<SummaryPoint, "runId" | "at">, window: SummaryWindow): boolean {
  if (window.runIds) return window.runIds.includes(point.runId);
  const at = Date.parse(point.at);
  return at >= window.from.getTime() && at < window.until.getTime();
}

/** The span a window covers in the answer: its ends, and how many runs of `points` fall in it. */
export function spanOf(window: SummaryWindow, points: readonly SummaryPoint[]): SummarySpan {
  return { from: window.from.toISOString(), to: window.until.toISOString(), runs: new Set(points.map((point) => point.runId)).size };
}

export type SummaryInput = {
  /** The tracker's brand, as it names it. */
  brand: string;
  /** How many brands the tracker tracks (its brand and competitors): `of` when a period has no answers. */
  tracked: number;
  period: ResolvedPeriod;
  /** The per-question mention points of each period (every tracked brand's). */
  current: readonly SummaryPoint[];
  previous: readonly SummaryPoint[];
  /** The dispersion each provider's intervals count with: the trend's (rollups' `dispersion`). */
  dispersion: ReadonlyMap<ProviderId, Dispersion>;
  /** The false discovery rate a change is told at: the alerts'. */
  q?: number;
};

/** The brand's figures across providers and per provider (those with answers in either period), and the sentence. */
export function summarize(input: SummaryInput): {
  brand: SummaryFigures & { name: string };
  providers: Array<SummaryFigures & { provider: ProviderId }>;
  sentence: string;
} {
  const { current, previous, dispersion, q = DEFAULT_ALERT_RULES.q } = input;
  const providers = providerIds.filter((id) => current.some((point) => point.provider === id) || previous.some((point) => point.provider === id));
  const across = acrossDispersion(current, dispersion);
  const parts = [
    measure(current, previous, across, input.tracked),
    ...providers.map((provider) =>
      measure(
        current.filter((point) => point.provider === provider),
        previous.filter((point) => point.provider === provider),
        dispersion.get(provider) ?? DISPERSION_PRIOR,
        input.tracked,
      ),
    ),
  ];
  // One family: the summary's tests together keep the alerts' false discovery rate.
  const tested = parts.flatMap((part, index) => (part.test ? [{ index, p: part.test.p }] : []));
  const adjusted = benjaminiHochberg(tested.map((test) => test.p));
  const verdicts = new Map(tested.map((test, i) => [test.index, adjusted[i]! <= q]));
  const [brand, ...perProvider] = parts.map(({ figures, test }, index): SummaryFigures => {
    const change: SummaryChange = test
      ? { from: round2(test.from), to: round2(test.to), verdict: verdicts.get(index) ? (test.to > test.from ? "rose" : "fell") : "no clear change" }
      : { from: null, to: figures.rate, verdict: "no clear change" };
    return { ...figures, change };
  });
  return {
    brand: { name: input.brand, ...brand! },
    providers: perProvider.map((figures, i) => ({ provider: providers[i]!, ...figures })),
    sentence: summarySentence(input.brand, brand!, parts[0]!, input.period.kind, input.period.current),
  };
}

/**
 * The headline in one sentence: "Pipedrive: named in 64 % of answers (±6), #2 of 4 behind HubSpot;
 * no clear change from last week." The ± is half the interval's width in points (the interval is
 * Wilson's, so not quite symmetric). Behind: the brand above it at #2, the two above it at #3, the
 * leader from #4 down; tied brands at the brand's count are said.
 */
export function summarySentence(
  brand: string,
  figures: SummaryFigures,
  ranking: { behind: string[]; tied: string[] },
  kind: SummaryPeriod["kind"],
  window: SummaryWindow,
): string {
  const words = periodWords(kind, window);
  if (figures.rate === null || figures.low === null || figures.high === null) return `${brand}: no answers ${words.within}.`;
  const half = Math.round((figures.high - figures.low) / 2);
  const rank = figures.rank === null || figures.of < 2 ? "" : `, ${rankText(figures.rank, figures.of, ranking)}`;
  return `${brand}: named in ${Math.round(figures.rate)} % of answers (±${half})${rank}; ${changeText(figures.change, words)}.`;
}

function rankText(rank: number, of: number, { behind, tied }: { behind: string[]; tied: string[] }): string {
  const above = rank === 2 ? behind.slice(0, 1) : rank === 3 ? behind.slice(0, 2) : [];
  const lead = rank >= 4 && behind[0] ? ` behind ${behind[0]} (#1)` : above.length > 0 ? ` behind ${and(above)}` : "";
  const ties = tied.length > 0 ? `, tied with ${and(tied)}` : "";
  return `#${rank} of ${of}${lead}${ties}`;
}

function changeText(change: SummaryChange, words: PeriodWords): string {
  if (change.from === null) return "no earlier period to compare";
  const verdicts: Record<SummaryVerdict, string> = {
    rose: `up from ${Math.round(change.from)} % ${words.then}`,
    fell: `down from ${Math.round(change.from)} % ${words.then}`,
    "no clear change": `no clear change from ${words.before}`,
  };
  return verdicts[change.verdict];
}

type PeriodWords = { within: string; before: string; then: string };

function periodWords(kind: SummaryPeriod["kind"], window: SummaryWindow): PeriodWords {
  if (kind === "run") return { within: "in the newest run", before: "the run before", then: "in the run before" };
  if (kind === "7d") return { within: "in the last 7 days", before: "last week", then: "last week" };
  const days = (window.until.getTime() - window.from.getTime()) / DAY_MS;
  const span = Number.isInteger(days) ? `${days} day${days === 1 ? "" : "s"}` : null;
  if (kind === "30d") return { within: "in the last 30 days", before: "the previous 30 days", then: "in the previous 30 days" };
  return span
    ? { within: "in the period", before: `the previous ${span}`, then: `in the previous ${span}` }
    : { within: "in the period", before: "the period before", then: "in the period before" };
}

// ---------------------------------------------------------------------------------------------

type Measured = {
  figures: Omit<SummaryFigures, "change">;
  behind: string[];
  tied: string[];
  test: { from: number; to: number; p: number } | null;
};

/** One set of providers' figures: rate and interval, rank, share of voice, and the test against the period before. */
function measure(current: readonly SummaryPoint[], previous: readonly SummaryPoint[], dispersion: Dispersion, tracked: number): Measured {
  const brandPoints = current.filter((point) => point.isBrand);
  const k = sum(brandPoints.map((point) => point.k));
  const n = sum(brandPoints.map((point) => point.n));
  const ranking = rankingOf(current);
  const interval = clusteredInterval(k, n, effectiveDispersion(dispersion, 0.05));
  const all = sum([...ranking.values()].map((subject) => subject.mentions));
  const own = ranking.get(BRAND)?.mentions ?? 0;
  const above = [...ranking.entries()].filter(([key, subject]) => key !== BRAND && subject.mentions > own).map(([, subject]) => subject);
  above.sort((a, b) => b.mentions - a.mentions || a.name.localeCompare(b.name));
  const tied = [...ranking.entries()].filter(([key, subject]) => key !== BRAND && subject.mentions === own).map(([, subject]) => subject.name);

  // The alerts' comparison: question by question (and provider by provider), so a question or provider one period lacks moves neither side.
  const runsOf = (points: readonly SummaryPoint[]): SeriesRun[] => {
    const runs = new Map<string, SeriesRun>();
    for (const point of points) {
      if (!point.isBrand) continue;
      const run = runs.get(point.runId) ?? { runId: point.runId, counts: [] };
      run.counts.push({ query: `${point.provider}\u0000${point.query ?? ""}`, k: point.k, n: point.n });
      runs.set(point.runId, run);
    }
    return [...runs.values()];
  };
  const compared = n > 0 ? compareWindows(runsOf(previous), runsOf(current)) : null;
  const test =
    compared && compared.before.n > 0 && compared.after.n > 0
      ? {
          from: (compared.before.k / compared.before.n) * 100,
          to: (compared.after.k / compared.after.n) * 100,
          p: dispersedTest(compared.before, compared.after, dispersion),
        }
      : null;

  return {
    figures: {
      n,
      k,
      rate: n > 0 ? round2((k / n) * 100) : null,
      low: n > 0 ? round2(interval.low) : null,
      high: n > 0 ? round2(interval.high) : null,
      rank: n > 0 ? above.length + 1 : null,
      of: ranking.size > 0 ? ranking.size : tracked,
      sov: all > 0 ? round2((own / all) * 100) : null,
    },
    behind: above.map((subject) => subject.name),
    tied: n > 0 && own > 0 ? tied : [],
    test,
  };
}

/** The brand's key among the tracked subjects (a renamed brand is still the brand). */
const BRAND = "\u0000brand";

/** Each tracked brand's mentions in the points, by the brand or the competitor's name in any letter case. */
function rankingOf(points: readonly SummaryPoint[]): Map<string, { name: string; mentions: number }> {
  const subjects = new Map<string, { name: string; mentions: number }>();
  for (const point of points) {
    const key = point.isBrand ? BRAND : point.subject.toLowerCase();
    const subject = subjects.get(key) ?? { name: point.subject, mentions: 0 };
    subject.mentions += point.k;
    subjects.set(key, subject);
  }
  return subjects;
}

/**
 * Across providers, each provider's answers vary with its own runs: the dispersion of their pooled
 * answers is each provider's φ weighted by its answers in the period, on the fewest degrees of
 * freedom among them (the widest t: the least well known part sets the price of estimating).
 */
function acrossDispersion(points: readonly SummaryPoint[], dispersion: ReadonlyMap<ProviderId, Dispersion>): Dispersion {
  const answers = new Map<ProviderId, number>();
  for (const point of points) if (point.isBrand) answers.set(point.provider, (answers.get(point.provider) ?? 0) + point.n);
  let weighted = 0;
  let total = 0;
  let df = Number.POSITIVE_INFINITY;
  for (const [provider, n] of answers) {
    const used = dispersion.get(provider) ?? DISPERSION_PRIOR;
    weighted += used.phi * n;
    total += n;
    df = Math.min(df, used.df);
  }
  return total > 0 ? { phi: weighted / total, df } : DISPERSION_PRIOR;
}

function and(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
