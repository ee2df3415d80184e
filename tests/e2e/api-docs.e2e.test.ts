import { expect, test } from "bun:test";
import { useBrowser } from "#tests/support/browser.ts";

const harness = useBrowser();

test("/api/docs renders the API reference in Chromium from this origin alone: its title and operations, no console error, no CSP violation", async () => {
  const { baseUrl, newPage } = harness();
  // Console errors and uncaught exceptions fail the file (the harness).
  const page = await newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __violations: seen });
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });

  const response = await page.goto("/api/docs");
  expect(response?.status()).toBe(200);
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("script-src 'self';");
  expect(csp).not.toContain("unsafe-eval");
  expect(csp).toContain("frame-ancestors 'none'");

  await page.locator("h1.title", { hasText: "AI Search Comparison API" }).waitFor();
  const search = page.locator(".opblock-post", { has: page.locator('.opblock-summary-path[data-path="/api/search"]') });
  await search.waitFor();
  expect(await page.locator('.opblock-get .opblock-summary-path[data-path="/api/quota"]').count()).toBe(1);
  expect(await page.locator('.opblock-post .opblock-summary-path[data-path="/api/register"]').count()).toBe(1);
  // An operation opens to its request body, drawn from the valibot schema.
  await search.locator(".opblock-summary").click();
  await search.getByText("Request body").waitFor();

  // "Try it out" calls this origin and shows the answer.
  const quota = page.locator(".opblock-get", { has: page.locator('.opblock-summary-path[data-path="/api/quota"]') });
  await quota.locator(".opblock-summary").click();
  await quota.getByRole("button", { name: "Try it out" }).click();
  await quota.getByRole("button", { name: "Execute" }).click();
  await quota.locator(".live-responses-table .response-col_status", { hasText: "200" }).waitFor();

  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
  expect(requests.filter((url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith("data:"))).toEqual([]);
  expect(requests).toContain(`${baseUrl}/api/docs/json`);
  expect(requests).toContain(`${baseUrl}/api/quota`);
});
