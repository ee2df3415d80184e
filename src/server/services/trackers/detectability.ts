import type { Detectability } from "#src/contract/trackers.ts";
import { detectabilitySentence, detectabilitySteps, type TrackerShape } from "#src/core/detectability.ts";

/** Shapes remembered: each is a few hundred milliseconds to seconds of simulation, and forms ask the same few again and again. */
const KEPT = 2_000;

/**
 * What change a tracker of a shape can tell (issue 33, ADR 050): the alert harness's simulation of
 * the rule (src/core/detectability.ts), run a simulated tracker at a time so that other
 * requests go on meanwhile, and remembered by shape.
 */
export function createDetectability() {
  const known = new Map<string, Promise<Detectability>>();
  return {
    of(shape: TrackerShape): Promise<Detectability> {
      const key = `${shape.questions}/${shape.iterations}/${shape.providers}/${shape.competitors}`;
      let found = known.get(key);
      if (!found) {
        if (known.size >= KEPT) known.delete(known.keys().next().value!);
        found = simulate(shape);
        known.set(key, found);
        found.catch(() => known.delete(key));
      }
      return found;
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
  }
}
