import { expect, test } from "bun:test";
import type { Trend } from "#src/contract/trend.ts";
import { trendToCsv } from "#src/core/trend-export.ts";
import { trendPoint } from "#tests/support/trend.ts";

/* A tracker's trend as CSV (`aisc track trend --csv`), one row per point, quoted as the search export is. */

const point = trendPoint();

test("a header, then one row per point in the API's order, CRLF line ends; a point without a figure has empty rate and bounds", () => {
  const trend: Trend = {
    metric: "citation",
    dispersion: [],
    points: [
      point,
      { ...point, subject: "Salesforce", isBrand: false, k: 0, rate: 0, low: 0, high: 27.8 },
      { ...point, runId: "run-2", at: "2026-12-03T09:00:00.000Z", provider: "anthropic", n: 0, k: 0, rate: null, low: null, high: null },
    ],
  };
  expect(trendToCsv(trend)).toBe(
    [
      "run_id,at,provider,query,subject,is_brand,metric,n,k,rate,low,high,model_version",
      "run-1,2026-11-26T09:00:00.000Z,openai,,HubSpot,Yes,citation,10,6,60,31.27,83.18,gpt-5.1-2025-11-13",
      "run-1,2026-11-26T09:00:00.000Z,openai,,Salesforce,No,citation,10,0,0,0,27.8,gpt-5.1-2025-11-13",
      "run-2,2026-12-03T09:00:00.000Z,anthropic,,HubSpot,Yes,citation,0,0,,,,gpt-5.1-2025-11-13",
      "",
    ].join("\r\n"),
  );
});

test("a subject or query with a comma or a quote is quoted with its quotes doubled; one starting like a formula is defused; several model versions stay one field", () => {
  const trend: Trend = {
    metric: "mention",
    dispersion: [],
    points: [
      { ...point, query: "best crm, for a small agency", subject: 'Acme, "the CRM" Inc.', modelVersion: "gpt-a, gpt-b" },
      { ...point, query: "best crm, for a small agency", subject: "=HYPERLINK(1)", isBrand: false },
    ],
  };
  const lines = trendToCsv(trend).split("\r\n");
  expect(lines).toHaveLength(1 + 2 + 1);
  expect(lines[1]).toBe(
    'run-1,2026-11-26T09:00:00.000Z,openai,"best crm, for a small agency","Acme, ""the CRM"" Inc.",Yes,mention,10,6,60,31.27,83.18,"gpt-a, gpt-b"',
  );
  expect(lines[2]).toBe(
    'run-1,2026-11-26T09:00:00.000Z,openai,"best crm, for a small agency",\'=HYPERLINK(1),No,mention,10,6,60,31.27,83.18,gpt-5.1-2025-11-13',
  );
});

test("no points: the header alone", () => {
  expect(trendToCsv({ metric: "mention", points: [], dispersion: [] })).toBe(
    "run_id,at,provider,query,subject,is_brand,metric,n,k,rate,low,high,model_version\r\n",
  );
});
