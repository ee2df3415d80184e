/**
 * `bun run eval [id-substring…]`: the extraction measured on the labelled answers in
 * tests/fixtures/answers/. Each answer is replayed from a loopback server in its provider's wire
 * format and read by the app's own path (createProviders → SDK adapter → runProvider, with the
 * fallback extraction call where the answer needs one), then scored against its truth. Prints
 * every miss and the figures; exits 1 below the goal (scripts/eval/score.ts), so CI holds the floor.
 */
import { createProviders } from "#src/server/services/providers/index.ts";
import { deadlineFor } from "#src/server/services/search/deadline.ts";
import { runProvider } from "#src/server/services/search/run-provider.ts";
import { loadFixtures } from "./eval/fixtures.ts";
import { startReplayServer } from "./eval/replay.ts";
import { report } from "./eval/report.ts";
import { scoreRow, summarize, type RowScore } from "./eval/score.ts";

const filters = process.argv.slice(2);
const fixtures = loadFixtures().filter((fixture) => filters.length === 0 || filters.some((filter) => fixture.id.includes(filter)));
const replay = startReplayServer();
const providers = createProviders({
  SIMULATE_PROVIDERS: "off",
  NODE_ENV: "development",
  GEMINI_REDIRECT_ORIGINS: [replay.origin],
  providers: {
    openai: { apiKey: "replay-key", baseUrl: replay.baseUrls.openai, model: "gpt-5-mini", extractionModel: "gpt-5.4-nano" },
    anthropic: { apiKey: "replay-key", baseUrl: replay.baseUrls.anthropic, model: "claude-sonnet-4-6", extractionModel: "claude-haiku-4-5" },
    gemini: { apiKey: "replay-key", baseUrl: replay.baseUrls.gemini, model: "gemini-2.5-flash", extractionModel: "gemini-2.5-flash-lite" },
  },
});

const rows: RowScore[] = [];
try {
  for (const fixture of fixtures) {
    const adapter = providers[fixture.provider];
    if (!adapter) throw new Error(`${fixture.provider} is not connected`);
    const log = replay.play(fixture);
    const result = await runProvider(adapter, {
      query: fixture.query,
      options: {},
      signal: new AbortController().signal,
      deadline: deadlineFor(1, { oneIterationMs: 600_000, hundredIterationsMs: 600_000 }),
      // A replayed answer never improves on a second try.
      retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0, callTimeoutMs: 30_000 },
    });
    rows.push(scoreRow(fixture, result, log));
  }
} finally {
  await replay.stop();
}

const summary = summarize(rows);
console.log(report(rows, summary));
process.exit(summary.failures.length === 0 ? 0 : 1);
