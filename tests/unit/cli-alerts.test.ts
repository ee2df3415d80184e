import { expect, test } from "bun:test";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { alertSentence, alertsSummary, alertsText, EARLIER_RULE, NO_ALERTS } from "#cli/lib/alerts.ts";

/*
 * `aisc track alerts`'s sentences on the kinds the live tests do not make (a rise for one
 * query, a model change); what a rule-2 test counted with, and a rule-1 alert flagged.
 */

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

test("rule 2: the runs' spread (φ to one decimal) and the baseline's runs the test counted with", () => {
  const counted: TrackerAlert = { ...fell, dispersion: { phi: 1.83, df: 14.2 }, baselineRuns: ["r1", "r2", "r3", "r4", "r5", "r6", "r7"] };
  expect(alertSentence(counted, {})).toBe(
    "Mentions of HubSpot fell on ChatGPT, over all queries: 60.0% (31.3–83.2, n=10) → 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041, counted with its runs' spread ×1.8 against 7 runs · 2026-11-26 09:00 UTC",
  );
});

test("rule 1 keeps its record and says it may be noise: a line under its sentence, or after it in the MCP summary", () => {
  const earlier: TrackerAlert = { ...fell, rule: 1, searchIds: ["s1"] };
  expect(EARLIER_RULE).toBe("Decided by the earlier rule (before Dec 2026), which took a run's answers as independent: it may be noise.");
  expect(alertsText([earlier], {}, "https://aisc.example").split("\n")).toEqual([
    "Mentions of HubSpot fell on ChatGPT, over all queries: 60.0% (31.3–83.2, n=10) → 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041 · 2026-11-26 09:00 UTC",
    `  ${EARLIER_RULE}`,
    "  Answers: https://aisc.example/search/s1",
  ]);
  expect(alertsSummary([earlier], {}).split("\n")[1]).toBe(
    `- Mentions of HubSpot fell on ChatGPT, over all queries: 60.0% (31.3–83.2, n=10) → 20.0% (5.7–51.0, n=10); p = 0.0012, q = 0.041 · 2026-11-26 09:00 UTC · ${EARLIER_RULE} (searches s1)`,
  );
});

test("no alerts, said without claiming more than the rule tests", () => {
  expect(NO_ALERTS).toBe(
    "No alerts: no rate has moved beyond how much this tracker's runs vary from run to run, and no provider's model or search tool has changed.",
  );
  expect(NO_ALERTS).not.toMatch(/really|chance/);
});
