import { describe, expect, test } from "bun:test";
import type { ProviderId } from "#src/contract/providers.ts";
import type { ModelResult } from "#src/contract/search-result.ts";
import { fromWireResult, toWireModel, type WireModelResult } from "#src/contract/search-wire.ts";
import { modelResult } from "#tests/support/results.ts";
import { csvField, exportFilename, querySlug, resultToCsv, resultToJson } from "#src/core/export.ts";

const model = (provider: ProviderId, parts: Partial<ModelResult> = {}): WireModelResult =>
  toWireModel(modelResult(provider, { modelName: provider, modelVersion: `${provider}-1`, usage: { inputTokens: 0, outputTokens: 0, searches: 1 }, ...parts }));

// Written in the API's (spec) JSON, and read back as the product keeps it.
const wire = {
  query: 'best "quiet" keyboards, 2026',
  createdAt: "2026-11-21T10:00:00.000Z",
  executionTimeMs: 8_765,
  totalLinks: 2,
  totalProducts: 3,
  totalCompanies: 2,
  iterationCount: 5,
  commonProducts: [{ name: "Keychron Q1", openai: true, anthropic: true, gemini: false }],
  commonCompanies: [],
  commonSources: [{ url: "https://rtings.com/keyboard", openai: true, anthropic: false, gemini: true }],
  openai: model("openai", {
    products: [
      { name: "Keychron Q1", rank: 1, details: 'Gasket mount, "thocky"\nhot-swap' },
      { name: "Logitech MX Keys, S", details: "Low profile" },
    ],
    companies: [{ name: "Keychron", products: ["Keychron Q1", "Q2"] }],
    sources: [{ url: "https://rtings.com/keyboard", cited: true }],
  }),
  anthropic: model("anthropic", {
    simulated: true,
    products: [{ name: "Keychron Q1", rank: 2 }, { name: '=HYPERLINK("http://evil")' }],
    companies: [{ name: "Logitech, Inc." }],
  }),
  gemini: model("gemini", { status: "error", error: "500: upstream, failed", searched: false }),
  openaiAggregatedStats: {
    iterations: 5,
    failedIterations: 0,
    productFrequencies: [{ name: "Keychron Q1", count: 4, percentage: 80, low: 37.6, high: 96.4 }],
    companyFrequencies: [{ name: "Keychron", count: 5, percentage: 100, low: 56.6, high: 100 }],
    sourceFrequencies: [{ name: "https://rtings.com/keyboard?a=1,2", count: 3, percentage: 60, low: 23.1, high: 88.2 }],
    topProductsPerRun: [["Keychron Q1"]],
  },
  anthropicAggregatedStats: {
    iterations: 5,
    failedIterations: 0,
    productFrequencies: [{ name: "Keychron Q1", count: 5, percentage: 100, low: 56.6, high: 100 }],
    companyFrequencies: [],
    sourceFrequencies: [],
    topProductsPerRun: [["Keychron Q1"]],
  },
};
const result = fromWireResult(wire);

/** A small RFC 4180 reader, to check that the file parses back to the original values. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The data rows of one section: after its title and header, up to the blank line. */
function section(rows: string[][], title: string): { header: string[]; body: string[][] } {
  const start = rows.findIndex((row) => row.length === 1 && row[0] === title);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = rows.findIndex((row, i) => i > start && row.length === 1 && row[0] === "");
  return { header: rows[start + 1] ?? [], body: rows.slice(start + 2, end === -1 ? undefined : end) };
}

describe("csvField", () => {
  test("leaves plain text bare and quotes commas and quotes (quotes doubled); a line break is a space, a cell one line", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("Acme, Inc.")).toBe('"Acme, Inc."');
    expect(csvField('the "best" one')).toBe('"the ""best"" one"');
    expect(csvField("line one\nline two")).toBe("line one line two");
    expect(csvField("a\r\nb, c")).toBe('"a b, c"');
    expect(csvField("")).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(42.5)).toBe("42.5");
    expect(csvField(true)).toBe("Yes");
  });

  test("neutralises text a spreadsheet would run as a formula", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField('=HYPERLINK("x", "y")')).toBe(`"'=HYPERLINK(""x"", ""y"")"`);
    expect(csvField(-3)).toBe("-3"); // numbers are never prefixed
  });
});

describe("resultToCsv", () => {
  const csv = resultToCsv(result);
  const rows = parseCsv(csv);

  test("uses CRLF line ends, with no bare LF outside quoted fields", () => {
    expect(csv.endsWith("\r\n")).toBe(true);
    const outsideQuotes = csv.replace(/"(?:[^"]|"")*"/g, "");
    expect(outsideQuotes).not.toMatch(/(?<!\r)\n/);
  });

  test("keeps commas and quotes intact instead of replacing them; a line break reads as a space (one line a cell)", () => {
    expect(csv).toContain('"best ""quiet"" keyboards, 2026"');
    expect(section(rows, "Search").body).toContainEqual(["Query", 'best "quiet" keyboards, 2026']);
    const products = section(rows, "Products").body;
    expect(products).toContainEqual(["OpenAI", "No", "1", "1", "Keychron Q1", 'Gasket mount, "thocky" hot-swap']);
    expect(products).toContainEqual(["OpenAI", "No", "2", "", "Logitech MX Keys, S", "Low profile"]);
  });

  test("has every section, in order", () => {
    const titles = rows.filter((row) => row.length === 1 && row[0] !== "").map((row) => row[0]);
    expect(titles).toEqual(["Search", "Providers", "Products", "Companies", "Common Sources", "Frequency Analysis"]);
  });

  test("lists products per model, marking the simulated provider", () => {
    const { header, body } = section(rows, "Products");
    expect(header).toEqual(["Provider", "Simulated", "Position", "Rank", "Product", "Details"]);
    expect(body).toContainEqual(["Anthropic", "Yes", "1", "2", "Keychron Q1", ""]);
    expect(body).toContainEqual(["Anthropic", "Yes", "2", "", `'=HYPERLINK("http://evil")`, ""]);
    expect(body.filter((row) => row[0] === "Gemini")).toEqual([]);
  });

  test("lists companies with their products", () => {
    const { body } = section(rows, "Companies");
    expect(body).toContainEqual(["OpenAI", "No", "Keychron", "Keychron Q1; Q2"]);
    expect(body).toContainEqual(["Anthropic", "Yes", "Logitech, Inc.", ""]);
  });

  test("gives each provider's status, including the error, and its cost after the spec's columns (unknown in a result without costs)", () => {
    const { body } = section(rows, "Providers");
    // Then Location, empty: this search had none (ADR 042); then the four cost columns (ADR 041).
    const unknown = ["unknown", "unknown", "unknown", "unknown"];
    expect(body).toContainEqual(["Gemini", "Gemini", "gemini-1", "error", "No", "No", "500: upstream, failed", "", ...unknown]);
    expect(body).toContainEqual(["Anthropic", "Claude", "anthropic-1", "ok", "Yes", "Yes", "", "", ...unknown]);
  });

  test("has Yes/No per provider for common sources", () => {
    const { header, body } = section(rows, "Common Sources");
    expect(header).toEqual(["URL", "OpenAI", "Anthropic", "Gemini"]);
    expect(body).toEqual([["https://rtings.com/keyboard", "Yes", "No", "Yes"]]);
  });

  test("has a frequency row per provider, type and name with count, percentage and interval", () => {
    const { header, body } = section(rows, "Frequency Analysis");
    expect(header).toEqual(["Provider", "Type", "Name", "Count", "Percentage", "Low", "High", "Simulated"]);
    expect(body).toEqual([
      ["OpenAI", "Product", "Keychron Q1", "4", "80", "37.6", "96.4", "No"],
      ["OpenAI", "Company", "Keychron", "5", "100", "56.6", "100", "No"],
      ["OpenAI", "Source", "https://rtings.com/keyboard?a=1,2", "3", "60", "23.1", "88.2", "No"],
      ["Anthropic", "Product", "Keychron Q1", "5", "100", "56.6", "100", "Yes"],
    ]);
  });

  test("has a header-only frequency section without stats", () => {
    const { body } = section(parseCsv(resultToCsv({ ...result, stats: {} })), "Frequency Analysis");
    expect(body).toEqual([]);
  });
});

describe("resultToJson", () => {
  test("is the whole result in the API's JSON (one key per provider), pretty-printed", () => {
    const json = resultToJson(result);
    expect(JSON.parse(json)).toEqual(wire);
    expect(json).toContain('\n  "query": ');
  });
});

describe("exportFilename", () => {
  const day = new Date(2026, 10, 21, 23, 30); // local time: the user's day

  test("is search-results-{slug}-{YYYY-MM-DD}.{ext}", () => {
    expect(exportFilename('Best "Quiet" Keyboards, 2026!', day, "csv")).toBe("search-results-best-quiet-keyboards-2026-2026-11-21.csv");
    expect(exportFilename("CRM for startups", new Date(2026, 0, 5), "json")).toBe("search-results-crm-for-startups-2026-01-05.json");
  });

  test("slugs: lower case, single hyphens, trimmed, accents dropped, 'search' when empty", () => {
    expect(querySlug("  --Hello   World--  ")).toBe("hello-world");
    expect(querySlug("Café & Crème brûlée")).toBe("cafe-creme-brulee");
    expect(querySlug("日本語")).toBe("search");
    expect(querySlug("   ")).toBe("search");
  });

  test("caps the slug at 60 characters without a trailing hyphen", () => {
    const slug = querySlug("word ".repeat(40));
    expect(slug.length).toBeLessThanOrEqual(60);
    expect(slug.endsWith("-")).toBe(false);
    expect(slug.startsWith("word-word")).toBe(true);
  });
});
