import { expect, test } from "bun:test";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { alertSentence, alertsText } from "#cli/lib/alerts.ts";

/* Issue 26: `aisc track alerts`'s sentences on the kinds the live tests do not make (a rise for one query, a model change). */

const fell: TrackerAlert = {
  id: "a1",
  kind: "fell",
  metric: "mention",
  provider: "openai",
  subject: "HubSpot",
  before: { k: 6, n: 10, rate: 60, low: 31.27, high: 83.18 },
  after: { k: 2, n: 10, rate: 20, low: 5.67, high: 50.98 },
  p: 0.00123,
  q: 0.0412,
  runId: "r2",
  at: "2026-11-26T09:00:00.000Z",
  searchIds: ["s1", "s2"],
  rule: 2,
};

test("a fall over all queries in plain words, both windows with interval and n, p and q to two digits, when", () => {
  expect(alertSentence(fell, { openai: true })).toBe(
    "Mentions of HubSpot fell on ChatGPT (simulated), over all queries: 60.0% (31.3–83.2, n=10) → 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041 · 2026-11-26 09:00 UTC",
  );
});

test("a rise of citations for one query, on a live provider; a tiny p is a bound", () => {
  const rose: TrackerAlert = {
    ...fell,
    kind: "rose",
    metric: "citation",
    provider: "gemini",
    subject: "Salesforce",
    query: "best crm",
    p: 0.00000012,
    q: 0.00002,
  };
  expect(alertSentence(rose, {})).toStartWith('Citations of Salesforce\'s own domains rose on Gemini, for "best crm": ');
  expect(alertSentence(rose, {})).toContain("p < 0.0001, q < 0.0001 ·");
});

test("a model change: both versions, and that no rise or fall is called across it; without searches, no links", () => {
  const changed: TrackerAlert = {
    id: "a2",
    kind: "model-changed",
    provider: "openai",
    modelVersions: { before: "gpt-5.1", after: "gpt-6-sol" },
    runId: "r3",
    at: "2026-12-03T09:00:00.000Z",
    searchIds: [],
    rule: 2,
  };
  expect(alertsText([changed, fell], {}, "https://aisc.example")).toBe(
    [
      "ChatGPT's model changed: gpt-5.1 → gpt-6-sol (no rise or fall is called across it) · 2026-12-03 09:00 UTC",
      "",
      "Mentions of HubSpot fell on ChatGPT, over all queries: 60.0% (31.3–83.2, n=10) → 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041 · 2026-11-26 09:00 UTC",
      "  Answers: https://aisc.example/search/s1 https://aisc.example/search/s2",
    ].join("\n"),
  );
});
