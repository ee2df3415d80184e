import { expect, test } from "bun:test";
import { figureText, sparkline } from "#cli/lib/trend.ts";
import { trendPoint } from "#tests/support/trend.ts";

/* Issue 26: `aisc track trend`'s sparkline and figures, on the edges the live tests do not reach. */

test("a sparkline has one character per run: rates on a fixed 0–100% scale, a run without a rate a dot", () => {
  expect(sparkline("mention", [0, 50, 100, null, 12.5])).toBe("▁▅█·▂");
  // The same small wobble looks small, whatever the tracker's level.
  expect(sparkline("sov", [60, 61])).toBe("▅▅");
});

test("positions: the first place is the tallest bar, the furthest seen the lowest", () => {
  expect(sparkline("position", [1, 3, 2, null])).toBe("█▁▅·");
  expect(sparkline("position", [1, 1])).toBe("██");
});

test("a figure: the rate with its interval and n; position a mean, not a percent, over k of n; none said so", () => {
  const point = trendPoint();
  expect(figureText("mention", point)).toBe("60.0% (31.3–83.2) n=10");
  expect(figureText("position", { ...point, k: 7, rate: 2.29, low: 1.8, high: 2.77 })).toBe("2.3 (1.8–2.8) k=7 of n=10");
  expect(figureText("citation", { ...point, n: 0, k: 0, rate: null, low: null, high: null })).toBe("— n=0");
});
