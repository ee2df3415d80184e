import { describe, expect, test } from "bun:test";
import type { TrackerChanges } from "#src/contract/changes.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { pageJson, runOnce } from "#tests/support/tracker-pages.ts";
import { alertingTracker, BASELINE_RUNS } from "#tests/support/trackers.ts";

/*
 * The "What changed" on the tracker page in Chromium, on the loopback simulator and the real
 * job queue: after one run it says there are not enough runs yet; after a second, in which OpenAI no
 * longer searched the web, OpenAI's card lists the sites that left its top 10 with their counts, as
 * the API gives them.
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });

describe("what changed on a tracker's page in Chromium", () => {
  test("not enough runs after one; after two, OpenAI's sites that left its top 10 listed with their counts, as the API gives them", async () => {
    const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto("/");
    await harness().signInAsPro(page);
    harness().simulator.clearFaults();
    const tracker = await pageJson<Tracker>(page, "POST", "/api/trackers", alertingTracker);
    const path = `/trackers/${tracker.id}`;
    const section = page.getByRole("region", { name: "What changed" });

    await runOnce(page, tracker.id);
    await visit(page, path);
    await section.getByText("Not enough runs yet", { exact: false }).waitFor();
    // A baseline: the latest run is compared with up to 7 before it, and only moves beyond their noise are listed.
    for (let i = 1; i < BASELINE_RUNS; i++) await runOnce(page, tracker.id);

    harness().simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
    try {
      await runOnce(page, tracker.id);
    } finally {
      harness().simulator.clearFaults();
    }
    const { providers } = await pageJson<TrackerChanges>(page, "GET", `/api/trackers/${tracker.id}/changes`);
    const left = providers.openai!.domains.left;
    expect(left.length).toBeGreaterThan(0);

    await visit(page, path);
    const openai = section.getByTestId("provider-changes").filter({ has: page.getByRole("heading", { name: "ChatGPT / OpenAI" }) });
    await openai.waitFor();
    const sources = openai
      .locator("div")
      .filter({ has: page.getByRole("heading", { name: "Sources" }) })
      .last();
    const shown = await sources.getByRole("list", { name: "Left the top 10" }).getByRole("listitem").allTextContents();
    expect(shown).toEqual(left.map((item) => `${item.name} — 0 of ${item.after.n} answers, was ${item.before.count} of ${item.before.n}`));
    expect(await sources.getByRole("list", { name: "Entered the top 10" }).count()).toBe(0);
    // A card per provider, and the same lists for products and companies.
    expect(await section.getByTestId("provider-changes").count()).toBe(providerIds.length);
    expect(await openai.getByRole("heading", { level: 4 }).allTextContents()).toEqual(["Products", "Companies", "Sources"]);
    expect(await section.getByText("Not enough runs yet", { exact: false }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "trackers-changes.png");
  }, 180_000);
});
