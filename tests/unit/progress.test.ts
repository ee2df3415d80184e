import { describe, expect, test } from "bun:test";
import { PROGRESS_HORIZON_MS, PROGRESS_TICK_MS, simulatedProgress } from "#src/core/progress.ts";

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
