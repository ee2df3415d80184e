/**
 * `bun run eval [id-substring…]`: what the product reads from an answer, measured on the labelled
 * natural answers in tests/fixtures/answers/. Each answer is replayed from a loopback server in
 * its provider's wire format, asked exactly as typed, and read by the app's own path
 * (createProviders → SDK adapter → runProvider: the extraction call to the small model, whose
 * recorded answer carries labelled mistakes, then the product's rules and grounding); the
 * deterministic reading of the prose alone (readProse, the fallback when the extraction call
 * fails) is scored on the same answers. Prints every miss and both sets of figures; exits 1 when
 * the pipeline is below the goal (scripts/eval/score.ts), so CI holds the floor.
 */
import { readProse } from "#src/core/extraction/prose.ts";
import { deadlineFor } from "#src/server/services/search/deadline.ts";
import { runProvider } from "#src/server/services/search/run-provider.ts";
import { loadFixtures } from "./eval/fixtures.ts";
import { emptyLog, replayProviders, startReplayServer } from "./eval/replay.ts";
import { report } from "./eval/report.ts";
import { scoreRow, summarize, type RowScore, type Scored } from "./eval/score.ts";

const filters = process.argv.slice(2);
const fixtures = loadFixtures().filter((fixture) => filters.length === 0 || filters.some((filter) => fixture.id.includes(filter)));
const replay = startReplayServer();
const providers = replayProviders(replay);

const pipeline: RowScore[] = [];
const fallback: RowScore[] = [];
try {
  for (const fixture of fixtures) {
    const adapter = providers[fixture.provider];
    if (!adapter) throw new Error(`${fixture.provider} is not connected`);
    const log = replay.play(fixture);
    const result: Scored = await runProvider(adapter, {
      query: fixture.query,
      options: {},
      signal: new AbortController().signal,
      deadline: deadlineFor(1, { oneIterationMs: 600_000, hundredIterationsMs: 600_000 }),
      // A replayed answer never improves on a second try.
      retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0, callTimeoutMs: 30_000 },
    });
    pipeline.push(scoreRow(fixture, result, log));
    const text = result.rawResponse ?? "";
    fallback.push(scoreRow(fixture, { ...result, ...readProse(text, { cut: result.truncated !== undefined }), ungrounded: 0 }, emptyLog()));
  }
} finally {
  await replay.stop();
}

const summary = summarize(pipeline);
console.log(report("the deterministic fallback alone (readProse), reported, not floored", fallback, summarize(fallback), { misses: false, goal: false }));
console.log(report("the pipeline: extraction call → the product's rules and grounding", pipeline, summary));
process.exit(summary.failures.length === 0 ? 0 : 1);
