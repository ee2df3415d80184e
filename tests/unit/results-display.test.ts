import { describe, expect, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { Router } from "wouter";
import * as v from "valibot";
import type { ProviderId } from "#src/contract/provider-schemas.ts";
import { truncationOf } from "#src/contract/provider-config.ts";
import type { ModelResult, SearchResult, Source } from "#src/contract/search-result.ts";
import { StoredSearchResult } from "#src/contract/search-wire.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";
import { modelResult } from "#tests/support/results.ts";
import SearchResultsDefault, { SearchResults, type ResultsTab } from "#web/components/results/search-results.tsx";
import { formatDate, relativeTime } from "#src/core/dates.ts";
import { API_ANSWERS_NOTE } from "#src/core/method.ts";
import { sourceLabel } from "#src/core/urls.ts";
import { formatSeconds, safeHref } from "#web/lib/format.ts";

// ---------------------------------------------------------------------------------------------
// Fixture: 5 iterations. OpenAI failed every time (error card), Claude is simulated and returns
// 11 sources including an invalid URL, Gemini is live with an unresolved grounding redirect.
// ---------------------------------------------------------------------------------------------

const REDIRECT = "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC123xyz";

const run = (provider: ProviderId, parts: Partial<ModelResult> = {}): ModelResult =>
  modelResult(provider, {
    modelVersion: `${provider}-model-2026-01`,
    usage: { inputTokens: 1200, outputTokens: 400, searches: 2 },
    durationMs: 4200,
    ...parts,
  });

const claudeSources: Source[] = [
  { url: "https://www.wirecutter.com/reviews/best-standing-desk/", title: "The Best Standing Desks", cited: true },
  { url: "https://www.rtings.com/desk/reviews/best", title: "Best desks, tested", cited: true },
  { url: "https://www.reddit.com/r/StandingDesk/comments/abc", cited: false },
  { url: "not a url at all", title: "Broken citation", cited: false },
  { url: "https://www.theverge.com/desks", cited: true },
  { url: "https://www.techradar.com/best/standing-desks", cited: false },
  { url: "https://www.pcmag.com/picks/the-best-standing-desks", cited: false },
  { url: "https://www.tomsguide.com/best-picks/best-standing-desks", cited: false },
  { url: "https://www.cnet.com/home/furniture/best-standing-desk/", cited: false },
  { url: "https://www.zdnet.com/article/best-standing-desk/", cited: false },
  { url: "https://www.nytimes.com/wirecutter/desks", cited: false },
];

const claude = (i: number) =>
  run("anthropic", {
    simulated: true,
    modelVersion: "claude-sonnet-4-5",
    products: [
      { name: "Zeta Desk", rank: 2, details: "Sturdy, quiet motor" },
      { name: "Alpha Chair", rank: 1, details: "Best for long days" },
      { name: "Beta Lamp", details: "Clamp-on" },
      ...(i % 2 === 0 ? [{ name: "Aardvark Stand" }] : []),
    ],
    companies: [{ name: "Zeta Inc.", products: ["Zeta Desk"] }, { name: "Alpha, Inc.", products: ["Alpha Chair"] }, { name: "Beta Co" }],
    sources: claudeSources,
    searchQueries: ["best standing desk 2026", "standing desk reviews"],
    rawResponse: '{"products":[{"name":"Alpha Chair"}]}',
  });

const gemini = (i: number) =>
  run("gemini", {
    modelVersion: "gemini-2.5-flash",
    products: [{ name: "Gamma Mat", rank: 1 }, { name: "beta lamp", rank: 3 }, ...(i < 3 ? [{ name: "Delta Riser", rank: 2 }] : [])],
    companies: [{ name: "Gamma LLC" }, { name: "Beta Co" }],
    sources: [
      { url: REDIRECT, title: "standingdesks.example", cited: true },
      { url: "https://www.rtings.com/desk/reviews/best", title: "Best desks, tested", cited: true },
    ],
    searched: i !== 4,
  });

const openaiFailure = () => run("openai", { status: "error", searched: false, extraction: "none", error: "429: rate limited by OpenAI", durationMs: 900 });

const fiveIterations: SearchResult = buildSearchResult({
  query: "best standing desk",
  executionTimeMs: 12_345,
  iterations: 5,
  runs: {
    openai: [0, 1, 2, 3, 4].map(openaiFailure),
    anthropic: [0, 1, 2, 3, 4].map(claude),
    gemini: [0, 1, 2, 3, 4].map(gemini),
  },
});

const oneIteration: SearchResult = buildSearchResult({
  query: "best standing desk",
  executionTimeMs: 3_000,
  iterations: 1,
  runs: { openai: [openaiFailure()], anthropic: [claude(0)], gemini: [gemini(0)] },
});

function render(result: SearchResult, options: { tab?: ResultsTab; isPro?: boolean; readOnly?: boolean } = {}): { html: string; text: string } {
  const element = createElement(SearchResults, {
    result,
    isPro: options.isPro ?? false,
    readOnly: options.readOnly ?? false,
    ...(options.tab ? { defaultTab: options.tab } : {}),
  });
  const html = renderToString(createElement(Router, { ssrPath: "/", children: element }));
  return { html, text: visibleText(html) };
}

// The text a user reads: tags removed, entities decoded, whitespace collapsed.
function visibleText(html: string): string {
  return html
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");
}

// ---------------------------------------------------------------------------------------------

describe("results header", () => {
  const { html, text } = render(fiveIterations);

  test("is the default export too, for React.lazy", () => {
    expect(SearchResultsDefault).toBe(SearchResults);
  });

  test("shows the query, time with one decimal, totals and the iterations badge", () => {
    expect(text).toContain("best standing desk");
    expect(text).toContain("12.3s");
    expect(text).toContain(`Total Links ${fiveIterations.totalLinks}`);
    expect(text).toContain(`Products Found ${fiveIterations.totalProducts}`);
    expect(text).toContain(`Companies Mentioned ${fiveIterations.totalCompanies}`);
    expect(text).toContain("5 iterations");
  });

  test("has no iterations badge for a single iteration", () => {
    expect(render(oneIteration).text).not.toContain("1 iterations");
  });

  test("offers JSON and CSV exports", () => {
    expect(text).toContain("Export as JSON");
    expect(text).toContain("Export as CSV");
  });

  test("Generate Variants: a muted link to /upgrade for free users, the variants page for Pro", () => {
    expect(html).toMatch(/href="\/upgrade"[^>]*title="Upgrade to Pro to use this feature"|title="Upgrade to Pro to use this feature"[^>]*href="\/upgrade"/);
    const pro = render(fiveIterations, { isPro: true }).html;
    expect(pro).toContain('href="/variants?query=best%20standing%20desk&amp;iterations=5"');
    expect(pro).not.toContain("Upgrade to Pro to use this feature");
    expect(render(fiveIterations, { isPro: true, readOnly: true }).text).not.toContain("Generate Variants");
  });

  test("Track these questions every week: for Pro the new tracker's form asking this query; for others the same muted link to /upgrade", () => {
    const pro = render(fiveIterations, { isPro: true, readOnly: true }).html;
    expect(pro).toMatch(/href="\/trackers\/new\?query=best\+standing\+desk"[^>]*>(<svg[^]*?<\/svg>)?Track these questions every week</);
    const free = render(fiveIterations).html;
    expect(free).toMatch(/<a title="Upgrade to Pro to use this feature"[^>]*href="\/upgrade"[^>]*>(<svg[^]*?<\/svg>)?Track these questions every week/);
  });

  test("a search just run says once that these are the assistants' API answers; a saved one's report heading says it instead", () => {
    expect(text.split(API_ANSWERS_NOTE).length - 1).toBe(1);
    expect(render(fiveIterations, { readOnly: true }).text).not.toContain(API_ANSWERS_NOTE);
  });

  test("has the five tabs", () => {
    for (const tab of ["Side by Side", "Products", "Companies", "All Links", "Frequency Analysis"]) expect(text).toContain(tab);
  });
});

describe("Side by Side", () => {
  const { html, text } = render(fiveIterations);

  test("titles the three cards '<model> Results' with their model version", () => {
    for (const title of ["ChatGPT Results", "Claude Results", "Gemini Results"]) expect(text).toContain(title);
    expect(text).toContain("OpenAI");
    expect(text).toContain("Anthropic");
    expect(text).toContain("Google");
    expect(text).toContain("claude-sonnet-4-5");
    expect(text).toContain("gemini-2.5-flash");
  });

  test("labels the simulated provider 'Simulated' in its card and up front", () => {
    const claudeCard = cardText(text, "Claude Results", "Gemini Results");
    expect(claudeCard).toContain("Simulated");
    expect(cardText(text, "Gemini Results", "Cross-Model Comparison")).not.toContain("Simulated");
    expect(text).toContain("Claude is simulated");
  });

  test("shows the error provider's error text while the others render normally", () => {
    const openaiCard = cardText(text, "ChatGPT Results", "Claude Results");
    expect(openaiCard).toContain("Search failed");
    expect(openaiCard).toContain("429: rate limited by OpenAI");
    expect(openaiCard).not.toContain("Top Products");
    expect(cardText(text, "Claude Results", "Gemini Results")).toContain("Top Products");
  });

  test("lists the top 3 products numbered by rank, and up to 5 brands", () => {
    const claudeCard = cardText(text, "Claude Results", "Gemini Results");
    expect(claudeCard).toMatch(/1\. Alpha Chair.*2\. Zeta Desk.*3\. Beta Lamp/);
    expect(claudeCard).not.toContain("Aardvark Stand");
    expect(claudeCard).toContain("Brands Mentioned");
    expect(claudeCard).toContain("Alpha, Inc.");
  });

  test("shows 8 sources as host names, '+ N more sources' and raw text for an invalid URL", () => {
    const claudeCard = cardText(text, "Claude Results", "Gemini Results");
    expect(claudeCard).toContain("wirecutter.com");
    expect(claudeCard).not.toContain("www.wirecutter.com");
    expect(claudeCard).toContain("not a url at all");
    expect(claudeCard).toContain("+ 3 more sources");
    expect(claudeCard).not.toContain("zdnet.com"); // the 10th source
    expect(html).toContain('href="https://www.wirecutter.com/reviews/best-standing-desk/"');
    expect(html).toContain('target="_blank" rel="noopener noreferrer"');
    expect(html).not.toContain('href="not a url at all"');
    expect(html).toContain('title="The Best Standing Desks"');
  });

  test("shows an unresolved Gemini redirect by its title", () => {
    const geminiCard = cardText(text, "Gemini Results", "Cross-Model Comparison");
    expect(geminiCard).toContain("standingdesks.example");
    expect(geminiCard).not.toContain("vertexaisearch.cloud.google.com");
  });

  test("marks cited sources, fan-out queries and a model that did not search", () => {
    const claudeCard = cardText(text, "Claude Results", "Gemini Results");
    expect(claudeCard).toContain("cited");
    expect(claudeCard).toContain("Searched the web for 2 queries");
    expect(claudeCard).toContain("best standing desk 2026");
    const noSearch = buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 1, runs: { openai: [], anthropic: [], gemini: [gemini(4)] } });
    expect(render(noSearch).text).toContain("Answered without searching the web");
  });

  test("shows 'Not Connected' for a provider that is off, and the empty card texts", () => {
    const offAndEmpty = buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 1, runs: { openai: [], anthropic: [run("anthropic")], gemini: [] } });
    const { text: t } = render(offAndEmpty);
    expect(cardText(t, "ChatGPT Results", "Claude Results")).toContain("Not Connected");
    const empty = cardText(t, "Claude Results", "Gemini Results");
    expect(empty).toContain("No products found");
    expect(empty).toContain("No companies found");
    expect(empty).toContain("No sources found");
  });

  test("says so on the card when the provider cut the answer short, and only then", () => {
    const cut = buildSearchResult({
      query: "q",
      executionTimeMs: 1,
      iterations: 1,
      runs: { openai: [], anthropic: [claude(0)], gemini: [run("gemini", { truncated: truncationOf("gemini", "MAX_TOKENS") })] },
    });
    const { text: t } = render(cut);
    expect(t).toContain("The provider cut this answer short (length limit reached); the lists come from the part that arrived.");
    expect(cardText(t, "Claude Results", "Gemini Results")).not.toContain("cut this answer short");
  });

  test("a cut answer's finish signal reads in words; one we do not know shows as the provider sent it", () => {
    const cut = buildSearchResult({
      query: "q",
      executionTimeMs: 1,
      iterations: 1,
      runs: {
        openai: [run("openai", { truncated: truncationOf("openai", "content_filter") })],
        anthropic: [run("anthropic", { truncated: truncationOf("anthropic", "refusal") })],
        gemini: [run("gemini", { truncated: truncationOf("gemini", "BLOCKLIST") })],
      },
    });
    const { text: t } = render(cut);
    expect(cardText(t, "ChatGPT Results", "Claude Results")).toContain("cut this answer short (content filter)");
    expect(cardText(t, "Claude Results", "Gemini Results")).toContain("cut this answer short (the model declined to go on)");
    expect(t).toContain("cut this answer short (BLOCKLIST)");
  });

  test("a result saved when a cut kept only the provider's finish signal (a string) shows the note it always did", () => {
    const saved = JSON.parse(
      JSON.stringify(
        buildSearchResult({
          query: "q",
          executionTimeMs: 1,
          iterations: 1,
          runs: { openai: [run("openai")], anthropic: [run("anthropic")], gemini: [run("gemini")] },
        }),
      ),
    );
    saved.models.openai.truncated = "max_output_tokens";
    saved.models.anthropic.truncated = "model_context_window_exceeded";
    saved.models.gemini.truncated = "BLOCKLIST";
    const { text: t, html } = render(v.parse(StoredSearchResult, saved));
    expect(cardText(t, "ChatGPT Results", "Claude Results")).toContain("cut this answer short (length limit reached)");
    expect(cardText(t, "Claude Results", "Gemini Results")).toContain("cut this answer short (context window full)");
    expect(t).toContain("cut this answer short (BLOCKLIST)");
    for (const signal of ["max_output_tokens", "model_context_window_exceeded", "BLOCKLIST"]) expect(html).toContain(`title="Finish signal: ${signal}"`);
  });

  test("a provider the time limit or a stopping server cut off says so, not 'Search failed'", () => {
    const cut = buildSearchResult({
      query: "q",
      executionTimeMs: 90_000,
      iterations: 1,
      runs: {
        openai: [run("openai", { status: "error", stopped: "deadline", error: "No answer within 90 s: the search's time limit was reached." })],
        anthropic: [run("anthropic", { status: "error", stopped: "interrupted", error: "Interrupted: the server stopped before this provider answered." })],
        gemini: [gemini(0)],
      },
    });
    const { text: t } = render(cut);
    const openaiCard = cardText(t, "ChatGPT Results", "Claude Results");
    expect(openaiCard).toContain("Timed Out No answer within 90 s: the search's time limit was reached.");
    expect(openaiCard).not.toContain("Search failed");
    const claudeCard = cardText(t, "Claude Results", "Gemini Results");
    expect(claudeCard).toContain("Server Stopped Interrupted: the server stopped before this provider answered.");
    expect(claudeCard).not.toContain("Search failed");
  });

  test("has a View Full Response button per answering card", () => {
    expect(text.match(/View Full Response/g)?.length).toBe(3);
  });

  test("compares models: common products and sources, the ✓/✗ table and common sources", () => {
    expect(text).toContain("Cross-Model Comparison");
    expect(text).toContain("Common Products (1)");
    expect(text).toContain("Beta Lamp");
    expect(text).toContain("Common Sources Across Models");
    expect(html.includes(">https://www.rtings.com/desk/reviews/best<")).toBe(true);
    for (const column of ["OpenAI", "Anthropic", "Gemini"]) expect(text).toContain(column);
    expect(text).toContain("✓");
    expect(text).toContain("✗");
    expect(text).toContain("claude-sonnet-4-5"); // a string cell
  });
});

describe("Products, Companies and All Links tabs", () => {
  test("'All Products (N)' sorted by models desc, then rank asc with missing rank as 999", () => {
    const { text } = render(fiveIterations, { tab: "products" });
    expect(text).toContain("All Products (6)");
    // Beta Lamp: 2 models. Then 1 model each: rank 1 (Alpha, Gamma by name), rank 2 (Delta, Zeta
    // by name), and Aardvark without a rank (999) last although it sorts first by name.
    const order = ["Beta Lamp", "Alpha Chair", "Gamma Mat", "Delta Riser", "Zeta Desk", "Aardvark Stand"].map((name) => text.indexOf(name));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // A quiet mark beside the model where the card's label would repeat: "(simulated)" to screen readers.
    expect(text).toMatch(/Claude\s*\(simulated\)/);
    expect(text).not.toContain("Claude · Simulated");
  });

  test("'All Companies (N)' with their products", () => {
    const { text } = render(fiveIterations, { tab: "companies" });
    expect(text).toContain("All Companies (4)");
    expect(text).toContain("Beta Co");
    expect(text).toContain("Products: Alpha Chair");
  });

  test("'All Sources (N links from M domains)' with Top Domains", () => {
    const { text } = render(fiveIterations, { tab: "links" });
    expect(text).toContain("All Sources (12 links from 11 domains)");
    expect(text).toContain("Top Domains");
    expect(text).toContain("not a url at all");
  });

  test("empty tab texts", () => {
    const empty = buildSearchResult({ query: "q", executionTimeMs: 1, iterations: 1, runs: { openai: [], anthropic: [run("anthropic")], gemini: [] } });
    expect(render(empty, { tab: "products" }).text).toContain("No products found in search results");
    expect(render(empty, { tab: "companies" }).text).toContain("No companies found in search results");
    expect(render(empty, { tab: "links" }).text).toContain("No sources found in search results");
  });
});

describe("Frequency Analysis", () => {
  test("says 'No Aggregated Results Available' for a 1-iteration result", () => {
    const { text } = render(oneIteration, { tab: "frequency" });
    expect(text).toContain("No Aggregated Results Available");
    expect(text).toContain("above 1");
  });

  test("shows per-provider tabs, frequency cards, the stability line and intervals", () => {
    const { html, text } = render(fiveIterations, { tab: "frequency" });
    expect(text).not.toContain("No Aggregated Results Available");
    expect(html).toContain('role="tab"');
    expect(text).toMatch(/Claude\s*\(simulated\)/);
    // 6 result tabs (the spec's 5 and the Brand Lens) + Claude and Gemini (OpenAI failed every run, so it has no stats).
    expect(html.match(/role="tab"/g)?.length).toBe(8);
    for (const card of ["Product Frequency", "Company Frequency", "Source Frequency"]) expect(text).toContain(card);
    expect(text).toContain("Claude: top 3 products identical in 5 of 5 runs");
    // The same top 3 every run (Jaccard 1); a 4th product in 3 of the 5 runs lowers the rank-biased overlap. 10 pairs of 5 runs.
    expect(text).toContain("Run-to-run stability: top-3 overlap 1.00 (Jaccard), rank-biased overlap 0.89, over 10 pairs of runs");
    expect(text).toContain("Aardvark Stand");
    expect(text).toContain("3/5");
    expect(text).toContain("60%");
    expect(text).toContain("95% interval 57–100%"); // Alpha Chair, 5 of 5 (Wilson)
    expect(html).toContain("max-h-[400px] overflow-auto");
    expect(html).toMatch(/role="progressbar"[^>]*aria-label="Alpha Chair: 100% of runs"|aria-label="Alpha Chair: 100% of runs"[^>]*role="progressbar"/);
  });
});

describe("display formatting", () => {
  test("formatSeconds: seconds with one decimal", () => {
    expect(formatSeconds(12_345)).toBe("12.3s");
    expect(formatSeconds(500)).toBe("0.5s");
    expect(formatSeconds(0)).toBe("0.0s");
    expect(formatSeconds(Number.NaN)).toBe("0.0s");
  });

  test("formatDate: spec §8 texts for empty and invalid values, UTC otherwise", () => {
    expect(formatDate(undefined)).toBe("Not available");
    expect(formatDate(null)).toBe("Not available");
    expect(formatDate("")).toBe("Not available");
    expect(formatDate("yesterday-ish")).toBe("Date information unavailable");
    expect(formatDate("2026-11-21T14:03:00Z")).toBe("Nov 21, 2026, 14:03 UTC");
    expect(formatDate("2026-11-21T14:03:00Z", { time: false })).toBe("Nov 21, 2026");
  });

  test("relativeTime for history lists", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(relativeTime("2026-11-21T11:59:30Z", now)).toBe("just now");
    expect(relativeTime("2026-11-21T12:00:05Z", now)).toBe("just now");
    expect(relativeTime("2026-11-21T11:59:00Z", now)).toBe("1 minute ago");
    expect(relativeTime("2026-11-21T11:15:00Z", now)).toBe("45 minutes ago");
    expect(relativeTime("2026-11-21T09:00:00Z", now)).toBe("3 hours ago");
    expect(relativeTime("2026-11-20T10:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("2026-11-16T12:00:00Z", now)).toBe("5 days ago");
    expect(relativeTime("2026-09-01T12:00:00Z", now)).toBe("Sep 1, 2026");
    expect(relativeTime("", now)).toBe("Unknown date");
    expect(relativeTime("garbage", now)).toBe("Unknown date");
  });

  test("sourceLabel: host and short path, redirect title, or raw text", () => {
    expect(sourceLabel({ url: "https://www.example.com/a?b=1" })).toBe("example.com/a?b=1");
    expect(sourceLabel({ url: REDIRECT, title: "example.org" })).toBe("example.org");
    expect(sourceLabel({ url: REDIRECT })).toBe("vertexaisearch.cloud.google.com");
    expect(sourceLabel({ url: "  not a url  " })).toBe("not a url");
    expect(sourceLabel({ url: "javascript:alert(1)" })).toBe("javascript:alert(1)");
    expect(safeHref("javascript:alert(1)")).toBeNull(); // never rendered as a link
    expect(safeHref("https://example.com/x")).toBe("https://example.com/x");
  });
});

/** The text of one card: from its title to the next card's title. */
function cardText(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  const end = text.indexOf(to, start + from.length);
  expect(start).toBeGreaterThanOrEqual(0);
  return text.slice(start, end === -1 ? undefined : end);
}
