import type { Detectability } from "#src/contract/trackers.ts";
import { detectabilitySentence, detectabilitySteps, type TrackerShape } from "#src/core/detectability.ts";
import { createLimiter } from "../search/limit.ts";

/** Shapes remembered: each is a few hundred milliseconds to seconds of simulation, and forms ask the same few again and again. */
const KEPT = 2_000;

/**
 * What change a tracker of a shape can tell (ADR 050): the alert harness's simulation of
 * the rule (src/core/detectability.ts), one shape at a time and a few simulated trackers at a
 * time, so that other requests go on meanwhile, and remembered by shape.
 */
export function createDetectability() {
  // One simulation at a time on an instance: many shapes asked at once queue, and never take more than a core.
  const limit = createLimiter(1);
  const known = new Map<string, Promise<Detectability>>();
  const settled = new Map<string, Detectability>();
  const keyOf = (shape: TrackerShape) => `${shape.questions}/${shape.iterations}/${shape.providers}/${shape.competitors}`;
  const of = (shape: TrackerShape): Promise<Detectability> => {
    const key = keyOf(shape);
    let found = known.get(key);
    if (!found) {
      if (known.size >= KEPT) {
        const oldest = known.keys().next().value!;
        known.delete(oldest);
        settled.delete(oldest);
      }
      found = limit(() => simulate(shape));
      known.set(key, found);
      found.then(
        (value) => known.has(key) && settled.set(key, value),
        () => known.delete(key),
      );
    }
    return found;
  };
  return {
    /** The shape's figure, once simulated (the first time a few hundred milliseconds to seconds). */
    of,
    /** The shape's figure if it is known already; else undefined, and it is worked out for next time (a page never waits for it). */
    known(shape: TrackerShape): Detectability | undefined {
      const value = settled.get(keyOf(shape));
      if (!value) void of(shape).catch(() => undefined);
      return value;
    },
  };
}

export type DetectabilityService = ReturnType<typeof createDetectability>;

async function simulate(shape: TrackerShape): Promise<Detectability> {
  const steps = detectabilitySteps(shape);
  for (let i = 0; ; i++) {
    const step = steps.next();
    if (step.done) return { ...shape, ...step.value, sentence: detectabilitySentence(shape, step.value) };
    // Every few simulated trackers, the event loop's turn: a large shape takes seconds.
    if (i % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
    // Each simulated tracker is garbage once counted: collected as it goes, or a large shape grows the heap by hundreds of MB.
    if (i % 8 === 7) Bun.gc(false);
  }
}
