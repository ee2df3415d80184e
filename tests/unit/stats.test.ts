import { describe, expect, test } from "bun:test";
import { boundText, fisherExact, frequencies, intervalText, percentOf, rate, wilsonInterval } from "#src/core/stats.ts";

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

describe("rate and percentOf", () => {
  test("a rate carries count, n, the percentage and the Wilson bounds, each to one decimal", () => {
    expect(rate(4, 5)).toEqual({ count: 4, n: 5, percentage: 80, low: 37.6, high: 96.4 });
    expect(rate(0, 0)).toEqual({ count: 0, n: 0, percentage: 0, low: 0, high: 0 });
  });

  test("percentOf rounds to one decimal and is 0 of nothing", () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(2, 3)).toBe(66.7);
    expect(percentOf(0, 0)).toBe(0);
  });
});

describe("fisherExact (two-sided)", () => {
  // Fisher's tea-tasting table (Agresti, Categorical Data Analysis, §3.5.2; R's fisher.test gives 0.4857).
  test("the lady tasting tea, [[3, 1], [1, 3]] → 0.4857", () => {
    expect(fisherExact(3, 4, 1, 4)).toBeCloseTo(0.485714, 6);
  });

  // Only the two extreme tables are as unlikely: 2 / C(20, 10) = 2 / 184756.
  test("[[10, 0], [0, 10]] → 2 / C(20, 10) ≈ 1.0825e-5", () => {
    expect(fisherExact(10, 10, 0, 10)).toBeCloseTo(2 / 184_756, 12);
  });

  // Reference values from SciPy 1.17.1, scipy.stats.fisher_exact(table, alternative="two-sided").
  test.each([
    [[1, 9], [11, 3], 0.0027594561852200836], // the Wikipedia example (study habits by sex)
    [[8, 2], [1, 5], 0.034965034965034975], // SciPy's documentation example
    [[0, 10], [4, 6], 0.08668730650154799],
    [[3, 7], [9, 1], 0.019766611097880443],
    [[45, 55], [60, 40], 0.04716548538301931],
    [[120, 80], [95, 105], 0.01598574593181204],
    [[0, 200], [12, 188], 0.000411983340344963], // n = 200 per group: log-factorials keep it exact
  ])("%p vs %p → %p", (first, second, expected) => {
    const [a, notA] = first as [number, number];
    const [b, notB] = second as [number, number];
    const p = fisherExact(a, a + notA, b, b + notB);
    expect(Math.abs(p - expected) / expected).toBeLessThan(1e-9);
  });

  test("equal proportions, and all-or-nothing in both, give 1", () => {
    expect(fisherExact(2, 5, 2, 5)).toBe(1);
    expect(fisherExact(5, 5, 5, 5)).toBe(1);
    expect(fisherExact(0, 3, 1, 3)).toBe(1);
    expect(fisherExact(0, 0, 0, 0)).toBe(1);
  });

  test("is symmetric in the two groups and in success/failure", () => {
    expect(fisherExact(3, 10, 9, 10)).toBeCloseTo(fisherExact(9, 10, 3, 10), 12);
    expect(fisherExact(3, 10, 9, 10)).toBeCloseTo(fisherExact(7, 10, 1, 10), 12);
  });

  test("0 of 5 against 5 of 5 is significant at 5 %, 0 of 3 against 3 of 3 is not", () => {
    expect(fisherExact(0, 5, 5, 5)).toBeCloseTo(0.007937, 6); // 2 / C(10, 5)
    expect(fisherExact(0, 3, 3, 3)).toBeCloseTo(0.1, 12); // 2 / C(6, 3)
  });

  test("refuses counts that are not whole, negative or above their total", () => {
    expect(() => fisherExact(1.5, 4, 1, 4)).toThrow(RangeError);
    expect(() => fisherExact(-1, 4, 1, 4)).toThrow(RangeError);
    expect(() => fisherExact(5, 4, 1, 4)).toThrow(RangeError);
  });
});

describe("boundText and intervalText", () => {
  test("a bound short of 100 or above 0 keeps the decimals that tell it from 100 or 0", () => {
    expect(boundText(99.8)).toBe("99.8");
    expect(boundText(100)).toBe("100");
    expect(boundText(0.2)).toBe("0.2");
    expect(boundText(0)).toBe("0");
    expect(boundText(99.96, 1)).toBe("99.96");
    expect(boundText(0.04, 1)).toBe("0.04");
  });

  test("other bounds round to the places asked for", () => {
    expect(boundText(23.1)).toBe("23");
    expect(boundText(92.3)).toBe("92");
    expect(boundText(31.25, 1)).toBe("31.3");
  });

  test("an interval reads as the web and the CLI write it", () => {
    expect(intervalText(92.3, 99.8)).toBe("92–99.8");
    expect(intervalText(0.2, 8.4)).toBe("0.2–8");
    expect(intervalText(92.3, 99.8, 1)).toBe("92.3–99.8");
    expect(intervalText(80, 100, 1)).toBe("80.0–100.0");
  });
});
