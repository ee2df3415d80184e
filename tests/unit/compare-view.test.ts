import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import type { CompareReport } from "#src/contract/compare.ts";
import { offModelResult } from "#src/contract/search-result.ts";
import { compareSearches } from "#src/core/compare.ts";
import { modelResult, savedResult } from "#tests/support/results.ts";
import { CompareView } from "#web/components/workbench/compare-view.tsx";

// Saved before Perplexity joined: no Perplexity key at all, as such results are stored.
const old = savedResult({
  id: "old",
  query: "best crm for startups",
  createdAt: "2026-11-02T09:00:00.000Z",
  models: {
    openai: modelResult("openai", { products: [{ name: "HubSpot CRM" }] }),
    anthropic: modelResult("anthropic", { products: [{ name: "Pipedrive" }] }),
    gemini: modelResult("gemini", { products: [{ name: "HubSpot CRM" }] }),
  },
});

// A search of now: all four asked, Perplexity among those that returned HubSpot CRM.
const fresh = savedResult({
  id: "new",
  query: "crm for small business",
  models: {
    openai: modelResult("openai", { products: [{ name: "HubSpot CRM" }] }),
    anthropic: modelResult("anthropic"),
    gemini: modelResult("gemini", { products: [{ name: "Zoho CRM" }] }),
    perplexity: modelResult("perplexity", { products: [{ name: "HubSpot CRM" }, { name: "Pipedrive" }] }),
  },
});

// Another old one, but saved as new results are, with Perplexity off when it ran.
const withPerplexityOff = savedResult({ ...old, id: "off", query: "crm for agencies", models: { ...old.models, perplexity: offModelResult("perplexity") } });

const compare = (original: typeof old, variant: typeof old) => compareSearches(original, [variant], { query: original.query, variants: [variant.query] });

/** The products table as the header's provider columns and each row's cells, as read. */
function productsTable(report: CompareReport): { columns: string[]; rows: Map<string, string[]> } {
  const html = renderToString(createElement(Router, { ssrPath: "/compare", children: createElement(CompareView, { report }) }));
  const table = html.match(/aria-label="Products in the original and the variant"[\s\S]*?<\/table>/)?.[0];
  if (!table) throw new Error("no products table");
  const cells = (row: string) => [...row.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => text(cell[1] ?? ""));
  const [, providerRow, ...body] = [...table.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => cells(row[1] ?? ""));
  const rows = new Map(body.map(([name = "", ...rest]) => [name, rest]));
  return { columns: providerRow ?? [], rows };
}

// Screen-reader words are left in ("Yes"/"No" beside the tick and the dash).
function text(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("compare view with a search saved before Perplexity joined", () => {
  test("an old search against a new one: Perplexity's columns for both, the old one's read 'Not asked', never a dash", () => {
    const report = compare(old, fresh);
    expect(report.searches.map((search) => search.providers)).toEqual([
      ["openai", "anthropic", "gemini"],
      ["openai", "anthropic", "gemini", "perplexity"],
    ]);
    const { columns, rows } = productsTable(report);
    expect(columns).toEqual(["OpenAI", "Anthropic", "Gemini", "Perplexity", "OpenAI", "Anthropic", "Gemini", "Perplexity"]);
    // Per row: the old search's four columns, then the new one's.
    expect(rows.get("HubSpot CRM")).toEqual(["✓ Yes", "– No", "✓ Yes", "Not asked", "✓ Yes", "– No", "– No", "✓ Yes"]);
    expect(rows.get("Pipedrive")).toEqual(["– No", "✓ Yes", "– No", "Not asked", "– No", "– No", "– No", "✓ Yes"]);
    expect(rows.get("Zoho CRM")).toEqual(["– No", "– No", "– No", "Not asked", "– No", "– No", "✓ Yes", "– No"]);
    const html = renderToString(createElement(Router, { ssrPath: "/compare", children: createElement(CompareView, { report }) }));
    expect(text(html)).toContain("Not asked: that search did not ask the provider");
  });

  test("two searches that did not ask Perplexity (one before it joined, one with it off) show no Perplexity column", () => {
    const report = compare(old, withPerplexityOff);
    expect(report.searches.map((search) => search.providers)).toEqual([
      ["openai", "anthropic", "gemini"],
      ["openai", "anthropic", "gemini"],
    ]);
    const { columns, rows } = productsTable(report);
    expect(columns).toEqual(["OpenAI", "Anthropic", "Gemini", "OpenAI", "Anthropic", "Gemini"]);
    expect(rows.get("HubSpot CRM")).toEqual(["✓ Yes", "– No", "✓ Yes", "✓ Yes", "– No", "✓ Yes"]);
    const html = renderToString(createElement(Router, { ssrPath: "/compare", children: createElement(CompareView, { report }) }));
    expect(text(html)).not.toContain("Not asked");
  });
});
