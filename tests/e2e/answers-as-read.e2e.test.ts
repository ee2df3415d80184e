import { describe, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import type { Page } from "playwright-core";
import { searches, users } from "#db/schema.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { modelResult, savedResult } from "#tests/support/results.ts";

/*
 * Defects 6–8 in Chromium: what a person reads on a result — sources told apart, the
 * answer as they would have read it — and the small inconsistencies around it (prices, the
 * return after signing in, the free Frequency tab, locked choices, results in view, checkout).
 */
const harness = useBrowser({ distinctAddresses: true });
const SLOW = 60_000;
const DESKTOP = { width: 1280, height: 720 };

const BLOCK = '```json\n{"products":[{"name":"HubSpot CRM","rank":1,"details":"Free CRM."}],"companies":[{"name":"HubSpot","products":["HubSpot CRM"]}]}\n```';
const ANSWER = [
  "## The short list",
  "**HubSpot CRM** is the best free CRM for a small team ([hubspot.com](https://www.hubspot.com/products/crm?utm_source=openai)).",
  '<img src="x" onerror="window.__xss = 1">',
  "[Open me](javascript:window.__xss=2)",
  `Here is the structured summary:\n\n${BLOCK}`,
].join("\n\n");

/** A registered person's page (signed in), and their user id. */
async function signedIn(page: Page): Promise<{ id: string; username: string; password: string }> {
  const account = newAccount();
  const response = await page.request.post("/api/register", { data: account });
  expect(response.status()).toBe(201);
  const [row] = await harness()
    .database.db.select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.username})`, account.username.toLowerCase()));
  if (!row) throw new Error("registered user not found");
  return { ...account, id: row.id };
}

/** A saved one-iteration search of ChatGPT's: two pages of notion.com without titles, and a markdown answer. */
async function savedSearch(userId: string): Promise<string> {
  const openai = modelResult("openai", {
    modelName: "ChatGPT",
    products: [{ name: "HubSpot CRM", rank: 1, details: "Free CRM." }],
    companies: [{ name: "HubSpot", products: ["HubSpot CRM"] }],
    sources: [
      { url: "https://www.notion.com/pricing", cited: true },
      { url: "https://www.notion.com/product/ai?utm_source=openai", cited: true },
    ],
    rawResponse: ANSWER,
  });
  const result = savedResult({ query: "best free crm", models: { openai }, totalProducts: 1, totalCompanies: 1, totalLinks: 2 });
  const [row] = await harness()
    .database.db.insert(searches)
    .values({ userId, query: result.query, iterations: 1, iterationCount: 1, status: "completed", result, totalProducts: 1, totalCompanies: 1, totalLinks: 2 })
    .returning({ id: searches.id });
  if (!row) throw new Error("no row");
  return row.id;
}

const chatGptCard = (page: Page) => page.getByRole("region", { name: "ChatGPT Results", exact: true });
/** A part of the open full response, by its heading. */
const section = (page: Page, heading: string) =>
  page.getByRole("dialog").locator("section", { has: page.getByRole("heading", { name: heading, exact: true }) });

describe("a result as read", () => {
  test(
    "two sources on one host are told apart, in the card and the full response",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      const { id } = await signedIn(page);
      await visit(page, `/search/${await savedSearch(id)}`);
      const card = chatGptCard(page);
      await card.waitFor();
      const links = await card.getByRole("link").allTextContents();
      expect(links.map((text) => text.replace("(opens in a new tab)", "").trim())).toEqual(["notion.com/pricing", "notion.com/product/ai"]);

      await card.getByRole("button", { name: "View Full Response from ChatGPT" }).click();
      const sources = section(page, "Sources (2)");
      await sources.waitFor();
      expect(await sources.getByText("notion.com/pricing", { exact: true }).count()).toBe(1);
      expect(await sources.getByText("notion.com/product/ai", { exact: true }).count()).toBe(1);
    },
    SLOW,
  );

  test(
    "the raw response reads as rendered markdown without ** or the JSON block; the raw text is one click away; nothing in it runs",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      const { id } = await signedIn(page);
      await visit(page, `/search/${await savedSearch(id)}`);
      await chatGptCard(page).getByRole("button", { name: "View Full Response from ChatGPT" }).click();
      const dialog = page.getByRole("dialog");
      const response = section(page, "Raw Response");
      await response.locator("strong", { hasText: "HubSpot CRM" }).waitFor();
      const text = (await response.textContent()) ?? "";
      expect(text).toContain("HubSpot CRM is the best free CRM");
      expect(text).not.toContain("**");
      expect(text).not.toContain('"products"');
      expect(text).not.toContain("structured summary");
      // Saved with the old method, and the dialog says so (ADR 039).
      const how = (await dialog.getByRole("region", { name: "How this answer was asked and read" }).textContent()) ?? "";
      expect(how).toContain("the query followed by instructions to end the answer with a JSON list");
      expect(how).toContain("read from the JSON list at the end of the answer");
      expect(await response.getByRole("heading", { name: "The short list" }).isVisible()).toBe(true);
      const citation = response.getByRole("link", { name: "hubspot.com" });
      expect(await citation.getAttribute("href")).toBe("https://www.hubspot.com/products/crm?utm_source=openai");
      expect(await citation.getAttribute("target")).toBe("_blank");
      // Inert: the tag is text, the javascript: link is only words.
      expect(await dialog.locator("img").count()).toBe(0);
      expect(text).toContain('<img src="x" onerror="window.__xss = 1">');
      expect(await response.getByRole("link", { name: "Open me" }).count()).toBe(0);
      await response.getByText("Open me").click();
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
      expect(await seriousAxeViolations(page)).toEqual([]);

      await response.getByRole("button", { name: "Show raw text" }).click();
      const raw = response.locator("pre");
      await raw.waitFor();
      expect(await raw.textContent()).toBe(ANSWER);
      expect(await response.getByRole("button", { name: "Show raw text" }).getAttribute("aria-pressed")).toBe("true");
    },
    SLOW,
  );

  test(
    "a free user's Frequency tab says iterations are a Pro feature and links to upgrading",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      const { id } = await signedIn(page);
      await visit(page, `/search/${await savedSearch(id)}`);
      await page.getByRole("tab", { name: "Frequency Analysis" }).click();
      const panel = page.getByRole("tabpanel", { name: "Frequency Analysis" });
      await panel.getByText("No Aggregated Results Available").waitFor();
      expect(await panel.textContent()).toContain("is a Pro feature");
      expect(await panel.textContent()).not.toContain("Set Search Iterations above 1 to run");
      expect(await panel.getByRole("link", { name: "Upgrade to Pro" }).getAttribute("href")).toBe("/upgrade");
    },
    SLOW,
  );
});

describe("the small inconsistencies", () => {
  test(
    "/search/{id} seen anonymously keeps the Pro lock on the iteration choices a free visitor cannot use",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await visit(page, "/");
      const saved = await page.evaluate(async () => {
        const response = await fetch("/api/search", {
          method: "POST",
          credentials: "include",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "best free crm", iterations: 1 }),
        });
        return (await response.json()) as { id: string };
      });
      await visit(page, `/search/${saved.id}`);
      const select = page.getByRole("form", { name: "Search" }).getByRole("combobox", { name: "Search Iterations" });
      await select.waitFor();
      const options = await select
        .locator("option")
        .evaluateAll((nodes) => nodes.map((node) => `${node.textContent}${(node as HTMLOptionElement).disabled ? " (locked)" : ""}`));
      expect(options).toEqual(["1 iteration", "5 iterations · Pro (locked)", "10 iterations · Pro (locked)", "25 iterations · Pro (locked)"]);
    },
    SLOW,
  );

  test(
    "after a search, its results are brought into view",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await visit(page, "/");
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.getByLabel("What would you like to search?").fill("best project management tool");
      await page.getByRole("button", { name: "Search All Models" }).click();
      const tabs = page.getByRole("tablist", { name: "Result views" });
      await tabs.waitFor({ timeout: 30_000 });
      // The scroll may be smooth: wait until it has settled with the results' tabs on screen.
      await page.waitForFunction(() => {
        const box = document.querySelector('[role="tablist"][aria-label="Result views"]')?.getBoundingClientRect();
        return Boolean(box) && box!.top >= 0 && box!.bottom <= window.innerHeight;
      });
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    },
    SLOW,
  );

  test(
    "signing in from /user/subscription returns there, not to /",
    async () => {
      const other = await harness().newPage();
      const account = newAccount();
      expect((await other.request.post("/api/register", { data: account })).status()).toBe(201);

      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/user/subscription");
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("next") === "/user/subscription");
      await page.getByLabel("Username").fill(account.username);
      await page.getByLabel("Password").fill(account.password);
      await page.getByRole("button", { name: "Log In" }).click();
      await page.waitForURL((url) => url.pathname === "/user/subscription");
      await page.getByRole("heading", { name: "Manage Subscription" }).waitFor();
    },
    SLOW,
  );

  test(
    "a next that leaves the site is ignored: signing in goes home",
    async () => {
      const other = await harness().newPage();
      const account = newAccount();
      expect((await other.request.post("/api/register", { data: account })).status()).toBe(201);
      for (const next of ["//evil.com", "https://evil.com"]) {
        const page = await harness().newPage({ viewport: DESKTOP });
        await visit(page, `/auth?next=${encodeURIComponent(next)}`);
        await page.getByLabel("Username").fill(account.username);
        await page.getByLabel("Password").fill(account.password);
        await page.getByRole("button", { name: "Log In" }).click();
        await page.waitForURL((url) => url.pathname === "/");
        expect(new URL(page.url()).origin).toBe(harness().baseUrl);
      }
    },
    SLOW,
  );

  test(
    "checkout: the price as money with its currency ($19.00 USD/month), 'Test mode' once, a field's error once",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await signedIn(page);
      await visit(page, "/checkout");
      const subscribe = page.getByRole("button", { name: "Subscribe for $19.00 USD/month" });
      await subscribe.waitFor();
      expect(await page.getByRole("main").textContent()).toContain("$19.00 USD/month");
      // As money is written, then the code: never the bare "19.00 USD".
      expect(await page.getByRole("main").textContent()).not.toMatch(/(?<!\$)19\.00 USD/);
      expect(await page.getByText("Test mode").count()).toBe(1);

      await page.getByLabel("Card number").fill("4242");
      // Leaving the field shows its error under it (before the click, which would move the button).
      await page.getByLabel("Expiration date").focus();
      await page.getByText("Your card number is incomplete.").waitFor();
      await page.waitForFunction(() => !(document.querySelector('form[aria-label="Payment"] button[type="submit"]') as HTMLButtonElement | null)?.disabled);
      // The form says "Processing..." while it pays, then settles: whatever it shows about the
      // attempt is on the page by then (a MutationObserver sees the brief busy state too).
      await page.evaluate(() => {
        const seen: { busy: boolean; settled: boolean } = { busy: false, settled: false };
        (window as unknown as { __payment: typeof seen }).__payment = seen;
        new MutationObserver(() => {
          const busy = document.querySelector('form[aria-label="Payment"] button[type="submit"]')?.textContent?.includes("Processing") ?? false;
          if (busy) seen.busy = true;
          else if (seen.busy) seen.settled = true;
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await subscribe.click();
      await page.waitForFunction(() => (window as unknown as { __payment: { settled: boolean } }).__payment.settled);
      expect(await page.getByText("Your card number is incomplete.").count()).toBe(1);
    },
    SLOW,
  );
});
