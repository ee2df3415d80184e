import { describe, expect, test } from "bun:test";
import { perProvider, providerIds } from "#src/contract/providers.ts";
import { isActive } from "#src/contract/batch-status.ts";
import type { ComparedItem, ComparedSearch } from "#src/contract/compare.ts";
import { stabilityText } from "#web/components/results/frequency-analysis.tsx";
import { ApiError } from "#src/client/errors.ts";
import {
  baseAndOthers,
  batchProgress,
  compareHref,
  dashboardHref,
  errorText,
  fanOutDifference,
  formatCountRate,
  formatPValue,
  formatRate,
  itemsOfPair,
  ordinal,
  parseIterations,
  pooledRuns,
  splitList,
} from "#web/lib/workbench.ts";

describe("rates", () => {
  test("formatRate: the share and its 95% interval, the bounds to whole percents", () => {
    expect(formatRate({ percentage: 60, low: 23.1, high: 88.2 })).toBe("60% (23–88%)");
    expect(formatRate({ percentage: 53.3, low: 30.1, high: 75.2 })).toBe("53.3% (30–75%)");
    expect(formatRate({ percentage: 0, low: 0, high: 43.4 })).toBe("0% (0–43%)");
  });

  test("formatRate: a bound short of 100% (or above 0%) is not rounded to it", () => {
    expect(formatRate({ percentage: 98.6, low: 92.3, high: 99.8 })).toBe("98.6% (92–99.8%)");
    expect(formatRate({ percentage: 100, low: 96.2, high: 100 })).toBe("100% (96–100%)");
    expect(formatRate({ percentage: 1.4, low: 0.2, high: 7.7 })).toBe("1.4% (0.2–8%)");
  });

  test("formatCountRate: how many of n, then the rate; nothing to count says so", () => {
    expect(formatCountRate({ count: 3, n: 5, percentage: 60, low: 23.1, high: 88.2 })).toBe("3 of 5 answers · 60% (23–88%)");
    expect(formatCountRate({ count: 1, n: 1, percentage: 100, low: 20.7, high: 100 })).toBe("1 of 1 answer · 100% (21–100%)");
    expect(formatCountRate({ count: 0, n: 0, percentage: 0, low: 0, high: 0 })).toBe("no answers");
  });

  test("formatPValue: two significant digits, tiny ones bounded", () => {
    expect(formatPValue(0.01234)).toBe("p = 0.012");
    expect(formatPValue(1)).toBe("p = 1");
    expect(formatPValue(0.0004)).toBe("p < 0.001");
    expect(formatPValue(Number.NaN)).toBe("p unknown");
  });

  test("ordinal positions", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
    ]);
  });

  test("stabilityText: both scores with two decimals and the pairs of runs", () => {
    expect(stabilityText({ k: 3, jaccard: 0.7234, rbo: 0.81, pairs: 10 })).toBe(
      "Run-to-run stability: top-3 overlap 0.72 (Jaccard), rank-biased overlap 0.81, over 10 pairs of runs",
    );
    expect(stabilityText({ k: 3, jaccard: 1, rbo: 1, pairs: 1 })).toBe(
      "Run-to-run stability: top-3 overlap 1.00 (Jaccard), rank-biased overlap 1.00, over 1 pair of runs",
    );
  });
});

describe("addresses and inputs", () => {
  test("parseIterations: a whole number from 1 to 100, else 1", () => {
    expect(["5", " 25 ", "100", "1"].map(parseIterations)).toEqual([5, 25, 100, 1]);
    expect([null, undefined, "", "0", "101", "2.5", "abc", "-3"].map(parseIterations)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  test("splitList: trimmed, blanks and repeats in any letter case dropped, first spelling kept", () => {
    expect(splitList("Acme, ACME Corp ,, acme, Acme  Rocket")).toEqual(["Acme", "ACME Corp", "Acme  Rocket"]);
    expect(splitList("  ")).toEqual([]);
  });

  test("dashboardHref and compareHref encode every query (spaces as %20, & and # escaped)", () => {
    expect(dashboardHref("running shoes for flat feet")).toBe("/?query=running%20shoes%20for%20flat%20feet");
    expect(compareHref("best crm", ["crm for startups", "HubSpot & Salesforce #1"])).toBe(
      "/compare?compareQuery=best%20crm&compareVariants=crm%20for%20startups&compareVariants=HubSpot%20%26%20Salesforce%20%231",
    );
    const url = new URL(compareHref("a+b", ["c d"]), "http://x");
    expect([url.searchParams.get("compareQuery"), url.searchParams.getAll("compareVariants")]).toEqual(["a+b", ["c d"]]);
  });

  test("errorText: the server's message, else the error's own", () => {
    expect(errorText(new ApiError(403, JSON.stringify({ message: "Pro subscription required" }), "Forbidden"))).toBe("Pro subscription required");
    expect(errorText(new ApiError(502, "", "Bad Gateway"))).toBe("502: Bad Gateway");
    expect(errorText(new Error("offline"))).toBe("offline");
    expect(errorText("?")).toBe("An unknown error occurred");
  });
});

describe("batches", () => {
  test("batchProgress: completed of total, and whether anything is still queued or running", () => {
    expect(batchProgress([{ status: "completed" }, { status: "running" }, { status: "failed" }, { status: "pending" }])).toEqual({
      completed: 1,
      total: 4,
      active: true,
    });
    expect(batchProgress([{ status: "completed" }, { status: "failed" }])).toEqual({ completed: 1, total: 2, active: false });
    expect(batchProgress([])).toEqual({ completed: 0, total: 0, active: false });
    expect((["pending", "queued", "running", "completed", "failed"] as const).map(isActive)).toEqual([false, true, true, false, false]);
  });
});

describe("compare", () => {
  const search = (id: string, role: ComparedSearch["role"]): ComparedSearch => ({
    id,
    role,
    query: id,
    createdAt: "2026-11-21T10:00:00.000Z",
    iterationCount: 5,
    providers: [...providerIds],
    simulated: perProvider(() => false),
  });
  const rate = (count: number, n: number) => ({ count, n, percentage: (count / n) * 100, low: 0, high: 100 });
  const items: ComparedItem[] = [
    { name: "Alpha", in: { o: { providers: ["openai"], frequency: rate(3, 15) }, v1: { providers: [], frequency: rate(1, 10) } }, difference: {} },
    { name: "Beta", in: { v2: { providers: ["gemini"] } }, difference: {} },
    { name: "Gamma", in: { v1: { providers: ["anthropic"], frequency: rate(4, 10) } }, difference: {} },
  ];

  test("baseAndOthers: the original first, else the first search found", () => {
    expect(baseAndOthers([search("v1", "variant"), search("o", "original"), search("v2", "variant")])).toEqual({
      base: search("o", "original"),
      others: [search("v1", "variant"), search("v2", "variant")],
    });
    expect(baseAndOthers([search("v1", "variant"), search("v2", "variant")])).toEqual({ base: search("v1", "variant"), others: [search("v2", "variant")] });
    expect(baseAndOthers([])).toEqual({ base: undefined, others: [] });
  });

  test("pooledRuns: the n behind a search's frequencies; none for a single-iteration search", () => {
    expect(pooledRuns(items, "o")).toBe(15);
    expect(pooledRuns(items, "v1")).toBe(10);
    expect(pooledRuns(items, "v2")).toBeUndefined();
  });

  test("itemsOfPair: what either search returned, in the report's order", () => {
    expect(itemsOfPair(items, "o", "v1").map((item) => item.name)).toEqual(["Alpha", "Gamma"]);
    expect(itemsOfPair(items, "o", undefined).map((item) => item.name)).toEqual(["Alpha"]);
  });

  test("fanOutDifference: only in one, in both (any letter case), most issued first", () => {
    const fanOut = {
      o: [
        { query: "best crm", count: 5 },
        { query: "CRM reviews", count: 2 },
        { query: "crm pricing", count: 1 },
      ],
      v: [
        { query: "crm reviews", count: 3 },
        { query: "crm for startups", count: 4 },
      ],
    };
    expect(fanOutDifference(fanOut, "o", "v")).toEqual({
      onlyOriginal: [
        { query: "best crm", original: 5, variant: 0 },
        { query: "crm pricing", original: 1, variant: 0 },
      ],
      both: [{ query: "CRM reviews", original: 2, variant: 3 }],
      onlyVariant: [{ query: "crm for startups", original: 0, variant: 4 }],
    });
    expect(fanOutDifference(fanOut, "o", "missing").onlyVariant).toEqual([]);
  });
});
