import { expect, test } from "bun:test";
import { useBrowser, waitForHydration } from "#tests/support/browser.ts";
import { testRetry } from "#tests/support/app.ts";

const harness = useBrowser({ simulator: { seed: 7 }, retry: { ...testRetry, maxDelayMs: 2000 }, distinctAddresses: true });

test("explore", async () => {
  const h = harness();
  const page = await h.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto("/");
  await waitForHydration(page);
  await h.signInAsPro(page);
  await page.reload();
  await waitForHydration(page);
  await page.waitForTimeout(1000);
  const select = page.getByRole("combobox");
  console.log("pro select value", await select.inputValue(), await select.locator("option").allTextContents());
  console.log(await page.locator("main").innerText());
  await page.getByLabel("What would you like to search?").fill("best running shoes");
  await select.selectOption("5");
  await page.getByRole("button", { name: "Search All Models" }).click();
  await page.getByRole("tab", { name: "Frequency Analysis" }).click();
  await page.waitForTimeout(300);
  console.log(await page.locator("main").innerText());
  await page.screenshot({ path: "/tmp/freq.png", fullPage: false });
}, 60000);
