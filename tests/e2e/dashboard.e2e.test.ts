import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Download, Locator, Page } from "playwright-core";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { API_ANSWERS_NOTE } from "#src/core/method.ts";
import { testRetry } from "#tests/support/app.ts";
import { screenshot, seriousAxeViolations, useBrowser, waitForHydration, type PageOptions } from "#tests/support/browser.ts";

/*
 * The search dashboard in Chromium, against the loopback provider simulators: a free search from
 * the first keystroke to the exports, the quota alert, Pro frequency analysis, saved searches,
 * provider faults, 360 px layouts and accessibility. Screenshots of the main states are written to
 * test-results/screenshots/ (docs/screenshots/ with UPDATE_SCREENSHOTS=1).
 *
 * This file has its own simulator (seeded, so answers are the same on every run) so that latency
 * and faults can be changed per test. Retry-after waits up to 2 s are honoured, which lets one
 * provider answer two seconds after the others (a rate limit followed by a retry). Every page has
 * its own client address: anonymous quotas are counted per network.
 *
 * Values are awaited before asserting (`expect(await x)`): with Bun 1.4.5, `expect(promise).resolves`
 * on a Playwright promise often stalls for about a second per call.
 */
const harness = useBrowser({ simulator: { seed: 20261121 }, retry: { ...testRetry, maxDelayMs: 2_000 }, distinctAddresses: true });

const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 360, height: 780 };
const FAST = { kind: "fixed", ms: 5 } as const;
/** Per test: `bun test <file>` may not apply bunfig's timeout (Bun 1.4.5 uses 5 s). No test asserts on time. */
const TIMEOUT = 45_000;
const MODEL_TITLES = providerIds.map((id) => `${providerCatalogue[id].model} Results`);

/** Hydrated, and the page's own content on screen (not a loading skeleton). */
async function ready(page: Page, content = queryBox(page)): Promise<void> {
  await waitForHydration(page);
  await content.waitFor();
}

async function openHome(viewport: { width: number; height: number } = DESKTOP, pageOptions?: PageOptions): Promise<Page> {
  const page = await harness().newPage({ viewport }, pageOptions);
  await page.goto("/");
  await ready(page);
  return page;
}

const queryBox = (page: Page) => page.getByLabel("What would you like to search?");
const searchForm = (page: Page) => page.getByRole("form", { name: "Search" });
const resultTabs = (page: Page) => page.getByRole("tablist", { name: "Result views" });
const modelCard = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });
const quotaAlert = (page: Page) => page.locator("[data-slot=alert][data-state]");

/** Types a query, clicks the submit button and waits for the results view. */
async function searchFor(page: Page, query: string): Promise<void> {
  await queryBox(page).fill(query);
  await searchForm(page)
    .getByRole("button", { name: /^Search( All Models)?$/ })
    .click();
  await resultTabs(page).waitFor();
}

async function showTab(page: Page, name: string): Promise<void> {
  await resultTabs(page).getByRole("tab", { name }).click();
  await page.getByRole("tabpanel", { name }).waitFor();
}

/** Scrolls so that the element's top is `margin` px below the top of the viewport. */
async function scrollToTop(locator: Locator, margin = 16): Promise<void> {
  await locator.evaluate((el, margin) => window.scrollBy(0, el.getBoundingClientRect().top - margin), margin);
}

/** Runs a search with the page's cookies and address, as the dashboard would, without the UI. */
async function apiSearch(page: Page, query: string, iterations = 1): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ({ query, iterations }) => {
      const response = await fetch("/api/search", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, iterations }),
      });
      return { status: response.status, body: await response.json() };
    },
    { query, iterations },
  );
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), click()]);
  const path = await download.path();
  return { download, text: readFileSync(path, "utf8") };
}

/** A strict RFC 4180 reader: throws on a stray quote instead of guessing. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  const endField = () => {
    row.push(field);
    field = "";
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === "") {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
      const next = text[i];
      if (next !== undefined && next !== "," && next !== "\r") throw new Error(`text after a closing quote at ${i}: ${JSON.stringify(text.slice(i, i + 20))}`);
      if (next === undefined) endField();
      continue;
    }
    if (c === '"') throw new Error(`quote inside an unquoted field at ${i}`);
    if (c === ",") {
      endField();
      i++;
    } else if (c === "\r") {
      if (text[i + 1] !== "\n") throw new Error("CR without LF");
      endField();
      rows.push(row);
      row = [];
      i += 2;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** The CSV's sections by title: each a title row, a header row and data rows, separated by a blank row. */
function csvSections(rows: string[][]): Map<string, { header: string[]; rows: string[][] }> {
  const sections = new Map<string, { header: string[]; rows: string[][] }>();
  let current: string[][] = [];
  const flush = () => {
    if (current.length === 0) return;
    const [[title = ""] = [], header = [], ...body] = current;
    sections.set(title, { header, rows: body });
    current = [];
  };
  for (const row of rows) {
    if (row.length === 1 && row[0] === "") flush();
    else current.push(row);
  }
  flush();
  return sections;
}

type Snapshot = { t: number; progress: Record<string, string | null>; cards: string[]; tabs: boolean; progressPanel: boolean; starting: boolean };

/**
 * Records every distinct state of the search view (progress counters, model cards present, results
 * tabs present) with its time, from a MutationObserver: each React commit is seen, however short.
 */
async function recordSearchView(page: Page): Promise<void> {
  await page.evaluate((ids) => {
    const w = window as unknown as { __timeline: unknown[] };
    w.__timeline = [];
    const snap = () => ({
      progress: Object.fromEntries(ids.map((id) => [id, document.querySelector(`[data-testid=progress-${id}]`)?.textContent ?? null])),
      cards: [...document.querySelectorAll("[role=region][aria-labelledby]")]
        .map((el) => document.getElementById(el.getAttribute("aria-labelledby") ?? "")?.textContent ?? "")
        .filter((title) => / Results$/.test(title)),
      tabs: document.querySelector('[role=tablist][aria-label="Result views"]') !== null,
      progressPanel: document.querySelector("[data-testid=progress-openai]") !== null,
      starting: document.querySelector('[aria-label="Starting search"]') !== null,
    });
    let last = "";
    const record = () => {
      const s = snap();
      const key = JSON.stringify(s);
      if (key === last) return;
      last = key;
      w.__timeline.push({ t: performance.now(), ...s });
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    record();
  }, providerIds);
}

async function timeline(page: Page): Promise<{ snapshots: Snapshot[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { __timeline: Snapshot[] };
    return { snapshots: w.__timeline };
  }, TIMEOUT);
}

async function hasNoHorizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

describe("search dashboard in Chromium", () => {
  test(
    "a free search end to end: live progress, cards one by one, every tab, full response, exports, Simulated labels",
    async () => {
      const { simulator } = harness();
      const page = await openHome();
      await screenshot(page, "home.png");

      // OpenAI, Gemini and Perplexity answer after 700 ms; Anthropic is rate limited first (retry-after 2 s) and answers 2 s later.
      const query = "best running shoes, under $150";
      simulator.setLatency({ kind: "fixed", ms: 700 });
      simulator.setFaults("anthropic", [{ kind: "rate_limit", retryAfterSeconds: 2 }]);
      try {
        await queryBox(page).fill(query);
        await recordSearchView(page);
        await searchForm(page).getByRole("button", { name: "Search All Models" }).click();
        // While searching the form is locked.
        expect(await searchForm(page).getByRole("button", { name: "Searching..." }).isDisabled()).toBe(true);
        expect(await queryBox(page).isDisabled()).toBe(true);
        await page.waitForFunction(
          () =>
            document.querySelectorAll("[role=region][aria-labelledby]").length === 3 &&
            document.querySelector("[data-testid=progress-anthropic]")?.textContent === "0 / 1",
        );
        await screenshot(page, "dashboard-progress.png", { fullPage: true });
        await resultTabs(page).waitFor();
      } finally {
        simulator.setLatency(FAST);
        simulator.clearFaults();
      }

      const { snapshots } = await timeline(page);
      const seen = (id: string) => [...new Set(snapshots.map((s) => s.progress[id]).filter((text) => text !== null))];
      expect(seen("openai")).toEqual(["0 / 1", "1 / 1"]);
      expect(seen("gemini")).toEqual(["0 / 1", "1 / 1"]);
      expect(seen("perplexity")).toEqual(["0 / 1", "1 / 1"]);
      // Claude's "1 / 1" may be replaced by the results in the same frame: its answer ends the search.
      expect(seen("anthropic")[0]).toBe("0 / 1");
      // The counters moved while the cards of the fast providers were shown and Claude's was not.
      expect(
        snapshots.some(
          (s) =>
            s.progress.openai === "1 / 1" &&
            s.progress.gemini === "1 / 1" &&
            s.progress.perplexity === "1 / 1" &&
            s.progress.anthropic === "0 / 1" &&
            s.cards.join() === "ChatGPT Results,Gemini Results,Perplexity Results",
        ),
      ).toBe(true);
      const firstCard = snapshots.findIndex((s) => s.cards.length > 0);
      const tabs = snapshots.findIndex((s) => s.tabs);
      expect(firstCard).toBeGreaterThan(0);
      expect(tabs).toBeGreaterThan(firstCard);
      // The progress panel stayed on screen while the cards arrived: never swapped back for the
      // "Starting search" skeleton (a card's code loading must not blank it).
      const whileSearching = snapshots.slice(
        snapshots.findIndex((s) => s.progressPanel),
        tabs,
      );
      expect(whileSearching.every((s) => s.progressPanel && !s.starting)).toBe(true);

      // Results header and the Side by Side tab.
      expect(await page.getByRole("heading", { level: 2, name: query }).count()).toBe(1);
      // Honesty without clutter: one banner, one "Simulated" label per answer (its card), and only
      // quiet marks where the same fact repeats (comparison pills, table headers).
      expect(await page.getByText("Simulated answers", { exact: true }).count()).toBe(1);
      expect(await page.getByText("Simulated answers", { exact: true }).isVisible()).toBe(true);
      // Said once: these are the assistants' API answers, which can differ from their apps'.
      expect(await page.getByText(API_ANSWERS_NOTE, { exact: true }).count()).toBe(1);
      expect(await page.getByText(API_ANSWERS_NOTE, { exact: true }).isVisible()).toBe(true);
      const sideBySide = page.getByRole("tabpanel", { name: "Side by Side" });
      expect(await sideBySide.locator("[data-simulated=label]").count()).toBe(MODEL_TITLES.length);
      expect(await sideBySide.getByText("Simulated", { exact: true }).count()).toBe(MODEL_TITLES.length);
      expect(await sideBySide.locator("[data-simulated=mark]").count()).toBeGreaterThan(0);
      const stat = async (label: string) => Number(await page.locator("dt", { hasText: label }).locator("+ dd").textContent());
      const productsFound = await stat("Products Found");
      const companiesMentioned = await stat("Companies Mentioned");
      expect(productsFound).toBeGreaterThan(0);
      for (const title of MODEL_TITLES) {
        const card = modelCard(page, title);
        expect(await card.getByText("Simulated", { exact: true }).count()).toBe(1);
        expect(await card.getByText("Simulated", { exact: true }).isVisible()).toBe(true);
        for (const heading of ["Top Products", "Brands Mentioned", "Sources"])
          expect(await card.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
        const products = await card.locator("ol > li").count();
        expect(products).toBeGreaterThan(0);
        expect(products).toBeLessThanOrEqual(3);
        expect(await card.getByRole("link").count()).toBeLessThanOrEqual(8);
      }
      for (const heading of ["Cross-Model Comparison", "Model Comparison", "Common Sources Across Models"]) {
        expect(await page.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
      }
      await scrollToTop(page.getByRole("region", { name: query }));
      await screenshot(page, "dashboard-results.png");

      // 'View Full Response': every product, and the raw answer; Escape closes it.
      const topProduct = (await modelCard(page, "ChatGPT Results").locator("ol > li p.font-medium").first().textContent())?.replace(/^\d+\.\s*/, "") ?? "";
      expect(topProduct.length).toBeGreaterThan(0);
      await modelCard(page, "ChatGPT Results").getByRole("button", { name: "View Full Response from ChatGPT" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      expect(await dialog.getByRole("heading", { name: "ChatGPT Full Response" }).isVisible()).toBe(true);
      expect(await dialog.getByRole("heading", { name: "Raw Response", exact: true }).isVisible()).toBe(true);
      expect(await dialog.getByText(topProduct, { exact: false }).first().isVisible()).toBe(true);
      // How it was asked and read (ADR 039): the query as typed, read by the small model.
      const how = (await dialog.getByRole("region", { name: "How this answer was asked and read" }).textContent()) ?? "";
      expect(how).toContain("Asked the query exactly as typed, with web search on.");
      expect(how).toContain(`Products and companies read from the answer by ${providerConfig.openai.defaultExtractionModel}`);
      // "Show where it says that" marks the product's first mention in the raw answer, in view.
      await dialog.getByRole("button", { name: `Show where it says that: ${topProduct}` }).click();
      const marked = dialog.locator("pre mark");
      await marked.waitFor();
      expect(await marked.isVisible()).toBe(true);
      expect(topProduct.toLowerCase()).toContain(((await marked.textContent()) ?? "").toLowerCase().replace(/['’]s$|[™®]/g, ""));
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      await modelCard(page, "Gemini Results").getByRole("button", { name: "View Full Response from Gemini" }).click();
      await page.getByRole("dialog").getByRole("heading", { name: "Raw Response", exact: true }).waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });

      // The aggregate tabs.
      await showTab(page, "Products");
      const allProducts = page.getByRole("heading", { name: /^All Products \(\d+\)$/ });
      const productCount = Number(/\((\d+)\)/.exec((await allProducts.textContent()) ?? "")?.[1]);
      expect(productCount).toBe(productsFound);
      expect(await page.getByTestId("aggregated-product").count()).toBe(productCount);
      expect(await page.getByTestId("aggregated-product").filter({ hasText: topProduct }).first().isVisible()).toBe(true);

      await showTab(page, "Companies");
      const allCompanies = (await page.getByRole("heading", { name: /^All Companies \(\d+\)$/ }).textContent()) ?? "";
      expect(Number(/\((\d+)\)/.exec(allCompanies)?.[1])).toBe(companiesMentioned);

      await showTab(page, "All Links");
      const allSources = (await page.getByRole("heading", { name: /^All Sources \(\d+ links from \d+ domains\)$/ }).textContent()) ?? "";
      const [, links, domains] = /\((\d+) links from (\d+) domains\)/.exec(allSources)!.map(Number);
      expect(links).toBeGreaterThan(0);
      expect(await page.getByRole("heading", { name: "Top Domains", exact: true }).isVisible()).toBe(true);
      const topDomains = page.getByRole("heading", { name: "Top Domains", exact: true }).locator("+ ol > li");
      expect(await topDomains.count()).toBe(Math.min(10, domains!));

      await showTab(page, "Frequency Analysis");
      expect(await page.getByRole("heading", { name: "No Aggregated Results Available" }).isVisible()).toBe(true);
      await showTab(page, "Side by Side");

      // Exports: the JSON parses back to the result, the CSV is RFC 4180 with the spec's sections.
      const json = await downloaded(page, () => page.getByRole("button", { name: "Export as JSON" }).click());
      expect(json.download.suggestedFilename()).toMatch(/^search-results-best-running-shoes-under-150-\d{4}-\d{2}-\d{2}\.json$/);
      const exported = JSON.parse(json.text);
      expect(exported.query).toBe(query);
      expect(exported.totalProducts).toBe(productsFound);
      expect(exported.openai.simulated).toBe(true);

      const csv = await downloaded(page, () => page.getByRole("button", { name: "Export as CSV" }).click());
      expect(csv.download.suggestedFilename()).toMatch(/^search-results-best-running-shoes-under-150-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(csv.text.startsWith("\uFEFF")).toBe(true);
      // The query holds a comma: written quoted, read back whole.
      expect(csv.text).toContain(`Query,"${query}"\r\n`);
      const sections = csvSections(parseCsv(csv.text.slice(1)));
      expect([...sections.keys()]).toEqual(["Search", "Providers", "Products", "Companies", "Common Sources", "Frequency Analysis"]);
      expect(sections.get("Search")!.rows).toContainEqual(["Query", query]);
      const products = sections.get("Products")!;
      expect(products.header).toEqual(["Provider", "Simulated", "Position", "Rank", "Product", "Details"]);
      expect(products.rows.length).toBeGreaterThan(0);
      for (const row of products.rows) expect(row).toHaveLength(products.header.length);
      expect(products.rows.some((row) => row[0] === "OpenAI" && row[1] === "Yes" && row[4] === topProduct)).toBe(true);
      const common = sections.get("Common Sources")!;
      expect(common.header).toEqual(["URL", "OpenAI", "Anthropic", "Gemini", "Perplexity"]);
      for (const row of common.rows) for (const mark of row.slice(1)) expect(["Yes", "No"]).toContain(mark);
      // One iteration: no frequency stats, but the section and its header are there.
      expect(sections.get("Frequency Analysis")).toEqual({ header: ["Provider", "Type", "Name", "Count", "Percentage", "Low", "High", "Simulated"], rows: [] });
    },
    TIMEOUT,
  );

  test(
    "Enter in the query box searches; a blank query is refused with the spec's toast",
    async () => {
      const page = await openHome();
      // Blank: Enter does nothing, the button says why.
      await queryBox(page).fill("   ");
      await queryBox(page).press("Enter");
      await searchForm(page).getByRole("button", { name: "Search All Models" }).click();
      await page.getByText("Empty search query", { exact: true }).waitFor();
      expect(await page.getByText("Please enter a search query to continue", { exact: true }).isVisible()).toBe(true);
      expect(await page.getByTestId("progress-openai").count()).toBe(0);

      await queryBox(page).fill("best crm for startups");
      await queryBox(page).press("Enter");
      await resultTabs(page).waitFor();
      expect(await page.getByRole("heading", { level: 2, name: "best crm for startups" }).count()).toBe(1);
      for (const title of MODEL_TITLES) expect(await modelCard(page, title).isVisible()).toBe(true);
    },
    TIMEOUT,
  );

  test(
    "the quota alert says one thing per state: neutral at 3–5, amber at 2 or fewer, red at the limit; the 6th search goes to checkout",
    async () => {
      const { simulator } = harness();
      // The search sent past the page's checks below reaches the server, which refuses it (429) as the browser logs.
      const page = await openHome(DESKTOP, { allowConsoleErrors: [/Failed to load resource.*\b429\b.*\/api\/search/] });
      const alertText = async () => (await quotaAlert(page).innerText()).replace(/\s+/g, " ").trim();
      // Nothing is wrong at 5 of 5: no warning icon, no upgrade nudge, one message.
      expect(await quotaAlert(page).getAttribute("data-state")).toBe("ok");
      expect(await alertText()).toBe("5 free searches remaining");
      expect(await quotaAlert(page).locator("svg").count()).toBe(0);
      expect(await quotaAlert(page).getByRole("progressbar").getAttribute("aria-label")).toBe("5 of 5 free searches remaining");

      for (let i = 0; i < 3; i++) expect((await apiSearch(page, `quota search ${i}`)).status).toBe(200);
      await page.reload();
      await ready(page);
      expect(await quotaAlert(page).getAttribute("data-state")).toBe("low");
      expect(await quotaAlert(page).getAttribute("class")).toContain("bg-amber-50");
      expect(await alertText()).toBe("2 free searches remaining Upgrade to Pro");
      expect(await quotaAlert(page).locator("svg").count()).toBe(1);
      expect(await quotaAlert(page).getByRole("button", { name: "Upgrade to Pro" }).isVisible()).toBe(true);
      expect(await quotaAlert(page).getByRole("progressbar").getAttribute("aria-label")).toBe("2 of 5 free searches remaining");

      // A search through the form: the alert follows without a reload.
      await searchFor(page, "best standing desks");
      await quotaAlert(page).getByText("1 free search remaining", { exact: true }).waitFor();
      expect(await quotaAlert(page).getAttribute("data-state")).toBe("low");
      expect(await alertText()).toBe("1 free search remaining Upgrade to Pro");

      // The last one, used here: said so, once.
      await searchFor(page, "best office chairs");
      await quotaAlert(page).getByText("Last free search used", { exact: true }).waitFor();
      expect(await quotaAlert(page).getAttribute("data-state")).toBe("limit");
      expect(await quotaAlert(page).getAttribute("class")).toContain("bg-red-50");
      expect(await alertText()).toBe("Last free search used Upgrade to Pro");

      // Coming back at the limit: the spec's 'Daily Limit Reached' alert, and nothing else.
      await page.reload();
      await ready(page);
      expect(await quotaAlert(page).getAttribute("data-state")).toBe("limit");
      expect(await quotaAlert(page).getAttribute("class")).toContain("bg-red-50");
      expect(await alertText()).toBe("Daily Limit Reached You've reached your free daily limit. Upgrade to Pro for unlimited searches. Upgrade to Pro");
      expect(await quotaAlert(page).getByRole("progressbar").getAttribute("aria-label")).toBe("0 of 5 free searches remaining");
      await screenshot(page, "quota-limit.png");

      // The 6th, by the button: refused in the page, nothing sent to the providers; off to /checkout,
      // which sends an anonymous visitor on to sign in first.
      const sent = simulator.requests.length;
      const visited: string[] = [];
      page.on("framenavigated", (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname + new URL(frame.url()).search);
      });
      await queryBox(page).fill("one more search");
      await searchForm(page).getByRole("button", { name: "Search All Models" }).click();
      await page.getByText("Daily Search Limit Reached", { exact: true }).waitFor();
      expect(await page.getByText("You've reached your free daily search limit. Upgrade to Pro for unlimited searches.", { exact: true }).isVisible()).toBe(
        true,
      );
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("from") === "upgrade");
      expect(visited).toEqual(["/checkout", "/auth?from=upgrade"]);

      // By Enter, which skips the Pro-feature check but not the limit: the same toast and redirect, nothing sent.
      await page.goto("/");
      await ready(page);
      visited.length = 0;
      await queryBox(page).fill("one more search");
      await queryBox(page).press("Enter");
      await page.getByText("Daily Search Limit Reached", { exact: true }).waitFor();
      await page.waitForURL((url) => url.pathname === "/auth");
      expect(visited).toEqual(["/checkout", "/auth?from=upgrade"]);
      expect(simulator.requests.length).toBe(sent);
      const server = await apiSearch(page, "over the limit");
      expect(server.status).toBe(429);
    },
    TIMEOUT,
  );

  test(
    "a free visitor cannot pick more than 1 iteration; 'Upgrade to Pro' goes to sign-in with the upgrade flag",
    async () => {
      const page = await openHome();
      const select = searchForm(page).getByRole("combobox", { name: "Search Iterations" });
      expect(await select.inputValue()).toBe("1");
      const options = await select
        .locator("option")
        .evaluateAll((els) => els.map((el) => ({ value: (el as HTMLOptionElement).value, disabled: (el as HTMLOptionElement).disabled })));
      expect(options).toEqual([
        { value: "1", disabled: false },
        { value: "5", disabled: true },
        { value: "10", disabled: true },
        { value: "25", disabled: true },
      ]);
      // Choosing a locked option by keyboard does not change the value either.
      await select.focus();
      await page.keyboard.press("ArrowDown");
      expect(await select.inputValue()).toBe("1");

      await searchForm(page).getByRole("button", { name: "Upgrade to Pro" }).click();
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("from") === "upgrade");
    },
    TIMEOUT,
  );

  test(
    "a Pro user's 5 iterations: Frequency Analysis with 95% whiskers and the stability line",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await harness().signInAsPro(page);
      await page.reload();
      await ready(page);
      expect(await quotaAlert(page).count()).toBe(0);
      const select = searchForm(page).getByRole("combobox", { name: "Search Iterations" });
      expect(await select.inputValue()).toBe("5");
      expect(await select.locator("option").allTextContents()).toEqual([
        "1 iteration",
        "5 iterations",
        "10 iterations",
        "25 iterations",
        "50 iterations",
        "100 iterations",
      ]);

      await searchFor(page, "best running shoes");
      expect(await page.getByRole("region", { name: "best running shoes" }).getByText("5 iterations", { exact: true }).isVisible()).toBe(true);
      expect(await page.getByRole("link", { name: "Generate Variants" }).getAttribute("href")).toBe("/variants?query=best%20running%20shoes&iterations=5");

      await showTab(page, "Frequency Analysis");
      const providers = page.getByRole("tablist", { name: "Provider" });
      expect(await providers.getByRole("tab").allTextContents()).toEqual([
        "ChatGPT(simulated)",
        "Claude(simulated)",
        "Gemini(simulated)",
        "Perplexity(simulated)",
      ]);
      for (const model of ["ChatGPT", "Claude", "Gemini", "Perplexity"]) {
        await providers.getByRole("tab", { name: new RegExp(`^${model}`) }).click();
        const panel = page.getByRole("tabpanel", { name: new RegExp(`^${model}`) });
        expect(await panel.getByText(new RegExp(`^${model}: top 3 products identical in [1-5] of 5 runs$`)).isVisible()).toBe(true);
        for (const title of ["Product Frequency", "Company Frequency", "Source Frequency"]) {
          const list = panel.getByRole("region", { name: `${title} for ${model}` });
          expect(await list.isVisible()).toBe(true);
          const rows = list.locator("li");
          const count = await rows.count();
          expect(count).toBeGreaterThan(0);
          // Every bar has its whisker (the 95% interval), drawn within the bar.
          const whiskers = list.locator('span[aria-hidden="true"][title^="95% interval"]');
          expect(await whiskers.count()).toBe(count);
          const first = (await rows.first().locator("span.tabular-nums").textContent()) ?? "";
          expect(first).toMatch(/^[1-5]\/5 · \d+%$/);
          const box = await whiskers.first().boundingBox();
          expect(box?.width ?? 0).toBeGreaterThan(0);
        }
      }
      await providers.getByRole("tab", { name: /^ChatGPT/ }).click();
      await scrollToTop(resultTabs(page));
      await screenshot(page, "frequency.png");
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "a Pro user's 5 iterations: 'Products Found N' is the Products tab's N rows, and every product of the Frequency tab is one of them, with how often (ADR 028)",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await harness().signInAsPro(page);
      await page.reload();
      await ready(page);
      await searchFor(page, "best project management tool");
      const stat = async (label: string) => Number(await page.locator("dt", { hasText: label }).locator("+ dd").textContent());
      const productsFound = await stat("Products Found");
      const companiesMentioned = await stat("Companies Mentioned");

      // What the Frequency tab says each model returned, over the 5 iterations.
      await showTab(page, "Frequency Analysis");
      const providers = page.getByRole("tablist", { name: "Provider" });
      const frequent: string[] = [];
      for (const model of ["ChatGPT", "Claude", "Gemini", "Perplexity"]) {
        await providers.getByRole("tab", { name: new RegExp(`^${model}`) }).click();
        const list = page.getByRole("tabpanel", { name: new RegExp(`^${model}`) }).getByRole("region", { name: `Product Frequency for ${model}` });
        frequent.push(...(await list.locator("li span.font-medium").evaluateAll((spans) => spans.map((span) => span.getAttribute("title") ?? ""))));
      }
      expect(frequent.length).toBeGreaterThan(0);

      await showTab(page, "Products");
      const rows = page.getByTestId("aggregated-product");
      expect(await rows.count()).toBe(productsFound);
      expect(await page.getByRole("heading", { name: `All Products (${productsFound})` }).isVisible()).toBe(true);
      const listed = new Set(
        (await rows.locator("p.font-medium").evaluateAll((names) => names.map((name) => name.firstChild?.textContent ?? ""))).map((name) => name.toLowerCase()),
      );
      expect(frequent.filter((name) => !listed.has(name.toLowerCase()))).toEqual([]);
      // How often, beside each model: "k/5".
      expect(await rows.first().getByTestId("returned-often").first().textContent()).toMatch(/^[1-5]\/5, in [1-5] of 5 iterations$/);
      await scrollToTop(resultTabs(page));
      await screenshot(page, "products-iterations.png");

      await showTab(page, "Companies");
      expect(await page.getByTestId("aggregated-company").count()).toBe(companiesMentioned);
    },
    TIMEOUT,
  );

  test(
    "/search/{id} shows a saved search read-only, rendered on the server; an unknown id returns home with a toast",
    async () => {
      const h = harness();
      // The unknown id's API call answers 404, which the browser logs.
      const page = await openHome(DESKTOP, { allowConsoleErrors: [/Failed to load resource.*\b404\b.*\/api\/search\//] });
      const saved = await apiSearch(page, "best noise cancelling headphones");
      expect(saved.status).toBe(200);
      const id: string = saved.body.id;
      // ChatGPT's card shows its products by rank (a missing rank counts as 999), then as listed.
      const ranked = [...(saved.body.openai.products as { name: string; rank?: number }[])].sort((a, b) => (a.rank ?? 999) - (b.rank ?? 999));
      const product = ranked[0]!.name;

      await page.goto(`/search/${id}`);
      await ready(page, page.getByRole("heading", { level: 2, name: "best noise cancelling headphones" }));
      expect(await page.getByRole("heading", { level: 2, name: "best noise cancelling headphones" }).isVisible()).toBe(true);
      expect(await queryBox(page).inputValue()).toBe("best noise cancelling headphones");
      expect(await queryBox(page).isDisabled()).toBe(true);
      expect(await searchForm(page).getByRole("combobox", { name: "Search Iterations" }).isDisabled()).toBe(true);
      expect(await searchForm(page).getByRole("button", { name: "Search All Models" }).isDisabled()).toBe(true);
      expect(await page.getByRole("link", { name: "Generate Variants" }).count()).toBe(0);
      expect(await page.locator("main footer").textContent()).toContain("Saved search from");
      // An anonymous visitor has no search history: the footer says what is true for them, and how to keep it.
      expect(await page.locator("main footer").textContent()).toContain("Only this browser can open it.");
      expect(await page.locator("main footer").textContent()).not.toContain("kept in your search history");
      expect(await page.locator("main footer").getByRole("link", { name: "Sign up or log in" }).getAttribute("href")).toBe("/auth");
      expect((await modelCard(page, "ChatGPT Results").locator("ol > li p.font-medium").first().textContent())?.replace(/^\d+\.\s*/, "")).toBe(product);

      // The same page with JavaScript off, same visitor: the content is in the HTML.
      const noJs = await h.newPage({ javaScriptEnabled: false, viewport: DESKTOP, storageState: await page.context().storageState() });
      const response = await noJs.goto(`/search/${id}`);
      expect(response?.status()).toBe(200);
      const html = (await noJs.locator("main").textContent()) ?? "";
      expect(html).toContain("best noise cancelling headphones");
      expect(html).toContain(product);
      // Readable as it is: not a skeleton waiting for a script to reveal it.
      expect(await noJs.getByRole("heading", { level: 2, name: "best noise cancelling headphones" }).isVisible()).toBe(true);
      expect(await modelCard(noJs, "ChatGPT Results").isVisible()).toBe(true);
      expect(await noJs.getByLabel("What would you like to search?").isDisabled()).toBe(true);

      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("heading", { level: 1, name: "AI Search Comparison" }).waitFor();

      await page.goto("/search/00000000-0000-4000-8000-000000000000");
      await page.getByText("Search not found", { exact: true }).waitFor();
      await page.waitForURL((url) => url.pathname === "/");
      await queryBox(page).waitFor();
    },
    TIMEOUT,
  );

  test(
    "a provider that keeps failing shows its error in its card; the others answer",
    async () => {
      const { simulator } = harness();
      simulator.setFaults("anthropic", [{ kind: "server_error" }], { persistent: true });
      try {
        const page = await openHome();
        await searchFor(page, "best project management software");
        const claude = modelCard(page, "Claude Results");
        expect(await claude.getByText("Search failed", { exact: true }).isVisible()).toBe(true);
        expect(await claude.getByRole("alert").textContent()).toMatch(/Internal server error|500/);
        expect(await claude.getByRole("heading", { name: "Top Products" }).count()).toBe(0);
        for (const title of ["ChatGPT Results", "Gemini Results", "Perplexity Results"]) {
          expect(await modelCard(page, title).getByRole("heading", { name: "Top Products" }).isVisible()).toBe(true);
          expect(await modelCard(page, title).locator("ol > li").count()).toBeGreaterThan(0);
        }
        const statusRow = page.getByRole("region", { name: "Model comparison table" }).getByRole("row", { name: /^Status/ });
        expect(await statusRow.getByRole("cell").allInnerTexts()).toEqual(["Answered", "Error", "Answered", "Answered"]);
      } finally {
        simulator.clearFaults();
      }
    },
    TIMEOUT,
  );

  test("at 360 px no page scrolls sideways, the progress title shows the query, and the comparison tables stack; screenshots at 360 and 1280 px", async () => {
    const { simulator } = harness();
    const page = await openHome(MOBILE);
    const fits = async (what: string) => expect({ what, ...(await hasNoHorizontalOverflow(page)) }).toEqual({ what, scrollWidth: 360, innerWidth: 360 });
    const open = async (path: string, content: Locator) => {
      await page.goto(path);
      await ready(page, content);
    };
    await fits("/");
    // The locked iterations' upgrade link sits on the select's line.
    const select = await searchForm(page).getByRole("combobox", { name: "Search Iterations" }).boundingBox();
    const upgrade = await searchForm(page).getByRole("button", { name: "Upgrade to Pro" }).boundingBox();
    expect(Math.abs(select!.y + select!.height / 2 - (upgrade!.y + upgrade!.height / 2))).toBeLessThan(2);
    await screenshot(page, "home-mobile.png", { fullPage: true });

    // An anonymous visitor's other pages.
    const saved = await apiSearch(page, "best laptops for programming");
    await open(`/search/${saved.body.id}`, page.getByRole("heading", { level: 2, name: "best laptops for programming" }));
    await fits("/search/{id}");
    await open("/auth", page.getByRole("tab", { name: "Register" }));
    await fits("/auth");
    await open("/upgrade", page.getByRole("heading", { level: 1 }).first());
    await fits("/upgrade");
    await open("/no-such-page", page.getByRole("heading", { name: "404 Page Not Found" }));
    await fits("not found");
    await page.setViewportSize(DESKTOP);
    await open("/auth", page.getByRole("tab", { name: "Register" }));
    await screenshot(page, "auth.png");

    // A Pro visitor: a 5-iteration search from progress to frequency, then the account and workbench pages.
    const pro = await harness().newPage({ viewport: MOBILE });
    await pro.goto("/");
    await harness().signInAsPro(pro);
    await pro.reload();
    await ready(pro);
    const proFits = async (what: string) => expect({ what, ...(await hasNoHorizontalOverflow(pro)) }).toEqual({ what, scrollWidth: 360, innerWidth: 360 });
    const query = "best project management software for remote teams";
    simulator.setLatency({ kind: "fixed", ms: 400 });
    try {
      await queryBox(pro).fill(query);
      await searchForm(pro).getByRole("button", { name: "Search", exact: true }).click();
      await pro.getByTestId("progress-openai").waitFor();
      // The title keeps the query: cut to one line, whole on hover (title) and on tap.
      const shownQuery = pro.getByRole("button", { name: `“${query}”` });
      expect(await shownQuery.isVisible()).toBe(true);
      expect(await shownQuery.getAttribute("title")).toBe(`“${query}”`);
      await proFits("progress");
      await screenshot(pro, "progress-mobile.png");
      await shownQuery.click();
      expect(await shownQuery.getAttribute("aria-expanded")).toBe("true");
      await resultTabs(pro).waitFor({ timeout: 30_000 });
    } finally {
      simulator.setLatency(FAST);
    }
    for (const tab of ["Side by Side", "Products", "Companies", "All Links", "Frequency Analysis", "Brand Lens"]) {
      await showTab(pro, tab);
      await proFits(tab);
    }
    await showTab(pro, "Side by Side");
    // The Model Comparison table on a phone: one block per row, each provider's value under its name; version strings unbroken.
    const table = pro.getByRole("region", { name: "Model comparison table" });
    expect(await table.locator("thead").evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(1);
    const versionRow = table.getByRole("row", { name: /^Model version/ });
    const cells = versionRow.getByRole("cell");
    expect(await cells.allInnerTexts()).toEqual(providerIds.map((id) => expect.stringContaining(providerCatalogue[id].column)));
    // Where a version string wraps, the line ends after a hyphen or dot, never inside a word.
    const wraps = await cells.evaluateAll((tds) =>
      tds.flatMap((td) => {
        const node = [...td.childNodes].at(-1);
        if (!node || node.nodeType !== Node.TEXT_NODE) return [`no text in ${td.textContent}`];
        const text = node.textContent ?? "";
        const range = document.createRange();
        const top = (i: number) => {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          return range.getBoundingClientRect().top;
        };
        const bad: string[] = [];
        for (let i = 1; i < text.length; i++) if (top(i) > top(i - 1) + 1 && !/[-. ]/.test(text[i - 1]!)) bad.push(`${text.slice(0, i)}|${text.slice(i)}`);
        return bad;
      }),
    );
    expect(wraps).toEqual([]);
    expect(await seriousAxeViolations(pro)).toEqual([]);
    await scrollToTop(pro.getByRole("region", { name: query }), 8);
    await screenshot(pro, "results-mobile.png");
    await showTab(pro, "Frequency Analysis");
    await scrollToTop(resultTabs(pro), 8);
    await screenshot(pro, "frequency-mobile.png");

    const other = await apiSearch(pro, "best task management apps for remote teams", 5);
    expect(other.status).toBe(200);
    const pages: Array<[name: string, path: string, content: (p: Page) => Locator]> = [
      ["history", "/user/history", (p) => p.getByRole("heading", { name: "Search History" })],
      ["profile", "/user/profile", (p) => p.getByRole("heading", { name: "Search History" })],
      ["subscription", "/user/subscription", (p) => p.getByRole("heading", { name: "Manage Subscription" })],
      ["variants", "/variants?query=best%20running%20shoes&iterations=1", (p) => p.getByTestId("variant-card").nth(2)],
      [
        "compare",
        `/compare?compareQuery=${encodeURIComponent(query)}&compareVariants=${encodeURIComponent("best task management apps for remote teams")}`,
        (p) => p.getByRole("tablist", { name: "Comparison views" }),
      ],
    ];
    for (const [name, path, content] of pages) {
      await pro.goto(path);
      await ready(pro, content(pro));
      await proFits(name);
      if (name === "compare") {
        for (const tab of ["Products", "Companies", "Sources"]) {
          await pro
            .getByRole("tablist", { name: "Comparison views" })
            .getByRole("tab", { name: new RegExp(`^${tab}`) })
            .click();
          await proFits(`compare ${tab}`);
        }
        await pro.getByRole("tablist", { name: "Comparison views" }).getByRole("tab", { name: "Summary" }).click();
      }
      if (name !== "profile" && name !== "subscription") await screenshot(pro, `${name}-mobile.png`, { fullPage: true });
    }
    await pro.setViewportSize(DESKTOP);
    for (const [name, path, content] of pages) {
      if (name === "profile" || name === "subscription") continue;
      await pro.goto(path);
      await ready(pro, content(pro));
      await screenshot(pro, `${name}.png`, { fullPage: true });
    }
  }, 120_000);

  test(
    "no serious or critical accessibility violations on / with results displayed",
    async () => {
      const page = await openHome();
      await searchFor(page, "best coffee grinders");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await modelCard(page, "Claude Results").getByRole("button", { name: "View Full Response from Claude" }).click();
      // Measured once its fade-in is over: half-transparent text would count as low contrast.
      await page.getByRole("dialog").evaluate((dialog) => Promise.all(dialog.getAnimations({ subtree: true }).map((animation) => animation.finished)));
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "with providers slow to answer (1 s each), the first card shows no later than the results view",
    async () => {
      const { simulator } = harness();
      const page = await openHome();
      await queryBox(page).fill("best mechanical keyboards");
      // The search code is preloaded on focus; give it the moment a real visitor's typing would.
      await page.waitForLoadState("networkidle");
      await recordSearchView(page);
      simulator.setLatency({ kind: "fixed", ms: 1_000 });
      try {
        await searchForm(page).getByRole("button", { name: "Search All Models" }).click();
        await modelCard(page, "ChatGPT Results").or(modelCard(page, "Claude Results")).or(modelCard(page, "Gemini Results")).first().waitFor();
        await resultTabs(page).waitFor();
      } finally {
        simulator.setLatency(FAST);
      }
      // What the page showed, in order, from its own record: no time is asserted.
      const { snapshots } = await timeline(page);
      const firstCard = snapshots.findIndex((s) => s.cards.length > 0);
      const resultsView = snapshots.findIndex((s) => s.tabs);
      expect(firstCard).toBeGreaterThanOrEqual(0);
      expect(resultsView).toBeGreaterThanOrEqual(firstCard);
    },
    TIMEOUT,
  );
});
