/**
 * What makes the answers of one run move together (ADR 051). A real assistant's answers to a
 * burst of identical requests share that day's model build and search index, so a tracker's ten
 * iterations of a question lean the same way, and the next day's run leans another. Each item (a
 * catalogue product by name, a source page by URL) gets a log-weight offset: a day effect per
 * provider × UTC day, shared by every question, plus a run effect per provider × question × run.
 * Both are normal draws fixed by a hash of the seed and their key, so they do not depend on the
 * order requests arrive in.
 */
import type { ProviderId } from "#src/contract/providers.ts";
import { createRng, hashString } from "./random.ts";

export interface RunEffects {
  /** Standard deviation of an item's log-weight offset per provider × UTC day (0, the default: none). */
  dayEffectSd?: number;
  /** Standard deviation of an item's log-weight offset per provider × question × run (0, the default: none). */
  runEffectSd?: number;
  /** A new run of a question starts when more than this has passed since its previous search request. Default 60 000. */
  runGapMs?: number;
  /** Epoch ms, for the day and the gaps between runs. Default Date.now. */
  clock?: () => number;
}

/** How much today's build and this run favour an item (a product's name, a page's URL): a log-weight offset. */
export type Effect = (item: string) => number;

/** The effect of the search request now arriving for a question; undefined when the effects are off. */
export type RunEffectsFor = (provider: ProviderId, question: string) => Effect | undefined;

export const DEFAULT_RUN_GAP_MS = 60_000;

const DAY_MS = 86_400_000;

/** Questions whose last request is remembered; forgotten all at once past this, as a long demo would otherwise hold every one. */
const RUNS_KEPT = 100_000;

export function createRunEffects(seed: number, options: RunEffects = {}): RunEffectsFor {
  const dayEffectSd = options.dayEffectSd ?? 0;
  const runEffectSd = options.runEffectSd ?? 0;
  const gapMs = options.runGapMs ?? DEFAULT_RUN_GAP_MS;
  for (const [name, value] of [
    ["dayEffectSd", dayEffectSd],
    ["runEffectSd", runEffectSd],
    ["runGapMs", gapMs],
  ] as const) {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, got ${value}`);
  }
  if (dayEffectSd === 0 && runEffectSd === 0) return () => undefined;
  const clock = options.clock ?? Date.now;
  /** Per provider and question: its current run (numbered from 0), the day that run began on, and its last request. */
  const runs = new Map<string, { run: number; day: number; lastMs: number }>();
  // Bumped when `runs` is forgotten, so a question's runs after it never repeat one drawn before.
  let epoch = 0;
  return (provider, question) => {
    const now = clock();
    const key = `${provider}\n${question}`;
    const last = runs.get(key);
    const current =
      last && now - last.lastMs <= gapMs
        ? { ...last, lastMs: Math.max(now, last.lastMs) }
        : { run: last ? last.run + 1 : 0, day: Math.floor(now / DAY_MS), lastMs: now };
    if (!last && runs.size >= RUNS_KEPT) {
      runs.clear();
      epoch++;
    }
    runs.set(key, current);
    // A run keeps the day it began on, so a burst across midnight still leans one way.
    const dayKey = `${seed}|day|${provider}|${current.day}`;
    const runKey = `${seed}|run|${provider}|${question}|${epoch}.${current.run}`;
    const drawn = new Map<string, number>();
    return (item) => {
      let effect = drawn.get(item);
      if (effect === undefined) {
        effect = (dayEffectSd === 0 ? 0 : dayEffectSd * normalOf(`${dayKey}|${item}`)) + (runEffectSd === 0 ? 0 : runEffectSd * normalOf(`${runKey}|${item}`));
        drawn.set(item, effect);
      }
      return effect;
    };
  };
}

/** A standard normal fixed by a key. */
function normalOf(key: string): number {
  return createRng(hashString(key)).normal();
}
