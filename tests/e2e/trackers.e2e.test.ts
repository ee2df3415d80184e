import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";
import { pageJson } from "#tests/support/tracker-pages.ts";
import { newAccount } from "#tests/support/accounts.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit, waitForHydration, type PageOptions } from "#tests/support/browser.ts";

/*
 * The pages in Chromium against the loopback simulators and the real job queue: a tracker
 * created through the form (prefilled from the brand lens, with its estimate before saving), seen
 * in the list, Run now with the run's live progress to Completed, its saved searches opened; the
 * edit form and delete; free and signed-out visitors meet the Pro gate; the phone layout.
 */
// Webhooks to the test's loopback receiver.
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });

/** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
const TIMEOUT = 120_000;
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 360, height: 780 };

/** The run of the form's tracker: 2 questions × 2 iterations, asked of every provider (all connected, simulated). */
const PER_QUESTION = providerIds.length * 2;
const PER_RUN = 2 * PER_QUESTION;

const toasts = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" }).getByRole("listitem");

/** A signed-in Pro visitor with a brand lens (Acme, with a competitor), on `path`. */
async function proPage(path: string, viewport = DESKTOP, pageOptions?: PageOptions): Promise<Page> {
  const page = await harness().newPage({ viewport }, pageOptions);
  await page.goto("/");
  await harness().signInAsPro(page);
  const lens = await page.request.put("/api/user/brand-lens", {
    data: { brand: { name: "Acme", aliases: ["Acme Corp"], domains: ["acme.example"] }, competitors: [{ name: "Globex" }] },
  });
  expect(lens.status()).toBe(200);
  await visit(page, path);
  return page;
}

/** Fills the new-tracker form's own fields (the brand and competitors come from the lens). */
async function fillForm(page: Page, name: string, questions: string[]): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Questions").fill(questions.join("\n"));
  await page.getByLabel("Iterations per question").fill("2");
  await page.getByRole("radio", { name: "Daily" }).check();
  await page.getByLabel("At", { exact: true }).fill("07:30");
  await page.getByLabel("Time zone").fill("Europe/Berlin");
}

describe("trackers in Chromium", () => {
  test(
    "create a tracker through the form, see it in the list, Run now → live progress → Completed, open a saved search from it",
    async () => {
      const page = await proPage("/trackers");
      // The empty list points to the form; the header's navigation has Trackers (the current page), and so has the user menu.
      await page.getByRole("heading", { name: "No trackers yet" }).waitFor();
      const navLink = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trackers" });
      expect(await navLink.getAttribute("href")).toBe("/trackers");
      expect(await navLink.getAttribute("aria-current")).toBe("page");
      await page.locator("[data-ready]", { has: page.locator("[data-slot=avatar]") }).click();
      expect(await page.getByRole("menu").getByRole("menuitem", { name: "Trackers" }).getAttribute("href")).toBe("/trackers");
      await page.keyboard.press("Escape");

      await page.getByRole("main").getByRole("link", { name: "New tracker" }).first().click();
      await page.waitForURL((url) => url.pathname === "/trackers/new");
      // Prefilled from the profile's brand lens, every connected provider ticked, 5 iterations, weekly.
      expect(await page.getByLabel("Brand name").inputValue()).toBe("Acme");
      expect(await page.getByLabel("Other names").first().inputValue()).toBe("Acme Corp");
      expect(await page.getByLabel("Your domains").inputValue()).toBe("acme.example");
      expect(await page.getByLabel("Competitor 1").inputValue()).toBe("Globex");
      for (const provider of providerIds.map((id) => providerCatalogue[id].name))
        expect(await page.getByRole("checkbox", { name: provider }).isChecked()).toBe(true);
      expect(await page.getByLabel("Iterations per question").inputValue()).toBe("5");
      expect(await page.getByRole("radio", { name: "Weekly" }).isChecked()).toBe(true);
      // The browser's own time zone replaces the server's guess once the page is live.
      expect(await page.getByLabel("Time zone").inputValue()).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));

      // The contract's messages, on the fields, before anything is sent.
      await page.getByRole("button", { name: "Create tracker" }).click();
      expect(await page.getByText("name is required").isVisible()).toBe(true);
      expect(await page.getByText("queries must hold at least one question").isVisible()).toBe(true);
      expect(await page.getByLabel("Name", { exact: true }).evaluate((input) => input === document.activeElement)).toBe(true);

      await fillForm(page, "CRM questions", ["best crm for startups", "crm with a free plan"]);
      // The estimate before saving: simulated providers cost nothing, and say so; a daily schedule has a month's figure.
      expect(await page.getByTestId("estimate-per-run").textContent()).toBe("$0.00 (simulated)");
      expect(await page.getByTestId("estimate-per-month").textContent()).toBe("$0.00 (simulated)");
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "trackers-form.png", { fullPage: true });

      await page.getByRole("button", { name: "Create tracker" }).click();
      await page.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      const trackerPath = new URL(page.url()).pathname;
      await page.getByRole("heading", { name: "CRM questions", level: 1 }).waitFor();
      expect(await page.getByTestId("tracker-schedule").textContent()).toBe("Every day at 07:30 (Europe/Berlin)");
      // Its estimate says the providers are simulated, as everything that shows a cost does.
      await page.getByText("$0.00 (simulated) per run, $0.00 (simulated) per month").waitFor();
      expect(await page.getByText("No runs yet.").isVisible()).toBe(true);
      const headline = page.getByTestId("tracker-summary-sentence");
      const headlineBefore = (await headline.textContent()) ?? "";
      expect(await page.getByTestId("tracker-summary-row").count()).toBe(0);

      // Run now: a slower simulator, its answers spread out, keeps the run running long enough to be seen live.
      harness().simulator.setLatency({ kind: "lognormal", medianMs: 1_500, p95Ms: 5_000 });
      await page.getByRole("button", { name: /^Run now/ }).click();
      const run = page.getByTestId("tracker-run").first();
      await run.getByTestId("run-progress").waitFor({ timeout: 30_000 });
      await run.getByTestId("run-status").filter({ hasText: "Running" }).waitFor({ timeout: 30_000 });
      // Answers arrive while it runs: the count and the bar move (the page reads its runs every few seconds).
      await run
        .getByTestId("run-answers")
        .filter({ hasText: new RegExp(`^[1-9]\\d* of ${PER_RUN} answers`) })
        .waitFor({ timeout: 30_000 });
      expect(await run.getByTestId("run-status").textContent()).toBe("Running");
      expect(await run.getByTestId("run-progress").getAttribute("aria-valuetext")).toMatch(new RegExp(`^\\d+ of ${PER_RUN} answers`));
      expect(await run.locator("[aria-live=polite]", { has: page.getByTestId("run-status") }).count()).toBe(1);
      await page.getByTestId("tracker-last-run").getByTestId("run-status").filter({ hasText: "Running" }).waitFor();
      // While it runs, Run now waits.
      expect(await page.getByRole("button", { name: /^Run now/ }).isDisabled()).toBe(true);
      await screenshot(page, "trackers-running.png", { fullPage: true });
      // The count grows as the page polls its runs, with no reload.
      const seen = Number((await run.getByTestId("run-answers").textContent())?.split(" ")[0]);
      await run
        .getByTestId("run-answers")
        .filter({ hasText: new RegExp(`^(\\d+) of ${PER_RUN} answers`) })
        .filter({ hasNotText: new RegExp(`^(${Array.from({ length: seen + 1 }, (_, n) => n).join("|")}) of`) })
        .waitFor({ timeout: 60_000 });
      harness().simulator.setLatency({ kind: "fixed", ms: 5 });

      await run.getByTestId("run-status").filter({ hasText: "Completed" }).waitFor({ timeout: 60_000 });
      expect(await run.getByTestId("run-answers").textContent()).toBe(`${PER_RUN} of ${PER_RUN} answers`);
      expect(await run.getByTestId("run-cost").textContent()).toBe("$0.00 (simulated)");
      expect(await run.getByTestId("run-progress").count()).toBe(0);
      // Its end is read once: the header's last run, the headline with its figures per provider, the run's results, all without a reload.
      await page.getByTestId("tracker-last-run").getByTestId("run-status").filter({ hasText: "Completed" }).waitFor();
      await headline.filter({ hasNotText: headlineBefore }).waitFor();
      await page.getByTestId("tracker-summary-row").first().waitFor();
      await run.getByTestId(`mentions-${providerIds[0]}`).first().filter({ hasText: "%" }).waitFor();
      const rows = run.getByTestId("run-query");
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(0).getByRole("cell").first().textContent()).toBe(`${PER_QUESTION} of ${PER_QUESTION} answers`);
      // Per question and provider, how often the answers named the brand, with its 95% interval.
      for (const provider of providerIds)
        for (const cell of await rows.getByTestId(`mentions-${provider}`).all()) expect(await cell.textContent()).toMatch(/^\d+(\.\d)?% \(\d+–\d+%\)$/);
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Each question opens its saved search.
      await rows
        .nth(0)
        .getByRole("link", { name: /best crm for startups/ })
        .click();
      await page.waitForURL((url) => /^\/search\/[0-9a-f-]{36}$/.test(url.pathname));
      await page.getByRole("tablist", { name: "Result views" }).waitFor();
      // It says which tracker and run asked it, each a link back, and has no search form (nothing was typed).
      const origin = page.getByTestId("search-origin");
      expect(await origin.getByRole("heading", { level: 1 }).textContent()).toBe("best crm for startups");
      expect(await origin.textContent()).toMatch(/^best crm for startupsFrom the tracker CRM questions, run of [A-Z][a-z]{2} \d{1,2}, \d{4}/);
      expect(await origin.getByRole("link", { name: "CRM questions" }).getAttribute("href")).toBe(trackerPath);
      expect(await origin.getByRole("link", { name: /^run of / }).getAttribute("href")).toMatch(new RegExp(`^${trackerPath}#run-[0-9a-f-]{36}$`));
      expect(await page.getByRole("link", { name: "Back to CRM questions" }).getAttribute("href")).toBe(trackerPath);
      expect(await page.getByLabel("What would you like to search?").count()).toBe(0);

      // A finished search leads to a new tracker asking its question (the profile's lens, as the tab was not opened).
      await page.getByRole("group", { name: "Result actions" }).getByRole("link", { name: "Track these questions every week" }).click();
      await page.waitForURL((url) => url.pathname === "/trackers/new" && url.searchParams.get("query") === "best crm for startups");
      expect(await page.getByLabel("Questions").inputValue()).toBe("best crm for startups");
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("best crm for startups");
      expect(await page.getByLabel("Brand name").inputValue()).toBe("Acme");
      expect(await page.getByRole("radio", { name: "Weekly" }).isChecked()).toBe(true);

      // The history holds tracker runs, so "Hide tracker runs" starts on (in the HTML already); unticked, it lists the run's
      // searches marked with their tracker, and the choice is remembered across a reload, either way.
      await visit(page, "/user/history");
      const history = page.getByRole("main");
      const hide = page.getByRole("checkbox", { name: "Hide tracker runs" });
      expect(await hide.isChecked()).toBe(true);
      await page.getByText("No searches match these filters").waitFor();
      await hide.uncheck();
      await history.getByText("Tracker: CRM questions").first().waitFor();
      expect(await history.getByText("Tracker: CRM questions").count()).toBe(2);
      await visit(page, "/user/history");
      await history.getByText("Tracker: CRM questions").first().waitFor();
      expect(await hide.isChecked()).toBe(false);
      await hide.check();
      await page.getByText("No searches match these filters").waitFor();
      await visit(page, "/user/history");
      expect(await hide.isChecked()).toBe(true);
      await page.getByText("No searches match these filters").waitFor();

      // The list: its schedule in words, the last run's status, the next run.
      await visit(page, "/trackers");
      const row = page.getByRole("region", { name: "CRM questions" });
      expect(await row.getByTestId("tracker-schedule").textContent()).toBe("Every day at 07:30 (Europe/Berlin)");
      expect(await row.getByTestId("tracker-last-run").getByTestId("run-status").textContent()).toBe("Completed");
      // How and when it ended, and when it runs next (07:30 in Berlin), in the reader's time zone, named, and from now.
      const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
      const { nextRunAt } = (await (await page.request.get(`/api${trackerPath}`)).json()) as { nextRunAt: string };
      await row
        .getByTestId("tracker-next-run")
        .filter({ hasText: `(${zone})` })
        .waitFor();
      expect(await row.getByTestId("tracker-last-run").textContent()).toMatch(
        new RegExp(`^Completed[A-Z][a-z]{2} \\d{1,2}, \\d{4}, \\d\\d:\\d\\d \\(${escapeRegExp(zone)}\\) · (just now|\\d+ minutes? ago)$`),
      );
      expect(await row.getByTestId("tracker-next-run").textContent()).toMatch(
        new RegExp(`^${escapeRegExp(formatInZone(nextRunAt, zone))} · (in \\d+ (minutes?|hours?)|due now)$`),
      );
      expect(formatInZone(nextRunAt, "Europe/Berlin")).toMatch(/, 07:30 \(Europe\/Berlin\)$/);
      expect(await row.getByTestId("tracker-stall").count()).toBe(0);
      // Its headline, the tracker page's 7 days' sentence, and the brand's rate over its one run as a line with its figure in words.
      const summary = await page.request.get(`/api${trackerPath}/summary`);
      expect(summary.status()).toBe(200);
      await row
        .getByTestId("tracker-headline")
        .filter({ hasText: (await summary.json()).sentence })
        .waitFor();
      expect(await row.getByTestId("tracker-sparkline").getAttribute("aria-label")).toMatch(/^Acme named in the answers of the last run: \d+(\.\d)?%$/);
      // No alert yet: no unread marker.
      expect(await row.getByTestId("tracker-unread").count()).toBe(0);
      await screenshot(page, "trackers-list.png", { fullPage: true });

      // Run now from the list: the card follows the run on the list's poll to its end, then reads its headline and sparkline again.
      await row.getByRole("button", { name: /^Run now/ }).click();
      await row.locator('[data-testid="tracker-sparkline"][aria-label^="Acme named in the answers of the last 2 runs"]').waitFor({ timeout: 60_000 });
      expect(await row.getByTestId("tracker-last-run").getByTestId("run-status").textContent()).toBe("Completed");

      // Pause: the list says so and no next run is shown; Resume brings it back.
      await row.getByRole("button", { name: /^Pause/ }).click();
      await row.getByText("Paused", { exact: true }).first().waitFor();
      expect(await row.getByTestId("tracker-next-run").textContent()).toBe("None while paused");
      await row.getByRole("button", { name: /^Resume/ }).click();
      await row.getByRole("button", { name: /^Pause/ }).waitFor();

      // Delete is among the tracker page's actions: its dialog says what becomes of the run's saved searches, kept by default.
      await visit(page, trackerPath);
      await page.getByRole("button", { name: /^Delete tracker/ }).click();
      const confirm = page.getByRole("dialog", { name: "Delete “CRM questions”?" });
      // One saved search per question and run (two runs by now), as the API counts them.
      const { savedSearches } = (await (await page.request.get(`/api${trackerPath}`)).json()) as { savedSearches: number };
      expect(savedSearches).toBeGreaterThanOrEqual(2);
      const keep = confirm.getByRole("checkbox", { name: `Keep its ${savedSearches} saved searches in my history` });
      expect(await keep.isChecked()).toBe(true);
      await confirm.getByRole("button", { name: "Keep it" }).click();
      await confirm.waitFor({ state: "hidden" });
      // And among the list card's: untick, and they go with it.
      await visit(page, "/trackers");
      await page
        .getByRole("region", { name: "CRM questions" })
        .getByRole("button", { name: /^Delete tracker/ })
        .click();
      await keep.uncheck();
      await confirm.getByRole("button", { name: "Delete tracker" }).click();
      await page.getByRole("heading", { name: "No trackers yet" }).waitFor();
      // Read by the page itself (the browser's fetch, with its cookies), as the history page reads it.
      expect((await pageJson<{ searches: unknown[] }>(page, "GET", "/api/user/searches")).searches).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "questions in: import a CSV (what it adds and skips first), tag them, accept a suggested question (labelled simulated), and the trend offers the tags",
    async () => {
      const page = await proPage("/trackers/new");
      await waitForHydration(page);
      await fillForm(page, "Imported", ["best crm for startups"]);

      const importer = page.getByTestId("question-import");
      await importer.locator("summary").click();
      await importer.getByLabel("CSV file").setInputFiles({
        name: "questions.csv",
        mimeType: "text/csv",
        buffer: Buffer.from('\uFEFFquestion,tag\r\n"crm, with a free plan",Pricing\r\nBest CRM for startups,Startups\r\ncheapest crm,Pricing\r\n'),
      });
      const plan = importer.getByTestId("import-plan");
      await plan.getByText("Adds 2 questions:").waitFor();
      expect(await plan.getByText("crm, with a free plan (Pricing)").isVisible()).toBe(true);
      expect(await plan.getByText('Line 3 "Best CRM for startups": already a question').isVisible()).toBe(true);
      await plan.getByRole("button", { name: "Add 2 questions" }).click();
      expect(await page.getByLabel("Questions").inputValue()).toBe("best crm for startups\ncrm, with a free plan\ncheapest crm");
      // The tags came with them, each on its question.
      const tags = page.getByTestId("question-tags");
      expect(await tags.getByLabel("crm, with a free plan").inputValue()).toBe("Pricing");
      await tags.getByLabel("best crm for startups").fill("Startups");

      const suggester = page.getByTestId("question-suggestions");
      await suggester.locator("summary").click();
      await suggester.getByLabel("Category").fill("CRM for small teams");
      await suggester.getByRole("button", { name: "Suggest questions" }).click();
      const first = suggester.getByTestId("suggestion").first();
      await first.waitFor();
      expect(await suggester.locator("[data-simulated=label]").isVisible()).toBe(true);
      const suggested = (await first.locator("span").first().innerText()).split("\n")[0]!.trim();
      await first.getByRole("button", { name: /^Accept/ }).click();
      expect((await page.getByLabel("Questions").inputValue()).split("\n")).toEqual([
        "best crm for startups",
        "crm, with a free plan",
        "cheapest crm",
        suggested,
      ]);
      // Simulated providers cost nothing: no spend warning (its words are tested in tests/unit/questions-in.test.ts).
      expect(await page.getByTestId("spend-warning").count()).toBe(0);

      await page.getByRole("button", { name: "Create tracker" }).click();
      await page.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      const id = new URL(page.url()).pathname.split("/").at(-1)!;
      const saved = (await (await page.request.get(`/api/trackers/${id}`)).json()) as { questionTags: Record<string, string> };
      expect(saved.questionTags).toEqual({ "best crm for startups": "Startups", "crm, with a free plan": "Pricing", "cheapest crm": "Pricing" });
      const select = page.getByTestId("trend-tag");
      await select.waitFor();
      expect(await select.locator("option").allInnerTexts()).toEqual(["All questions", "Tagged Startups", "Tagged Pricing"]);
      expect(await seriousAxeViolations(page)).toEqual([]);
    },
    TIMEOUT,
  );

  test(
    "edit a tracker (the form starts from it), then delete it after a confirmation",
    async () => {
      // The server's refusal of a too frequent cron, and the 404 of the deleted tracker, are logged by the browser as failed requests.
      const page = await proPage("/trackers/new", DESKTOP, { allowConsoleErrors: [/status of 40[04] \((Bad Request|Not Found)\).*\/api\/trackers\//] });
      await fillForm(page, "Weekly shoes", ["best running shoes"]);
      await page.getByRole("radio", { name: "Weekly" }).check();
      await page.getByLabel("Day", { exact: true }).selectOption("Friday");
      await page.getByLabel("Ask from").selectOption("DE");
      await page.getByLabel("City").fill("Berlin");
      await page.getByRole("button", { name: "Create tracker" }).click();
      await page.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      const trackerPath = new URL(page.url()).pathname;
      expect(await page.getByTestId("tracker-schedule").textContent()).toBe("Every Friday at 07:30 (Europe/Berlin)");

      await page.getByRole("link", { name: "Edit" }).click();
      await page.waitForURL((url) => url.pathname === `${trackerPath}/edit`);
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Weekly shoes");
      expect(await page.getByLabel("Questions").inputValue()).toBe("best running shoes");
      expect(await page.getByRole("radio", { name: "Weekly" }).isChecked()).toBe(true);
      expect(await page.getByLabel("Day", { exact: true }).inputValue()).toBe("5");
      expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Berlin");
      expect(await page.getByLabel("Ask from").inputValue()).toBe("DE");
      expect(await page.getByLabel("City").inputValue()).toBe("Berlin");
      expect(await page.getByTestId("saved-estimate").textContent()).toBe(
        "As saved, at today's prices: $0.00 (simulated) per run, $0.00 (simulated) per month.",
      );

      // A custom cron that fires too often is refused by the server, in its words.
      await page.getByRole("radio", { name: "Custom (cron)" }).check();
      await page.getByLabel("Cron", { exact: true }).fill("*/5 * * * *");
      await page.getByRole("button", { name: "Save changes" }).click();
      await toasts(page).filter({ hasText: "Could not save the tracker" }).filter({ hasText: "TRACKER_MIN_INTERVAL_MINUTES" }).waitFor();

      await page.getByLabel("Cron", { exact: true }).fill("15 8 * * 1-5");
      await page.getByLabel("Name", { exact: true }).fill("Weekday shoes");
      await page.getByRole("button", { name: "Save changes" }).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL((url) => url.pathname === trackerPath);
      await page.getByRole("heading", { name: "Weekday shoes", level: 1 }).waitFor();
      // The tracker opens at its top, not where the form's button was.
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await page.getByTestId("tracker-schedule").textContent()).toBe("Every weekday at 08:15 (Europe/Berlin)");
      const saved = await page.request.get(`/api${trackerPath}`);
      expect(await saved.json()).toMatchObject({ name: "Weekday shoes", location: { country: "DE", city: "Berlin" }, schedule: { cron: "15 8 * * 1-5" } });

      // A Slack webhook: the server's refusal of an address shows on its field; saved, the secret is shown once, and Send test delivers.
      const received: Array<{ event: string | null; body: string }> = [];
      const hook = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        async fetch(request) {
          received.push({ event: request.headers.get("x-aisc-event"), body: await request.text() });
          return new Response("ok");
        },
      });
      try {
        await visit(page, `${trackerPath}/edit`);
        const webhookUrl = page.getByLabel("Webhook URL");
        await webhookUrl.fill("ftp://hooks.example/x");
        await page.getByRole("button", { name: "Save changes" }).click();
        await page.getByRole("region", { name: "Webhook" }).getByText("webhook.url must start with https:// (or http://)", { exact: true }).waitFor();
        expect(await webhookUrl.getAttribute("aria-invalid")).toBe("true");

        await webhookUrl.fill(`http://127.0.0.1:${hook.port}/slack`);
        await page.getByRole("radio", { name: "Slack (incoming webhook)" }).check();
        await page.getByRole("button", { name: "Save changes" }).click();
        const dialog = page.getByRole("dialog", { name: "The webhook's signing secret" });
        await dialog.waitFor();
        expect(await dialog.getByText("It is shown this once and will not be shown again").isVisible()).toBe(true);
        const secret = await dialog.getByLabel("Signing secret").inputValue();
        expect(secret).toStartWith("whsec_");
        expect(await dialog.getByLabel("Checking the signature in Node").textContent()).toContain('createHmac("sha256", secret)');
        expect(await seriousAxeViolations(page)).toEqual([]);
        await dialog.getByRole("button", { name: "Send test" }).click();
        await dialog.getByText("Delivered: your endpoint answered 200.").waitFor();
        expect(received.map((delivery) => delivery.event)).toEqual(["test"]);
        expect(JSON.parse(received[0]!.body)).toMatchObject({ text: expect.stringContaining("A test from AI Search Comparison"), blocks: expect.any(Array) });
        await dialog.getByRole("button", { name: "Done" }).click();
        await page.waitForURL((url) => url.pathname === trackerPath);
        expect(await page.content()).not.toContain(secret);

        // Never shown again: the edit form has the address and format, and Send test there.
        await visit(page, `${trackerPath}/edit`);
        expect(await page.getByLabel("Webhook URL").inputValue()).toBe(`http://127.0.0.1:${hook.port}/slack`);
        expect(await page.getByRole("radio", { name: "Slack (incoming webhook)" }).isChecked()).toBe(true);
        expect(await page.content()).not.toContain(secret);
        await page.getByRole("button", { name: "Send test" }).click();
        await page.getByTestId("webhook-test-outcome").filter({ hasText: "Delivered: your endpoint answered 200." }).waitFor();
        expect(received).toHaveLength(2);
      } finally {
        hook.stop(true);
      }

      await visit(page, `${trackerPath}/edit`);
      await page.getByRole("button", { name: "Delete tracker" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete “Weekday shoes”?" });
      await dialog.waitFor();
      await dialog.getByRole("button", { name: "Keep it" }).click();
      await dialog.waitFor({ state: "hidden" });
      await page.getByRole("button", { name: "Delete tracker" }).click();
      await dialog.getByRole("button", { name: "Delete tracker" }).click();
      await page.waitForURL((url) => url.pathname === "/trackers");
      await page.getByRole("heading", { name: "No trackers yet" }).waitFor();
      const gone = await page.request.get(`/api${trackerPath}`);
      expect(gone.status()).toBe(404);
      // Its address now says so, with the way back to the list.
      await visit(page, trackerPath);
      await page.getByText("Could not open this tracker").waitFor();
      expect(await page.getByRole("link", { name: "Your trackers" }).getAttribute("href")).toBe("/trackers");
    },
    TIMEOUT,
  );

  test(
    "a free user and a signed-out visitor meet the Pro gate: /upgrade, with trackers among what Pro includes",
    async () => {
      const free = await harness().newPage({ viewport: DESKTOP });
      expect((await free.request.post("/api/register", { data: newAccount() })).status()).toBe(201);
      for (const path of ["/trackers", "/trackers/new"]) {
        await free.goto(path);
        await free.waitForURL((url) => url.pathname === "/upgrade");
        await free.getByRole("heading", { name: "Upgrade to Pro", level: 1 }).waitFor();
        expect(await free.getByText(/^Trackers: your questions asked daily or weekly/).isVisible()).toBe(true);
      }
      await screenshot(free, "trackers-free-user.png", { published: false });

      const visitor = await harness().newPage({ viewport: DESKTOP });
      await visitor.goto("/trackers");
      await visitor.waitForURL((url) => url.pathname === "/upgrade");
      await waitForHydration(visitor);
      await visitor.getByRole("heading", { name: "Upgrade to Pro", level: 1 }).waitFor();
    },
    TIMEOUT,
  );

  test(
    "on a phone: the list and the form fit the width",
    async () => {
      const page = await proPage("/trackers/new", PHONE);
      await fillForm(page, "Phone tracker", ["best crm for startups"]);
      await page.getByRole("button", { name: "Create tracker" }).click();
      await page.waitForURL((url) => /^\/trackers\/[0-9a-f-]{36}$/.test(url.pathname));
      for (const path of ["/trackers", "/trackers/new", new URL(page.url()).pathname]) {
        await visit(page, path);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        expect({ path, ...(await page.evaluate(() => ({ overflow: document.documentElement.scrollWidth > window.innerWidth }))) }).toEqual({
          path,
          overflow: false,
        });
      }
      await visit(page, "/trackers");
      // Its dates are labelled on the phone too, each beside its own.
      const row = page.getByRole("region", { name: "Phone tracker" });
      for (const label of ["Schedule", "Last run", "Next run"]) expect(await row.getByRole("term").filter({ hasText: label }).isVisible()).toBe(true);
      await screenshot(page, "trackers-list-phone.png", { fullPage: true });
    },
    TIMEOUT,
  );
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
