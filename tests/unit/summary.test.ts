import { describe, expect, test } from "bun:test";
import type { ProviderId } from "#src/contract/providers.ts";
import type { Dispersion } from "#src/core/dispersion.ts";
import { summarize, summaryPeriod, type ResolvedPeriod, type SummaryPoint } from "#src/core/summary.ts";

/* A tracker's headline, with figures worked out by hand (Wilson's interval: p̃ ± z·√(p(1−p)/n + z²/4n²) / (1 + z²/n)). */

const NOW = new Date("2026-12-07T12:00:00Z");
const WEEK = summaryPeriod({}, NOW, []);
/** Answers as if independent: φ 1, known (no t widening to speak of). */
const INDEPENDENT: Dispersion = { phi: 1, df: 1e9 };

/** One run's points: `counts` maps subject → k of `n` answers (the first is the brand). */
function run(
  runId: string,
  at: string,
  counts: Record<string, number>,
  n: number,
  { provider = "openai" as ProviderId, query = "best crm" } = {},
): SummaryPoint[] {
  return Object.entries(counts).map(([subject, k], index) => ({ runId, at, provider, query, subject, isBrand: index === 0, k, n }));
}

const thisWeek = "2026-12-06T08:00:00.000Z";
const lastWeek = "2026-11-29T08:00:00.000Z";

function headline(
  current: SummaryPoint[],
  previous: SummaryPoint[],
  dispersion: Record<string, Dispersion> = { openai: INDEPENDENT },
  period: ResolvedPeriod = WEEK,
) {
  return summarize({
    brand: "Pipedrive",
    tracked: 3,
    period,
    current,
    previous,
    dispersion: new Map(Object.entries(dispersion) as Array<[ProviderId, Dispersion]>),
  });
}

describe("summarize", () => {
  test("64 of 100 answers: Wilson's 54.2–72.7 %, #2 of 3 behind HubSpot, share of voice 64 of 164, no clear change from 60 of 100", () => {
    const summary = headline(
      run("r2", thisWeek, { Pipedrive: 64, HubSpot: 80, Zoho: 20 }, 100),
      run("r1", lastWeek, { Pipedrive: 60, HubSpot: 82, Zoho: 18 }, 100),
    );
    // p = 0.64, z² / n = 0.038415: centre (0.64 + 0.019208) / 1.038415 = 0.63483, half 1.96 · √(0.002304 + 0.000096) / 1.038415 = 0.09247.
    expect(summary.brand).toMatchObject({ name: "Pipedrive", n: 100, k: 64, rate: 64, rank: 2, of: 3, sov: 39.02 });
    expect(summary.brand.low).toBeCloseTo(54.24, 1);
    expect(summary.brand.high).toBeCloseTo(72.73, 1);
    expect(summary.brand.change).toEqual({ from: 60, to: 64, verdict: "no clear change" });
    expect(summary.providers).toHaveLength(1);
    expect(summary.providers[0]).toMatchObject({ provider: "openai", rate: 64, rank: 2, of: 3, sov: 39.02 });
    expect(summary.sentence).toBe("Pipedrive: named in 64 % of answers (±9), #2 of 3 behind HubSpot; no clear change from last week.");
  });

  test("a rise from 30 to 64 of 100 is told; the interval widens with the runs' dispersion", () => {
    const summary = headline(
      run("r2", thisWeek, { Pipedrive: 64, HubSpot: 50, Zoho: 20 }, 100),
      run("r1", lastWeek, { Pipedrive: 30, HubSpot: 50, Zoho: 20 }, 100),
    );
    expect(summary.brand.change).toEqual({ from: 30, to: 64, verdict: "rose" });
    expect(summary.sentence).toBe("Pipedrive: named in 64 % of answers (±9), #1 of 3; up from 30 % last week.");

    // φ = 2: Wilson's on 32 of 50 answers' worth: centre (0.64 + 0.038415) / 1.076829 = 0.63002, half 0.12860.
    const dispersed = headline(run("r2", thisWeek, { Pipedrive: 64, HubSpot: 50, Zoho: 20 }, 100), [], { openai: { phi: 2, df: 1e9 } });
    expect(dispersed.brand.low).toBeCloseTo(50.14, 1);
    expect(dispersed.brand.high).toBeCloseTo(75.86, 1);
  });

  test("a fall the runs' spread explains is no clear change: the same counts, a φ of 8", () => {
    const current = run("r2", thisWeek, { Pipedrive: 50, HubSpot: 50, Zoho: 20 }, 100);
    const previous = run("r1", lastWeek, { Pipedrive: 70, HubSpot: 50, Zoho: 20 }, 100);
    expect(headline(current, previous).brand.change.verdict).toBe("fell");
    expect(headline(current, previous, { openai: { phi: 8, df: 10 } }).brand.change.verdict).toBe("no clear change");
    expect(headline(current, previous).sentence).toContain("down from 70 % last week");
  });

  test("no earlier answers: nothing to compare", () => {
    const summary = headline(run("r2", thisWeek, { Pipedrive: 64, HubSpot: 80, Zoho: 20 }, 100), []);
    expect(summary.brand.change).toEqual({ from: null, to: 64, verdict: "no clear change" });
    expect(summary.sentence).toEndWith("#2 of 3 behind HubSpot; no earlier period to compare.");
  });

  test("no answers in the period: null figures and a sentence that says so", () => {
    const summary = headline([], run("r1", lastWeek, { Pipedrive: 60, HubSpot: 82, Zoho: 18 }, 100));
    expect(summary.brand).toMatchObject({ n: 0, rate: null, low: null, high: null, rank: null, of: 3, sov: null });
    expect(summary.sentence).toBe("Pipedrive: no answers in the last 7 days.");
  });

  test("rank wording: the two above at #3, the leader from #4 down, ties said", () => {
    const sentence = (counts: Record<string, number>) => headline(run("r2", thisWeek, counts, 100), []).sentence;
    expect(sentence({ Pipedrive: 30, HubSpot: 80, Salesforce: 50, Zoho: 20 })).toContain("#3 of 4 behind HubSpot and Salesforce;");
    expect(sentence({ Pipedrive: 10, HubSpot: 80, Salesforce: 50, Zoho: 20, Close: 5 })).toContain("#4 of 5 behind HubSpot (#1);");
    expect(sentence({ Pipedrive: 50, HubSpot: 50, Zoho: 20 })).toContain("#1 of 3, tied with HubSpot;");
  });

  test("across providers: answers pooled, each provider's φ weighted by its answers", () => {
    const current = [
      ...run("r2", thisWeek, { Pipedrive: 64, HubSpot: 80, Zoho: 20 }, 100),
      ...run("r2", thisWeek, { Pipedrive: 40, HubSpot: 30, Zoho: 10 }, 100, { provider: "anthropic" }),
    ];
    const summary = headline(current, [], { openai: { phi: 1, df: 1e9 }, anthropic: { phi: 3, df: 1e9 } });
    // 104 of 200 at φ = (1·100 + 3·100) / 200 = 2: Wilson's on 52 of 100.
    expect(summary.brand).toMatchObject({ n: 200, k: 104, rate: 52, rank: 2, sov: round2((104 / 244) * 100) });
    const alone = headline(run("r2", thisWeek, { Pipedrive: 52, HubSpot: 50, Zoho: 20 }, 100), []);
    expect(summary.brand.low).toBeCloseTo(alone.brand.low!, 6);
    expect(summary.brand.high).toBeCloseTo(alone.brand.high!, 6);
    expect(summary.providers.map((p) => [p.provider, p.rate, p.rank])).toEqual([
      ["openai", 64, 2],
      ["anthropic", 40, 1],
    ]);
  });

  test("a question only one period asked moves neither side of the change", () => {
    const previous = run("r1", lastWeek, { Pipedrive: 60, HubSpot: 50, Zoho: 20 }, 100, { query: "best crm" });
    const current = [
      ...run("r2", thisWeek, { Pipedrive: 60, HubSpot: 50, Zoho: 20 }, 100, { query: "best crm" }),
      ...run("r2", thisWeek, { Pipedrive: 0, HubSpot: 50, Zoho: 20 }, 100, { query: "crm for startups" }),
    ];
    const summary = headline(current, previous);
    expect(summary.brand.rate).toBe(30);
    expect(summary.brand.change).toEqual({ from: 60, to: 60, verdict: "no clear change" });
  });
});

describe("summaryPeriod", () => {
  test("without anything: the 7 days ending now, against the 7 before", () => {
    expect(WEEK.kind).toBe("7d");
    expect(WEEK.current).toEqual({ from: new Date("2026-11-30T12:00:00Z"), until: NOW });
    expect(WEEK.previous).toEqual({ from: new Date("2026-11-23T12:00:00Z"), until: new Date("2026-11-30T12:00:00Z") });
  });

  test("30 days, a range and its previous of the same length, a range's missing end", () => {
    expect(summaryPeriod({ period: "30d" }, NOW, []).previous.from).toEqual(new Date("2026-10-08T12:00:00Z"));
    const range = summaryPeriod({ from: new Date("2026-11-01T00:00:00Z"), until: new Date("2026-11-04T00:00:00Z") }, NOW, []);
    expect(range.kind).toBe("range");
    expect(range.previous).toEqual({ from: new Date("2026-10-29T00:00:00Z"), until: new Date("2026-11-01T00:00:00Z") });
    expect(summaryPeriod({ until: new Date("2026-11-04T00:00:00Z") }, NOW, []).current.from).toEqual(new Date("2026-10-28T00:00:00Z"));
    expect(summaryPeriod({ from: new Date("2026-12-01T00:00:00Z") }, NOW, []).current.until).toEqual(NOW);
  });

  test("a run: the newest against the one before, its words in the sentence", () => {
    const runs = [
      { runId: "r1", at: lastWeek },
      { runId: "r2", at: thisWeek },
    ];
    const period = summaryPeriod({ period: "run" }, NOW, runs);
    expect(period.current.runIds).toEqual(["r2"]);
    expect(period.previous.runIds).toEqual(["r1"]);
    const summary = headline(
      run("r2", thisWeek, { Pipedrive: 64, HubSpot: 80, Zoho: 20 }, 100),
      run("r1", lastWeek, { Pipedrive: 60, HubSpot: 82, Zoho: 18 }, 100),
      undefined,
      period,
    );
    expect(summary.sentence).toEndWith("no clear change from the run before.");
    // The first run: nothing before it, and the empty window before it, not after (its answers are read from the previous window's start).
    const first = summaryPeriod({ period: "run" }, NOW, runs.slice(1));
    expect(first.previous.runIds).toEqual([]);
    expect(first.previous.from.getTime()).toBeLessThanOrEqual(first.current.from.getTime());
  });
});

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
