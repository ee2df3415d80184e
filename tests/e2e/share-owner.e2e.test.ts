import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import type { Locator, Page } from "playwright-core";
import { shares, subscriptions } from "#db/schema.ts";
import type { Share } from "#src/contract/shares.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { formatDate } from "#src/core/dates.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit, type ContextOptions, type PageOptions } from "#tests/support/browser.ts";
import { pageJson, runOnce } from "#tests/support/tracker-pages.ts";
import { alertingTracker } from "#tests/support/trackers.ts";

/*
 * The owner's side of share links in Chromium: the Share control on a saved search, a
 * comparison and a tracker (what the link shows, its lifetime, live or frozen, the link with
 * Copy), the profile's "Shared links" card (when it was last opened, Revoke), and who may share
 * what. The shared page itself is tested with it (tests/e2e/shared-*.e2e.test.ts); here a
 * visitor's opening is the API call that page makes, from a browser context without cookies.
 */
const harness = useBrowser({ simulator: { seed: 20261127 }, distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 120_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };
const DAY = 86_400_000;
const LINK = /^http:\/\/127\.0\.0\.1:\d+\/shared\/([A-Za-z0-9_-]{43})$/;

/** Pictures to look at after a run; the docs do not show them. */
const shoot = (page: Page, name: string) => screenshot(page, name, { published: false });
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");
const card = (page: Page): Locator => page.getByRole("region", { name: "Shared links" });
const row = (page: Page, title: string): Locator => card(page).getByRole("listitem").filter({ hasText: title });

/** A registered (free) visitor: the context keeps the session cookie. */
async function freePage(options: ContextOptions = {}): Promise<Page> {
  const page = await harness().newPage({ viewport: DESKTOP, ...options });
  expect((await page.request.post("/api/register", { data: newAccount() })).status()).toBe(201);
  return page;
}

/** A signed-in Pro visitor. */
async function proPage(pageOptions?: PageOptions): Promise<{ page: Page; userId: string }> {
  const page = await harness().newPage({ viewport: DESKTOP }, pageOptions);
  await page.goto("/");
  const { id } = await harness().signInAsPro(page);
  return { page, userId: id };
}

/** A one-iteration search as the page's user, through the API. */
async function savedSearch(page: Page, query: string): Promise<string> {
  const response = await page.request.post("/api/search", { data: { query, iterations: 1 } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** Opens the page's Share dialog, picks the lifetime (and the tracker's report), creates the link and reads it from the dialog's field. */
async function createLink(page: Page, title: string, { expiry = "Never", report }: { expiry?: string; report?: "Live report" | "Frozen snapshot" } = {}) {
  await page.getByRole("button", { name: "Share", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Share “${title}”` });
  await dialog.waitFor();
  if (report) await dialog.getByRole("radio", { name: report }).check();
  await dialog.getByLabel("Link expires after").selectOption({ label: expiry });
  await dialog.getByRole("button", { name: "Create link" }).click();
  const field = dialog.getByLabel("Link", { exact: true });
  await field.waitFor();
  const url = await field.inputValue();
  expect(url).toMatch(LINK);
  return { dialog, url, token: LINK.exec(url)?.[1] ?? "" };
}

/** What a visitor without an account gets for the link's token: the API call the shared page makes, from a context without cookies. */
async function openAsStranger(token: string): Promise<number> {
  const stranger = await harness().newPage({ viewport: DESKTOP });
  const status = (await stranger.request.get(`/api/shared/${token}`)).status();
  await stranger.context().close();
  return status;
}

describe("sharing, the owner's side", () => {
  test(
    "the owner shares a saved search from its page, copies the link, sees it on the profile with when it was last opened, and revokes it",
    async () => {
      const page = await freePage({ permissions: ["clipboard-read", "clipboard-write"] });
      const id = await savedSearch(page, "best crm for a small agency");
      await visit(page, `/search/${id}`);

      // The control is not printed.
      await page.emulateMedia({ media: "print" });
      expect(await page.getByRole("button", { name: "Share", exact: true }).isVisible()).toBe(false);
      await page.emulateMedia({ media: "screen" });

      await page.getByRole("button", { name: "Share", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Share “best crm for a small agency”" });
      await dialog.waitFor();
      // What the link shows and who can see it, before anything is made.
      await dialog.getByText("The link shows this search's results, with every tab, read-only.").waitFor();
      await dialog.getByText("Anyone with the link can see it without signing in.").waitFor();
      expect(await dialog.getByRole("option").allTextContents()).toEqual(["Never", "7 days", "30 days", "90 days"]);
      expect({ path: "/search/:id (share dialog)", violations: await seriousAxeViolations(page) }).toEqual({
        path: "/search/:id (share dialog)",
        violations: [],
      });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await dialog.waitFor({ state: "detached" });

      const { url, token } = await createLink(page, "best crm for a small agency", { expiry: "30 days" });
      await shoot(page, "share-dialog.png");
      const link = page.getByRole("dialog").getByLabel("Link", { exact: true });
      expect(await link.evaluate((input) => input === document.activeElement && (input as HTMLInputElement).readOnly)).toBe(true);
      await page.getByRole("dialog").getByRole("button", { name: "Copy link" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Copied link" }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      // Thirty days from when it was made, as the API lists it.
      const [share] = (await pageJson<{ shares: Share[] }>(page, "GET", "/api/shares")).shares;
      expect(share?.url).toBe(url);
      expect(Date.parse(share?.expiresAt ?? "") - Date.parse(share?.createdAt ?? "")).toBeWithin(30 * DAY - 60_000, 30 * DAY + 60_000);
      const expires = `Expires ${formatDate(share?.expiresAt)}`;
      await page.getByRole("dialog").getByText(`${expires}.`, { exact: true }).waitFor();

      // On the profile (the dialog links to it): what it is, that it expires, that nobody has opened it yet, the same link.
      await page.getByRole("dialog").getByRole("link", { name: "Your shared links" }).click();
      await page.waitForURL((address) => address.pathname === "/user/profile");
      const listed = row(page, "best crm for a small agency");
      await listed.getByText("Search", { exact: true }).waitFor();
      await listed.getByText("Never opened", { exact: true }).waitFor();
      await listed.getByText(expires, { exact: true }).waitFor();
      expect(await listed.getByLabel("Link to best crm for a small agency").inputValue()).toBe(url);
      expect(await listed.getByRole("link", { name: "Open the link to best crm for a small agency" }).getAttribute("href")).toBe(url);

      // Someone without an account opens it; the owner's list says so after a reload.
      expect(await openAsStranger(token)).toBe(200);
      await visit(page, "/user/profile");
      await listed.getByText("Last opened", { exact: false }).waitFor();
      expect(await listed.getByText("Never opened").count()).toBe(0);
      await card(page).scrollIntoViewIfNeeded();
      await shoot(page, "share-profile-list.png");
      expect({ path: "/user/profile (shared links)", violations: await seriousAxeViolations(page) }).toEqual({
        path: "/user/profile (shared links)",
        violations: [],
      });

      // Revoking asks first; keeping it changes nothing.
      const revoke = listed.getByRole("button", { name: "Revoke the link to best crm for a small agency" });
      await revoke.click();
      const confirm = page.getByRole("dialog", { name: "Revoke the link to “best crm for a small agency”?" });
      await confirm.getByRole("button", { name: "Keep link" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.waitForFunction(() => document.activeElement?.textContent?.startsWith("Revoke"));
      expect(await openAsStranger(token)).toBe(200);

      await revoke.click();
      await confirm.getByRole("button", { name: "Revoke link" }).click();
      await confirm.waitFor({ state: "detached" });
      await toasts(page).getByText("Link revoked", { exact: true }).waitFor();
      await card(page).getByText("No shared links yet.", { exact: false }).waitFor();
      await page.waitForFunction(() => document.activeElement?.textContent === "Your links");
      expect(await openAsStranger(token)).toBe(404);
    },
    TIMEOUT,
  );

  test(
    "a Pro owner shares a tracker as a frozen snapshot and as the live report, and the list tells them apart; when Pro lapses the dialog gives the API's reason",
    async () => {
      // Once Pro has lapsed, the refused POST is logged by the browser.
      const { page, userId } = await proPage({ allowConsoleErrors: [/Failed to load resource.*\b403\b.*\/api\/shares/] });
      const tracker = await pageJson<Tracker>(page, "POST", "/api/trackers", {
        ...alertingTracker,
        name: "CRM report for the client",
        queries: ["best crm for startups"],
        iterations: 2,
      });
      await runOnce(page, tracker.id);
      await visit(page, `/trackers/${tracker.id}`);

      const frozen = await createLink(page, "CRM report for the client", { report: "Frozen snapshot" });
      await frozen.dialog.getByText("Never expires.", { exact: false }).waitFor();
      await frozen.dialog.getByRole("button", { name: "Done" }).click();
      await frozen.dialog.waitFor({ state: "detached" });
      const live = await createLink(page, "CRM report for the client", { report: "Live report", expiry: "7 days" });
      expect(live.url).not.toBe(frozen.url);
      await live.dialog.getByRole("button", { name: "Done" }).click();

      await visit(page, "/user/profile");
      const rows = card(page).getByRole("listitem");
      expect(await rows.count()).toBe(2);
      const byUrl = (url: string) => rows.filter({ has: page.locator(`input[value="${url}"]`) });
      await byUrl(frozen.url).getByText("Tracker · frozen snapshot", { exact: true }).waitFor();
      await byUrl(frozen.url).getByText("Never expires", { exact: true }).waitFor();
      await byUrl(live.url).getByText("Tracker · live report", { exact: true }).waitFor();

      // Pro ends while the tracker's page is open: the server refuses, and the dialog says why in its words.
      // (Once the page has read all it reads: a read refused for want of Pro would take the page away first.)
      await visit(page, `/trackers/${tracker.id}`);
      await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: "Share", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Share “CRM report for the client”" });
      await dialog.waitFor();
      await harness().database.db.delete(subscriptions).where(eq(subscriptions.userId, userId));
      const refused = await page.request.post("/api/shares", { data: { kind: "tracker", id: tracker.id } });
      expect(refused.status()).toBe(403);
      const { message } = (await refused.json()) as { message: string };
      await dialog.getByRole("button", { name: "Create link" }).click();
      await dialog.getByText("Could not create the link", { exact: true }).waitFor();
      await dialog.getByText(message, { exact: true }).waitFor();
      expect(await dialog.getByLabel("Link", { exact: true }).count()).toBe(0);
    },
    TIMEOUT,
  );

  test(
    "a Pro owner shares a comparison of a query with its variants; without an original query there is nothing to share",
    async () => {
      const { page } = await proPage();
      await savedSearch(page, "best crm");
      await savedSearch(page, "crm for startups");
      await visit(page, `/compare?compareQuery=${encodeURIComponent("best crm")}&compareVariants=${encodeURIComponent("crm for startups")}`);
      await page.getByRole("tablist", { name: "Comparison views" }).waitFor();
      const { dialog, token } = await createLink(page, "best crm");
      await dialog.getByText("The link shows this comparison of the query with its variant", { exact: false }).waitFor();
      expect(await openAsStranger(token)).toBe(200);

      await visit(page, "/user/profile");
      await row(page, "best crm").getByText("Comparison", { exact: true }).waitFor();

      await visit(page, `/compare?compareVariants=${encodeURIComponent("crm for startups")}`);
      await page.getByRole("tablist", { name: "Comparison views" }).waitFor();
      expect(await page.getByRole("button", { name: "Share", exact: true }).count()).toBe(0);
    },
    TIMEOUT,
  );

  test(
    "a free account's saved search offers Share and its profile says how to make a link; an expired link is listed as such and answers 404; comparisons and trackers need Pro (403); an anonymous visitor is told to sign up",
    async () => {
      const page = await freePage();
      await visit(page, "/user/profile");
      await card(page)
        .getByText("No shared links yet. To make one, open a saved search from your history, a comparison or a tracker, and choose Share.")
        .waitFor();

      const id = await savedSearch(page, "best note taking app");
      await visit(page, `/search/${id}`);
      const { token } = await createLink(page, "best note taking app", { expiry: "7 days" });
      expect(await openAsStranger(token)).toBe(200);
      // On a phone the dialog and its link fit the width.
      await page.setViewportSize(PHONE);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const field = await page.getByRole("dialog").getByLabel("Link", { exact: true }).boundingBox();
      expect((field?.x ?? -1) >= 0 && (field?.x ?? 0) + (field?.width ?? Infinity) <= PHONE.width).toBe(true);
      await shoot(page, "share-dialog-mobile.png");
      await page.setViewportSize(DESKTOP);

      // Seven days on, the link is dead: the list says so and offers only Revoke.
      await harness()
        .database.db.update(shares)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(shares.token, token));
      expect(await openAsStranger(token)).toBe(404);
      await visit(page, "/user/profile");
      const expired = row(page, "best note taking app");
      await expired.getByText("Expired", { exact: true }).waitFor();
      expect(await expired.getByRole("link", { name: /^Open/ }).count()).toBe(0);
      expect(await expired.getByRole("textbox").count()).toBe(0);
      await expired.getByRole("button", { name: "Revoke the link to best note taking app" }).waitFor();

      // The server decides: a free account's comparison or tracker link is refused, with a reason.
      for (const kind of ["compare", "tracker"]) {
        const response = await page.request.post("/api/shares", { data: { kind, id } });
        expect({ kind, status: response.status() }).toEqual({ kind, status: 403 });
        expect(((await response.json()) as { message: string }).message).toMatch(/Pro/);
      }

      // An anonymous visitor's search has nobody's profile to list a link on: no Share, and the footer says what signing up gives.
      const anonymous = await harness().newPage({ viewport: DESKTOP });
      const anonymousId = await savedSearch(anonymous, "best wiki for startups");
      await visit(anonymous, `/search/${anonymousId}`);
      await anonymous.getByRole("tablist", { name: "Result views" }).waitFor();
      expect(await anonymous.getByRole("button", { name: "Share", exact: true }).count()).toBe(0);
      expect(await anonymous.locator("main footer").textContent()).toContain("to share it with a link.");
    },
    TIMEOUT,
  );
});
