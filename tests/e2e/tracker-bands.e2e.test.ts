import { describe, expect, test } from "bun:test";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { TrackerChanges } from "#src/contract/changes.ts";
import type { Detectability, Tracker, TrackerRunList } from "#src/contract/trackers.ts";
import type { TrackerAlertList, Trend } from "#src/contract/trend.ts";
import { trackerAlerts } from "#db/schema.ts";
import { changesIntro, withinNoiseText } from "#web/lib/changes.ts";
import { detectabilityWords } from "#web/lib/tracker-form.ts";
import { alertStatistics, bandsCaption, brandLegend, countHeader, figureHeader, metricAxis } from "#web/lib/trend.ts";
import { alertText, EARLIER_RULE_NOTE, EARLIER_RULE_SHORT, NO_TRACKER_ALERTS } from "#web/lib/alert-words.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { expectedTrendRows, pageJson, runOnce, trendRows } from "#tests/support/tracker-pages.ts";

/*
 * The words in Chromium, on the loopback simulator (fixed 5 ms) and the real job queue: the
 * new-tracker form says what change its shape can tell, worked out again as its questions and
 * iterations change; the saved tracker's page says its own; after three runs the trend's caption
 * names each provider's run-to-run spread as the API gives it, the legend and the tables say what
 * a band covers, position is the mean when ranked with how many answers ranked it, "What
 * changed" and the alerts say what they compare; an alert of rule 2 says what its test counted
 * with, one of the earlier rule that it may be noise, on the page and in the bell.
 */
const harness = useBrowser({ simulator: { seed: 20261226 }, distinctAddresses: true });

const TIMEOUT = 180_000;
const DESKTOP = { width: 1280, height: 900 };
const QUESTIONS = ["best crm for startups", "best crm for small business", "crm with a free plan"];
const names = Object.fromEntries(providerIds.map((id) => [id, providerCatalogue[id].name])) as Record<ProviderId, string>;

describe("what a tracker's figures mean, in Chromium", () => {
  test(
    "the form's sentence follows its shape; the tracker page's own; after three runs the bands' caption, legend and tables say what they cover",
    async () => {
      const page = await harness().newPage({ viewport: DESKTOP });
      await page.goto("/");
      await harness().signInAsPro(page);
      const lens = await page.request.put("/api/user/brand-lens", {
        data: { brand: { name: "HubSpot", aliases: [], domains: ["hubspot.com"] }, competitors: [{ name: "Salesforce" }] },
      });
      expect(lens.status()).toBe(200);

      await visit(page, "/trackers/new");
      const seeing = page.getByRole("region", { name: "What it can see" });
      const sentence = seeing.getByTestId("detectability-sentence");
      // Without questions there is nothing to work out; the hint is there from the start.
      expect(await sentence.textContent()).toBe(detectabilityWords.missing);
      expect(await seeing.getByText(detectabilityWords.hint).isVisible()).toBe(true);

      await page.getByLabel("Name", { exact: true }).fill("CRM, what it can see");
      await page.getByLabel("Questions").fill(QUESTIONS.join("\n"));
      await page.getByLabel("Iterations per question").fill("1");
      // The server's sentence for this shape: 3 questions, 1 answer, every provider (the form ticks each connected one), 1 competitor (from the lens).
      const asked = (iterations: number) =>
        pageJson<Detectability>(page, "GET", `/api/trackers/estimate?questions=3&iterations=${iterations}&providers=${providerIds.length}&competitors=1`);
      const one = await asked(1);
      expect(one.sentence).toStartWith(`With 3 questions × 1 answer on ${providerIds.length} providers, `);
      await seeing.getByText(one.sentence, { exact: true }).waitFor();

      // More answers per question: a quiet line while the server works it out, then the new shape's sentence.
      await page.getByLabel("Iterations per question").fill("20");
      await seeing.getByText(detectabilityWords.loading, { exact: true }).waitFor();
      const twenty = await asked(20);
      expect(twenty.sentence).toStartWith(`With 3 questions × 20 answers on ${providerIds.length} providers, `);
      expect(twenty.sentence).not.toBe(one.sentence);
      await seeing.getByText(twenty.sentence, { exact: true }).waitFor();
      expect(await seeing.getAttribute("aria-busy")).toBe("false");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await seeing.scrollIntoViewIfNeeded();
      await screenshot(page, "trackers-form-detectability.png");

      // Saved with 2 answers per question (a quick run); its page says what this tracker can see.
      await page.getByLabel("Iterations per question").fill("2");
      await page.getByRole("button", { name: "Create tracker" }).click();
      await page.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      const path = new URL(page.url()).pathname;
      const tracker = await pageJson<Tracker>(page, "GET", `/api${path}`);
      expect(tracker.detectability?.sentence).toStartWith(`With 3 questions × 2 answers on ${providerIds.length} providers, `);
      expect(await page.getByTestId("tracker-detectability").textContent()).toBe(`What it can see${tracker.detectability?.sentence}`);

      // Run now, then two more runs through the API.
      await page.getByRole("button", { name: /^Run now/ }).click();
      await page.getByTestId("tracker-run").first().getByTestId("run-status").filter({ hasText: "Completed" }).waitFor({ timeout: 60_000 });
      const second = await runOnce(page, tracker.id);
      const third = await runOnce(page, tracker.id);

      await visit(page, path);
      const openai = page.getByRole("region", { name: "Mentions on ChatGPT / OpenAI" });
      await openai
        .getByRole("img", { name: "Mentions on ChatGPT / OpenAI per run: HubSpot with its 95% band, and its competitors" })
        .locator("canvas")
        .waitFor();

      // The caption names each provider's spread, as the API's trend has it.
      const trend = await pageJson<Trend>(page, "GET", `/api/trackers/${tracker.id}/trend?metric=mention`);
      expect(trend.dispersion.map((entry) => entry.provider).toSorted()).toEqual([...providerIds].toSorted());
      const caption = await page.getByTestId("trend-bands").textContent();
      expect(caption).toBe(bandsCaption("mention", trend.dispersion, providerIds, names));
      expect(caption).toStartWith("Bands cover the tracker's rate, not only one run's answers: the answers of one run move together");
      for (const { provider, phi } of trend.dispersion) expect(caption).toContain(`${names[provider]} ×${phi.toFixed(1)}`);

      // The legend and the table say what a band covers.
      expect(await openai.getByRole("list", { name: "Legend" }).getByRole("listitem").first().textContent()).toBe(brandLegend("HubSpot", "mention"));
      await openai.getByRole("button", { name: "Show table" }).click();
      expect(await openai.getByRole("columnheader").allTextContents()).toEqual(["Date", "Subject", figureHeader("mention"), countHeader("mention")]);
      expect(await trendRows(page, "Mentions on ChatGPT / OpenAI")).toEqual(await expectedTrendRows(page, tracker.id, "mention"));

      // What changed and the alerts say what they compare; the moves within the noise are counted, not listed.
      expect(await page.getByTestId("changes-intro").textContent()).toBe(changesIntro(1));
      const changes = await pageJson<TrackerChanges>(page, "GET", `/api/trackers/${tracker.id}/changes`);
      const openaiChanges = page.getByTestId("provider-changes").filter({ has: page.getByRole("heading", { name: "ChatGPT / OpenAI" }) });
      const { products, companies, domains } = changes.providers.openai!;
      expect(await openaiChanges.getByTestId("within-noise").allTextContents()).toEqual(
        [products, companies, domains].flatMap((kind) => withinNoiseText(kind.withinNoise, kind.entered.length + kind.left.length > 0) ?? []),
      );
      const alertsSection = page.getByRole("region", { name: "Alerts" });
      await alertsSection.getByText(NO_TRACKER_ALERTS).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "trackers-bands.png", { fullPage: true });

      // Three steady runs tell nothing yet; two records as the alerts table keeps them: one of the
      // earlier rule (kept from before rule 2), one of rule 2 with what its test counted with.
      const first = (await pageJson<TrackerRunList>(page, "GET", `/api/trackers/${tracker.id}/runs`)).runs.at(-1)!;
      const side = (k: number) => ({ k, n: 18, rate: Math.round((k / 18) * 1000) / 10, low: 10, high: 90 });
      const record = { trackerId: tracker.id, runId: third.id, subject: "HubSpot", query: "", p: 0.0024, q: 0.006, at: new Date(third.scheduledFor) };
      await harness()
        .database.db.insert(trackerAlerts)
        .values([
          { ...record, kind: "fell", metric: "mention", provider: "anthropic", before: side(12), after: side(3), rule: 1 },
          {
            ...record,
            kind: "rose",
            metric: "citation",
            provider: "openai",
            before: side(2),
            after: side(14),
            rule: 2,
            dispersion: { phi: 1.83, df: 14.2 },
            baselineRuns: [first.id, second.id],
            afterRuns: [third.id],
          },
        ]);
      await visit(page, path);
      const { alerts } = await pageJson<TrackerAlertList>(page, "GET", `/api/trackers/${tracker.id}/alerts`);
      const card = (provider: ProviderId) =>
        alertsSection.getByTestId("tracker-alert").filter({ hasText: alertText(alerts.find((alert) => alert.provider === provider)!, names[provider]) });
      const rose = alerts.find((alert) => alert.rule === 2)!;
      expect(alertStatistics(rose)).toBe("p = 0.0024 · q = 0.006 · counted with its runs' spread ×1.8, against 2 runs");
      await card("openai").getByText(alertStatistics(rose)!, { exact: true }).waitFor();
      expect(await card("openai").getByTestId("alert-rule-note").count()).toBe(0);
      expect(await card("anthropic").getByText("p = 0.0024 · q = 0.006", { exact: true }).count()).toBe(1);
      expect(await card("anthropic").getByTestId("alert-rule-note").textContent()).toBe(EARLIER_RULE_NOTE);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await alertsSection.scrollIntoViewIfNeeded();
      await screenshot(page, "trackers-alert-rules.png", { published: false });

      // The bell lists both, the earlier rule's said so.
      await page.locator("#alerts-bell-trigger[data-ready]").waitFor();
      await page.getByRole("button", { name: "Alerts, 2 unread" }).click();
      const items = page.getByTestId("inbox-alert");
      await items.first().waitFor();
      expect(await items.filter({ hasText: EARLIER_RULE_SHORT }).count()).toBe(1);
      expect(await items.filter({ hasText: EARLIER_RULE_SHORT }).textContent()).toContain(alertText(alerts.find((a) => a.rule === 1)!, names.anthropic));
      expect(await seriousAxeViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      // Position: the mean when ranked, with how many answers ranked it, and the caption says so.
      await page.getByRole("group", { name: "Metric" }).getByRole("button", { name: "Position" }).click();
      const position = page.getByRole("region", { name: "Position on ChatGPT / OpenAI" });
      await position.getByText(metricAxis.position, { exact: true }).waitFor();
      await page
        .getByTestId("trend-bands")
        .getByText(/^Bands cover the tracker's mean position when ranked/)
        .waitFor();
      await position.getByRole("button", { name: "Show table" }).click();
      expect(await position.getByRole("columnheader").allTextContents()).toEqual(["Date", "Subject", figureHeader("position"), countHeader("position")]);
      expect(await trendRows(page, "Position on ChatGPT / OpenAI")).toEqual(await expectedTrendRows(page, tracker.id, "position"));
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    TIMEOUT,
  );
});
