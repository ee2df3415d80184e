import { expect, test } from "bun:test";
import { buildAssets, firstLoad, servedSize } from "../../scripts/build-assets.ts";

// ADR 006: a first visit to `/` downloads at most 110 KB of gzipped JavaScript. The build prints
// the figure; this keeps a change from passing it unnoticed.
const BUDGET_BYTES = 110 * 1024;

test("a first visit to / loads at most 110 KB of JavaScript (gzip)", async () => {
  const built = await buildAssets({ quiet: true });
  const files = firstLoad(built);
  expect(files.length).toBeGreaterThan(0);
  const { gzip } = await servedSize(files);
  expect({ gzipKB: Math.round(gzip / 102.4) / 10, withinBudget: gzip <= BUDGET_BYTES }).toEqual({ gzipKB: expect.any(Number), withinBudget: true });
});
