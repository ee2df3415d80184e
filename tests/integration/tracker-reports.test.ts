import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { shares, trackerReportSends } from "#db/schema.ts";
import { MAX_LIVE_SHARES } from "#src/contract/shares.ts";
import type { ReportSettings } from "#src/contract/reports.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, get } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * A tracker's report by e-mail (ADR 066), through a real SMTP server on loopback: recipients confirm
 * once before anything is sent to them, the scheduled report goes to confirmed ones only with the
 * headline in its Subject and text and an unsubscribe link that works, and a test goes to the owner alone.
 */

let simulator: Simulator;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const inbox = () => smtp.inbox;

beforeAll(async () => {
  simulator = startSimulator({ seed: 37, latency: { kind: "fixed", ms: 2 } });
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await simulator.stop();
  await smtp.stop();
});

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  competitors: [{ name: "Pipedrive" }],
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

/** Monday 2026-12-07 09:00 UTC, an hour after the weekly report's time, moving with real time; `later` moves it on. */
function testClock() {
  const start = Date.now();
  let later = 0;
  return { clock: () => new Date(Date.UTC(2026, 11, 7, 9, 0) + (Date.now() - start) + later), advance: (ms: number) => (later += ms) };
}

describeEachDatabase("trackers: reports by e-mail", (getDb) => {
  test("without SMTP_URL the report says e-mail is not configured, and cannot be turned on", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      expect((await agent.request("GET", `/api/trackers/${tracker.id}/report`)).json).toEqual({
        emailConfigured: false,
        cadence: "off",
        recipients: [],
        shareUrl: null,
        shareRevoked: false,
        timezone: "UTC",
        nextAt: null,
      });
      const refused = await agent.request("PUT", `/api/trackers/${tracker.id}/report`, { cadence: "weekly", recipients: ["ceo@example.com"] });
      expect(refused.status).toBe(400);
      expect((refused.json as { message: string }).message).toBe("E-mail is not configured on this server (SMTP_URL), so no report can be e-mailed");
    } finally {
      await queue.stop();
    }
  });

  test("recipients confirm once before anything is sent; the weekly report goes to confirmed ones only, and its unsubscribe link stops it; a test goes to the owner alone", async () => {
    inbox().length = 0;
    const time = testClock();
    const { app, queue } = await createTestApp(getDb(), {
      simulator,
      clock: time.clock,
      env: { SMTP_URL: smtp.url, MAIL_FROM: "Reports <reports@example.com>" },
    });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const { run } = await agent.api.runTracker(tracker.id);
      await waitFor(async () => (await agent.api.getTrackerRun(tracker.id, run.id)).status === "completed", { what: "the run" });
      const path = `/api/trackers/${tracker.id}/report`;

      // Bounds and validation: 400 with a message; another user's tracker reads as missing.
      const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
      for (const body of [
        { cadence: "weekly", recipients: eleven },
        { cadence: "weekly", recipients: ["not an address"] },
        { cadence: "weekly", recipients: ["a@example.com", "A@example.com"] },
        { cadence: "daily", recipients: [] },
      ]) {
        const refused = await agent.request("PUT", path, body);
        expect(refused.status).toBe(400);
        expect(refused.json).toMatchObject({ code: "INVALID_INPUT" });
      }
      const { agent: stranger } = await createProAgent(app, getDb());
      expect((await stranger.request("GET", path)).status).toBe(404);
      expect((await stranger.request("PUT", path, { cadence: "weekly", recipients: ["x@example.com"] })).status).toBe(404);
      expect((await stranger.request("POST", `${path}/test`)).status).toBe(404);

      const set = await agent.request("PUT", path, { cadence: "weekly", recipients: ["CEO@example.com", "team@example.com"] });
      expect(set.status).toBe(200);
      const settings = set.json as ReportSettings;
      expect(settings.recipients.map((r) => [r.email, r.status])).toEqual([
        ["ceo@example.com", "pending"],
        ["team@example.com", "pending"],
      ]);
      expect(settings.nextAt).toBe("2026-12-14T08:00:00.000Z");
      const confirmationTo = (email: string) =>
        waitFor(() => inbox().find((mail) => mail.to.includes(email) && mail.subject.startsWith("Confirm")), { what: `the confirmation to ${email}` });
      const ceoConfirmation = await confirmationTo("ceo@example.com");
      const teamConfirmation = await confirmationTo("team@example.com");
      expect(ceoConfirmation.text).toContain('"CRM visibility"');
      expect(ceoConfirmation.headers["list-unsubscribe"]).toContain("/api/email/report/unsubscribe/");
      // Listed again: no second confirmation (one a day at most).
      await agent.request("PUT", path, { cadence: "weekly", recipients: ["ceo@example.com", "team@example.com"] });

      // The confirmation link: the page's read changes nothing; the click confirms, once.
      const [ceoLink] = linksIn(ceoConfirmation.text, "/email/report/confirm/");
      const anyone = createAgent(app);
      const ceoApi = `/api${new URL(ceoLink!).pathname}`;
      expect((await anyone.request("GET", ceoApi)).json).toEqual({ state: "ready", email: "ceo@example.com", tracker: "CRM visibility" });
      const page = await get(app, new URL(ceoLink!).pathname);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Confirm you want this report");
      expect((await get(app, "/email/report/confirm/not-a-token")).status).toBe(404);
      expect((await anyone.request("POST", ceoApi)).json).toEqual({ state: "confirmed", email: "ceo@example.com", tracker: "CRM visibility" });
      expect((await anyone.request("POST", ceoApi)).json).toEqual({ state: "confirmed", email: "ceo@example.com", tracker: "CRM visibility" });
      expect(
        (await anyone.request("POST", "/api/email/report/confirm/00000000-0000-0000-0000-000000000000.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).status,
      ).toBe(404);

      // The Monday look: to the confirmed recipient only (team@ is still pending), with the headline.
      await queue.send("tracker-reports", {});
      const report = await waitFor(() => inbox().find((mail) => mail.to.includes("ceo@example.com") && mail.subject.startsWith("CRM visibility: HubSpot")), {
        what: "the report",
      });
      expect(report.subject).toMatch(/^CRM visibility: HubSpot: (named in \d+ % of answers|no answers)/);
      const headline = report.subject.slice("CRM visibility: ".length);
      expect(report.text).toStartWith(headline);
      expect(report.text).toContain("Per provider, this week:");
      expect(report.text).toContain("The tracker's live report (read-only): http://localhost:3000/shared/");
      expect(report.html).toContain("<table");
      expect(report.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
      expect(inbox().filter((mail) => mail.to.includes("team@example.com"))).toHaveLength(1);
      // Sent once for the period, however often the look runs.
      await queue.send("tracker-reports", {});
      await waitFor(async () => (await getDb().db.select().from(trackerReportSends)).length === 1, { what: "one send recorded" });
      // The share link recipients read is listed with the owner's links.
      const shareUrl = ((await agent.request("GET", path)).json as ReportSettings).shareUrl;
      expect(report.text).toContain(shareUrl!);
      const listed = ((await agent.request("GET", "/api/shares")).json as { shares: Array<{ url: string }> }).shares.map((s) => new URL(s.url).pathname);
      expect(listed).toContain(new URL(shareUrl!).pathname);

      // The report's one-click unsubscribe; then team@ confirms, and next Monday only team@ is sent it.
      const unsubscribe = report.headers["list-unsubscribe"]!.replace(/^<|>$/g, "");
      expect((await anyone.request("POST", new URL(unsubscribe).pathname)).json).toEqual({ email: "ceo@example.com", tracker: "CRM visibility" });
      const [teamLink] = linksIn(teamConfirmation.text, "/email/report/confirm/");
      await anyone.request("POST", `/api${new URL(teamLink!).pathname}`);
      expect(((await agent.request("GET", path)).json as ReportSettings).recipients.map((r) => [r.email, r.status])).toEqual([
        ["ceo@example.com", "unsubscribed"],
        ["team@example.com", "confirmed"],
      ]);
      time.advance(7 * 86_400_000);
      await queue.send("tracker-reports", {});
      await waitFor(() => inbox().find((mail) => mail.to.includes("team@example.com") && mail.subject.startsWith("CRM visibility: ")), {
        what: "team's report",
      });
      expect(inbox().filter((mail) => mail.to.includes("ceo@example.com") && mail.subject.startsWith("CRM visibility: "))).toHaveLength(1);

      // Send a test now: refused in words while the owner's address is not proved; then to the owner alone.
      expect((await agent.request("POST", `${path}/test`)).json).toMatchObject({ outcome: "unconfirmed", to: account.email });
      await agent.request("PUT", "/api/user/notifications", { digest: true });
      const own = await waitFor(() => inbox().find((mail) => mail.to.includes(account.email)), { what: "the owner's confirmation" });
      const [ownLink] = linksIn(own.text, "/email/confirm/");
      await anyone.request("POST", `/api${new URL(ownLink!).pathname}`);
      const before = inbox().length;
      expect((await agent.request("POST", `${path}/test`)).json).toEqual({
        outcome: "sent",
        to: account.email,
        message: `A test report was sent to ${account.email}, and to no one else.`,
      });
      const testMail = await waitFor(() => inbox().find((mail) => mail.subject.startsWith("[Test] CRM visibility: ")), { what: "the test report" });
      expect(testMail.to).toEqual([account.email]);
      expect(testMail.text).toContain(`The tracker's page: http://localhost:3000/trackers/${tracker.id}`);
      expect(
        inbox()
          .slice(before)
          .every((mail) => mail.to.every((to) => to === account.email)),
      ).toBe(true);

      // Removing a recipient deletes them: their links name nobody.
      await agent.request("PUT", path, { cadence: "off", recipients: [] });
      expect((await anyone.request("GET", `/api${new URL(teamLink!).pathname}`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("the recipients' link: none at the owner's share-link limit, said so and made at the next report; revoked, said so and never made again until the owner makes a new one", async () => {
    inbox().length = 0;
    const time = testClock();
    const { app, queue } = await createTestApp(getDb(), { simulator, clock: time.clock, env: { SMTP_URL: smtp.url } });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const path = `/api/trackers/${tracker.id}/report`;
      await agent.request("PUT", path, { cadence: "weekly", recipients: ["ceo@example.com"] });
      const confirmation = await waitFor(() => inbox().find((mail) => mail.to.includes("ceo@example.com")), { what: "the confirmation" });
      await createAgent(app).request("POST", `/api${new URL(linksIn(confirmation.text, "/email/report/confirm/")[0]!).pathname}`);
      const reports = () => inbox().filter((mail) => mail.to.includes("ceo@example.com") && mail.subject.startsWith("CRM visibility: "));
      const nextReport = async () => {
        const before = reports().length;
        await queue.send("tracker-reports", {});
        return waitFor(() => reports()[before], { what: "the report" });
      };

      // The owner has the most live share links: this report goes without one, and says why (not "revoked").
      const filler = Array.from({ length: MAX_LIVE_SHARES }, (_, i) => ({
        userId: account.id,
        workspaceId: tracker.workspaceId,
        kind: "tracker",
        targetId: tracker.id,
        token: `filler-${tracker.id}-${i}`,
        title: "filler",
      }));
      await getDb().db.insert(shares).values(filler);
      const limited = await nextReport();
      expect(limited.text).toContain("No link to the live report this time: its owner has the most live share links an account can have.");
      expect(limited.text).not.toContain("revoked");
      expect((await agent.request("GET", path)).json).toMatchObject({ shareUrl: null, shareRevoked: false });

      // Room again: the next report makes the link.
      await getDb().db.delete(shares).where(eq(shares.userId, account.id));
      time.advance(7 * 86_400_000);
      const linked = await nextReport();
      const { shareUrl } = (await agent.request("GET", path)).json as ReportSettings;
      expect(shareUrl).toStartWith("http://localhost:3000/shared/");
      expect(linked.text).toContain(`The tracker's live report (read-only): ${shareUrl}`);
      expect((await agent.request("POST", `${path}/link`)).status).toBe(409);

      // The owner revokes it: later reports say so, and none is made again on its own.
      const listed = ((await agent.request("GET", "/api/shares")).json as { shares: Array<{ id: string; url: string }> }).shares;
      // Listed at the request's origin; the report's link is at PUBLIC_URL: the same path.
      const reportLink = listed.find((share) => new URL(share.url).pathname === new URL(shareUrl!).pathname)!;
      expect((await agent.request("DELETE", `/api/shares/${reportLink.id}`)).status).toBeLessThan(300);
      expect((await agent.request("GET", path)).json).toMatchObject({ shareUrl: null, shareRevoked: true });
      time.advance(7 * 86_400_000);
      const revoked = await nextReport();
      expect(revoked.text).toContain("The owner revoked this report's link: ask them for another.");
      expect(((await agent.request("GET", "/api/shares")).json as { shares: unknown[] }).shares).toHaveLength(0);

      // Make a new link for recipients: a new one, live at once, which the next report links to.
      const made = await agent.request("POST", `${path}/link`);
      expect(made.status).toBe(200);
      const renewed = made.json as ReportSettings;
      expect(renewed.shareRevoked).toBe(false);
      expect(renewed.shareUrl).toStartWith("http://localhost:3000/shared/");
      expect(renewed.shareUrl).not.toBe(shareUrl);
      time.advance(7 * 86_400_000);
      expect((await nextReport()).text).toContain(`The tracker's live report (read-only): ${renewed.shareUrl}`);
    } finally {
      await queue.stop();
    }
  }, 120_000);
});
