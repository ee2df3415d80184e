import { expect, test } from "bun:test";
import type { TrackerAlert, TrendPoint } from "#src/contract/trend.ts";
import { alertStatistics, alertText, formatPoint, providerTrends, runLabels } from "#web/lib/trend.ts";

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

test("a provider's chart: the brand first, oldest run first, a rule where its model changed and where the questions were edited", () => {
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
    { at: "2026-11-02T09:00:00.000Z", kind: "queries", text: "Questions or providers edited before the run of Nov 2, 2026, 09:00 UTC" },
    { at: "2026-11-03T09:00:00.000Z", kind: "model", text: "Model changed before the run of Nov 3, 2026, 09:00 UTC: gpt-5 → gpt-6" },
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
