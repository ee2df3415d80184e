import type { BrandLensSettings } from "#src/contract/lens.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { providerIds } from "#src/contract/providers.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit, waitForHydration, type PageOptions } from "#tests/support/browser.ts";

/*
 * The Pro workbench in Chromium against the loopback simulators: a result's Generate Variants,
 * the variants page (edit, add, run all, live progress, a reload), the compare page and its
 * tabs, the doors of both pages (missing parameters, free and anonymous visitors), and the brand
 * lens from the profile to a saved search and its CSV export. Waits only on what a person sees.
 */
const harness = useBrowser({ simulator: { seed: 20261122 }, distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 90_000;
const DESKTOP = { width: 1280, height: 900 };
const MOBILE = { width: 360, height: 780 };

const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
const variantCards = (page: Page) => page.getByTestId("variant-card");
const compareTabs = (page: Page) => page.getByRole("tablist", { name: "Comparison views" });

/** A signed-in Pro visitor on `path`. */
async function proPage(path = "/", viewport = DESKTOP, pageOptions?: PageOptions): Promise<Page> {
  const page = await harness().newPage({ viewport }, pageOptions);
  await page.goto("/");
  await harness().signInAsPro(page);
  await visit(page, path);
  return page;
}

/** A signed-in free visitor (registered, not Pro). */
async function freePage(): Promise<Page> {
  const page = await harness().newPage({ viewport: DESKTOP });
  const response = await page.request.post("/api/register", { data: newAccount() });
  expect(response.status()).toBe(201);
  return page;
}

/** Runs a search with the page's cookies, as the dashboard would, without the UI. */
async function apiSearch(page: Page, query: string, iterations: number): Promise<{ id: string; openai: { products: { name: string }[] } }> {
  return page.evaluate(
    async ({ query, iterations }) => {
      const response = await fetch("/api/search", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, iterations }),
      });
      if (!response.ok) throw new Error(`search answered ${response.status}`);
      return response.json();
    },
    { query, iterations },
  );
}

async function noHorizontalOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
}

/** The workbench's own pictures, which the docs do not show. */
const shoot = (page: Page, name: string) => screenshot(page, name, { fullPage: true, published: false });

describe("Pro workbench in Chromium", () => {
  test(
    "search → Generate Variants → edit one, add one → Run All Searches → Completed → Compare, each tab",
    async () => {
      const page = await proPage();
      await page.getByLabel("What would you like to search?").fill("best running shoes");
      await page.getByRole("button", { name: "Search All Models" }).click();
      const results = page.getByRole("tablist", { name: "Result views" });
      await results.waitFor({ timeout: 30_000 });

      // Stability is shown with the frequency analysis of a 5-iteration search.
      await results.getByRole("tab", { name: "Frequency Analysis" }).click();
      expect(await page.getByTestId("stability").first().textContent()).toMatch(
        /^Run-to-run stability: top-3 overlap \d\.\d\d \(Jaccard\), rank-biased overlap \d\.\d\d, over 10 pairs of runs$/,
      );

      await page.getByRole("link", { name: "Generate Variants" }).click();
      await page.waitForURL(
        (url) => url.pathname === "/variants" && url.searchParams.get("query") === "best running shoes" && url.searchParams.get("iterations") === "5",
      );
      await variantCards(page).nth(4).waitFor();
      expect(await variantCards(page).count()).toBe(5);
      expect(await page.getByTestId("original-query").textContent()).toBe("best running shoes");
      // Which model wrote them, and that it is simulated (the honesty rule).
      expect(await page.getByTestId("generated-by").textContent()).toMatch(/^Written by ChatGPT \/ OpenAI \(.+\)Simulated$/);
      for (let n = 1; n <= 5; n++) expect(await page.getByRole("region", { name: `Variant ${n}`, exact: true }).isVisible()).toBe(true);

      // Edit the first, add one of our own.
      await page.getByLabel("Variant 1 query").fill("trail running shoes for beginners");
      await page.getByLabel("Add your own variant").fill("running shoes for flat feet");
      await page.getByRole("button", { name: "Add Variant" }).click();
      await variantCards(page).nth(5).waitFor();
      expect(await page.getByLabel("Variant 6 query").inputValue()).toBe("running shoes for flat feet");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, "workbench-variants-draft.png");

      await page.getByRole("button", { name: "Run All Searches" }).click();
      // Live progress: the cards reach 'Completed' one by one, the bar counts them.
      await page.getByTestId("variants-progress").filter({ hasText: "6 of 6 completed" }).waitFor({ timeout: 60_000 });
      for (let n = 1; n <= 6; n++) {
        const card = page.getByRole("region", { name: `Variant ${n}`, exact: true });
        expect(await card.getByText("Completed", { exact: true }).isVisible()).toBe(true);
        expect(await card.getByRole("link", { name: /^View Results/ }).isVisible()).toBe(true);
      }
      expect(await page.getByRole("region", { name: "Variant 1", exact: true }).getByTestId("variant-query").textContent()).toBe(
        "trail running shoes for beginners",
      );
      expect(
        await page
          .getByRole("region", { name: "Variant 6", exact: true })
          .getByRole("link", { name: /^View Results/ })
          .getAttribute("href"),
      ).toBe("/?query=running%20shoes%20for%20flat%20feet");
      await shoot(page, "workbench-variants.png");

      // The batch is saved: a reload shows what finished, and writes nothing new.
      await page.reload();
      await waitForHydration(page);
      await page.getByTestId("variants-progress").filter({ hasText: "6 of 6 completed" }).waitFor();
      expect(await variantCards(page).count()).toBe(6);
      expect(await page.getByTestId("generated-by").count()).toBe(0);

      await page.getByRole("link", { name: "Compare All Results (6)" }).click();
      await page.waitForURL(
        (url) =>
          url.pathname === "/compare" &&
          url.searchParams.get("compareQuery") === "best running shoes" &&
          url.searchParams.getAll("compareVariants").length === 6,
      );
      await compareTabs(page).waitFor();

      // Summary: unique totals and the top 5 of each.
      const summary = page.getByRole("tabpanel", { name: "Summary" });
      for (const label of ["Unique Products", "Unique Companies", "Unique Sources"])
        expect(Number(await summary.getByText(label).locator("xpath=following-sibling::dd").textContent())).toBeGreaterThan(0);
      for (const title of ["Top Products", "Top Companies", "Top Sources"]) {
        const items = summary.getByRole("list", { name: title }).getByRole("listitem");
        expect(await items.count()).toBeGreaterThan(0);
        expect(await items.count()).toBeLessThanOrEqual(5);
      }
      expect(await summary.getByRole("list", { name: "Searches compared" }).getByRole("listitem").count()).toBe(7);
      // The compared questions are one link away from a tracker asking them all.
      const track = new URL((await page.getByRole("link", { name: "Track these questions every week" }).getAttribute("href"))!, "http://localhost");
      expect(track.pathname).toBe("/trackers/new");
      expect(track.searchParams.getAll("query")).toHaveLength(7);
      expect(track.searchParams.getAll("query")).toContain("best running shoes");

      for (const [tab, one] of [
        ["Products", "Product"],
        ["Companies", "Company"],
        ["Sources", "Source"],
      ] as const) {
        await compareTabs(page)
          .getByRole("tab", { name: new RegExp(`^${tab} \\(\\d+\\)$`) })
          .click();
        const panel = page.getByRole("tabpanel", { name: new RegExp(`^${tab}`) });
        const table = panel.getByRole("region", { name: `${tab} in the original and the variant` });
        await table.waitFor();
        expect(await table.getByRole("columnheader", { name: one, exact: true }).isVisible()).toBe(true);
        expect(await table.getByRole("columnheader", { name: "Share of iterations" }).isVisible()).toBe(true);
        expect(await table.locator("tbody tr").count()).toBeGreaterThan(0);
        // Per-provider ticks and dashes, for both searches.
        expect(
          await table
            .locator("tbody td")
            .filter({ hasText: /^(✓Yes|–No)$/ })
            .count(),
        ).toBeGreaterThan(0);
        // The variant selector changes the compared variant.
        const select = panel.getByRole("combobox", { name: "Compare the original with" });
        const options = await select.locator("option").allTextContents();
        expect(options).toHaveLength(6);
        await select.selectOption({ label: options[5]! });
        await table.getByRole("columnheader", { name: new RegExp(`Variant\\s*${options[5]}`) }).waitFor();
        expect(await panel.getByText(/Fisher's exact test \(two-sided\) gives p < 0\.05/).isVisible()).toBe(true);
      }
      expect(await page.getByRole("heading", { name: "What the models searched for" }).isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);

      await compareTabs(page)
        .getByRole("tab", { name: /^Products/ })
        .click();
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, "workbench-compare.png");

      // At phone width the page does not scroll sideways; the tables scroll inside their region.
      await page.setViewportSize(MOBILE);
      for (const tab of ["Summary", "Products", "Companies", "Sources"]) {
        await compareTabs(page)
          .getByRole("tab", { name: new RegExp(`^${tab}`) })
          .click();
        expect({ tab, ...(await noHorizontalOverflow(page)) }).toEqual({ tab, scrollWidth: 360, innerWidth: 360 });
      }
      await shoot(page, "workbench-compare-mobile.png");
      await visit(page, "/variants?query=best%20running%20shoes&iterations=5");
      await variantCards(page).nth(5).waitFor();
      expect(await noHorizontalOverflow(page)).toEqual({ scrollWidth: 360, innerWidth: 360 });
    },
    TIMEOUT,
  );

  test(
    "variants are kept: edit one, reload → the same set with the edit (a second tab and Back too); Regenerate asks first when edited",
    async () => {
      const path = "/variants?query=best%20espresso%20machine&iterations=1";
      const page = await proPage(path);
      await variantCards(page).nth(4).waitFor();
      const shown = (p: Page) =>
        p.getByRole("textbox", { name: /^Variant \d+ query$/ }).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
      const written = await shown(page);
      expect(written).toHaveLength(5);

      await page.getByLabel("Variant 2 query").fill("espresso machine for a tiny kitchen");
      await page.getByTestId("variants-save-state").filter({ hasText: "Your changes are saved." }).waitFor();
      const edited = written.map((query, i) => (i === 1 ? "espresso machine for a tiny kitchen" : query));

      await page.reload();
      await waitForHydration(page);
      await variantCards(page).nth(4).waitFor();
      expect(await shown(page)).toEqual(edited);

      const tab = await page.context().newPage();
      await visit(tab, path);
      await variantCards(tab).nth(4).waitFor();
      expect(await shown(tab)).toEqual(edited);
      await tab.close();

      // Away and Back: the same set, from the page's own memory.
      await page.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.goBack();
      await variantCards(page).nth(4).waitFor();
      expect(await shown(page)).toEqual(edited);

      // Edited: Regenerate asks first; keeping them changes nothing.
      await page.getByRole("button", { name: "Regenerate" }).click();
      const dialog = page.getByRole("dialog", { name: "Regenerate the variants?" });
      await dialog.waitFor();
      await shoot(page, "workbench-variants-regenerate.png");
      await dialog.getByRole("button", { name: "Keep My Variants" }).click();
      await dialog.waitFor({ state: "hidden" });
      expect(await shown(page)).toEqual(edited);

      await page.getByRole("button", { name: "Regenerate" }).click();
      await dialog.getByRole("button", { name: "Regenerate" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.waitForFunction((before) => {
        const values = [...document.querySelectorAll<HTMLInputElement>("[data-testid=variant-card] input")].map((input) => input.value);
        return values.length > 0 && JSON.stringify(values) !== before;
      }, JSON.stringify(edited));
      const fresh = await shown(page);
      await page.reload();
      await waitForHydration(page);
      await variantCards(page).nth(4).waitFor();
      expect(await shown(page)).toEqual(fresh);
      // Not edited: a new set comes without asking.
      await page.getByRole("button", { name: "Regenerate" }).click();
      await page.waitForFunction((before) => {
        const values = [...document.querySelectorAll<HTMLInputElement>("[data-testid=variant-card] input")].map((input) => input.value);
        return values.length > 0 && JSON.stringify(values) !== before;
      }, JSON.stringify(fresh));
      expect(await dialog.count()).toBe(0);
    },
    TIMEOUT,
  );

  test(
    "per-card Run Search saves the list and runs that one; a failed search shows its error and runs again",
    async () => {
      const { simulator } = harness();
      const page = await proPage("/variants?query=best%20standing%20desk&iterations=1");
      await variantCards(page).nth(4).waitFor();
      // Every provider fails: the search of variant 2 fails as a whole.
      for (const id of providerIds) simulator.setFaults(id, [{ kind: "server_error" }], { persistent: true });
      try {
        const second = page.getByRole("region", { name: "Variant 2", exact: true });
        await second.getByRole("button", { name: /^Run Search/ }).click();
        await second.getByText("Failed", { exact: true }).waitFor({ timeout: 60_000 });
        expect(await second.locator("p.text-destructive").textContent()).not.toBe("");
        // The list is saved now: the others wait, their queries fixed.
        expect(await page.getByRole("region", { name: "Variant 1", exact: true }).getByText("Not run yet").isVisible()).toBe(true);
        expect(await page.getByLabel("Variant 1 query").count()).toBe(0);
        expect(await page.getByTestId("variants-progress").textContent()).toBe("0 of 5 completed");
      } finally {
        simulator.clearFaults();
      }
      const second = page.getByRole("region", { name: "Variant 2", exact: true });
      await second.getByRole("button", { name: /^Run Search/ }).click();
      await second.getByText("Completed", { exact: true }).waitFor({ timeout: 60_000 });
      await page.getByTestId("variants-progress").filter({ hasText: "1 of 5 completed" }).waitFor();
      expect(await page.getByRole("link", { name: "Compare All Results (1)" }).isVisible()).toBe(true);
    },
    TIMEOUT,
  );

  test(
    "a model that cannot write variants: toast 'Error generating variants' with its message, and Try again",
    async () => {
      const { simulator } = harness();
      simulator.setFaults("openai", [{ kind: "server_error" }], { persistent: true });
      let page: Page;
      try {
        page = await proPage("/variants?query=best%20vpn&iterations=1", DESKTOP, {
          allowConsoleErrors: [/Failed to load resource.*\b502\b.*\/api\/generate-variants/],
        });
        await toasts(page)
          .filter({ hasText: "Error generating variants" })
          .filter({ hasText: "The model could not write variants" })
          .waitFor({ timeout: 60_000 });
        expect(await variantCards(page).count()).toBe(0);
      } finally {
        simulator.clearFaults();
      }
      await page.getByRole("button", { name: "Try again" }).click();
      await variantCards(page).nth(4).waitFor();
    },
    TIMEOUT,
  );

  test(
    "/variants without a query: toast 'Missing query parameter' and back to /; /compare without queries: 'No queries specified'",
    async () => {
      const page = await proPage("/variants");
      await toasts(page).filter({ hasText: "Missing query parameter" }).waitFor();
      await page.waitForURL((url) => url.pathname === "/" && url.search === "");

      await visit(page, "/compare");
      await toasts(page).filter({ hasText: "No queries specified" }).waitFor();
      await page.waitForURL((url) => url.pathname === "/" && url.search === "");
    },
    TIMEOUT,
  );

  test(
    "free and anonymous visitors opening /variants or /compare land on /upgrade",
    async () => {
      const free = await freePage();
      const anonymous = await harness().newPage({ viewport: DESKTOP });
      for (const page of [free, anonymous]) {
        for (const path of ["/variants?query=best%20crm&iterations=1", "/compare?compareQuery=best%20crm&compareVariants=crm%20for%20startups"]) {
          await page.goto(path);
          await page.waitForURL((url) => url.pathname === "/upgrade");
          await page.getByRole("heading", { level: 1, name: "Upgrade to Pro" }).waitFor();
        }
      }
    },
    TIMEOUT,
  );

  test(
    "compare with queries never searched: 'No Results Found', with what was asked and the way to run it",
    async () => {
      const page = await proPage("/compare?compareQuery=never%20searched%20zz&compareVariants=nor%20this%20one%20zz");
      await page.getByRole("heading", { name: "No Results Found" }).waitFor();
      const missing = page.getByRole("list", { name: "Not searched yet" });
      expect(await missing.getByRole("listitem").allTextContents()).toEqual(["never searched zzSearch it", "nor this one zzSearch it"]);
      expect(await missing.getByRole("link", { name: "Search it: never searched zz" }).getAttribute("href")).toBe("/?query=never%20searched%20zz");
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "brand lens: a brand named in the profile shows its mention rates on a saved search, and goes into the CSV export",
    async () => {
      // The invalid domain below is refused with a 400, which the browser logs.
      const page = await proPage("/", DESKTOP, { allowConsoleErrors: [/Failed to load resource.*\b400\b.*\/api\/user\/brand-lens/] });
      const saved = await apiSearch(page, "best noise cancelling headphones", 5);
      const brand = saved.openai.products[0]?.name ?? "";
      expect(brand).not.toBe("");

      await visit(page, "/user/profile");
      const card = page.getByRole("region", { name: "Brand lens" });
      await card.getByLabel("Brand name").fill(brand);
      await card.getByRole("button", { name: "Add competitor" }).click();
      await card.getByLabel("Competitor 1", { exact: true }).fill("Zzyzx Audio");
      // A competitor's own domains, as a tracker's competitor has them.
      await card.getByLabel("Competitor 1: domains").fill("zzyzx-audio.com, Zzyzx.audio");
      // Server validation is shown as it comes.
      await card.getByLabel("Your domains").fill("not a domain");
      await card.getByRole("button", { name: "Save brand lens" }).click();
      await card.getByRole("alert").filter({ hasText: "A domain looks like example.com" }).waitFor();
      await card.getByLabel("Your domains").fill("");
      await card.getByRole("button", { name: "Save brand lens" }).click();
      await toasts(page).filter({ hasText: "Brand lens saved" }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shoot(page, "workbench-profile-lens.png");
      const kept = (await (await page.request.get("/api/user/brand-lens")).json()) as BrandLensSettings;
      expect(kept.competitors).toEqual([{ name: "Zzyzx Audio", aliases: [], domains: ["zzyzx-audio.com", "zzyzx.audio"] }]);
      // Read back on the profile, and a new tracker starts from the same lens: the competitor's domains with it.
      await visit(page, "/user/profile");
      expect(await page.getByRole("region", { name: "Brand lens" }).getByLabel("Competitor 1: domains").inputValue()).toBe("zzyzx-audio.com, zzyzx.audio");
      await visit(page, "/trackers/new");
      const trackerForm = page.getByRole("form", { name: "Tracker" });
      expect(await trackerForm.getByLabel("Competitor 1", { exact: true }).inputValue()).toBe("Zzyzx Audio");
      expect(await trackerForm.getByLabel("Domains", { exact: true }).inputValue()).toBe("zzyzx-audio.com, zzyzx.audio");

      // The dashboard with ?query= shows the latest saved search of it (any letter case).
      await visit(page, "/?query=Best%20Noise%20Cancelling%20Headphones");
      await page.getByText(/^Your latest search of this query, /).waitFor();
      expect(await page.getByRole("heading", { level: 2, name: "best noise cancelling headphones" }).isVisible()).toBe(true);
      // Rendered on the server: the same page without JavaScript shows it too.
      const noJs = await harness().newPage({ javaScriptEnabled: false, viewport: DESKTOP, storageState: await page.context().storageState() });
      await noJs.goto("/?query=Best%20Noise%20Cancelling%20Headphones");
      expect(await noJs.getByText(/^Your latest search of this query, /).isVisible()).toBe(true);
      await noJs.goto("/?query=never%20searched%20zz");
      expect(await noJs.getByText("Your latest search of this query", { exact: false }).count()).toBe(0);

      await visit(page, `/search/${saved.id}`);
      // The export carries the saved lens before its tab is opened, as the CLI's does (one lens everywhere).
      const [early] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export as CSV" }).click()]);
      expect(readFileSync(await early.path(), "utf8")).toContain("\r\nBrand Lens\r\nProvider,Brand,Metric,Value,Low,High,N\r\n");
      await page.getByRole("tablist", { name: "Result views" }).getByRole("tab", { name: "Brand Lens" }).click();
      await page.getByRole("heading", { name: `Brand Lens: ${brand}` }).waitFor();
      const chatgpt = page.getByRole("region", { name: "ChatGPT / OpenAI" });
      expect(await chatgpt.getByTestId("mention-rate").textContent()).toMatch(/^[1-5] of 5 answers · \d+% \(\d+–\d+%\)$/);
      expect(await chatgpt.getByRole("list", { name: "Share of voice, ChatGPT / OpenAI" }).getByRole("listitem").count()).toBe(2);
      expect(await chatgpt.getByText("Not recommended").isVisible()).toBe(true);
      expect(await chatgpt.getByText("Simulated").first().isVisible()).toBe(true);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.getByRole("tablist", { name: "Result views" }).scrollIntoViewIfNeeded();
      await shoot(page, "workbench-lens.png");
      await screenshot(page, "brand-lens.png", { fullPage: true }); // the README's picture

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export as CSV" }).click()]);
      const csv = readFileSync(await download.path(), "utf8");
      expect(csv).toContain("\r\nBrand Lens\r\nProvider,Brand,Metric,Value,Low,High,N\r\n");
      expect(csv).toContain(`OpenAI,${brand.includes(",") ? `"${brand}"` : brand},Mention rate (%),`);

      // Another brand for this view only: nobody mentions it.
      await page.getByLabel("Try another brand").fill("Qwxyz Sound");
      await page.getByRole("button", { name: "Show" }).click();
      await page.getByRole("heading", { name: "Brand Lens: Qwxyz Sound" }).waitFor();
      expect(await page.getByRole("region", { name: "ChatGPT / OpenAI" }).getByTestId("mention-rate").textContent()).toMatch(
        /^0 of 5 answers · 0% \(0–\d+%\)$/,
      );

      // At phone width neither the lens nor the profile card scrolls sideways.
      await page.setViewportSize(MOBILE);
      expect(await noHorizontalOverflow(page)).toEqual({ scrollWidth: 360, innerWidth: 360 });
      await visit(page, "/user/profile");
      await page.getByRole("region", { name: "Brand lens" }).getByLabel("Brand name").waitFor();
      expect(await noHorizontalOverflow(page)).toEqual({ scrollWidth: 360, innerWidth: 360 });
    },
    TIMEOUT,
  );

  test(
    "a free user's results show the Brand Lens as a Pro feature",
    async () => {
      const page = await freePage();
      await visit(page, "/");
      await page.getByLabel("What would you like to search?").fill("best crm");
      await page.getByRole("button", { name: "Search All Models" }).click();
      const tabs = page.getByRole("tablist", { name: "Result views" });
      await tabs.waitFor({ timeout: 30_000 });
      await tabs.getByRole("tab", { name: "Brand Lens" }).click();
      await page.getByRole("heading", { name: "The Brand Lens is a Pro feature" }).waitFor();
      expect(await page.getByRole("tabpanel", { name: "Brand Lens" }).getByRole("button", { name: "Upgrade to Pro" }).isVisible()).toBe(true);
    },
    TIMEOUT,
  );
});
