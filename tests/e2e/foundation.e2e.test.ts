import { describe, expect, test } from "bun:test";
import { seriousAxeViolations, useBrowser, visit, waitForHydration } from "#tests/support/browser.ts";

const harness = useBrowser();

describe("foundation in Chromium", () => {
  test("the home page is rendered on the server: its content is there with JavaScript off", async () => {
    const page = await harness().newPage({ javaScriptEnabled: false });
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toBe("AI Search Comparison");
    expect(await page.getByText("Compare results across multiple AI models with a single search").count()).toBe(1);
    expect(await page.getByLabel("What would you like to search?").count()).toBe(1);
  });

  test("the home page hydrates: typing shows the clear button, which clears the query", async () => {
    const page = await harness().newPage();
    await visit(page, "/");
    const input = page.getByLabel("What would you like to search?");
    await input.fill("best running shoes");
    await page.getByRole("button", { name: "Clear search" }).click();
    expect(await input.inputValue()).toBe("");
    expect(await page.getByRole("button", { name: "Clear search" }).count()).toBe(0);
  });

  test("a blank query shows the spec's toast instead of searching", async () => {
    const page = await harness().newPage();
    await visit(page, "/");
    await page.getByRole("button", { name: "Search All Models" }).click();
    await page.getByText("Empty search query", { exact: true }).waitFor();
    expect(await page.getByText("Please enter a search query to continue", { exact: true }).count()).toBe(1);
  });

  test("links navigate on the client, without a full page load", async () => {
    const page = await harness().newPage();
    await visit(page, "/");
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));
    await page.getByRole("link", { name: "Log In / Sign Up" }).click();
    await page.waitForURL("**/auth");
    await page.getByRole("heading", { name: "Log In / Sign Up" }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await page.goBack();
    await page.getByRole("heading", { name: "AI Search Comparison" }).waitFor();
    expect(await page.title()).toBe("AI Search Comparison");
  });

  test("an unknown path shows the exact 404 screen, whose button returns home", async () => {
    const page = await harness().newPage();
    const response = await page.goto("/does-not-exist");
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("404 Page Not Found");
    expect(await page.getByText("The page you're looking for doesn't exist or may have been moved.").count()).toBe(1);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByRole("heading", { name: "AI Search Comparison" }).waitFor();
  });

  test("no serious or critical accessibility violations on the home and 404 pages", async () => {
    const page = await harness().newPage();
    for (const path of ["/", "/does-not-exist"]) {
      await visit(page, path);
      expect({ path, violations: await seriousAxeViolations(page) }).toEqual({ path, violations: [] });
    }
  });
});
