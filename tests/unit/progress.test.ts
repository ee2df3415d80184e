import { describe, expect, test } from "bun:test";
import type { ProviderId } from "#src/contract/providers.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";
import { cancelledNote, finishedIterations, PROGRESS_HORIZON_MS, PROGRESS_TICK_MS, simulatedProgress } from "#src/core/progress.ts";
import { modelResult } from "#tests/support/results.ts";

describe("simulated progress (fallback when live progress is unavailable)", () => {
  test("advances toward the total over the 80 s horizon without ever claiming completion", () => {
    let value = 0;
    const seen: number[] = [];
    for (let t = PROGRESS_TICK_MS; t <= PROGRESS_HORIZON_MS; t += PROGRESS_TICK_MS) {
      value = simulatedProgress(t, 25, value);
      seen.push(value);
    }
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBeGreaterThanOrEqual(22);
    expect(Math.max(...seen)).toBeLessThan(25);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  test("after the horizon it catches up faster, stopping one short of the total", () => {
    let value = 10;
    const next = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => (value = simulatedProgress(PROGRESS_HORIZON_MS + i * PROGRESS_TICK_MS, 100, value)));
    expect(next[0]).toBeGreaterThan(50);
    expect(next.at(-1)).toBe(99);
  });

  test("one iteration stays at zero until the real answer arrives", () => {
    expect(simulatedProgress(PROGRESS_HORIZON_MS * 2, 1, 0)).toBe(0);
  });
});

describe("how far a cancelled search came (ADR 030)", () => {
  const ok = (provider: ProviderId) => modelResult(provider, { status: "ok" });
  const failed = (provider: ProviderId) => modelResult(provider, { status: "error", error: "500" });

  test("the most iterations any provider finished, its failed ones counted, of those asked for", () => {
    const result = buildSearchResult({
      query: "q",
      executionTimeMs: 0,
      iterations: 100,
      runs: {
        openai: [ok("openai"), ok("openai"), failed("openai")],
        anthropic: [ok("anthropic")],
        gemini: [failed("gemini"), failed("gemini"), failed("gemini"), failed("gemini")],
      },
    });
    // Gemini, which never answered, is not how far the search came.
    expect(finishedIterations(result)).toEqual({ finished: 3, asked: 100 });
    expect(cancelledNote(result)).toBe("Cancelled after 3 of 100 iterations");
  });

  test("one iteration: 1 of 1 once any provider answered", () => {
    const result = buildSearchResult({ query: "q", executionTimeMs: 0, iterations: 1, runs: { openai: [ok("openai")] } });
    expect(cancelledNote(result)).toBe("Cancelled after 1 of 1 iteration");
  });
});
