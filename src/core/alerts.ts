import type { ProviderId } from "#src/contract/providers.ts";
import { newModelAt, versionSet } from "./model-identity.ts";
import {
  clusteredInterval,
  dispersedTest,
  effectiveDispersion,
  providerDispersion,
  rateEvidence,
  type Dispersion,
  type DispersionEvidence,
  type RunTally,
} from "./dispersion.ts";

/*
 * When a tracker's figures moved beyond the noise of its runs (ADR 050; the rule of
 * ADR 045 before it). After each run, every provider × subject is tested on its mention rate, and
 * on its citation rate when it has own domains, over all the tracker's questions (and per question
 * where a question alone has answers enough): the latest run, and the latest two, against a
 * baseline of the runs before them since the series last changed. The answers of a run move
 * together, so the test counts them with the dispersion the tracker's own runs show (Rao–Scott:
 * counts divided by φ, widened for having estimated φ from few runs), and the run's tests together
 * keep a false discovery rate (Benjamini–Hochberg). A change told restarts its series' baseline at
 * the change: it is told once, and the next change from the new level is told in turn. A provider
 * answering with a model version it had not used before restarts its series too, with a notice.
 */

export const alertMetrics = ["mention", "citation"] as const;
export type AlertMetric = (typeof alertMetrics)[number];

/** One run's counts for one provider × query × subject, as its rollups keep them ('' = over all its queries). */
export type RunRow = { provider: ProviderId; query: string; subject: string; answers: number; mentions: number; cited: number; modelVersion: string };
export type RunCounts = { runId: string; rows: readonly RunRow[] };

/** The version of the rule below; alerts decided by ADR 045's rule are version 1. */
export const ALERT_RULE_VERSION = 2;

export type AlertRules = {
  /** The shortest after window, in runs (a tracker's `alertWindow`): it and one run more are tested. */
  window: number;
  /** The false discovery rate kept across a run's tests. */
  q: number;
  /** Runs a baseline needs before its series is tested. */
  minBaseline: number;
  /** The most recent runs a baseline keeps. */
  maxBaseline: number;
  /** A single question's series is tested once its after window has this many answers. */
  minQueryAnswers: number;
};

/**
 * The measured choice (ADR 050, the harness in tests/unit/alert-harness.test.ts): q = 0.01 keeps
 * false alarms under 2% of runs under every variance model measured; three runs of baseline are
 * the fewest from which the spread of a run can be told from the prior's; two weeks of daily runs
 * are what a baseline remembers; a question alone is tested from 30 answers, below which not even
 * all-to-none can pass the family's bar once the runs' spread is counted.
 */
export const DEFAULT_ALERT_RULES: AlertRules = { window: 1, q: 0.01, minBaseline: 3, maxBaseline: 28, minQueryAnswers: 30 };

/**
 * The share of a series' level given to the latest run alone and to the latest two: a fall told
 * at its first run must be clear at a tenth of the bar, and one confirmed by a second run pays
 * almost nothing for the first look (measured: Simes' even split lost a third of the falls of
 * small trackers told within 2 runs).
 */
const WINDOW_WEIGHTS = [0.1, 0.9];

/** The share of the level given to the questions tested one by one (the rest is their whole's). */
export const QUESTION_SHARE = 0.2;

/** One side of an alert: `k` of `n` answers, the rate in percent with its 95% interval (clustered by run). */
export type Side = { k: number; n: number; rate: number; low: number; high: number };

export type SeriesKey = { metric: AlertMetric; provider: ProviderId; subject: string; query: string };

export type AlertDecision =
  | (SeriesKey & {
      kind: "rose" | "fell";
      before: Side;
      after: Side;
      p: number;
      q: number;
      /** The dispersion the test counted with (its estimate φ, and the degrees of freedom behind it). */
      dispersion: Dispersion;
      baselineRuns: string[];
      afterRuns: string[];
    })
  | { kind: "model-changed"; provider: ProviderId; before: string; after: string };

/** A series' latest rise or fall, and the first run of the level it told (its after window's first run). */
export type LastAlert = { kind: "rose" | "fell"; since: string };

export function seriesId({ metric, provider, subject, query }: SeriesKey): string {
  return JSON.stringify([metric, provider, subject.toLowerCase(), query]);
}

/**
 * The decisions of the newest run in `runs` (the segment's runs that answered, oldest first; the
 * last maxBaseline + window + 1 are enough). `last` holds each series' latest rise or fall;
 * `cited` says which subjects have own domains (citation is tested only for them).
 */
export function decideAlerts(
  runs: readonly RunCounts[],
  { last, cited, rules = DEFAULT_ALERT_RULES }: { last: ReadonlyMap<string, LastAlert>; cited: ReadonlySet<string>; rules?: AlertRules },
): AlertDecision[] {
  const newest = runs.at(-1);
  if (!newest) return [];
  const decisions: AlertDecision[] = [];
  const providers = [...new Set(newest.rows.map((row) => row.provider))];

  // Model continuity: a provider's series restart where it first answers with a version it had not used in the segment.
  const modelStart = new Map<ProviderId, number>();
  for (const provider of providers) {
    const sets = runs.map((run) => indexOf(run).versions.get(provider) ?? []);
    const start = newModelAt(sets).lastIndexOf(true);
    modelStart.set(provider, Math.max(0, start));
    if (start === runs.length - 1 && start > 0) {
      const previous = sets.slice(0, -1).findLast((set) => set.length > 0) ?? [];
      decisions.push({ kind: "model-changed", provider, before: previous.join(", "), after: sets.at(-1)!.join(", ") });
    }
  }

  // The series the newest run can test: each provider × subject × metric over all questions, and per question.
  const perQuestion = newest.rows.filter((row) => row.query !== "");
  const several = new Set(perQuestion.map((row) => row.query)).size > 1;
  const keys = new Map<string, SeriesKey>();
  for (const row of perQuestion)
    for (const metric of alertMetrics) {
      if (metric === "citation" && !cited.has(row.subject.toLowerCase())) continue;
      for (const query of several ? ["", row.query] : [""]) {
        const key = { metric, provider: row.provider, subject: row.subject, query };
        keys.set(seriesId(key), key);
      }
    }
  const runIndex = new Map(runs.map((run, index) => [run.runId, index]));
  const windows = [rules.window, rules.window + 1];
  const indexed = runs.map((run) => ({ runId: run.runId, rows: indexOf(run).bySubject }));
  const newestRows = indexed.at(-1)!.rows;

  const candidates: Array<{ key: SeriesKey; group: string; evidence: DispersionEvidence | null; tests: WindowTest[] }> = [];
  for (const [id, key] of keys) {
    const since = last.get(id);
    const start = Math.max(modelStart.get(key.provider) ?? 0, since ? (runIndex.get(since.since) ?? 0) : 0);
    const subject = subjectKey(key);
    // A question alone is tested once its widest after window can hold the answers it needs.
    if (key.query !== "" && (newestRows.get(subject)?.get(key.query)?.answers ?? 0) * windows.at(-1)! < rules.minQueryAnswers) continue;
    const series = indexed.slice(start).map((run) => ({ runId: run.runId, counts: tallies(run.rows.get(subject), key) }));
    const tests = windows.flatMap((window) => {
      if (series.length < window + rules.minBaseline) return [];
      const after = series.slice(-window);
      const baseline = series.slice(-(window + rules.maxBaseline), -window);
      if (key.query !== "" && after.reduce((sum, run) => sum + run.counts.reduce((n, counts) => n + counts.n, 0), 0) < rules.minQueryAnswers) return [];
      return [compareWindows(baseline, after)];
    });
    if (tests.length === 0) continue;
    // The runs' spread is read off the widest window's baseline: the runs of a change just begun stay out of it.
    candidates.push({ key, group: `${key.provider}/${key.metric}/${key.query === "" ? "all" : "query"}`, evidence: tests.at(-1)!.evidence, tests });
  }
  if (candidates.length === 0) return decisions;

  // Each group's dispersion (provider × metric × level), from its series' baselines.
  const dispersion = new Map<string, Dispersion>();
  const level = (group: string) => group.slice(group.indexOf("/"));
  for (const group of new Set(candidates.map((candidate) => candidate.group))) {
    const evidence = (same: boolean) => candidates.filter((c) => (c.group === group) === same && level(c.group) === level(group)).map((c) => c.evidence);
    dispersion.set(group, providerDispersion(evidence(true), evidence(false)));
  }

  const tested = candidates.map((candidate) => {
    const used = dispersion.get(candidate.group)!;
    const results = candidate.tests.map((test) => ({ test, p: dispersedTest(test.before, test.after, used) }));
    const best = results.reduce((a, b) => (b.p < a.p ? b : a));
    // One p per series (one alert at most), the level split between the windows (weighted Bonferroni):
    // the latest run alone is told only when unmistakable, so the two latest runs keep nearly all of it.
    const weights = results.length === 1 ? [1] : WINDOW_WEIGHTS;
    const p = Math.min(1, ...results.map((result, i) => result.p / weights[i]!));
    return { ...candidate, used, best: best.test, p };
  });

  // Two families, the level split between them: the questions together, and each question alone.
  // A tracker of 50 questions has 50 times as many of the latter, which would otherwise make the
  // bar of the former 51 times stricter than a tracker of one question's.
  const q = new Array<number>(tested.length).fill(1);
  for (const [perQuestion, share] of [
    [false, 1 - QUESTION_SHARE],
    [true, QUESTION_SHARE],
  ] as const) {
    const members = tested.flatMap((test, i) => ((test.key.query !== "") === perQuestion ? [i] : []));
    // Where a family is the only one tested, it has the whole level.
    const level = members.length === tested.length ? 1 : share;
    benjaminiHochberg(members.map((i) => tested[i]!.p)).forEach((value, j) => {
      q[members[j]!] = Math.min(1, value / level);
    });
  }
  tested.forEach((test, i) => {
    if (q[i]! > rules.q) return;
    const { before, after } = test.best;
    const shown = effectiveDispersion(test.used, 0.05);
    decisions.push({
      ...test.key,
      kind: after.k / after.n > before.k / before.n ? "rose" : "fell",
      before: side(before, shown),
      after: side(after, shown),
      p: test.p,
      q: q[i]!,
      dispersion: { phi: round2(test.used.phi), df: round2(test.used.df) },
      baselineRuns: test.best.baselineRuns,
      afterRuns: test.best.afterRuns,
    });
  });
  return decisions;
}

/** Benjamini–Hochberg adjusted p-values (q-values), in the order given. */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const q = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const { value, index } = order[rank - 1]!;
    running = Math.min(running, (value * m) / rank);
    q[index] = running;
  }
  return q;
}

// ---------------------------------------------------------------------------------------------

/** One run of a series: its counts per question (any key that stays the same across runs). */
export type QueryCounts = { query: string; k: number; n: number };
export type SeriesRun = { runId: string; counts: QueryCounts[] };
type Counts = { k: number; n: number };
export type WindowTest = { before: Counts; after: Counts; evidence: DispersionEvidence | null; baselineRuns: string[]; afterRuns: string[] };

const subjectKey = ({ provider, subject }: { provider: ProviderId; subject: string }) => `${provider}\u0000${subject.toLowerCase()}`;

type RunIndex = { bySubject: Map<string, Map<string, RunRow>>; versions: Map<ProviderId, string[]> };

/** A run's per-question rows by provider × subject, then by question, and each provider's model versions; kept per run, as a run is read again at each later run's end. */
const indexes = new WeakMap<RunCounts, RunIndex>();
function indexOf(run: RunCounts): RunIndex {
  const kept = indexes.get(run);
  if (kept) return kept;
  const bySubject = new Map<string, Map<string, RunRow>>();
  const versions = new Map<ProviderId, string[]>();
  for (const row of run.rows) {
    if (row.query === "") continue;
    const key = subjectKey(row);
    const byQuery = bySubject.get(key) ?? new Map<string, RunRow>();
    byQuery.set(row.query, row);
    bySubject.set(key, byQuery);
    versions.set(row.provider, [...(versions.get(row.provider) ?? []), row.modelVersion]);
  }
  for (const [provider, list] of versions) versions.set(provider, versionSet(list));
  const index = { bySubject, versions };
  indexes.set(run, index);
  return index;
}

/** A run's counts for the series, per question (its one question for a question's series). */
function tallies(rows: ReadonlyMap<string, RunRow> | undefined, key: SeriesKey): QueryCounts[] {
  if (!rows) return [];
  const mention = key.metric === "mention";
  if (key.query !== "") {
    const row = rows.get(key.query);
    return row ? [{ query: key.query, k: mention ? row.mentions : row.cited, n: row.answers }] : [];
  }
  const counts: QueryCounts[] = [];
  for (const [query, row] of rows) counts.push({ query, k: mention ? row.mentions : row.cited, n: row.answers });
  return counts;
}

/**
 * The after window against the baseline, question by question: the baseline's rate is each
 * question's own, weighted as the after window asks them, so a question missing from a run moves
 * neither side. The baseline's runs also say how much a run varies (its evidence about φ).
 */
export function compareWindows(baseline: readonly SeriesRun[], after: readonly SeriesRun[]): WindowTest {
  const sums = new Map<string, Counts>();
  for (const run of baseline)
    for (const { query, k, n } of run.counts) {
      const sum = sums.get(query);
      if (sum) {
        sum.k += k;
        sum.n += n;
      } else sums.set(query, { k, n });
    }
  const rateOf = (query: string) => {
    const sum = sums.get(query);
    return sum && sum.n > 0 ? sum.k / sum.n : undefined;
  };

  const evidence = rateEvidence(
    baseline.map((run): RunTally => {
      let k = 0;
      let n = 0;
      let expected = 0;
      for (const counts of run.counts) {
        k += counts.k;
        n += counts.n;
        expected += counts.n * (rateOf(counts.query) ?? 0);
      }
      return { k, n, expected };
    }),
  );

  const afterCounts = { k: 0, n: 0 };
  let expectedRate = 0;
  const asked = new Set<string>();
  for (const run of after)
    for (const counts of run.counts) {
      const rate = rateOf(counts.query);
      if (rate === undefined || counts.n === 0) continue;
      asked.add(counts.query);
      afterCounts.k += counts.k;
      afterCounts.n += counts.n;
      expectedRate += counts.n * rate;
    }
  let beforeN = 0;
  for (const query of asked) beforeN += sums.get(query)!.n;
  const beforeRate = afterCounts.n > 0 ? expectedRate / afterCounts.n : 0;
  return {
    before: { k: beforeRate * beforeN, n: beforeN },
    after: afterCounts,
    evidence,
    baselineRuns: baseline.map((run) => run.runId),
    afterRuns: after.map((run) => run.runId),
  };
}

function side({ k, n }: Counts, phi: number): Side {
  const { low, high } = clusteredInterval(k, n, phi);
  return { k: Math.round(k), n, rate: n > 0 ? round2((k / n) * 100) : 0, low: round2(low), high: round2(high) };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
