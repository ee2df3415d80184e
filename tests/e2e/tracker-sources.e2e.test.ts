import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { readFileSync } from "node:fs";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import type { SourcesReport, Trend } from "#src/contract/trend.ts";
import { UTF8_BOM } from "#src/core/export.ts";
import { trendToCsv } from "#src/core/trend-export.ts";
import { sourceTableCells } from "#web/lib/sources.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { cells, expectGap, pageJson, runOnce } from "#tests/support/tracker-pages.ts";
import { alertingTracker } from "#tests/support/trackers.ts";

/*
 * The sources on the tracker page in Chromium, on the loopback simulator and the real job
 * queue: after two runs each provider's sources by type are a named chart whose table shows the
 * API's shares, the citation gap lists the API's domains (or says there are none), and the trend's
 * CSV and JSON downloads hold what the API answers (the CSV as the CLI writes it).
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });

const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };
/**
 * A competitor no answer names: no site can be cited beside it, so the citation gap is empty by
 * construction. (With Salesforce as the competitor it is only usually empty: the simulator's
 * answers depend on the order the concurrent calls reach it, and about 1 pair of runs in 12
 * cites a site beside Salesforce alone.)
 */
const unnamedCompetitor = { ...alertingTracker, competitors: [{ name: "Nimbus Ledger", domains: ["nimbusledger.example"] }] };
/** A brand the simulator's CRM answers hardly name beside a competitor they name often: their sites are its citation gap. */
const unseenBrand = {
  ...alertingTracker,
  name: "Unseen brand",
  brand: { name: "Wise Agent", domains: ["wiseagent.com"] },
  competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }],
};

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: button }).click()]);
  return { name: download.suggestedFilename(), text: readFileSync(await download.path(), "utf8") };
}

describe("a tracker's sources and trend exports in Chromium", () => {
  test(
    "sources by type per provider with a name and the API's shares in its table, the citation gap = the API's, the CSV and JSON = the API's trend",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await harness().signInAsPro(page);
      harness().simulator.clearFaults();
      const tracker = await pageJson<Tracker>(page, "POST", "/api/trackers", unnamedCompetitor);
      const path = `/trackers/${tracker.id}`;
      await runOnce(page, tracker.id);
      await runOnce(page, tracker.id);
      const report = await pageJson<SourcesReport>(page, "GET", `/api/trackers/${tracker.id}/sources`);
      expect(report.byType.length).toBeGreaterThan(0);

      await visit(page, path);
      await page.getByRole("heading", { name: "Sources by type" }).waitFor();
      // A named chart per provider that cited a site, its table the API's rows for it.
      for (const id of providerIds) {
        const name = providerCatalogue[id].name;
        const rows = report.byType.filter((row) => row.provider === id);
        if (rows.length === 0) continue;
        const region = page.getByRole("region", { name: `Sources on ${name}` });
        await region
          .getByRole("img", { name: `Cited sources by type on ${name} per run: each type’s share of the citations` })
          .locator("canvas")
          .first()
          .waitFor();
        await region.getByRole("button", { name: "Show table" }).click();
        expect(await cells(page, "sources-table", region)).toEqual(sourceTableCells(rows));
      }
      expect(await page.getByTestId("sources-provider").count()).toBe(new Set(report.byType.map((row) => row.provider)).size);
      // Each run's shares add up to the whole, less rounding.
      const openai = report.byType.filter((row) => row.provider === "openai" && row.runId === report.byType[0]!.runId);
      expect(Math.abs(openai.reduce((sum, row) => sum + row.share, 0) - 100)).toBeLessThan(1);

      // No answer names the competitor: the gap's empty state.
      expect(report.gap).toEqual([]);
      await expectGap(page, report);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The trend's exports, of the metric shown: the CSV as the CLI writes it, the JSON as the API answers.
      for (const metric of ["mention", "citation"] as const) {
        if (metric === "citation") await page.getByRole("group", { name: "Metric" }).getByRole("button", { name: "Citations" }).click();
        await page.getByRole("button", { name: "Citations", pressed: metric === "citation" }).waitFor();
        const trend = await pageJson<Trend>(page, "GET", `/api/trackers/${tracker.id}/trend?metric=${metric}`);
        const csv = await downloaded(page, "Download CSV");
        expect(csv.name).toBe(`tracker-crm-visibility-trend-${metric}.csv`);
        expect(csv.text).toBe(UTF8_BOM + trendToCsv(trend));
        const asJson = await downloaded(page, "Download JSON");
        expect(asJson.name).toBe(`tracker-crm-visibility-trend-${metric}.json`);
        expect(JSON.parse(asJson.text)).toEqual(trend);
      }

      // A brand the answers hardly name: the sites cited beside its competitor are its gap, listed as the API ranks them.
      const unseen = await pageJson<Tracker>(page, "POST", "/api/trackers", unseenBrand);
      await runOnce(page, unseen.id);
      await runOnce(page, unseen.id);
      const unseenReport = await pageJson<SourcesReport>(page, "GET", `/api/trackers/${unseen.id}/sources`);
      expect(unseenReport.gap.length).toBeGreaterThan(0);
      await visit(page, `/trackers/${unseen.id}`);
      await expectGap(page, unseenReport);
      expect(await seriousAxeViolations(page)).toEqual([]);
      const sources = page.getByRole("heading", { name: "Sources by type" });
      await page
        .getByRole("img", { name: /^Cited sources by type on ChatGPT \/ OpenAI/ })
        .locator("canvas")
        .first()
        .waitFor();
      // The README's picture: the sources by type and the gap, from the section's heading down.
      await page.setViewportSize({ width: DESKTOP.width, height: 1700 });
      await sources.evaluate((heading) => heading.scrollIntoView({ block: "start" }));
      await screenshot(page, "trackers-sources.png");

      // On a phone the page fits the width.
      const phone = await harness().newPage({ viewport: PHONE });
      await phone.context().addCookies(await page.context().cookies());
      await visit(phone, path);
      await phone
        .getByRole("img", { name: /^Cited sources by type on ChatGPT \/ OpenAI/ })
        .locator("canvas")
        .first()
        .waitFor();
      await phone.getByTestId("citation-gap").waitFor();
      expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await screenshot(phone, "trackers-sources-phone.png", { fullPage: true, published: false });
    },
    TIMEOUT,
  );
});
