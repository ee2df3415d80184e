import { describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import type { AlertsInbox } from "#src/contract/alerts-inbox.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { providerCatalogue } from "#src/contract/providers.ts";
import { SPARKLINE_RUNS } from "#web/lib/trend.ts";
import { alertText } from "#web/lib/alert-words.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { waitFor } from "#tests/support/wait.ts";
import { alertingTracker, BASELINE_RUNS } from "#tests/support/trackers.ts";

/*
 * The bell in Chromium, on the loopback simulator and the real job queue: after a fall
 * (OpenAI stops searching the web between two runs) the header's bell names the unread count, its
 * panel lists the alerts in the tracker page's words and links to the tracker, and "Mark all read"
 * clears the badge. The profile's E-mail card and a tracker's Reports by e-mail card, on this server
 * without SMTP_URL, say e-mail is not configured (with SMTP: tests/e2e/profile-email.e2e.test.ts).
 */
const harness = useBrowser({ simulator: { seed: 20261126 }, distinctAddresses: true });

const TIMEOUT = 180_000;

async function json<T>(page: Page, method: "GET" | "POST", path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(path, { method, data });
  expect(response.ok()).toBe(true);
  return (await response.json()) as T;
}

async function runOnce(page: Page, trackerId: string): Promise<void> {
  const { run } = await json<{ run: TrackerRun }>(page, "POST", `/api/trackers/${trackerId}/runs`);
  const ended = await waitFor(
    async () => {
      const read = await json<TrackerRun>(page, "GET", `/api/trackers/${trackerId}/runs/${run.id}`);
      return read.status !== "queued" && read.status !== "running" && read;
    },
    { what: "the run to end", timeoutMs: 120_000 },
  );
  expect(ended.status).toBe("completed");
}

describe("the alerts bell in Chromium", () => {
  test(
    "the bell names the unread alerts, its panel lists them in words linking to the tracker, and Mark all read clears the badge",
    async () => {
      const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto("/");
      await harness().signInAsPro(page);
      harness().simulator.clearFaults();
      const tracker = await json<Tracker>(page, "POST", "/api/trackers", alertingTracker);
      // A baseline of steady runs (ADR 050): no alert.
      for (let i = 0; i < BASELINE_RUNS; i++) await runOnce(page, tracker.id);
      await visit(page, "/");
      // No alert after steady runs: the bell, once it has read the inbox, says none is unread.
      await page.getByRole("button", { name: "Alerts, none unread" }).waitFor();
      expect(await page.getByTestId("alerts-badge").count()).toBe(0);

      harness().simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      try {
        await runOnce(page, tracker.id);
      } finally {
        harness().simulator.clearFaults();
      }
      const inbox = await json<AlertsInbox>(page, "GET", "/api/user/alerts");
      expect(inbox.unread).toBeGreaterThan(0);

      // The overview marks the tracker with its unread count, beside its headline and its runs' sparkline.
      await visit(page, "/trackers");
      const card = page.getByRole("region", { name: alertingTracker.name });
      expect(await card.getByTestId("tracker-unread").textContent()).toBe(`${inbox.unread} unread ${inbox.unread === 1 ? "alert" : "alerts"}`);
      expect(await card.getByTestId("tracker-unread").getAttribute("href")).toBe(`/trackers/${tracker.id}#alerts-heading`);
      await card.getByTestId("tracker-headline").waitFor();
      expect(await card.getByTestId("tracker-sparkline").getAttribute("aria-label")).toMatch(
        new RegExp(
          `named in the answers of the last ${Math.min(BASELINE_RUNS + 1, SPARKLINE_RUNS)} runs, oldest first: (\\d+(\\.\\d)?%(, |$)){${Math.min(BASELINE_RUNS + 1, SPARKLINE_RUNS)}}`,
        ),
      );

      // A fresh page load reads the inbox: the bell's name and badge give the count.
      await visit(page, "/");
      const named = page.getByRole("button", { name: `Alerts, ${inbox.unread} unread` });
      await page.locator("#alerts-bell-trigger[data-ready]").waitFor();
      await named.waitFor();
      expect(await page.getByTestId("alerts-badge").textContent()).toBe(String(inbox.unread));

      await named.click();
      const items = page.getByTestId("inbox-alert");
      await items.first().waitFor();
      expect(await items.count()).toBe(inbox.alerts.length);
      // The fall in the tracker page's words, under the tracker's name.
      const fell = inbox.alerts.find((alert) => alert.kind === "fell" && alert.provider === "openai" && alert.metric === "citation")!;
      const item = items.filter({ hasText: alertText(fell, providerCatalogue.openai.name) });
      expect(await item.count()).toBe(1);
      expect(await item.textContent()).toContain(alertingTracker.name);
      expect(await item.getAttribute("href")).toBe(`/trackers/${tracker.id}`);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await screenshot(page, "trackers-bell.png");

      // Mark all read: the badge goes, the panel stays open with the alerts now read.
      await page.getByRole("menuitem", { name: "Mark all read" }).click();
      await page.getByRole("button", { name: "Alerts, none unread" }).waitFor();
      expect(await page.getByTestId("alerts-badge").count()).toBe(0);
      await page.getByRole("menuitem", { name: "Mark all read" }).and(page.locator("[data-disabled]")).waitFor();
      expect((await json<AlertsInbox>(page, "GET", "/api/user/alerts")).unread).toBe(0);

      // Its link opens the tracker.
      await item.click();
      await page.waitForURL(`**/trackers/${tracker.id}`);
      await page.getByRole("heading", { name: alertingTracker.name }).waitFor();
    },
    TIMEOUT,
  );

  test("the profile's E-mail card says e-mail is not configured, without switches", async () => {
    const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto("/");
    await harness().signInAsPro(page);
    await visit(page, "/user/profile");
    const card = page.getByRole("region", { name: "E-mail" });
    await card.getByText("E-mail is not configured on this server.").waitFor();
    expect(await card.getByRole("checkbox").count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test("a tracker's Reports by e-mail card says how to set e-mail up, its controls disabled", async () => {
    const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto("/");
    await harness().signInAsPro(page);
    const created = await page.request.post("/api/trackers", {
      data: {
        name: "CRM report",
        queries: ["best crm for startups"],
        brand: { name: "HubSpot" },
        iterations: 1,
        schedule: { cron: "0 9 * * 1", timezone: "UTC" },
      },
    });
    expect(created.status()).toBe(201);
    await visit(page, `/trackers/${((await created.json()) as { id: string }).id}`);
    const card = page.getByTestId("tracker-report-email");
    await card.getByTestId("report-email-setup").waitFor();
    expect(await card.getByTestId("report-email-setup").textContent()).toContain("E-mail is not configured on this server. To send reports, set SMTP_URL");
    for (const control of [
      card.getByLabel("How often the report is sent"),
      card.getByLabel("Recipient's e-mail address"),
      card.getByRole("button", { name: "Add recipient" }),
      card.getByRole("button", { name: "Send a test now" }),
    ])
      expect(await control.isDisabled()).toBe(true);
    // No SMTP: nothing to confirm, so no word about the owner's address.
    expect(await card.getByTestId("report-owner-unconfirmed").count()).toBe(0);
  });
});
