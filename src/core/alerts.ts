import type { ProviderId } from "#src/contract/providers.ts";
import { fisherExact, wilsonInterval } from "./stats.ts";

/*
 * When a tracker's figures moved for real (issue 26, ADR 045). After each run the latest window
 * of runs is compared with the window before it, for every provider × subject (× query where the
 * tracker has several) on mention rate and citation rate, with Fisher's exact test on the answers
 * of each window; the false discoveries are controlled across all of the run's tests at once
 * (Benjamini–Hochberg). A provider whose model version differs between the windows is not tested:
 * a "model changed" notice is raised instead. A series that already alerted in one direction
 * alerts again only on a further change that way, or on a recovery.
 */

export const alertMetrics = ["mention", "citation"] as const;
export type AlertMetric = (typeof alertMetrics)[number];

/** One run's counts for one provider × query × subject, as its rollups keep them ('' = over all its queries). */
export type RunRow = { provider: ProviderId; query: string; subject: string; answers: number; mentions: number; cited: number; modelVersion: string };
export type RunCounts = { runId: string; rows: readonly RunRow[] };

export type AlertRules = {
  /** Runs per window: the latest `window` runs against the `window` before them. */
  window: number;
  /** The false discovery rate controlled across a run's tests. */
  q: number;
  /** Answers each window needs for a test to be made. */
  minAnswers: number;
};

/**
 * Ten answers a window: at fewer, even the largest change Fisher's test can see (all of them to
 * none) is p = 0.008 at 5 against 5, which cannot pass the Benjamini–Hochberg bar of a run's
 * usual family of tests (about 0.1 / 100); testing it would only make the family larger.
 */
export const DEFAULT_ALERT_RULES: AlertRules = { window: 1, q: 0.1, minAnswers: 10 };

export type Side = { k: number; n: number; rate: number; low: number; high: number };

export type SeriesKey = { metric: AlertMetric; provider: ProviderId; subject: string; query: string };

export type AlertDecision =
  | (SeriesKey & { kind: "rose" | "fell"; before: Side; after: Side; p: number; q: number })
  | { kind: "model-changed"; provider: ProviderId; before: string; after: string };

/** What a series last alerted: its direction and the window after the change. */
export type LastAlert = { kind: "rose" | "fell"; after: { k: number; n: number } };

export function seriesId({ metric, provider, subject, query }: SeriesKey): string {
  return JSON.stringify([metric, provider, subject.toLowerCase(), query]);
}

/**
 * The alerts of the newest run in `runs` (oldest first; the last 2 × window are read). `last`
 * holds each series' latest rise or fall; `cited` says which subjects have own domains (citation
 * is tested only for them).
 */
export function decideAlerts(
  runs: readonly RunCounts[],
  { last, cited, rules = DEFAULT_ALERT_RULES }: { last: ReadonlyMap<string, LastAlert>; cited: ReadonlySet<string>; rules?: AlertRules },
): AlertDecision[] {
  const { window } = rules;
  if (runs.length < 2 * window) return [];
  const after = runs.slice(-window);
  const before = runs.slice(-2 * window, -window);
  const decisions: AlertDecision[] = [];

  // Model continuity, per provider: a notice when the newest run's version differs from the run before's.
  const versions = (windowRuns: readonly RunCounts[], provider: ProviderId) =>
    [...new Set(windowRuns.flatMap((run) => run.rows.filter((row) => row.provider === provider && row.query === "").map((row) => row.modelVersion)))]
      .sort()
      .join(", ");
  const providers = [...new Set(runs.flatMap((run) => run.rows.map((row) => row.provider)))];
  const changed = new Set<ProviderId>();
  for (const provider of providers) {
    const newest = versions(runs.slice(-1), provider);
    const previous = versions(runs.slice(-2, -1), provider);
    if (newest && previous && newest !== previous) decisions.push({ kind: "model-changed", provider, before: previous, after: newest });
    const windowBefore = versions(before, provider);
    if (windowBefore && versions(after, provider) !== windowBefore) changed.add(provider);
  }

  // One test per series both windows have enough answers for; a tracker of one query is tested over all (the same answers).
  const perQuery = new Set(runs.flatMap((run) => run.rows.filter((row) => row.query !== "").map((row) => row.query))).size > 1;
  const totals = (windowRuns: readonly RunCounts[]) => {
    const sums = new Map<string, { key: SeriesKey; k: number; n: number }>();
    for (const run of windowRuns)
      for (const row of run.rows) {
        if (changed.has(row.provider) || (row.query !== "" && !perQuery)) continue;
        for (const metric of alertMetrics) {
          if (metric === "citation" && !cited.has(row.subject.toLowerCase())) continue;
          const key = { metric, provider: row.provider, subject: row.subject, query: row.query };
          const id = seriesId(key);
          const sum = sums.get(id) ?? { key, k: 0, n: 0 };
          sum.k += metric === "mention" ? row.mentions : row.cited;
          sum.n += row.answers;
          sums.set(id, sum);
        }
      }
    return sums;
  };
  const then = totals(before);
  const now = totals(after);
  const tests: Array<{ key: SeriesKey; before: { k: number; n: number }; after: { k: number; n: number }; p: number }> = [];
  for (const [id, latest] of now) {
    const earlier = then.get(id);
    if (!earlier || earlier.n < rules.minAnswers || latest.n < rules.minAnswers) continue;
    tests.push({ key: latest.key, before: earlier, after: latest, p: fisherExact(earlier.k, earlier.n, latest.k, latest.n) });
  }

  const q = benjaminiHochberg(tests.map((test) => test.p));
  const cutoff = Math.max(0, ...tests.filter((_, i) => q[i]! <= rules.q).map((test) => test.p));
  tests.forEach((test, i) => {
    if (q[i]! > rules.q) return;
    const kind = test.after.k / test.after.n > test.before.k / test.before.n ? "rose" : "fell";
    const previous = last.get(seriesId(test.key));
    // Still the change already told: only a further move the same way, as clear as this run's bar, says it again.
    if (previous?.kind === kind && fisherExact(previous.after.k, previous.after.n, test.after.k, test.after.n) > cutoff) return;
    decisions.push({ ...test.key, kind, before: side(test.before), after: side(test.after), p: test.p, q: q[i]! });
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

function side({ k, n }: { k: number; n: number }): Side {
  const { low, high } = wilsonInterval(k, n);
  return { k, n, rate: round2((k / n) * 100), low: round2(low), high: round2(high) };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
