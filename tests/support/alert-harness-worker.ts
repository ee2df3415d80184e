import { VARIANCE_MODELS } from "#src/core/detectability.ts";
import { coverageByShape, measureModel } from "./alert-harness.ts";

/*
 * One half of the alert harness (tests/unit/alert-harness.test.ts), in its own thread: the
 * machine's two cores measure two models at once. Told which models (by index) or the coverage
 * table, it answers with their rows.
 */

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ models: number[]; shapes?: number[] }>) => {
  const rows = event.data.models.map((index) => measureModel(VARIANCE_MODELS[index]!));
  const shapes = event.data.shapes ? coverageByShape(event.data.shapes.map((index) => VARIANCE_MODELS[index]!)) : [];
  self.postMessage({ rows, shapes });
};
