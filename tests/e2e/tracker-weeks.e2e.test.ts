import { describe, expect, test } from "bun:test";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { SourcesReport, TrackerAlertList, Trend } from "#src/contract/trend.ts";
import { sourceTableCells } from "#web/lib/sources.ts";
import { alertText } from "#web/lib/alert-words.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { cells, expectedTrendRows, expectGap, pageJson, runOnce, seedFetch, trendRows } from "#tests/support/tracker-pages.ts";
import { seedTracker } from "../../scripts/seed.ts";

/*
 * The acceptance picture in Chromium: a Pro user's tracker with three weeks of daily runs
 * (made by the seed, `bun run seed --tracker-days 21`, on this server's database and app), then
 * one more real run after OpenAI stops searching the web, which raises an alert. The page draws
 * each provider's 22 runs, lists the alert, and shows the sources by type and the citation gap as
 * the API gives them, on a desktop and within a phone's width.
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });

const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };
const DAYS = 21;
/**
 * Twenty answers a provider per run for its 2 questions: an alert needs ten a window
 * (DEFAULT_ALERT_RULES), and at ten a fall from 6 citing answers to none (p ≈ 0.01) does not pass
 * the Benjamini–Hochberg bar over all of the run's tests (every provider, subject and question); at twenty, 12 to none does (p ≈ 5e-5).
 */
const ITERATIONS = 10;
const account = { username: "weeks", password: "weeks-password" };

describe("a tracker with weeks of runs in Chromium", () => {
  test(
    "21 seeded days and a real run with OpenAI not searching: each provider's 22 runs drawn and tabled as the API's, the alert listed, sources and gap as the API's, on a phone too",
    async () => {
      const seeded = await seedTracker(harness().database, seedFetch(harness().baseUrl), { days: DAYS, queries: 2, iterations: ITERATIONS, ...account });
      expect(seeded.counts.runs).toBe(DAYS);
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await pageJson(page, "POST", "/api/login", account);
      const trackerId = seeded.trackerId;

      // OpenAI answers without searching the web from now on: the last run's citations fall.
      harness().simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      try {
        const last = await runOnce(page, trackerId);
        await visit(page, `/trackers/${trackerId}`);

        // A chart per provider, a named picture with its canvas, of 22 runs.
        for (const id of providerIds) {
          const chart = page.getByRole("img", {
            name: `Mentions on ${providerCatalogue[id].name} per run: HubSpot with its 95% band, and its competitors`,
          });
          await chart.locator("canvas").first().waitFor();
          const { points } = await pageJson<Trend>(page, "GET", `/api/trackers/${trackerId}/trend?metric=mention&provider=${id}`);
          expect(new Set(points.map((point) => point.runId)).size).toBe(DAYS + 1);
        }

        // The alert: OpenAI's citations of hubspot.com fell at the last run, after three flat weeks; the page lists every alert the API has.
        const { alerts } = await pageJson<TrackerAlertList>(page, "GET", `/api/trackers/${trackerId}/alerts`);
        const fell = alerts.find(
          (alert) => alert.kind === "fell" && alert.metric === "citation" && alert.provider === "openai" && alert.subject === "HubSpot" && !alert.query,
        );
        expect(fell?.runId).toBe(last.id);
        expect(alerts.every((alert) => alert.runId === last.id)).toBe(true);
        expect(
          await page
            .getByTestId("tracker-alert")
            .filter({ hasText: alertText(fell!, providerCatalogue.openai.name) })
            .count(),
        ).toBe(1);
        expect(await page.getByTestId("tracker-alert").count()).toBe(alerts.length);

        // Sources by type, a chart per provider that cited a site, and the citation gap as the API's.
        const report = await pageJson<SourcesReport>(page, "GET", `/api/trackers/${trackerId}/sources`);
        const citing = providerIds.filter((id) => report.byType.some((row) => row.provider === id));
        expect(citing.length).toBeGreaterThan(0);
        // Every run's sources, the seeded days' too; OpenAI's last answers, without a search, cite none.
        for (const id of citing)
          expect(new Set(report.byType.filter((row) => row.provider === id).map((row) => row.runId)).size).toBe(id === "openai" ? DAYS : DAYS + 1);
        await page.getByRole("heading", { name: "Sources by type" }).waitFor();
        for (const id of citing)
          await page
            .getByRole("region", { name: `Sources on ${providerCatalogue[id].name}` })
            .getByRole("img")
            .locator("canvas")
            .first()
            .waitFor();
        await expectGap(page, report);
        expect(await seriousAxeViolations(page)).toEqual([]);
        // The README's picture, the tables still folded.
        await screenshot(page, "trackers-weeks.png", { fullPage: true });

        // The table views: each provider's trend is the API's points, its sources the API's shares.
        for (const id of providerIds) {
          const region = `Mentions on ${providerCatalogue[id].name}`;
          await page.getByRole("region", { name: region }).getByRole("button", { name: "Show table" }).click();
          expect(await trendRows(page, region)).toEqual(await expectedTrendRows(page, trackerId, "mention", id));
        }
        for (const id of citing) {
          const region = page.getByRole("region", { name: `Sources on ${providerCatalogue[id].name}` });
          await region.getByRole("button", { name: "Show table" }).click();
          expect(await cells(page, "sources-table", region)).toEqual(sourceTableCells(report.byType.filter((row) => row.provider === id)));
        }
        expect(await seriousAxeViolations(page)).toEqual([]);

        // On a phone the page fits the width.
        const phone = await harness().newPage({ viewport: PHONE });
        await phone.context().addCookies(await page.context().cookies());
        await visit(phone, `/trackers/${trackerId}`);
        await phone
          .getByRole("img", { name: /^Mentions on ChatGPT \/ OpenAI per run/ })
          .locator("canvas")
          .first()
          .waitFor();
        await phone.getByTestId("citation-gap").waitFor();
        expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
        await screenshot(phone, "trackers-weeks-phone.png", { fullPage: true });
      } finally {
        harness().simulator.clearFaults();
      }
    },
    TIMEOUT,
  );
});
