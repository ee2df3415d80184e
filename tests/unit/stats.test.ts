import { describe, expect, test } from "bun:test";
import { frequencies, wilsonInterval } from "#src/core/stats.ts";

describe("wilsonInterval", () => {
  test("8 of 10 → about 49.0–94.3 %", () => {
    const { low, high } = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(49.0, 1);
    expect(high).toBeCloseTo(94.3, 1);
  });

  test("0 of 10 → 0–27.8 %, exactly 0 at the bottom", () => {
    const { low, high } = wilsonInterval(0, 10);
    expect(low).toBe(0);
    expect(high).toBeCloseTo(27.8, 1);
  });

  test("10 of 10 → 72.2–100 %, exactly 100 at the top", () => {
    const { low, high } = wilsonInterval(10, 10);
    expect(low).toBeCloseTo(72.2, 1);
    expect(high).toBe(100);
  });

  test("half of 100 is a narrow interval around 50 %", () => {
    const { low, high } = wilsonInterval(50, 100);
    expect(low).toBeCloseTo(40.4, 1);
    expect(high).toBeCloseTo(59.6, 1);
  });

  test("n = 0 gives {0, 0}", () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 0 });
  });

  test("a smaller z gives a narrower interval", () => {
    const wide = wilsonInterval(3, 5);
    const narrow = wilsonInterval(3, 5, 1);
    expect(narrow.low).toBeGreaterThan(wide.low);
    expect(narrow.high).toBeLessThan(wide.high);
  });
});

describe("frequencies", () => {
  const runs = [
    ["Sony WH-1000XM6", "Bose QuietComfort Ultra", "Apple AirPods Max"],
    ["sony wh-1000xm6", "Apple AirPods Max", "Sennheiser Momentum 4"],
    ["Sony WH-1000XM6", "Sony WH-1000XM6", "Bose QuietComfort Ultra"],
    ["Sony WH-1000XM6", "Bose QuietComfort Ultra", "Apple AirPods Max"],
    [],
  ];

  test("counts runs, not mentions: a name twice in one run counts once", () => {
    const sony = frequencies(runs, 5).find((f) => f.name === "Sony WH-1000XM6");
    expect(sony?.count).toBe(4);
    expect(sony?.percentage).toBe(80);
  });

  test("merges case-insensitively and shows the most common spelling", () => {
    const names = frequencies(runs, 5).map((f) => f.name);
    expect(names).toContain("Sony WH-1000XM6");
    expect(names).not.toContain("sony wh-1000xm6");
  });

  test("sorted by count desc then name asc, with one-decimal percentages and Wilson bounds", () => {
    expect(frequencies(runs, 5)).toEqual([
      { name: "Sony WH-1000XM6", count: 4, percentage: 80, low: 37.6, high: 96.4 },
      { name: "Apple AirPods Max", count: 3, percentage: 60, low: 23.1, high: 88.2 },
      { name: "Bose QuietComfort Ultra", count: 3, percentage: 60, low: 23.1, high: 88.2 },
      { name: "Sennheiser Momentum 4", count: 1, percentage: 20, low: 3.6, high: 62.4 },
    ]);
  });

  test("counts add up to the distinct names per run", () => {
    const total = frequencies(runs, 5).reduce((sum, f) => sum + f.count, 0);
    const distinctPerRun = runs.reduce((sum, run) => sum + new Set(run.map((n) => n.toLowerCase())).size, 0);
    expect(total).toBe(distinctPerRun);
  });

  test("percentages round to one decimal (1 of 3 → 33.3)", () => {
    expect(frequencies([["A"], ["B"], ["B"]], 3)).toEqual([
      { name: "B", count: 2, percentage: 66.7, low: 20.8, high: 93.9 },
      { name: "A", count: 1, percentage: 33.3, low: 6.1, high: 79.2 },
    ]);
  });

  test("blank names are ignored and no runs give no frequencies", () => {
    expect(frequencies([["  ", ""]], 1)).toEqual([]);
    expect(frequencies([], 0)).toEqual([]);
  });
});
