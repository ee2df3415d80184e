import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Locator, Page, Response } from "playwright-core";
import { shares, users } from "#db/schema.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { Share } from "#src/contract/shares.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import type { TrackerAlertList } from "#src/contract/trend.ts";
import type { SearchResult } from "#src/contract/search-result.ts";
import { formatCost } from "#src/core/cost.ts";
import { formatDate } from "#src/core/dates.ts";
import { API_ANSWERS_NOTE } from "#src/core/method.ts";
import { alertText } from "#web/lib/alert-words.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit, waitForHydration } from "#tests/support/browser.ts";
import { pdfText, printToPdf, showPdfPage } from "#tests/support/pdf.ts";
import { expectedTrendRows, pageJson, runOnce, seedFetch, trendRows } from "#tests/support/tracker-pages.ts";
import { seedTracker } from "../../scripts/seed.ts";

/*
 * Share links in Chromium: an owner shares a saved search, a comparison and a tracker through the API;
 * a fresh browser, with no cookie at all, opens each link and reads the view, read-only, with no
 * trace of the owner (their e-mail, username, API token, other searches) in the page or in any
 * answer it fetched; a revoked and an expired link are a friendly 404; the pages are noindex and
 * send no referrer. Printed to PDF, a report holds its query, figures and date and none of the
 * product's navigation, over several pages.
 */
const harness = useBrowser({ simulator: { seed: 20261127 }, distinctAddresses: true });

const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
/** What a printed report never says: the product's navigation and its buttons ("Share" the button, not a "Share of …" figure). */
const CHROME_TEXT = [
  /Back to Dashboard/,
  /Back to Trackers/,
  /Log In/,
  /Sign Up/,
  /\bSign in\b/i,
  /Upgrade to Pro/,
  /Pro Member/,
  /\bShare\b(?! of)/,
  /Run now/,
  /Generate Variants/,
  /Search All Models/,
  /Show table/,
  /Download CSV/,
  /Export as/,
];

type Owner = { page: Page; username: string; email: string; apiToken: string };

/** Runs a search with the page's cookies, as the dashboard would. */
async function apiSearch(page: Page, query: string, iterations: number): Promise<Pick<SearchResult, "id" | "createdAt" | "cost">> {
  return pageJson(page, "POST", "/api/search", { query, iterations });
}

async function share(page: Page, body: Record<string, unknown>): Promise<Share> {
  const response = await page.request.post("/api/shares", { data: body });
  expect(response.status()).toBe(201);
  return (await response.json()) as Share;
}

/** A browser that has never seen the product: a new context, no cookie. Every answer it gets is kept, for the leak check. */
async function visitor(): Promise<{ page: Page; seen: () => Promise<string> }> {
  const page = await harness().newPage({ viewport: DESKTOP });
  expect(await page.context().cookies()).toEqual([]);
  const bodies: Promise<string>[] = [];
  page.on("response", (response: Response) => bodies.push(response.text().catch(() => "")));
  return { page, seen: async () => (await Promise.all(bodies)).join("\n") + (await page.content()) };
}

function expectNoTraceOf(text: string, owner: Owner, secrets: string[]) {
  for (const secret of [owner.email, owner.username, owner.apiToken, ...secrets])
    expect({ secret, found: text.toLowerCase().includes(secret.toLowerCase()) }).toEqual({ secret, found: false });
}

async function makeToken(page: Page): Promise<string> {
  return (await pageJson<CreatedToken>(page, "POST", "/api/tokens", { name: "laptop" })).token;
}

/** The share link's headers and its page's robots meta. */
async function expectNoIndex(response: Response | null, page: Page) {
  expect(response?.headers()["x-robots-tag"]).toContain("noindex");
  expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
  expect(await page.locator('head meta[name="robots"]').getAttribute("content")).toBe("noindex, nofollow");
}

/** The printed search's tabs after the first. */
const TAB_SHEETS = ["Products All Products", "Companies All Companies", "All Links All Sources", "Frequency Analysis"];

/** Each of `headings` starts a page of the printed report (after its first). */
function expectPagesStartingWith(pages: string[], headings: string[]) {
  for (const heading of headings) expect({ heading, starts: pages.slice(1).some((page) => page.startsWith(heading)) }).toEqual({ heading, starts: true });
}

/** How many of `found` are laid out larger than a screen reader's 1 px box: seen, not only read out. */
function seen(found: Locator): Promise<number> {
  return found.evaluateAll((all) => all.filter((el) => (el as HTMLElement).offsetWidth > 1 && (el as HTMLElement).offsetHeight > 1).length);
}

/** That these are the assistants' API answers is said once: on the page, seen, and in its printed text. */
async function expectApiNoteOnce(page: Page, printed: { text: string }) {
  expect(await seen(page.getByText(API_ANSWERS_NOTE, { exact: true }))).toBe(1);
  expect(printed.text.split(API_ANSWERS_NOTE).length - 1).toBe(1);
}

/** A printed report starts with its heading (no header of the app's before it) and has none of the product's navigation. */
function expectNoChrome(text: string) {
  expect(text.trimStart()).toStartWith("AI Search Comparison · ");
  for (const pattern of CHROME_TEXT) expect({ pattern: String(pattern), found: pattern.test(text) }).toEqual({ pattern: String(pattern), found: false });
}

describe("share links in Chromium", () => {
  test(
    "a saved search and a comparison open in a fresh browser, read-only, with no trace of the owner; revoked and expired links are a friendly 404; printed, the report holds the query, a figure and the date, no navigation, over several pages",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      const account = await harness().signInAsPro(page);
      const owner: Owner = { page, username: account.username, email: account.email, apiToken: await makeToken(page) };
      const query = "best crm for startups";
      const searched = await apiSearch(page, query, 5);
      const secretQuery = "zebra-secret pricing of acme";
      await apiSearch(page, secretQuery, 1);
      const once = await apiSearch(page, "crm for small teams", 1);
      const searchLink = await share(page, { kind: "search", id: searched.id });
      const compareLink = await share(page, { kind: "compare", id: searched.id, variants: ["crm for small teams"] });

      // The search, in a browser that never signed in.
      const guest = await visitor();
      const opened = await guest.page.goto(new URL(searchLink.url).pathname);
      expect(opened?.status()).toBe(200);
      await waitForHydration(guest.page);
      await expectNoIndex(opened, guest.page);
      const main = guest.page.getByRole("main");
      await main.getByRole("heading", { level: 1, name: query }).waitFor();
      expect(await guest.page.getByText("Shared report · read-only").isVisible()).toBe(true);
      expect(
        await main
          .getByText(`Searched ${formatDate(searched.createdAt)}`)
          .first()
          .isVisible(),
      ).toBe(true);
      expect(await main.getByText(/were asked the query exactly as typed, with web search on, 5 times each\./).isVisible()).toBe(true);
      // The report's heading names the query and its date; the results card under it does not say them again
      // (seen: laid out larger than a screen reader's 1 px box, which keeps the card's title).
      expect(await seen(main.getByRole("heading", { name: query, exact: true }))).toBe(1);
      // On screen the slim header names the product, the report's heading does not again (its line says it on paper).
      expect(await main.innerText()).not.toContain("AI Search Comparison");
      expect(await seen(main.getByText(`Searched ${formatDate(searched.createdAt)}`, { exact: true }))).toBe(1);
      // Simulated providers are said to be.
      expect(await main.getByText("Simulated answers").isVisible()).toBe(true);
      // Every tab but the brand lens (the visitor's brand is not the point), each switched to.
      const tabs = guest.page.getByRole("tablist", { name: "Result views" });
      expect(await tabs.getByRole("tab").allTextContents()).toEqual(["Side by Side", "Products", "Companies", "All Links", "Frequency Analysis"]);
      await tabs.getByRole("tab", { name: "Products" }).click();
      const product = guest.page.getByTestId("aggregated-product").first();
      // The name, without its rank beside it.
      const productName = (
        await product
          .locator("p")
          .first()
          .evaluate((p) => p.firstChild?.textContent ?? "")
      ).trim();
      expect(productName.length).toBeGreaterThan(0);
      expect(await product.isVisible()).toBe(true);
      await tabs.getByRole("tab", { name: "Frequency Analysis" }).click();
      const bar = guest.page.getByRole("tabpanel", { name: "Frequency Analysis" }).getByRole("progressbar").first();
      const figure = /^(.*): (\d+(?:\.\d)?%) of runs$/.exec((await bar.getAttribute("aria-label")) ?? "");
      expect(figure).not.toBeNull();
      // Nothing that acts, nothing of the product's navigation, no way to the owner's pages.
      for (const name of ["Search All Models", "Generate Variants", "Upgrade to Pro", "Run now"])
        expect(await guest.page.getByRole("button", { name }).count()).toBe(0);
      for (const name of ["Back to Dashboard", "Log In / Sign Up", "search history"]) expect(await guest.page.getByRole("link", { name }).count()).toBe(0);
      expect(await guest.page.getByLabel("What would you like to search?").count()).toBe(0);
      expect(await guest.page.locator('a[href^="/search/"], a[href^="/variants"], a[href^="/user/"]').count()).toBe(0);
      await tabs.getByRole("tab", { name: "Side by Side" }).click();
      expect(await seriousAxeViolations(guest.page)).toEqual([]);
      await screenshot(guest.page, "shared-search.png");

      // Within a phone's width too.
      const phone = await harness().newPage({ viewport: { width: 360, height: 780 } });
      await visit(phone, new URL(searchLink.url).pathname);
      await phone.getByRole("heading", { level: 1, name: query }).waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);

      // Printed: the report's heading, the query, a figure and the date; every tab on its own sheet; no navigation.
      const printed = await pdfText(await printToPdf(guest.page));
      // Each tab from a new sheet, under its name.
      expectPagesStartingWith(printed.pages, TAB_SHEETS);
      // Every provider's frequencies, though one shows at a time on screen.
      const frequencies = providerIds.map((id) => `${providerCatalogue[id].model}: top 3 products identical`);
      for (const text of [
        "AI Search Comparison · Search report",
        query,
        `Searched ${formatDate(searched.createdAt)}`,
        figure![1]!,
        `· ${figure![2]}`,
        ...frequencies,
        // The cost, a button on screen, printed as its text.
        `Cost ${formatCost(searched.cost!.total)}`,
      ])
        expect({ text, printed: printed.text.includes(text) }).toEqual({ text, printed: true });
      for (const text of ["Estimated cost", "per month", "Budget"]) expect({ text, printed: printed.text.includes(text) }).toEqual({ text, printed: false });
      expectNoChrome(printed.text);
      await expectApiNoteOnce(guest.page, printed);
      // Said once on the first sheet, by the report's heading.
      for (const text of [query, `Searched ${formatDate(searched.createdAt)}`, API_ANSWERS_NOTE])
        expect({ text, times: printed.pages[0]!.split(text).length - 1 }).toEqual({ text, times: 1 });
      // The first printed page as its reader sees it; and the frequencies' page, with its bars.
      const pdf = await printToPdf(guest.page);
      const viewer = await harness().newPage();
      await showPdfPage(viewer, pdf);
      await screenshot(viewer, "report-print.png");
      await showPdfPage(viewer, pdf, printed.pages.findIndex((text) => text.startsWith("Frequency Analysis")) + 1);
      await screenshot(viewer, "report-print-frequency.png", { published: false });

      // The comparison, in the same fresh browser: its tabs, no link to the owner's searches or their variants.
      const compared = await guest.page.goto(new URL(compareLink.url).pathname);
      expect(compared?.status()).toBe(200);
      await waitForHydration(guest.page);
      await expectNoIndex(compared, guest.page);
      const summary = guest.page.getByRole("list", { name: "Searches compared" });
      await summary.waitFor();
      expect(await summary.getByRole("listitem").allTextContents()).toEqual([expect.stringContaining(query), expect.stringContaining("crm for small teams")]);
      await guest.page
        .getByRole("tablist", { name: "Comparison views" })
        .getByRole("tab", { name: /^Products/ })
        .click();
      expect(await guest.page.getByRole("tabpanel").getByText(productName, { exact: true }).first().isVisible()).toBe(true);
      expect(await guest.page.locator('a[href^="/search/"], a[href^="/variants"], a[href^="/?query"]').count()).toBe(0);
      expect(await guest.page.getByText("Shared report · read-only").isVisible()).toBe(true);
      await screenshot(guest.page, "shared-compare.png", { published: false });
      // Printed: every tab from a new sheet, no navigation.
      const comparison = await pdfText(await printToPdf(guest.page));
      expectPagesStartingWith(comparison.pages, ["Products (", "Companies (", "Sources ("]);
      expect(comparison.text).toContain("AI Search Comparison · Comparison");
      expectNoChrome(comparison.text);
      await expectApiNoteOnce(guest.page, comparison);

      // A search run once: no frequencies, and no advice to the visitor on a plan of their own.
      await visit(guest.page, new URL((await share(page, { kind: "search", id: once.id })).url).pathname);
      await guest.page.getByRole("tablist", { name: "Result views" }).getByRole("tab", { name: "Frequency Analysis" }).click();
      await guest.page.getByText("This search was run once: how often each item comes back needs several iterations.").waitFor();
      expect(await guest.page.getByRole("link", { name: /Upgrade to Pro/ }).count()).toBe(0);
      expect(await guest.page.getByText(/Pro\b/).count()).toBe(0);

      expectNoTraceOf(await guest.seen(), owner, [secretQuery]);

      // Revoked: the friendly page, answered 404.
      expect((await page.request.delete(`/api/shares/${searchLink.id}`)).status()).toBe(200);
      const revoked = await guest.page.goto(new URL(searchLink.url).pathname);
      expect(revoked?.status()).toBe(404);
      await waitForHydration(guest.page);
      await guest.page.getByRole("heading", { name: "This link is no longer available" }).waitFor();
      expect(await guest.page.getByText(/may have expired, or the person who shared it may have revoked it/).isVisible()).toBe(true);
      expect(await guest.page.getByText(query).count()).toBe(0);
      // Expired: the same.
      await harness()
        .database.db.update(shares)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(shares.id, compareLink.id));
      const expired = await guest.page.goto(new URL(compareLink.url).pathname);
      expect(expired?.status()).toBe(404);
      await waitForHydration(guest.page);
      await guest.page.getByRole("heading", { name: "This link is no longer available" }).waitFor();
      await expectNoIndex(expired, guest.page);
      // And a made-up one.
      expect((await guest.page.goto(`/shared/${"x".repeat(43)}`))?.status()).toBe(404);

      // The owner's own saved search prints the same way: its report heading, no navigation.
      await visit(page, `/search/${searched.id}`);
      const own = await pdfText(await printToPdf(page));
      await expectApiNoteOnce(page, own);
      expectPagesStartingWith(own.pages, TAB_SHEETS);
      for (const text of ["AI Search Comparison · Search report", query, `Searched ${formatDate(searched.createdAt)}`, figure![1]!, `· ${figure![2]}`])
        expect({ text, printed: own.text.includes(text) }).toEqual({ text, printed: true });
      expectNoChrome(own.text);
      expect(own.text).not.toContain(account.username);
    },
    TIMEOUT,
  );

  test(
    "a tracker's live link: its facts, trend figures, alert and runs in a fresh browser, nothing that acts, no trace of the owner; its frozen link says when it stopped; printed, no navigation",
    async () => {
      // A name no word of the page or its code contains (a check below looks for it in everything the guest was sent).
      const username = "owner7k2q";
      const seeded = await seedTracker(harness().database, seedFetch(harness().baseUrl), {
        days: 4,
        queries: 2,
        // Ten answers a question: a fall at one run past 4 steady ones is then clear enough to be told at once (ADR 050).
        iterations: 10,
        username,
        password: "sharer-password",
      });
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await pageJson(page, "POST", "/api/login", { username, password: "sharer-password" });
      const [row] = await harness()
        .database.db.select({ email: users.email })
        .from(users)
        .where(eq(sql`lower(${users.username})`, username));
      const owner: Owner = { page, username, email: row!.email, apiToken: await makeToken(page) };
      const secretQuery = "zebra-secret roadmap of hubspot";
      await apiSearch(page, secretQuery, 1);
      const trackerId = seeded.trackerId;
      // OpenAI stops searching the web: the last run's citations of hubspot.com fall, an alert.
      harness().simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const last = await runOnce(page, trackerId).finally(() => harness().simulator.clearFaults());
      const { alerts } = await pageJson<TrackerAlertList>(page, "GET", `/api/trackers/${trackerId}/alerts`);
      expect(alerts.length).toBeGreaterThan(0);
      const live = await share(page, { kind: "tracker", id: trackerId });
      const frozen = await share(page, { kind: "tracker", id: trackerId, frozen: true });

      const guest = await visitor();
      const opened = await guest.page.goto(new URL(live.url).pathname);
      expect(opened?.status()).toBe(200);
      await waitForHydration(guest.page);
      await expectNoIndex(opened, guest.page);
      await guest.page.getByRole("heading", { level: 1, name: "Seeded CRM visibility" }).waitFor();
      expect(await guest.page.getByTestId("shared-tracker-state").textContent()).toBe("Live report");
      // The trend: a chart per provider, its table the owner's figures.
      for (const id of providerIds) {
        const region = `Mentions on ${providerCatalogue[id].name}`;
        await guest.page.getByRole("region", { name: region }).getByRole("img").locator("canvas").first().waitFor();
      }
      // The alerts, as the owner's, without the owner's saved searches behind them.
      expect(await guest.page.getByTestId("tracker-alert").count()).toBe(alerts.length);
      const alert = alertText(alerts[0]!, providerCatalogue[alerts[0]!.provider].name);
      expect(await guest.page.getByTestId("tracker-alert").filter({ hasText: alert }).count()).toBe(1);
      // The runs, the newest open with its figures.
      const runs = guest.page.getByTestId("tracker-run");
      expect(await runs.count()).toBe(4 + 1);
      const mention = (await runs.first().getByTestId("mentions-anthropic").first().textContent()) ?? "";
      expect(mention).toMatch(/%/);
      // None of the owner's spend: no run's cost, no estimate, no budget.
      expect(await guest.page.getByTestId("run-cost").count()).toBe(0);
      for (const text of ["Estimated cost", "per month", "Budget"])
        expect({ text, shown: (await guest.page.textContent("main"))?.includes(text) }).toEqual({ text, shown: false });
      // Nothing that acts, no link to the owner's pages.
      for (const name of [/^Run now/, /^Pause/, /^Resume/, /^Edit/]) expect(await guest.page.getByRole("button", { name }).count()).toBe(0);
      expect(await guest.page.getByRole("link", { name: /Edit|Back to Trackers|Saved search/ }).count()).toBe(0);
      expect(await guest.page.locator('a[href^="/search/"], a[href^="/trackers"]').count()).toBe(0);
      expect(await seriousAxeViolations(guest.page)).toEqual([]);
      await screenshot(guest.page, "shared-tracker.png", { fullPage: true });

      // Printed: the tracker, the report's date, its alert and a run's figure; no navigation.
      const pdf = await printToPdf(guest.page);
      const printed = await pdfText(pdf);
      // The sources, the alerts and the runs each from a new sheet.
      expectPagesStartingWith(printed.pages, ["Sources by type", "Alerts", "Runs"]);
      for (const text of [
        "AI Search Comparison · Tracker report",
        "Seeded CRM visibility",
        "Live report",
        `As of the run of ${formatDate(last.finishedAt)}`,
        alert,
        mention,
      ])
        expect({ text, printed: printed.text.includes(text) }).toEqual({ text, printed: true });
      expectNoChrome(printed.text);
      await expectApiNoteOnce(guest.page, printed);
      // The report's heading names the tracker, says it is live and its schedule; the header card under it does not say any again.
      const { scheduleText } = await pageJson<{ scheduleText: string }>(page, "GET", `/api/trackers/${trackerId}`);
      for (const text of ["Seeded CRM visibility", "Live report", scheduleText])
        expect({ text, times: printed.pages[0]!.split(text).length - 1 }).toEqual({ text, times: 1 });
      const viewer = await harness().newPage();
      await showPdfPage(viewer, pdf);
      await screenshot(viewer, "shared-tracker-print.png");

      // The table view of a chart reads the link's trend: the owner's figures.
      const region = `Mentions on ${providerCatalogue.openai.name}`;
      await guest.page.getByRole("region", { name: region }).getByRole("button", { name: "Show table" }).click();
      expect(await trendRows(guest.page, region)).toEqual(await expectedTrendRows(page, trackerId, "mention", "openai"));

      // The frozen link says when its clock stopped.
      await visit(guest.page, new URL(frozen.url).pathname);
      expect(await guest.page.getByTestId("shared-tracker-state").textContent()).toMatch(/^Snapshot as of /);

      expectNoTraceOf(await guest.seen(), owner, [secretQuery]);

      // The owner's own tracker page prints without its buttons and navigation.
      await visit(page, `/trackers/${trackerId}`);
      await page.getByRole("heading", { level: 1, name: "Seeded CRM visibility" }).waitFor();
      // The owner sees what its runs cost.
      expect(await page.getByTestId("run-cost").count()).toBeGreaterThan(0);
      const own = await pdfText(await printToPdf(page));
      for (const text of ["AI Search Comparison · Tracker report", "Seeded CRM visibility", alert])
        expect({ text, printed: own.text.includes(text) }).toEqual({ text, printed: true });
      await expectApiNoteOnce(page, own);
      expectNoChrome(own.text);
    },
    TIMEOUT,
  );
});
