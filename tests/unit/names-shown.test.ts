import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renderToStaticMarkup } from "react-dom/server";
import type { ApiClient } from "#src/client/api.ts";
import type { LensReport, ProviderLens } from "#src/contract/lens.ts";
import type { Share } from "#src/contract/shares.ts";
import type { TrackerSummary } from "#src/contract/summary.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { hasInvisible } from "#src/core/display-text.ts";
import { csvField, resultToCsv, resultToJson } from "#src/core/export.ts";
import { trendToCsv } from "#src/core/trend-export.ts";
import { alertsSummary, alertsText } from "#cli/lib/alerts.ts";
import { describeError } from "#cli/lib/exit.ts";
import { lensSummary, lensTable, resultSummary, resultTable } from "#cli/lib/render.ts";
import { runLine, runResultsTable, runSummary, runsTable, trackersTable, trackerText } from "#cli/lib/trackers.ts";
import { trendSummary, trendTables } from "#cli/lib/trend.ts";
import type { Context } from "#cli/lib/context.ts";
import { tools } from "#cli/mcp/tools.ts";
import { ApiError } from "#src/client/errors.ts";
import { ReportHeading } from "#web/components/report-heading.tsx";
import { alertText } from "#web/lib/alert-words.ts";
import { modelResult, savedResult } from "#tests/support/results.ts";
import { trendPoint } from "#tests/support/trend.ts";

/*
 * Issue 34, names shown as written: text stored before inputs refused invisible characters, and
 * the providers' (product names, companies, models, errors), reach the CLI's tables and listings,
 * MCP's text, the CSV exports and the web's one-line places through visibleText: on one line,
 * each invisible character named ("⟨U+202E⟩"). Every text field below carries a right-to-left
 * override and a line break that would start a line of its own ("Injected"): it must show as
 * "…⟨U+202E⟩ Injected", never as a character acting, never as a line of its own.
 */

const P = (text: string) => `${text}\u202E\nInjected`;
const SHOWN = "⟨U+202E⟩ Injected";

/** Nothing acts (no invisible character but the layout's own line breaks) and nothing gets a line of its own. */
function expectShownSafely(output: string, shown = 1) {
  for (const line of output.split("\n")) {
    expect({ line, invisible: hasInvisible(line) }).toEqual({ line, invisible: false });
    expect(line).not.toMatch(/^[\s│|─┌└├-]*"?Injected/);
  }
  expect(output.split(SHOWN).length - 1).toBeGreaterThanOrEqual(shown);
}

const tracker: Tracker = {
  id: "tracker-1",
  workspaceId: "workspace-1",
  name: P("CRM watch"),
  queries: [P("best crm")],
  brand: { name: P("HubSpot"), aliases: [P("Hub")], domains: ["hubspot.com"] },
  competitors: [{ name: P("Salesforce"), aliases: [], domains: [] }],
  providers: ["openai"],
  iterations: 5,
  location: { country: "DE", city: P("Berlin") },
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  scheduleText: "Every Monday at 09:00 (UTC)",
  alertWindow: 1,
  paused: true,
  pausedReason: P("lapsed"),
  segment: 1,
  nextRunAt: null,
  savedSearches: 0,
  lastRun: null,
  stall: null,
  estimate: { perRunUsd: 0.1, perMonthUsd: 0.4, simulated: false },
  createdAt: "2026-11-26T09:00:00.000Z",
  updatedAt: "2026-11-26T09:00:00.000Z",
};

const rate = { count: 3, n: 5, percentage: 60, low: 23, high: 88 };
const run: TrackerRun = {
  id: "run-1",
  trackerId: tracker.id,
  status: "skipped",
  reason: P("every provider failed"),
  trigger: "manual",
  segment: 1,
  scheduledFor: "2026-11-26T09:00:00.000Z",
  startedAt: null,
  finishedAt: null,
  answers: { expected: 5, done: 5, failed: 0 },
  cost: { usd: 0.01, simulated: false },
  queries: [{ query: P("best crm"), searchId: "search-1", expected: 5, done: 5, failed: 0, brandMentions: { openai: rate } }],
};

const view: ProviderLens = {
  simulated: false,
  mentionRate: rate,
  shareOfVoice: [{ name: P("HubSpot"), mentions: 3, share: 60, isBrand: true }],
  positions: [{ position: 1, count: 3 }],
  notRecommended: 2,
  domainCited: rate,
};
const lens: LensReport = { brand: tracker.brand, competitors: tracker.competitors, basis: "iterations", providers: { openai: view } };

const result = savedResult({
  query: P("best crm"),
  options: { location: { country: "DE", city: P("Berlin") } },
  models: {
    openai: modelResult("openai", {
      modelName: P("gpt"),
      products: [{ name: P("Notion"), rank: 1, details: P("docs") }],
      companies: [{ name: P("Notion Labs"), products: [P("Notion")] }],
    }),
    anthropic: modelResult("anthropic", { status: "error", error: P("boom") }),
  },
  commonProducts: [{ name: P("Notion"), models: ["openai", "anthropic"] }],
});

const alerts: TrackerAlert[] = [
  {
    id: "alert-1",
    kind: "fell",
    metric: "mention",
    provider: "openai",
    subject: P("HubSpot"),
    query: P("best crm"),
    before: { k: 6, n: 10, rate: 60, low: 30, high: 80 },
    after: { k: 2, n: 10, rate: 20, low: 5, high: 50 },
    p: 0.001,
    q: 0.01,
    rule: 2,
    runId: "run-1",
    at: "2026-11-26T09:00:00.000Z",
    searchIds: ["search-1"],
  },
  {
    id: "alert-2",
    kind: "model-changed",
    provider: "openai",
    modelVersions: { before: P("gpt-5"), after: "gpt-5.1" },
    rule: 2,
    runId: "run-1",
    at: "2026-11-26T09:00:00.000Z",
    searchIds: [],
  },
];

const trend = { metric: "mention" as const, points: [trendPoint({ subject: P("HubSpot"), query: P("best crm") })], dispersion: [] };

describe("the CLI's tables and listings", () => {
  // Wide enough that no cell wraps: a line of the table is a line of the text.
  const columns = process.env.COLUMNS;
  beforeAll(() => {
    process.env.COLUMNS = "400";
  });
  afterAll(() => {
    if (columns === undefined) delete process.env.COLUMNS;
    else process.env.COLUMNS = columns;
  });

  test("trackers: the list, one tracker, its runs and results", () => {
    expectShownSafely(trackersTable([tracker]), 2);
    expectShownSafely(trackerText(tracker), 7);
    expectShownSafely(runLine(run));
    expectShownSafely(runsTable([run]));
    expectShownSafely(runResultsTable(run, tracker.brand.name), 2);
    expectShownSafely(runSummary(run, tracker, {}), 4);
  });

  test("a search, its lens; alerts and a trend", () => {
    expectShownSafely(resultTable(result), 5);
    expectShownSafely(resultSummary(result), 4);
    expectShownSafely(lensTable(lens), 2);
    expectShownSafely(lensSummary(lens), 2);
    expectShownSafely(alertsText(alerts, {}, "http://localhost"), 3);
    expectShownSafely(alertsSummary(alerts, {}), 3);
    expectShownSafely(trendTables(trend, {}), 2);
    expectShownSafely(trendSummary(trend, {}), 2);
  });

  test("the server's message, which may quote what was sent, is told on one line", () => {
    const error = new ApiError(400, JSON.stringify({ code: "INVALID_INPUT", message: `not ${P("x")}` }), "");
    expectShownSafely(describeError(error, "http://localhost").message);
  });
});

describe("MCP's text and JSON", () => {
  const share: Share = {
    id: "share-1",
    workspaceId: "workspace-1",
    kind: "tracker",
    targetId: tracker.id,
    title: P("CRM watch"),
    url: "http://localhost/shared/x",
    frozen: false,
    createdAt: "2026-11-26T09:00:00.000Z",
    expired: false,
    lastOpenedAt: null,
  };
  const api = {
    listTrackers: async () => ({ trackers: [tracker] }),
    getTracker: async () => tracker,
    listTrackerRuns: async () => ({ runs: [] }),
    getTrackerSummary: async (): Promise<TrackerSummary> => {
      const figures = {
        n: 10,
        k: 6,
        rate: 60,
        low: 30,
        high: 85,
        rank: 2,
        of: 2,
        sov: 45,
        change: { from: null, to: 60, verdict: "no clear change" as const },
      };
      const span = { from: "2026-11-19T09:00:00.000Z", to: "2026-11-26T09:00:00.000Z", runs: 1 };
      return {
        period: { kind: "7d", ...span, previous: { ...span, runs: 0 } },
        brand: { name: P("HubSpot"), ...figures },
        providers: [{ provider: "openai", ...figures }],
        sentence: `${P("HubSpot")}: named in 60 % of answers (±28), #2 of 2 behind ${P("Salesforce")}; no earlier period to compare.`,
      };
    },
    listShares: async () => ({ shares: [share] }),
    createShare: async () => share,
    listSearches: async () => ({
      searches: [
        {
          id: "search-1",
          query: P("best crm"),
          timestamp: "2026-11-26T09:00:00.000Z",
          totalProducts: 1,
          totalCompanies: 1,
          totalLinks: 1,
          iterationCount: 1,
          status: "completed",
          simulated: false,
          costUsd: null,
        },
      ],
    }),
    generateVariants: async () => ({
      variants: [{ query: P("crm for agencies"), reasoning: P("an agency") }],
      query: "best crm",
      edited: false,
      createdAt: "2026-11-26T09:00:00.000Z",
      updatedAt: "2026-11-26T09:00:00.000Z",
    }),
    getSearch: async () => result,
    searchLens: async () => ({ lens }),
  } as unknown as ApiClient;
  const call = (name: string, input: unknown) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name}`);
    // No workspace chosen: the tools ask the API's defaults.
    return tool.run(api, input, { workspaceFlag: undefined, savedWorkspace: undefined } as unknown as Context);
  };

  test.each([
    ["list_trackers", {}, 3],
    ["tracker_latest_run", { id: tracker.id }, 3],
    ["share_list", {}, 1],
    ["share_create", { kind: "tracker", id: tracker.id }, 1],
    ["list_searches", {}, 1],
    ["generate_variants", { query: "best crm" }, 2],
    ["get_search", { id: "search-1" }, 4],
  ] as const)("%s: the summary shows the names visibly; its JSON escapes them, the same value when parsed", async (name, input, shown) => {
    const { summary, json } = await call(name, input);
    expectShownSafely(summary, shown);
    expect(hasInvisible(json.replaceAll("\n", ""))).toBe(false);
    expect(json).toContain("\\u202e\\nInjected");
    expect(JSON.stringify(JSON.parse(json))).toContain("\\u202e\\nInjected".replace("\\u202e", "\u202E"));
  });
});

describe("CSV cells (ADR 004, issue 34)", () => {
  test("every text cell on one line, an invisible character named; the JSON export escapes them losslessly", () => {
    const csv = resultToCsv(result, { lens });
    expect(csv).not.toContain("\u202E");
    expect(csv.split("\r\n").filter((line) => line.startsWith("Injected"))).toEqual([]);
    expect(csv).toContain(`best crm${SHOWN}`);
    expect(csv).toContain(`Notion${SHOWN}`);
    const trendCsv = trendToCsv(trend);
    expect(trendCsv).not.toContain("\u202E");
    expect(trendCsv).toContain(`HubSpot${SHOWN}`);
    expect(JSON.parse(resultToJson(result)).query).toBe(result.query);
    expect(resultToJson(result)).not.toContain("\u202E");
  });

  test("a cell a spreadsheet would read as a formula gets an apostrophe: = + - @, tab and CR, their full-width, small and super/subscript forms, after blanks too", () => {
    for (const formula of [
      "=1+1",
      "+1",
      "-1",
      "@SUM(A1)",
      "\t=1",
      "\r=1",
      "＝3+3",
      "＋3",
      "－3",
      "＠SUM(A1)",
      "﹦1",
      "﹢1",
      "﹣1",
      "﹫x",
      "⁼1",
      "⁺1",
      "₌1",
      "₊1",
      " =1",
      "\u3000＝1",
      "\n=1",
    ])
      expect({ formula, field: csvField(formula) }).toEqual({ formula, field: expect.stringMatching(/^"?'/) });
    for (const text of ["plain", "−3 (a minus sign)", "'=already text", "1+1", "e=mc2", "😀", ""])
      expect({ text, field: csvField(text) }).toEqual({ text, field: text.includes(",") ? `"${text}"` : text });
    expect(csvField(-3)).toBe("-3");
  });
});

describe("the web's one-line places", () => {
  test("a report's heading and the bell's alert text", () => {
    const html = renderToStaticMarkup(ReportHeading({ kind: "Tracker report", subject: P("CRM watch"), details: [] }));
    expect(html).toContain(`CRM watch${SHOWN}`);
    expect(html).not.toContain("\u202E");
    for (const alert of alerts) expectShownSafely(alertText(alert, "ChatGPT"));
  });
});
