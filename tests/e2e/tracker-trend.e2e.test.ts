import { describe, expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import type { TrackerSummary } from "#src/contract/summary.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import type { Trend, TrackerAlertList } from "#src/contract/trend.ts";
import { formatDate } from "#src/core/dates.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";
import { formatPoint, metricAxis } from "#web/lib/trend.ts";
import { alertText } from "#web/lib/alert-words.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { expectedTrendRows, pageJson, runOnce, trendRows } from "#tests/support/tracker-pages.ts";
import { alertingTracker, BASELINE_RUNS } from "#tests/support/trackers.ts";

/*
 * The tracker page in Chromium, on the loopback simulator and the real job queue: after one
 * run a sentence says the trend comes after the second; after three (OpenAI stops searching the web
 * after the first, the questions are edited before the third) each provider's chart is drawn with
 * its accessible name, its table shows the API's figures, the metric switch changes them, the rule
 * for the edited questions is told, and the alert for OpenAI's fallen citations is listed with the
 * answers behind it.
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });

const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };

const definition = alertingTracker;

describe("a tracker's trend and alerts in Chromium", () => {
  test(
    "after one run a sentence; after a baseline, a fall and an edit, a chart per provider with its name, its table = the API's figures, the metric switch, the edit marked, the fall alerted",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await harness().signInAsPro(page);
      harness().simulator.clearFaults();
      const tracker = await pageJson<Tracker>(page, "POST", "/api/trackers", definition);
      const path = `/trackers/${tracker.id}`;

      const first = await runOnce(page, tracker.id);
      // A reader in Berlin reads the run's time, and the next run, in Berlin time, the zone named (the tracker's is UTC).
      const berlin = await harness().newPage({ viewport: DESKTOP, timezoneId: "Europe/Berlin", storageState: await page.context().storageState() });
      await visit(berlin, path);
      await berlin
        .getByTestId("run-time")
        .filter({ hasText: formatInZone(first.startedAt ?? first.scheduledFor, "Europe/Berlin") })
        .waitFor();
      expect(await berlin.getByTestId("tracker-run").first().getAttribute("aria-label")).toBe(`Run of ${formatInZone(first.scheduledFor, "Europe/Berlin")}`);
      await berlin
        .getByText(/\(Europe\/Berlin\) · in /)
        .first()
        .waitFor();
      await berlin.close();
      await visit(page, path);
      await page.getByText("The trend appears after the tracker’s second run.").waitFor();
      // The headline heads the page: the API's sentence for the last 7 days, a row per provider and one for all; "This run" asks for the newest run's.
      const week = await pageJson<TrackerSummary>(page, "GET", `/api/trackers/${tracker.id}/summary`);
      expect(await page.getByTestId("tracker-summary-sentence").textContent()).toBe(week.sentence);
      expect(week.sentence).toStartWith("HubSpot: named in ");
      expect(await page.getByTestId("tracker-summary-row").count()).toBe(week.providers.length + 1);
      // Every provider here answers from the simulator: each row carries its flask, and the headline says so once.
      const summary = page.getByTestId("tracker-summary");
      await summary.getByText("answers from our simulator, not from the live provider").waitFor();
      expect(await summary.locator('[data-simulated="mark"]').count()).toBe(week.providers.length);
      await page.getByRole("group", { name: "Period" }).getByRole("button", { name: "This run" }).click();
      const newest = await pageJson<TrackerSummary>(page, "GET", `/api/trackers/${tracker.id}/summary?period=run`);
      await page.getByRole("button", { name: "This run", pressed: true }).waitFor();
      await page.getByTestId("tracker-summary-sentence").filter({ hasText: newest.sentence }).waitFor();
      await page.getByText("No alerts.", { exact: false }).waitFor();
      expect(await page.getByTestId("trend-chart").count()).toBe(0);
      // The rest of a baseline: a series is tested from its fourth run (ADR 050).
      for (let i = 1; i < BASELINE_RUNS; i++) await runOnce(page, tracker.id);

      // OpenAI answers without searching the web from now on: it stops citing hubspot.com.
      harness().simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      try {
        const second = await runOnce(page, tracker.id);
        // The questions edited: the next run starts a new series, marked on the chart.
        await pageJson(page, "PATCH", `/api/trackers/${tracker.id}`, { queries: [...definition.queries, "crm with a free plan"] });
        const third = await runOnce(page, tracker.id);

        await visit(page, path);
        // A chart per provider, each a named picture with its canvas.
        for (const provider of ["ChatGPT / OpenAI", "Claude / Anthropic", "Gemini / Google"]) {
          const chart = page.getByRole("img", { name: `Mentions on ${provider} per run: HubSpot with its 95% band, and its competitors` });
          await chart.locator("canvas").first().waitFor();
        }
        const openai = page.getByRole("region", { name: "Mentions on ChatGPT / OpenAI" });
        expect(await openai.getByTestId("trend-markers").textContent()).toContain(
          `What the tracker asks or counts was edited before the run of ${formatDate(third.scheduledFor)}`,
        );
        expect(await seriousAxeViolations(page)).toEqual([]);

        // Values on hover and on keyboard focus: focused, the chart tells the newest run (its time, each subject's figure and band), as
        // its table's rows do; the arrow keys step back a run; the pointer shows the run under it; leaving, the tooltip goes.
        const rows = await expectedTrendRows(page, tracker.id, "mention");
        const runTooltip = (at: number) => rows.filter((row) => row[0] === rows[at * 2]![0]).map((row) => `${row[1]}: ${row[2]}`);
        const tooltip = openai.getByTestId("chart-tooltip");
        await openai.getByRole("group", { name: /per run: HubSpot with its 95% band, and its competitors\. Use the left and right arrow keys/ }).focus();
        const newest = rows.length / 2 - 1;
        await tooltip.getByText(rows[newest * 2]![0]!, { exact: true }).waitFor();
        expect(await tooltip.locator("li").allTextContents()).toEqual(runTooltip(newest));
        const said = rows.filter((row) => row[0] === rows[newest * 2]![0]).map((row) => `${row[1]} ${row[2]}`);
        expect(await openai.getByTestId("chart-live").textContent()).toBe(`${rows[newest * 2]![0]}: ${said.join("; ")}`);
        await page.keyboard.press("ArrowLeft");
        await tooltip.getByText(rows[(newest - 1) * 2]![0]!, { exact: true }).waitFor();
        expect(await tooltip.locator("li").allTextContents()).toEqual(runTooltip(newest - 1));
        await page.keyboard.press("Home");
        await tooltip.getByText(rows[0]![0]!, { exact: true }).waitFor();
        await openai.getByRole("heading").click();
        await tooltip.waitFor({ state: "detached" });
        const canvas = openai.getByRole("img").locator("canvas").first();
        const box = (await canvas.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await tooltip.waitFor();
        expect(rows.map((row) => row[0])).toContain((await tooltip.locator("p").first().textContent()) ?? "");
        await page.mouse.move(0, 0);
        await tooltip.waitFor({ state: "detached" });

        // The alert: OpenAI's citations of hubspot.com fell at the run after the baseline, with the answers behind it.
        const { alerts } = await pageJson<TrackerAlertList>(page, "GET", `/api/trackers/${tracker.id}/alerts`);
        const fell = alerts.find(
          (alert) => alert.kind === "fell" && alert.metric === "citation" && alert.provider === "openai" && alert.subject === "HubSpot" && !alert.query,
        );
        expect(fell?.runId).toBe(second.id);
        const listed = page.getByTestId("tracker-alert").filter({ hasText: alertText(fell!, "ChatGPT / OpenAI") });
        expect(await listed.count()).toBe(1);
        expect(await listed.getByText(/^p (=|<) .* · q (=|<) /).count()).toBe(1);
        expect(
          await listed.getByRole("link").evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname).toSorted()),
        ).toEqual(fell!.searchIds.map((id) => `/search/${id}`).toSorted());
        expect(await page.getByTestId("tracker-alert").count()).toBe(alerts.length);
        await screenshot(page, "trackers-trend.png", { fullPage: true });

        // The table view: the same figures as the API's points.
        await openai.getByRole("button", { name: "Show table" }).click();
        const mentions = await expectedTrendRows(page, tracker.id, "mention");
        expect(mentions).toHaveLength(2 * (BASELINE_RUNS + 2));
        expect(await trendRows(page, "Mentions on ChatGPT / OpenAI")).toEqual(mentions);

        // The metric switch: citations, whose figures differ (OpenAI's fell to none).
        await page.getByRole("group", { name: "Metric" }).getByRole("button", { name: "Citations" }).click();
        const citations = await expectedTrendRows(page, tracker.id, "citation");
        expect(citations).not.toEqual(mentions);
        // Oldest run first, the brand first: the row after the baseline's is the fallen run's HubSpot.
        expect(citations[2 * BASELINE_RUNS]?.slice(1, 3)).toEqual(["HubSpot", expect.stringMatching(/^0% \(0–\d+%\)$/)]);
        await page.getByRole("region", { name: "Citations on ChatGPT / OpenAI" }).waitFor();
        expect(await trendRows(page, "Citations on ChatGPT / OpenAI")).toEqual(citations);
        expect(await page.getByRole("button", { name: "Citations", pressed: true }).count()).toBe(1);
        expect(await seriousAxeViolations(page)).toEqual([]);

        // Small multiples: a chart per question that has runs, the brand's citations on each provider; its table is the API's per-query points.
        const questions = page.getByTestId("trend-question");
        await questions.first().getByRole("img").locator("canvas").first().waitFor();
        const { points: perQuery } = await pageJson<Trend>(page, "GET", `/api/trackers/${tracker.id}/trend?metric=citation&perQuery=true`);
        const asked = [...new Set(perQuery.map((point) => point.query))];
        expect(await questions.count()).toBe(asked.length);
        const first = questions.filter({ has: page.getByRole("heading", { name: definition.queries[0], exact: true }) });
        await first.getByRole("button", { name: "Show table" }).click();
        const shown = await first
          .getByTestId("question-table")
          .locator("tbody tr")
          .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")));
        const expected = perQuery.filter((point) => point.isBrand && point.query === definition.queries[0]);
        expect(shown.map((row) => row[2])).toEqual(
          expected
            .toSorted((a, b) => a.at.localeCompare(b.at) || providerIds.indexOf(a.provider) - providerIds.indexOf(b.provider))
            .map((point) => formatPoint(point, "citation")),
        );
        expect(await seriousAxeViolations(page)).toEqual([]);

        // Position: the mean position, 1 at the top.
        await page.getByRole("group", { name: "Metric" }).getByRole("button", { name: "Position" }).click();
        await page.getByRole("region", { name: "Position on ChatGPT / OpenAI" }).getByText(metricAxis.position).waitFor();

        // On a phone the page fits the width.
        const phone = await harness().newPage({ viewport: PHONE });
        await phone.context().addCookies(await page.context().cookies());
        await visit(phone, path);
        await phone
          .getByRole("img", { name: /^Mentions on ChatGPT \/ OpenAI per run/ })
          .locator("canvas")
          .first()
          .waitFor();
        expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
        // Its tooltip too, at the oldest run and at the newest.
        const phoneChart = phone.getByRole("region", { name: "Mentions on ChatGPT / OpenAI" });
        await phoneChart.getByRole("group", { name: /Use the left and right arrow keys/ }).focus();
        for (const key of ["Home", "End"]) {
          await phone.keyboard.press(key);
          await phoneChart.getByTestId("chart-tooltip").waitFor();
          expect(await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
        }
        await screenshot(phone, "trackers-trend-phone.png", { fullPage: true });
      } finally {
        harness().simulator.clearFaults();
      }
    },
    TIMEOUT,
  );
});
