import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { screenshot, useBrowser, visit } from "#tests/support/browser.ts";

/*
 * Cancelling a long search in Chromium (ADR 030): what had finished stays on the page with
 * "Cancelled after N of M iterations", and the history lists it. Each simulated answer takes a
 * while, so a 100-iteration search is far from done when Cancel is clicked.
 */
const harness = useBrowser({ simulator: { seed: 20261126, latency: { kind: "fixed", ms: 250 } }, distinctAddresses: true });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 60_000;
const DESKTOP = { width: 1280, height: 900 };
const NOTE = /^Cancelled after (\d+) of 100 iterations$/;

async function proHome(): Promise<Page> {
  const page = await harness().newPage({ viewport: DESKTOP });
  await page.goto("/");
  await harness().signInAsPro(page);
  await visit(page, "/");
  return page;
}

/** The most iterations any provider has finished, as the progress panel shows them ("12 / 100"). */
async function furthest(page: Page): Promise<number> {
  const counts = await Promise.all(providerIds.map(async (id) => Number.parseInt((await page.getByTestId(`progress-${id}`).textContent()) ?? "0", 10)));
  return Math.max(...counts);
}

describe("a cancelled search in Chromium", () => {
  test(
    "Cancel at a few of 100 iterations: the partial results and 'Cancelled after N of 100 iterations' stay; the history lists it, and its page says the same",
    async () => {
      const page = await proHome();
      const form = page.getByRole("form", { name: "Search" });
      await page.getByLabel("What would you like to search?").fill("best crm for startups");
      await form.getByRole("combobox", { name: "Search Iterations" }).selectOption("100");
      await form.getByRole("button", { name: "Search All Models" }).click();

      // A few iterations in (every provider has answered once, so each has a card), then Cancel.
      await page.waitForFunction(
        (ids) => ids.every((id) => Number.parseInt(document.querySelector(`[data-testid=progress-${id}]`)?.textContent ?? "0", 10) >= 3),
        [...providerIds],
      );
      const seen = await furthest(page);
      await page.getByRole("button", { name: "Cancel" }).click();

      const note = page.getByTestId("cancelled-note").getByText(NOTE);
      await note.waitFor();
      const finished = Number(NOTE.exec((await note.textContent()) ?? "")?.[1]);
      expect(finished).toBeGreaterThanOrEqual(seen);
      expect(finished).toBeLessThan(100);
      // What had finished is on the page: the result views and every provider's card with its answer.
      await page.getByRole("tablist", { name: "Result views" }).waitFor();
      expect(await page.getByRole("heading", { level: 2, name: "best crm for startups" }).isVisible()).toBe(true);
      for (const id of providerIds) {
        const card = page.getByRole("region", { name: `${providerCatalogue[id].model} Results`, exact: true });
        expect(await card.isVisible()).toBe(true);
      }
      // Frequency Analysis counts the iterations that finished.
      await page.getByRole("tablist", { name: "Result views" }).getByRole("tab", { name: "Frequency Analysis" }).click();
      await page.getByRole("tabpanel", { name: "Frequency Analysis" }).waitFor();
      await page.getByTestId("cancelled-note").scrollIntoViewIfNeeded();
      await screenshot(page, "search-cancelled.png");

      await visit(page, "/user/history");
      const entry = page.getByRole("link").filter({ hasText: "best crm for startups" });
      await entry.waitFor();
      expect(await entry.getByText("Cancelled", { exact: true }).isVisible()).toBe(true);
      await entry.click();
      await page.waitForURL((url) => url.pathname.startsWith("/search/"));
      await page.getByTestId("cancelled-note").getByText(`Cancelled after ${finished} of 100 iterations`, { exact: true }).waitFor();
    },
    TIMEOUT,
  );
});
