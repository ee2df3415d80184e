import { expect, test } from "bun:test";
import { BANDS_TEXT, figureText, sparkline, spreadLine, trendSummary } from "#cli/lib/trend.ts";
import { trendPoint } from "#tests/support/trend.ts";
import { metricAxis } from "#web/lib/trend.ts";

/* `aisc track trend`'s sparkline and figures, on the edges the live tests do not reach. */

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
  // Ranked by one answer: its mean, without a band; by none, no figure.
  expect(figureText("position", { ...point, k: 1, rate: 2, low: null, high: null })).toBe("2.0 (1 answer ranked it) k=1 of n=10");
  expect(figureText("position", { ...point, k: 0, rate: null, low: null, high: null })).toBe("— k=0 of n=10");
});

test("what the bands cover, and each provider's run-to-run spread under its figures (×1.0 said to be answers as independent)", () => {
  expect(spreadLine([{ provider: "openai", phi: 1.83, df: 12 }], "openai")).toEqual(["Run-to-run spread ×1.8: each band is widened by it."]);
  expect(spreadLine([{ provider: "openai", phi: 1, df: 40 }], "openai")).toEqual(["Run-to-run spread ×1.0: as if answers were independent."]);
  expect(spreadLine([{ provider: "openai", phi: 1.83, df: 12 }], "gemini")).toEqual([]);
  const summary = trendSummary({ metric: "mention", points: [trendPoint()], dispersion: [{ provider: "openai", phi: 2.04, df: 4 }] }, {});
  expect(summary.split("\n")).toEqual([
    "Mention rate (answers naming each brand, of n answers), 95% band for the tracker's rate, per run (UTC), oldest first:",
    BANDS_TEXT,
    "ChatGPT:",
    "- 2026-11-26 09:00: HubSpot 60.0% (31.3–83.2) n=10",
    "HubSpot over the runs (0–100%): ▅",
    "Run-to-run spread ×2.0 (assumed until its runs show their own): each band is widened by it.",
  ]);
  expect(spreadLine([{ provider: "openai", phi: 1.41, df: 7.2 }], "openai")).toEqual([
    "Run-to-run spread ×1.4 (mostly assumed so far): each band is widened by it.",
  ]);
});

test("a position's sparkline says which way it points, as the web chart's axis does: 1st place highest", () => {
  const summary = trendSummary({ metric: "position", points: [trendPoint({ k: 7, rate: 1.1, low: 1, high: 1.4 })], dispersion: [] }, {});
  expect(summary).toContain("HubSpot over the runs (higher = nearer 1st place): ▇");
  expect(metricAxis.position).toContain("(1 at the top: higher = nearer 1st place)");
});

test("a position's scale runs from 1st place to at least the 2nd, as the web chart's axis: one mean near 1st is drawn tall, not lowest", () => {
  expect(sparkline("position", [1.1])).toBe("▇");
  expect(sparkline("position", [1])).toBe("█");
  expect(sparkline("position", [2])).toBe("▁");
});
