import { afterAll, describe, expect, test } from "bun:test";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { liveProviderEnv } from "#tests/support/app.ts";
import { useBrowser, visit } from "#tests/support/browser.ts";

/*
 * With a key set for every provider the answers are live, and nothing says "Simulated". The keys
 * here are fake and the base URLs point at a loopback simulator: to the app that is a live
 * provider (its real SDK, a key, a base URL), which is exactly what the honesty labels go by.
 */
const upstream = startSimulator({ seed: 20261123, latency: { kind: "fixed", ms: 5 } });
afterAll(() => upstream.stop());

const harness = useBrowser({
  distinctAddresses: true,
  env: liveProviderEnv(upstream, { SIMULATE_PROVIDERS: "auto" }),
});

const TIMEOUT = 45_000;

describe("live providers in Chromium", () => {
  test(
    "with keys set, the connection panel says Connected and the results carry no Simulated label or mark",
    async () => {
      const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
      await visit(page, "/");
      const status = page.getByRole("region", { name: "Connection Status" });
      expect(await status.getByText("Connected", { exact: true }).count()).toBe(providerIds.length);
      expect(await status.getByText("Simulated", { exact: true }).count()).toBe(0);

      await page.getByLabel("What would you like to search?").fill("best noise cancelling headphones");
      await page.getByRole("button", { name: "Search All Models" }).click();
      const results = page.getByRole("region", { name: "best noise cancelling headphones" });
      await page.getByRole("tablist", { name: "Result views" }).waitFor();
      // The live providers really answered: each card lists products.
      for (const title of providerIds.map((id) => `${providerCatalogue[id].model} Results`)) {
        expect(await page.getByRole("region", { name: title, exact: true }).locator("ol > li").count()).toBeGreaterThan(0);
      }
      expect(upstream.requests.length).toBeGreaterThanOrEqual(providerIds.length);
      for (const tab of ["Side by Side", "Products", "Companies", "All Links"]) {
        await page.getByRole("tablist", { name: "Result views" }).getByRole("tab", { name: tab }).click();
        await page.getByRole("tabpanel", { name: tab }).waitFor();
        expect({ tab, marks: await results.locator("[data-simulated]").count() }).toEqual({ tab, marks: 0 });
        expect({ tab, text: /simulat/i.test(await results.innerText()) }).toEqual({ tab, text: false });
      }
    },
    TIMEOUT,
  );
});
