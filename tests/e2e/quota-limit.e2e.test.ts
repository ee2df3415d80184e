import { describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { newAccount } from "#tests/support/accounts.ts";
import { screenshot, useBrowser, visit } from "#tests/support/browser.ts";

/*
 * At the free daily limit, in Chromium: the 6th search is stopped in the page (spec §4 "at 0 the
 * limit is reached and submission is blocked"): the 'Daily Search Limit Reached' toast, off to
 * /checkout (an anonymous visitor on to sign-in), no request to /api/search, and the toast never
 * covers the main button of the page it leads to.
 */
const harness = useBrowser({ distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 60_000;
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 360, height: 640 };

const queryBox = (page: Page) => page.getByLabel("What would you like to search?");
const submitButton = (page: Page) => page.getByRole("form", { name: "Search" }).getByRole("button", { name: /^(Search All Models|Search)$/ });

/** Every POST the page sends to a search route, from now on. */
function searchPosts(page: Page): string[] {
  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname.startsWith("/api/search")) sent.push(request.url());
  });
  return sent;
}

/** The free searches of the day, each by the button, as a person would. */
async function useUpFreeSearches(page: Page): Promise<void> {
  for (let i = 1; i <= 5; i++) {
    await queryBox(page).fill(`free search number ${i}`);
    await submitButton(page).click();
    await page.getByRole("heading", { level: 2, name: `free search number ${i}` }).waitFor();
  }
  await page.getByText("Last free search used", { exact: true }).waitFor();
}

/**
 * Uses up the day's free searches on `/`, then tries one more by the button or by Enter; resolves
 * once the limit toast is up, with the search POSTs sent from the 6th try on.
 */
async function oneMoreAtTheLimit(page: Page, by: "click" | "Enter"): Promise<string[]> {
  await visit(page, "/");
  await useUpFreeSearches(page);
  const sent = searchPosts(page);
  await queryBox(page).fill("one search too many");
  if (by === "click") await submitButton(page).click();
  else await queryBox(page).press("Enter");
  await page.getByText("Daily Search Limit Reached", { exact: true }).waitFor();
  return sent;
}

/** Whether a click at the centre of `target` lands on it (or inside it), rather than on something covering it. */
async function clickable(target: Locator): Promise<boolean> {
  await target.scrollIntoViewIfNeeded();
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

/** The limit toast while it is on screen. */
const limitToast = (page: Page) =>
  page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem").filter({ hasText: "Daily Search Limit Reached" });

describe("the free daily limit in Chromium", () => {
  for (const [label, viewport] of [
    ["1280 px", DESKTOP],
    ["360 px", MOBILE],
  ] as const) {
    test(
      `anonymous at ${label}: the 6th click sends nothing, shows the toast and lands on sign-in, whose Create Account button is not covered`,
      async () => {
        const page = await harness().newPage({ viewport });
        const sent = await oneMoreAtTheLimit(page, "click");
        expect(await page.getByText("You've reached your free daily search limit. Upgrade to Pro for unlimited searches.", { exact: true }).isVisible()).toBe(
          true,
        );
        await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("from") === "upgrade");
        // Sign-in opens on Register for someone on the way to upgrading: its button is the page's main one.
        const createAccount = page.getByRole("tabpanel", { name: "Register" }).getByRole("button", { name: "Create Account" });
        await createAccount.waitFor();
        if (viewport === DESKTOP) await screenshot(page, "quota-limit-sign-in.png");
        expect(await clickable(createAccount)).toBe(true);
        // Said where the visitor now is, too, while the toast is still up.
        expect(await limitToast(page).isVisible()).toBe(true);
        expect(sent).toEqual([]);
      },
      TIMEOUT,
    );
  }

  test(
    "anonymous, by Enter in the query box: blocked the same way, nothing sent",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      const sent = await oneMoreAtTheLimit(page, "Enter");
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("from") === "upgrade");
      expect(sent).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "a signed-in free user: the 6th click sends nothing and lands on /checkout, whose Subscribe button is not covered",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      expect((await page.request.post("/api/register", { data: newAccount() })).status()).toBe(201);
      const sent = await oneMoreAtTheLimit(page, "click");
      await page.waitForURL((url) => url.pathname === "/checkout");
      const subscribe = page.getByRole("button", { name: /^Subscribe/ });
      await subscribe.waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll("button")].some((b) => b.textContent?.startsWith("Subscribe") && !b.disabled));
      await screenshot(page, "quota-limit-checkout.png");
      expect(await clickable(subscribe)).toBe(true);
      expect(sent).toEqual([]);
    },
    TIMEOUT,
  );
});
