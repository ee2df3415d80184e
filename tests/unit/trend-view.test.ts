import { describe, expect, test } from "bun:test";
import type { TrackerAlert, TrendPoint } from "#src/contract/trend.ts";
import { DISPERSION_PRIOR } from "#src/core/dispersion.ts";
import {
  alertStatistics,
  bandsCaption,
  brandLegend,
  brandRunRates,
  countHeader,
  countText,
  figureHeader,
  formatPoint,
  metricAxis,
  providerTrends,
  labelledRuns,
  positionTicks,
  runLabels,
  runTimes,
  runTooltip,
  sparklineLabel,
} from "#web/lib/trend.ts";
import { alertRuleNote, alertText, EARLIER_RULE_NOTE } from "#web/lib/alert-words.ts";

/* The tracker page's trend and alerts in words (web/lib/trend.ts): what its charts mark and its list says. */

const point = (runId: string, at: string, subject: string, modelVersion: string, rate = 50): TrendPoint => ({
  runId,
  at,
  provider: "openai",
  subject,
  isBrand: subject === "HubSpot",
  n: 10,
  k: rate / 10,
  rate,
  low: rate - 20,
  high: rate + 20,
  modelVersion,
});

test("a provider's chart: the brand first, oldest run first, a rule where its model changed and where what it asks or counts was edited", () => {
  const points = [
    point("r3", "2026-11-03T09:00:00.000Z", "Salesforce", "gpt-6"),
    point("r3", "2026-11-03T09:00:00.000Z", "HubSpot", "gpt-6"),
    point("r1", "2026-11-01T09:00:00.000Z", "Salesforce", "gpt-5"),
    point("r1", "2026-11-01T09:00:00.000Z", "HubSpot", "gpt-5"),
    point("r2", "2026-11-02T09:00:00.000Z", "HubSpot", "gpt-5"),
  ];
  const [trend, ...others] = providerTrends(
    points,
    ["anthropic", "openai"],
    new Map([
      ["r1", 1],
      ["r2", 2],
      ["r3", 2],
    ]),
  );
  expect(others).toEqual([]);
  expect(trend!.subjects).toEqual([
    { name: "HubSpot", isBrand: true },
    { name: "Salesforce", isBrand: false },
  ]);
  expect(trend!.runs.map((run) => run.runId)).toEqual(["r1", "r2", "r3"]);
  expect(trend!.markers).toEqual([
    { at: "2026-11-02T09:00:00.000Z", kind: "queries", text: "What the tracker asks or counts was edited before the run of Nov 2, 2026, 09:00 UTC" },
    { at: "2026-11-03T09:00:00.000Z", kind: "model", text: "Model changed before the run of Nov 3, 2026, 09:00 UTC: gpt-5 → gpt-6" },
  ]);
});

test("a rollout that comes and goes is marked once, where the new version first answered; the same versions in another order are no change", () => {
  const versions = ["m-1", "m-1, m-2", "m-1", "m-2, m-1", "m-2"];
  const points = versions.map((version, i) => point(`r${i}`, `2026-11-0${i + 1}T09:00:00.000Z`, "HubSpot", version));
  const [trend] = providerTrends(points, ["openai"], new Map());
  expect(trend!.markers).toEqual([
    { at: "2026-11-02T09:00:00.000Z", kind: "model", text: "Model changed before the run of Nov 2, 2026, 09:00 UTC: m-1 → m-1, m-2" },
  ]);
});

test("figures in words: a rate with its interval, a mean position, a run's label, an alert", () => {
  expect(formatPoint({ rate: 60, low: 31.3, high: 83.2 }, "mention")).toBe("60% (31–83%)");
  expect(formatPoint({ rate: 2.25, low: 1.9, high: 2.71 }, "position")).toBe("2.3 (1.9–2.7)");
  expect(formatPoint({ rate: null, low: null, high: null }, "sov")).toBe("—");
  expect(runLabels(["2026-11-01T09:00:00.000Z", "2026-11-02T09:00:00.000Z", "2026-11-02T15:30:00.000Z"])).toEqual(["Nov 1", "Nov 2 09:00", "Nov 2 15:30"]);
  const fell: TrackerAlert = {
    id: "a",
    kind: "fell",
    metric: "mention",
    provider: "openai",
    subject: "HubSpot",
    before: { k: 6, n: 10, rate: 60, low: 31.3, high: 83.2 },
    after: { k: 2, n: 10, rate: 20, low: 5.7, high: 51 },
    p: 0.0123,
    q: 0.0456,
    runId: "r2",
    at: "2026-11-02T09:00:00.000Z",
    searchIds: [],
    rule: 2,
  };
  expect(alertText(fell, "ChatGPT / OpenAI")).toBe("Mentions of HubSpot fell on ChatGPT / OpenAI: 60% (31–83%, n=10) → 20% (6–51%, n=10)");
  expect(alertStatistics(fell)).toBe("p = 0.012 · q = 0.046");
  const model: TrackerAlert = {
    id: "b",
    kind: "model-changed",
    provider: "openai",
    modelVersions: { before: "gpt-5", after: "gpt-6" },
    runId: "r2",
    at: fell.at,
    searchIds: [],
    rule: 2,
  };
  expect(alertText(model, "ChatGPT / OpenAI")).toBe("ChatGPT / OpenAI's model changed: gpt-5 → gpt-6");
  expect(alertStatistics(model)).toBeNull();
});

const NAMES = { openai: "ChatGPT / OpenAI", anthropic: "Claude / Anthropic", gemini: "Gemini / Google", perplexity: "Perplexity" } as const;

test("under the charts, what the bands cover: the tracker's figure, widened by each provider's spread (φ to one decimal, 1 said to be answers as independent)", () => {
  const dispersion = [
    { provider: "gemini", phi: 1, df: 40 },
    { provider: "openai", phi: 1.83, df: 12 },
    { provider: "anthropic", phi: 1.04, df: 9 },
  ] as const;
  expect(bandsCaption("mention", [...dispersion], ["openai", "anthropic", "gemini"], NAMES)).toBe(
    "Bands cover the tracker's rate, not only one run's answers: the answers of one run move together, so each band is widened by how much its provider's runs vary " +
      "(ChatGPT / OpenAI ×1.8; Claude / Anthropic ×1.0, as if answers were independent; Gemini / Google ×1.0, as if answers were independent).",
  );
  // Only the providers the trend has, in the page's order; position is a mean when ranked, not a rate.
  expect(bandsCaption("position", [{ provider: "anthropic", phi: 2.5, df: 30 }], ["openai", "anthropic"], NAMES)).toBe(
    "Bands cover the tracker's mean position when ranked, not only one run's answers: the answers of one run move together, so each band is widened by how much its provider's runs vary (Claude / Anthropic ×2.5).",
  );
  // A spread its runs have barely shown yet is said to be (mostly) the starting assumption.
  expect(
    bandsCaption(
      "mention",
      [
        { provider: "gemini", ...DISPERSION_PRIOR },
        { provider: "openai", phi: 1.41, df: 7.2 },
      ],
      ["openai", "gemini"],
      NAMES,
    ),
  ).toEndWith("(ChatGPT / OpenAI ×1.4, mostly assumed so far; Gemini / Google ×2.0, assumed until its runs show their own).");
  // A server that sends no dispersion: the words without figures.
  expect(bandsCaption("sov", [], ["openai"], NAMES)).toBe(
    "Bands cover the tracker's share, not only one run's answers: the answers of one run move together, so each band is widened by how much its provider's runs vary.",
  );
});

test("the legend and the tables say what a band covers; position is the mean when ranked, with how many answers ranked it", () => {
  expect(brandLegend("HubSpot", "mention")).toBe("HubSpot (your brand; shaded: 95% band for its rate on this provider, not only this run's answers)");
  expect(brandLegend("HubSpot", "position")).toBe(
    "HubSpot (your brand; shaded: 95% band for its mean position when ranked on this provider, not only this run's answers)",
  );
  expect(figureHeader("citation")).toBe("Rate (95% band for the tracker's rate)");
  expect(figureHeader("position")).toBe("Mean position when ranked (95% band)");
  expect(metricAxis.position).toBe("Mean position when ranked, over the answers ranking it (1 at the top: higher = nearer 1st place)");
  expect([countHeader("mention"), countText({ k: 6, n: 10 }, "mention")]).toEqual(["n", "10"]);
  expect([countHeader("position"), countText({ k: 7, n: 10 }, "position")]).toEqual(["Answers ranking it (k of n)", "7 of 10"]);
});

test("a mean position ranked by fewer than two answers has no band: the mean, and how many ranked it", () => {
  expect(formatPoint({ rate: 2, low: null, high: null, k: 1 }, "position")).toBe("2.0 (1 answer ranked it)");
  expect(formatPoint({ rate: 2.5, low: 1.4, high: 3.6, k: 4 }, "position")).toBe("2.5 (1.4–3.6)");
  // No answer ranked it: no figure at all.
  expect(formatPoint({ rate: null, low: null, high: null, k: 0 }, "position")).toBe("—");
});

describe("an alert's test, by its rule", () => {
  const fell: TrackerAlert = {
    id: "a",
    kind: "fell",
    metric: "mention",
    provider: "openai",
    subject: "HubSpot",
    before: { k: 60, n: 100, rate: 60, low: 48, high: 71 },
    after: { k: 20, n: 100, rate: 20, low: 11, high: 33 },
    p: 0.00123,
    q: 0.0046,
    runId: "r9",
    at: "2026-12-09T09:00:00.000Z",
    searchIds: [],
    rule: 2,
    dispersion: { phi: 1.83, df: 14.2 },
    baselineRuns: ["r1", "r2", "r3", "r4", "r5", "r6", "r7"],
  };

  test("rule 2: p and q, the runs' spread it counted with and its baseline's runs; no note", () => {
    expect(alertStatistics(fell)).toBe("p = 0.0012 · q = 0.0046 · counted with its runs' spread ×1.8, against 7 runs");
    expect(alertStatistics({ ...fell, baselineRuns: ["r1"] })).toBe("p = 0.0012 · q = 0.0046 · counted with its runs' spread ×1.8, against 1 run");
    expect(alertRuleNote(fell)).toBeNull();
  });

  test("rule 1 keeps its record: p and q alone, and a note that it took a run's answers as independent; a model change is a fact under either", () => {
    const earlier: TrackerAlert = { ...fell, rule: 1, dispersion: undefined, baselineRuns: undefined };
    expect(alertStatistics(earlier)).toBe("p = 0.0012 · q = 0.0046");
    expect(alertRuleNote(earlier)).toBe(EARLIER_RULE_NOTE);
    expect(EARLIER_RULE_NOTE).toBe("Decided by the earlier rule (before Dec 2026), which took a run's answers as independent: it may be noise.");
    // The sentence itself is the same under either rule.
    expect(alertText(earlier, "ChatGPT / OpenAI")).toBe(alertText(fell, "ChatGPT / OpenAI"));
    const model: TrackerAlert = { id: "m", kind: "model-changed", provider: "openai", runId: "r2", at: fell.at, searchIds: [], rule: 1 };
    expect(alertRuleNote(model)).toBeNull();
  });
});

test("the overview's sparkline: the brand's answers of every provider pooled per run, the newest runs oldest first, said in words", () => {
  const gemini = (p: TrendPoint, k: number, n: number): TrendPoint => ({ ...p, provider: "gemini", k, n });
  const points = [
    point("r1", "2026-12-01T09:00:00Z", "HubSpot", "v1", 50),
    gemini(point("r1", "2026-12-01T09:00:00Z", "HubSpot", "v1"), 0, 10),
    point("r1", "2026-12-01T09:00:00Z", "Salesforce", "v1", 100),
    point("r2", "2026-12-02T09:00:00Z", "HubSpot", "v1", 30),
    gemini(point("r2", "2026-12-02T09:00:00Z", "HubSpot", "v1"), 0, 0),
    { ...point("r3", "2026-12-03T09:00:00Z", "HubSpot", "v1"), k: 0, n: 0 },
  ];
  // r1: 5 of 10 and 0 of 10; r2: 3 of 10 (Gemini had no answers); r3: none at all. A competitor never counts.
  const rates = brandRunRates(points);
  expect(rates).toEqual([
    { at: "2026-12-01T09:00:00Z", rate: 25 },
    { at: "2026-12-02T09:00:00Z", rate: 30 },
    { at: "2026-12-03T09:00:00Z", rate: null },
  ]);
  expect(brandRunRates(points, 2).map((run) => run.at)).toEqual(["2026-12-02T09:00:00Z", "2026-12-03T09:00:00Z"]);
  expect(sparklineLabel("HubSpot", rates)).toBe("HubSpot named in the answers of the last 3 runs, oldest first: 25%, 30%, no answers");
  expect(sparklineLabel("HubSpot", rates.slice(0, 1))).toBe("HubSpot named in the answers of the last run: 25%");
});

describe("a chart's x axis", () => {
  test("labels as many runs as fit side by side, evenly, counted back from the newest, which is always labelled", () => {
    // 13 runs of 80 px labels: 1100 px fits 11 (a label and its 12 px gap are 92 px), so every second run.
    expect(labelledRuns(13, 1100, 80)).toEqual([0, 2, 4, 6, 8, 10, 12]);
    // Every run when they all fit.
    expect(labelledRuns(5, 600, 80)).toEqual([0, 1, 2, 3, 4]);
    // A 360 px phone's plot (about 300 px) fits 3 of 13: every fifth.
    expect(labelledRuns(13, 300, 80)).toEqual([2, 7, 12]);
    // Narrower than one label: the newest alone; no runs, no labels.
    expect(labelledRuns(13, 40, 80)).toEqual([12]);
    expect(labelledRuns(0, 600, 80)).toEqual([]);
  });

  test("no two labelled runs are nearer than a label's width, at any width", () => {
    for (const runs of [2, 13, 22, 60])
      for (const width of [120, 300, 640, 1280]) {
        const picked = labelledRuns(runs, width, 80);
        const spacing = width / runs;
        for (let i = 1; i < picked.length; i++) expect((picked[i]! - picked[i - 1]!) * spacing).toBeGreaterThanOrEqual(80);
        expect(picked.at(-1)).toBe(runs - 1);
      }
  });

  test("two runs in one minute are told apart by their seconds, on the axis, in the tables and the tooltip", () => {
    const ats = ["2026-12-07T03:05:00.000Z", "2026-12-07T03:06:00.000Z", "2026-12-07T03:06:41.000Z"];
    expect(runLabels(ats)).toEqual(["Dec 7 03:05", "Dec 7 03:06:00", "Dec 7 03:06:41"]);
    expect(runTimes(ats)).toEqual(["Dec 7, 2026, 03:05 UTC", "Dec 7, 2026, 03:06:00 UTC", "Dec 7, 2026, 03:06:41 UTC"]);
    // Still the same to the second: numbered.
    expect(runLabels(["2026-12-07T03:06:41.100Z", "2026-12-07T03:06:41.900Z"])).toEqual(["Dec 7 03:06:41", "Dec 7 03:06:41 (2)"]);
  });
});

test("a chart's tooltip: the run's time, then each subject's figure with its interval", () => {
  const series = {
    subjects: [
      { name: "HubSpot", isBrand: true },
      { name: "Salesforce", isBrand: false },
    ],
    runs: [
      { at: "2026-12-07T03:06:00.000Z", bySubject: new Map([["HubSpot", { rate: 98.6, low: 92.3, high: 99.8 }]]) },
      {
        at: "2026-12-07T03:06:30.000Z",
        bySubject: new Map([
          ["HubSpot", { rate: 60, low: 31.3, high: 83.2 }],
          ["Salesforce", { rate: 20, low: null, high: null }],
        ]),
      },
    ],
    markers: [],
  };
  expect(runTooltip(series, 0, "percent")).toEqual({
    time: "Dec 7, 2026, 03:06:00 UTC",
    rows: [
      { name: "HubSpot", text: "98.6% (92–99.8%)" },
      { name: "Salesforce", text: "—" },
    ],
  });
  expect(runTooltip(series, 1, "percent")?.rows).toEqual([
    { name: "HubSpot", text: "60% (31–83%)" },
    { name: "Salesforce", text: "20%" },
  ]);
  expect(runTooltip(series, 1, "position")?.rows[0]).toEqual({ name: "HubSpot", text: "60.0 (31.3–83.2)" });
  expect(runTooltip(series, 2, "percent")).toBeNull();
});

test("a position axis labels 1st place, at its top, then whole places to the worst", () => {
  expect(positionTicks(2)).toEqual([1, 2]);
  expect(positionTicks(5)).toEqual([1, 2, 3, 4, 5]);
  expect(positionTicks(16)).toEqual([1, 5, 10, 15]);
  expect(positionTicks(8)).toEqual([1, 2, 4, 6, 8]);
});
