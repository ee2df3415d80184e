import { describe, expect, test } from "bun:test";
import type { Locator, Page } from "playwright-core";
import { newAccount } from "#tests/support/accounts.ts";
import { useBrowser, visit, type PageOptions } from "#tests/support/browser.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * Toasts in Chromium, on Playwright's fake clock: a toast closes by itself after 5 s (Radix
 * Toast's timer, ToastProvider's duration in web/components/ui/toaster.tsx), and a new toast
 * takes the place of the one on screen.
 *
 * The clock is installed before the page loads and runs at real speed while the page loads and
 * hydrates; then it is paused, so the toast's timer only moves when the test moves the clock.
 * Network, React rendering (a MessageChannel) and CSS animations are not on that clock: a closed
 * toast animates out in real time. React's Suspense does use it: the toast region, loaded with the
 * first toast, is revealed by a timer (React holds a revealed boundary back up to 300 ms), so the
 * clock is moved in small steps until the toast is on screen, and its 5 s are counted from there.
 */
const harness = useBrowser({ distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout (Bun 1.4.5 uses 5 s). No test asserts on time. */
const TIMEOUT = 45_000;

/** Toasts on screen: the items of the "Notifications (F8)" region. */
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");

/** `path` loaded and hydrated on a fake clock, which is then paused. */
async function openOnPausedClock(path: string, pageOptions?: PageOptions): Promise<Page> {
  const page = await harness().newPage(undefined, pageOptions);
  await page.clock.install();
  await visit(page, path);
  // A second ahead of the page's clock, which runs at real speed until then.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
  return page;
}

const STEP_MS = 50;

/**
 * Moves the paused clock STEP_MS at a time until the toast is on screen: it shows up within one
 * step of the moment it is shown (its timer starts when it mounts). Gives up after 20 s of real
 * time, the chunk's download included.
 */
async function runClockUntilShown(page: Page, toast: Locator): Promise<void> {
  await waitFor(
    async () => {
      if (await toast.isVisible()) return true;
      await page.clock.runFor(STEP_MS);
      // Real time for a download or a render in progress, without moving the page's clock.
      await toast.waitFor({ timeout: STEP_MS }).catch(() => {});
      return false;
    },
    { what: "the toast on screen", timeoutMs: 20_000 },
  );
}

/**
 * Lets the page finish the work that the clock's timers started: React renders in tasks it has
 * already queued on a MessageChannel (not on the fake clock); these run before this one.
 */
async function settled(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

async function submitBlankSearch(page: Page): Promise<void> {
  await page.getByRole("form", { name: "Search" }).getByRole("button", { name: "Search All Models" }).click();
}

describe("toasts in Chromium", () => {
  test(
    "a toast stays 5 seconds, then closes by itself",
    async () => {
      const page = await openOnPausedClock("/");
      await submitBlankSearch(page);
      const toast = toasts(page).filter({ hasText: "Empty search query" });
      await runClockUntilShown(page, toast);
      expect(await toast.textContent()).toContain("Please enter a search query to continue");

      // Shown at most one step ago: 4.9 s later it is still there, open.
      await page.clock.runFor(4_900 - STEP_MS);
      await settled(page);
      expect(await toast.isVisible()).toBe(true);
      expect(await toast.getAttribute("data-state")).toBe("open");

      // 5.1 s: it has closed by itself.
      await page.clock.runFor(STEP_MS + 200);
      // Closed: it animates out (in real time) and leaves the page.
      await toast.waitFor({ state: "detached", timeout: 10_000 });
      expect(await toasts(page).count()).toBe(0);
      expect(await page.getByText("Empty search query", { exact: true }).isVisible()).toBe(false);
    },
    TIMEOUT,
  );

  test(
    "the same toast twice: one toast on screen",
    async () => {
      const page = await openOnPausedClock("/");
      await submitBlankSearch(page);
      await runClockUntilShown(page, toasts(page).filter({ hasText: "Empty search query" }));
      const first = await toasts(page).elementHandle();
      await submitBlankSearch(page);
      // The second toast takes the first one's place: the first leaves the page at once.
      await first!.waitForElementState("hidden", { timeout: 10_000 });
      expect(await toasts(page).count()).toBe(1);
      expect(await toasts(page).textContent()).toContain("Empty search query");
    },
    TIMEOUT,
  );

  test(
    "a new toast replaces the one on screen",
    async () => {
      const taken = newAccount();
      const response = await fetch(`${harness().baseUrl}/api/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(taken),
      });
      expect(response.status).toBe(201);
      // The refused login (401) and registration (409) are logged by the browser.
      const page = await openOnPausedClock("/auth", { allowConsoleErrors: [/Failed to load resource.*\b(401|409)\b.*\/api\/(login|register)\b/] });

      await page.getByLabel("Username").fill(taken.username);
      await page.getByLabel("Password", { exact: true }).fill("not-the-password-1");
      await page.getByRole("button", { name: "Log In" }).click();
      await runClockUntilShown(page, toasts(page).filter({ hasText: "Login failed" }));

      await page.getByRole("tab", { name: "Register" }).click();
      await page.getByLabel("Username").fill(taken.username);
      await page.getByLabel("Email").fill(newAccount().email);
      await page.getByLabel("Password", { exact: true }).fill(taken.password);
      await page.getByLabel("Confirm Password").fill(taken.password);
      // By Enter: the toast on screen covers the button.
      await page.getByLabel("Confirm Password").press("Enter");
      await toasts(page).filter({ hasText: "Registration failed" }).waitFor();

      expect(await toasts(page).count()).toBe(1);
      expect(await toasts(page).filter({ hasText: "Login failed" }).count()).toBe(0);
    },
    TIMEOUT,
  );
});
