import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { NotificationSettings } from "#src/contract/notifications.ts";
import { screenshot, seriousAxeViolations, useBrowser, visit } from "#tests/support/browser.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * ADR 053: the profile's E-mail card on a server with SMTP_URL (a real SMTP server on
 * loopback, smtp-server): two switches, saved as they are ticked, naming the address the e-mails
 * go to; turning one on sends a confirmation link, whose page asks for the click that proves the
 * address; every e-mail's unsubscribe link opens a page that turns it off and says so.
 * A tracker's Reports by e-mail card (ADR 066) on the same server: a recipient added there is
 * pending until they confirm on the link's page. (Without SMTP_URL: tests/e2e/trackers-bell.e2e.test.ts.)
 */

// Read by the harness when it starts the app, after this file's SMTP server is listening.
const env: Record<string, string> = {};
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  smtp = await startSmtpSink();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp.stop();
});
const harness = useBrowser({ distinctAddresses: true, env });

const TIMEOUT = 60_000;

/** A link of an e-mail as a path of this server (the mail links to PUBLIC_URL, which the harness's random port is not). */
const pathOf = (url: string) => new URL(url).pathname;

describe("the profile's E-mail card with SMTP", () => {
  test(
    "switches saved as they are ticked; turning one on e-mails a confirmation link, whose page proves the address with a click",
    async () => {
      // Asking for the link again at once is refused (429), on purpose.
      const page = await harness().newPage({ viewport: { width: 1280, height: 900 } }, { allowConsoleErrors: [/status of 429/] });
      await page.goto("/");
      const account = await harness().signInAsPro(page);
      await visit(page, "/user/profile");
      const card = page.getByRole("region", { name: "E-mail" });
      const digest = card.getByRole("checkbox", { name: "Weekly digest of my trackers" });
      const alerts = card.getByRole("checkbox", { name: "An e-mail when a run finds alerts" });
      await digest.waitFor();
      expect(await card.getByText("E-mail is not configured on this server.").count()).toBe(0);
      expect(await card.textContent()).toContain(account.email);
      await card.getByText("Address not confirmed: nothing is sent to it until you follow the link we e-mail to it when you turn an e-mail on.").waitFor();
      expect([await digest.isChecked(), await alerts.isChecked()]).toEqual([false, false]);

      await alerts.check();
      await card.getByText(`Saved. We sent a confirmation link to ${account.email}: e-mails start once you follow it.`).waitFor();
      expect(await alerts.isChecked()).toBe(true);
      await card.getByText("Waiting for you to follow the confirmation link.").waitFor();
      const response = await page.request.get("/api/user/notifications");
      expect((await response.json()) as NotificationSettings).toMatchObject({
        emailConfigured: true,
        email: account.email,
        confirmedAt: null,
        digest: false,
        alerts: true,
      });
      expect(await seriousAxeViolations(page)).toEqual([]);

      // Asked again at once: refused in words, nothing sent.
      await card.getByRole("button", { name: "Send the link again" }).click();
      await card.getByText(/^A confirmation link was sent minutes ago: follow it, or ask again in (a minute|\d minutes)\.$/).waitFor();
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, "profile-email-waiting.png", { published: false });

      // The e-mail's link, opened in another browser (no session): the page names the address and waits for the click.
      const mail = await waitFor(() => smtp.inbox.find((received) => received.to.includes(account.email)), { what: "the confirmation e-mail" });
      expect(smtp.inbox.filter((received) => received.to.includes(account.email))).toHaveLength(1);
      const [link] = linksIn(mail.text, "/email/confirm/");
      const elsewhere = await harness().newPage({ viewport: { width: 390, height: 844 } });
      await visit(elsewhere, pathOf(link!));
      await elsewhere.getByRole("heading", { name: "Confirm your e-mail address" }).waitFor();
      expect(await elsewhere.locator("main").textContent()).toContain(account.email);
      expect(await seriousAxeViolations(elsewhere)).toEqual([]);
      await screenshot(elsewhere, "email-confirm.png", { published: false });
      await elsewhere.getByRole("button", { name: "Confirm" }).click();
      await elsewhere.getByRole("heading", { name: "Address confirmed" }).waitFor();
      expect(await elsewhere.locator("main").textContent()).toContain(
        `${account.email} is confirmed: the tracker e-mails turned on for it are sent from now on. Each one has a link to unsubscribe.`,
      );
      // Opened again: it says so (server-rendered).
      await visit(elsewhere, pathOf(link!));
      await elsewhere.getByRole("heading", { name: "Address confirmed" }).waitFor();

      await visit(page, "/user/profile");
      await digest.waitFor();
      await card.getByText(/^Address confirmed on [A-Z][a-z]{2} \d{1,2}, \d{4}\.$/).waitFor();
      expect(await card.getByRole("button", { name: "Send the link again" }).count()).toBe(0);
      expect([await digest.isChecked(), await alerts.isChecked()]).toEqual([false, true]);
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, "profile-email-confirmed.png", { published: false });
    },
    TIMEOUT,
  );

  test(
    "an e-mail's unsubscribe link opens a page that turns its e-mails off and says so; a link that is not valid says that",
    async () => {
      const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto("/");
      const account = await harness().signInAsPro(page);
      await visit(page, "/user/profile");
      const card = page.getByRole("region", { name: "E-mail" });
      await card.getByRole("checkbox", { name: "Weekly digest of my trackers" }).check();
      await card.getByText(`Saved. We sent a confirmation link to ${account.email}: e-mails start once you follow it.`).waitFor();
      const mail = await waitFor(() => smtp.inbox.find((received) => received.to.includes(account.email)), { what: "the confirmation e-mail" });
      const [unsubscribe] = linksIn(mail.text, "/email/unsubscribe/");

      // Followed by whoever has the mail, signed in or not.
      const stranger = await harness().newPage({ viewport: { width: 390, height: 844 } });
      await visit(stranger, pathOf(unsubscribe!));
      await stranger.getByRole("heading", { name: "Unsubscribed" }).waitFor();
      expect(await stranger.locator("main").textContent()).toContain("This account's e-mails are off: nothing more is sent to this address for it.");
      expect(await seriousAxeViolations(stranger)).toEqual([]);
      await screenshot(stranger, "email-unsubscribed.png", { published: false });

      await visit(page, "/user/profile");
      await card.getByRole("checkbox", { name: "Weekly digest of my trackers" }).waitFor();
      expect(await card.getByRole("checkbox", { name: "Weekly digest of my trackers" }).isChecked()).toBe(false);
      expect(await card.getByText("Waiting for you to follow the confirmation link.").count()).toBe(0);

      const answer = await stranger.goto(`${pathOf(unsubscribe!).slice(0, -3)}xyz`);
      expect(answer?.status()).toBe(404);
      await stranger.getByRole("heading", { name: "This unsubscribe link is not valid" }).waitFor();
    },
    TIMEOUT,
  );
});

describe("a tracker's Reports by e-mail card with SMTP", () => {
  test(
    "a recipient added in the card waits for confirmation; their e-mail's link opens a page whose Confirm makes them confirmed on the card, and its unsubscribe link ends it",
    async () => {
      const page = await harness().newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto("/");
      const account = await harness().signInAsPro(page);
      const created = await page.request.post("/api/trackers", {
        data: {
          name: "CRM report",
          queries: ["best crm for startups"],
          brand: { name: "HubSpot" },
          iterations: 1,
          schedule: { cron: "0 9 * * 1", timezone: "Europe/Berlin" },
        },
      });
      expect(created.status()).toBe(201);
      const tracker = (await created.json()) as { id: string };
      await visit(page, `/trackers/${tracker.id}`);
      const card = page.getByTestId("tracker-report-email");
      await card.getByRole("button", { name: "Add recipient" }).waitFor();
      expect(await card.getByTestId("report-email-setup").count()).toBe(0);
      // Said before the owner presses Send a test now: their own address is not confirmed.
      await card.getByText(`Your address ${account.email} is not confirmed, so a test is not sent to it`).waitFor();

      await card.getByLabel("How often the report is sent").selectOption("weekly");
      // Mondays 08:00 in the tracker's zone, written in it.
      await card.getByText(/^Next report: [A-Z][a-z]{2} \d{1,2}, \d{4}, 08:00 \(Europe\/Berlin\) · in \d+ (hours|days)\.$/).waitFor();
      await card.getByLabel("Recipient's e-mail address").fill("ceo@example.com");
      await card.getByRole("button", { name: "Add recipient" }).click();
      const row = card.getByTestId("report-recipients").getByRole("listitem").filter({ hasText: "ceo@example.com" });
      await row.getByText("Waiting for confirmation").waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);

      const mail = await waitFor(() => smtp.inbox.find((received) => received.to.includes("ceo@example.com")), { what: "the recipient's confirmation" });
      const [link] = linksIn(mail.text, "/email/report/confirm/");
      const recipient = await harness().newPage({ viewport: { width: 390, height: 844 } });
      await visit(recipient, pathOf(link!));
      await recipient.getByRole("heading", { name: "Confirm you want this report" }).waitFor();
      await recipient.getByRole("button", { name: "Confirm" }).click();
      await recipient.getByRole("heading", { name: "Confirmed" }).waitFor();
      expect(await recipient.locator("main").textContent()).toContain('ceo@example.com will receive the report of the tracker "CRM report"');

      await visit(page, `/trackers/${tracker.id}`);
      await row.getByText("Confirmed").waitFor();
      expect(await row.getByText("Waiting for confirmation").count()).toBe(0);

      // Every mail carries its unsubscribe link: opened, the recipient is told, and the owner's card says so.
      const [unsubscribe] = linksIn(mail.text, "/email/report/unsubscribe/");
      expect(unsubscribe).toBeDefined();
      await visit(recipient, pathOf(unsubscribe!));
      await recipient.getByRole("heading", { name: "Unsubscribed" }).waitFor();
      expect(await recipient.locator("main").textContent()).toContain('No more reports of the tracker "CRM report" are sent to ceo@example.com.');
      await visit(page, `/trackers/${tracker.id}`);
      await row.getByText("Unsubscribed").waitFor();
    },
    TIMEOUT,
  );
});
