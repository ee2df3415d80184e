import type { ProviderChanges, TopListChanges } from "#src/contract/changes.ts";
import type { Frequency, RunRecord } from "#src/contract/search-result.ts";
import { benjaminiHochberg, DEFAULT_ALERT_RULES } from "./alerts.ts";
import { dispersedTest, pooledDispersion, rateEvidence, type Dispersion } from "./dispersion.ts";
import { nameKey } from "./names.ts";
import { frequencies } from "./stats.ts";
import { hostOf } from "./urls.ts";

/** How long a top list is. */
export const TOP = 10;

/** The false discovery rate kept across a provider's listed changes: the alerts' (with 0.05, 8% of a stable simulated tracker's comparisons listed a move; with 0.01, none of 156). */
export const CHANGES_Q = DEFAULT_ALERT_RULES.q;
/** Answers an item's change must be worth to be listed: named in at least this many of the after window's answers, or expected in as many from before. */
export const MIN_CHANGE_COUNT = 3;

/** A window of runs: each run's id and its answers. */
export type WindowRuns = ReadonlyArray<{ runId: string; answers: readonly RunRecord[] }>;

/**
 * What changed for one provider between a baseline of runs and the latest window (issue
 * 33): each kind's items counted as the product counts a search's (frequencies: an answer counts an
 * item once), then the items entering and leaving the top list — only those whose change is beyond
 * the run-to-run noise (ADR 050): the test of the alerts, counted with the dispersion the
 * baseline's runs show across the kind's items, Benjamini–Hochberg over the provider's candidates
 * at CHANGES_Q, and MIN_CHANGE_COUNT answers' worth. How many moves were within the noise is said.
 */
export function providerChanges(before: WindowRuns, after: WindowRuns, { q = CHANGES_Q, minCount = MIN_CHANGE_COUNT } = {}): ProviderChanges {
  const kinds = {
    products: (answer: RunRecord) => answer.products,
    companies: (answer: RunRecord) => answer.companies,
    domains: (answer: RunRecord) => answer.sources.map(hostOf).filter((host): host is string => host !== null),
  };
  const answersOf = (window: WindowRuns) => window.flatMap((run) => run.answers);
  const counted = Object.values(kinds).map((names) => {
    const count = (answers: readonly RunRecord[]) => ({ items: frequencies(answers.map(names), answers.length), n: answers.length });
    const lists = topListChanges(count(answersOf(before)), count(answersOf(after)));
    return { lists, dispersion: itemDispersion(before, names) };
  });

  // Every candidate of the provider, tested; those beyond the noise kept.
  const candidates = counted.flatMap(({ lists, dispersion }, kind) =>
    (["entered", "left"] as const).flatMap((side) =>
      lists[side].map((item) => ({
        kind,
        side,
        item,
        p: dispersedTest({ k: item.before.count, n: item.before.n }, { k: item.after.count, n: item.after.n }, dispersion),
      })),
    ),
  );
  const adjusted = benjaminiHochberg(candidates.map((candidate) => candidate.p));
  const kept = new Set(
    candidates
      .filter(({ item }, i) => {
        const worth = Math.max(item.after.count, item.after.n > 0 && item.before.n > 0 ? (item.before.count / item.before.n) * item.after.n : 0);
        return adjusted[i]! <= q && worth >= minCount;
      })
      .map(({ item }) => item),
  );
  const [products, companies, domains] = counted.map(({ lists }) => ({
    entered: lists.entered.filter((item) => kept.has(item)),
    left: lists.left.filter((item) => kept.has(item)),
    withinNoise: lists.entered.length + lists.left.length - [...lists.entered, ...lists.left].filter((item) => kept.has(item)).length,
  }));
  return {
    windows: {
      before: { runIds: before.map((run) => run.runId), n: answersOf(before).length },
      after: { runIds: after.map((run) => run.runId), n: answersOf(after).length },
    },
    products: products!,
    companies: companies!,
    domains: domains!,
  };
}

/** How much a kind's items vary from run to run beyond their answers, read off the baseline's runs (pooled over its items). */
function itemDispersion(before: WindowRuns, names: (answer: RunRecord) => string[]): Dispersion {
  const perRun = before.map((run) => {
    const counts = new Map<string, number>();
    for (const answer of run.answers) for (const key of new Set(names(answer).map(nameKey))) counts.set(key, (counts.get(key) ?? 0) + 1);
    return { n: run.answers.length, counts };
  });
  const items = new Set(perRun.flatMap((run) => [...run.counts.keys()]));
  const total = perRun.reduce((sum, run) => sum + run.n, 0);
  const evidence = [...items].map((item) => {
    const k = perRun.reduce((sum, run) => sum + (run.counts.get(item) ?? 0), 0);
    return rateEvidence(perRun.map((run) => ({ k: run.counts.get(item) ?? 0, n: run.n, expected: total > 0 ? (run.n * k) / total : 0 })));
  });
  return pooledDispersion(evidence);
}

/**
 * The items in the `after` top list and not in the `before` one (entered), and the reverse (left),
 * most named first, each with its count in both windows. An item is in the top list when fewer
 * than TOP items were named more often: ties at the edge are all in, so that two items named
 * equally often never swap places on their names' order alone and read as a change.
 */
export function topListChanges(before: { items: Frequency[]; n: number }, after: { items: Frequency[]; n: number }): TopListChanges {
  const beforeTop = topKeys(before.items);
  const afterTop = topKeys(after.items);
  const countIn = (window: { items: Frequency[]; n: number }) => {
    const counts = new Map(window.items.map((item) => [nameKey(item.name), item.count]));
    return (key: string) => ({ count: counts.get(key) ?? 0, n: window.n });
  };
  const beforeCount = countIn(before);
  const afterCount = countIn(after);
  const changed = (items: Frequency[], inTop: Set<string>, notIn: Set<string>) =>
    items
      .filter((item) => inTop.has(nameKey(item.name)) && !notIn.has(nameKey(item.name)))
      .map((item) => ({ name: item.name, before: beforeCount(nameKey(item.name)), after: afterCount(nameKey(item.name)) }));
  // frequencies() sorts by count, then name: each list comes out most named first.
  return { entered: changed(after.items, afterTop, beforeTop), left: changed(before.items, beforeTop, afterTop), withinNoise: 0 };
}

function topKeys(items: Frequency[]): Set<string> {
  const edge = items[TOP - 1]?.count ?? 0;
  return new Set(items.filter((item, index) => index < TOP || item.count === edge).map((item) => nameKey(item.name)));
}
