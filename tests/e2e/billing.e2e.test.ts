import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { newAccount } from "#tests/support/accounts.ts";
import { registerThroughForm, useBrowser, visit, type PageOptions } from "#tests/support/browser.ts";

/*
 * Pro, end to end in Chromium with no keys: the Stripe simulator, its Stripe.js stand-in served
 * through the app, and its signed webhooks into the app.
 */
const harness = useBrowser({ distinctAddresses: true });
const SLOW = 60_000;

async function signedInPage(pageOptions?: PageOptions): Promise<Page> {
  const page = await harness().newPage(undefined, pageOptions);
  const response = await page.request.post("/api/register", { data: newAccount() });
  expect(response.status()).toBe(201);
  return page;
}

/** Fills the payment form (the stand-in renders real labelled inputs, as Stripe's Payment Element does in its frame). */
async function payWith(page: Page, card: string): Promise<void> {
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiration date").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: /^Subscribe/ }).click();
}

describe("billing in Chromium", () => {
  test(
    "a free user upgrades with 4242…, is a Pro Member, runs 5 iterations, then cancels and sees the scheduled end",
    async () => {
      const page = await signedInPage();
      await visit(page, "/");
      await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Upgrade to Pro" }).click();
      await page.waitForURL((url) => url.pathname === "/checkout");
      await page.getByText("Test mode: no card is charged").first().waitFor();
      await page.getByRole("button", { name: "Subscribe for $19.00 USD/month" }).waitFor();
      await payWith(page, "4242 4242 4242 4242");

      await page.waitForURL((url) => url.pathname === "/");
      await page.getByText("Pro Subscription Active", { exact: true }).waitFor();
      await page.getByRole("button", { name: "Pro Member" }).waitFor();

      await page.getByLabel("What would you like to search?").fill("best standing desk");
      await page.getByRole("combobox", { name: "Search Iterations" }).selectOption("5");
      await page.getByRole("button", { name: "Search All Models" }).click();
      // The results header's badge (the select has an option of the same text).
      await page
        .locator("[data-slot=badge]")
        .filter({ hasText: /^5 iterations$/ })
        .waitFor({ timeout: 30_000 });

      await visit(page, "/user/subscription");
      await page.getByRole("heading", { name: "Pro Subscription" }).waitFor();
      expect(await page.getByText("$19.00 USD/month").count()).toBeGreaterThan(0);
      await page.getByRole("button", { name: "Cancel Subscription" }).click();
      await page.getByRole("button", { name: "Keep Subscription" }).waitFor();
      await page.getByRole("button", { name: "Yes, Cancel Subscription" }).click();
      await page.getByText("Subscription Canceled", { exact: true }).waitFor();
      await page.getByText("Scheduled to cancel").waitFor();
      await page.getByRole("button", { name: "Resume Subscription" }).waitFor();
      // Still Pro until the period ends.
      await page.getByRole("button", { name: "Pro Member" }).waitFor();
    },
    SLOW,
  );

  test(
    "a declined card shows Stripe's message in the form, and the person can try another card",
    async () => {
      // The refused payment answers 402, which the browser logs.
      const page = await signedInPage({ allowConsoleErrors: [/Failed to load resource.*\b402\b/] });
      await visit(page, "/checkout");
      await page.getByLabel("Card number").waitFor();
      await payWith(page, "4000 0000 0000 0002");
      await page.getByText("Your card was declined.").waitFor();
      expect(new URL(page.url()).pathname).toBe("/checkout");
      await payWith(page, "4242 4242 4242 4242");
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("button", { name: "Pro Member" }).waitFor();
    },
    SLOW,
  );

  test(
    "an anonymous visitor's upgrade goes through sign-in with the banner, then on to the payment form",
    async () => {
      const page = await harness().newPage();
      await visit(page, "/");
      await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Upgrade to Pro" }).click();
      await page.waitForURL((url) => url.pathname === "/auth" && url.searchParams.get("from") === "upgrade");
      await page.getByText("Create an Account to Upgrade to Pro").waitFor();
      await registerThroughForm(page, newAccount());
      await page.waitForURL((url) => url.pathname === "/checkout");
      await page.getByLabel("Card number").waitFor();
    },
    SLOW,
  );
});
