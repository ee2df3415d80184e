import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { trackers, users } from "#db/schema.ts";
import type { NotificationSettings, UpdatedNotifications } from "#src/contract/notifications.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { BASE, createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { linksIn, startSmtpSink, type ReceivedMail } from "#tests/support/smtp.ts";
import { alertingTracker, BASELINE_RUNS, runTimes, runToEnd } from "#tests/support/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";
import { selectRows } from "#db/client.ts";

/*
 * ADR 053 (issue 34, the probe's finding 6): trackers' e-mail cannot be used to send mail to an
 * address nobody proved, or without end. Through the real path: the API, the run that finds
 * alerts, the job queue and a real SMTP server on loopback.
 * - Turning an e-mail on sends a confirmation link, and nothing else, until it is followed; a
 *   changed address is proved again; the link expires and one goes at most every 5 minutes.
 * - A run's alerts are one e-mail, its Subject without anything a user wrote; the text shows
 *   names through visibleText.
 * - MAIL_DAILY_CAP e-mails an account a UTC day, the profile's settings say how many went.
 * - Every e-mail has List-Unsubscribe (https, one-click POST, no session) and a link in its text
 *   whose page turns that kind off.
 */

const PUBLIC_URL = "https://aisc.example.com";
let simulator: Simulator;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  simulator = startSimulator({ seed: 34, latency: { kind: "fixed", ms: 2 } });
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await simulator.stop();
  await smtp.stop();
});

/** The mail to `address`, in the order they came. */
const mailTo = (address: string): ReceivedMail[] => smtp.inbox.filter((mail) => mail.to.includes(address));
/** A link of the product's in a mail, as a path the test app answers. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  expect(parsed.origin).toBe(PUBLIC_URL);
  return parsed.pathname;
};

describeEachDatabase("trackers' e-mail to proved addresses only", (getDb) => {
  /**
   * A test app sending e-mail through the SMTP server. Its clock runs with real time, moved on by
   * `later`; `midday` starts it at 12:00 UTC today, so that moving it minutes on stays in the day.
   */
  async function app(env: Record<string, string> = {}, { midday = false } = {}) {
    const today = new Date();
    let offset = midday ? Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12) - today.getTime() : 0;
    const made = await createTestApp(getDb(), {
      simulator,
      env: { SMTP_URL: smtp.url, PUBLIC_URL, MAIL_FROM: "Trackers <trackers@example.com>", ...env },
      clock: () => new Date(Date.now() + offset),
    });
    return { ...made, later: (ms: number) => void (offset += ms) };
  }

  /** Until no digest or e-mail job waits or runs: what was to be sent has been (or was never queued). */
  async function drained(): Promise<void> {
    await waitFor(
      async () => {
        const rows = await selectRows<{ n: number }>(
          getDb().db,
          sql`select count(*)::int as n from pgboss.job where name in ('tracker-email', 'tracker-digest') and state in ('created', 'retry', 'active')`,
        );
        return rows[0]?.n === 0;
      },
      { what: "the e-mail jobs to end" },
    );
  }

  test("turning alerts on sends only a confirmation link until it is followed: a run's alerts before it send nothing, after it one e-mail", async () => {
    simulator.clearFaults();
    const { app: server, queue } = await app();
    try {
      const { agent, account } = await createProAgent(server, getDb());
      // A username written to be read as an invitation: the confirmation mail, which anyone can have sent to any address, must not carry it.
      await getDb().db.update(users).set({ username: "Claim your prize at evil.example" }).where(eq(users.id, account.id));
      const before = (await agent.request("GET", "/api/user/notifications")).json as NotificationSettings;
      expect(before).toMatchObject({
        emailConfigured: true,
        email: account.email,
        confirmedAt: null,
        digest: false,
        alerts: false,
        sentToday: 0,
        dailyCap: 10,
      });

      const turnedOn = (await agent.request("PUT", "/api/user/notifications", { alerts: true })).json as UpdatedNotifications;
      expect(turnedOn).toMatchObject({ alerts: true, confirmedAt: null, confirmation: "sent", sentToday: 1 });
      const confirmation = await waitFor(() => mailTo(account.email)[0], { what: "the confirmation e-mail" });
      expect(confirmation.subject).toBe("Confirm your address for AI Search Comparison");
      // Nothing the account wrote is in it: not its username.
      expect(confirmation.text).not.toContain("evil.example");
      expect(confirmation.text).toContain(`asked for their trackers' e-mails to be sent to this address, ${account.email}.`);
      const [link] = linksIn(confirmation.text, "/email/confirm/");
      if (!link) throw new Error(`no confirmation link in:\n${confirmation.text}`);

      // Two trackers with their baselines; then OpenAI stops searching the web, and each one's next run finds alerts.
      const first = (await agent.request("POST", "/api/trackers", { ...alertingTracker, name: "Before confirming" })).json as Tracker;
      const second = (await agent.request("POST", "/api/trackers", { ...alertingTracker, name: "After confirming" })).json as Tracker;
      await runTimes(agent.api, first.id, BASELINE_RUNS);
      await runTimes(agent.api, second.id, BASELINE_RUNS);
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      await runToEnd(agent.api, first.id);
      await waitFor(async () => (await agent.api.listTrackerAlerts(first.id)).alerts.length > 0, { what: "the first tracker's alerts" });

      // The link's page (server-rendered, no session) names the address and asks for the click; the click proves it.
      const stranger = createAgent(server);
      const page = await stranger.request("GET", pathOf(link));
      expect(page.status).toBe(200);
      expect(page.text).toContain("Confirm your e-mail address");
      expect(page.text).toContain(account.email);
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ confirmedAt: null });
      const token = pathOf(link).split("/").at(-1)!;
      expect((await stranger.request("POST", `/api/email/confirm/${token}`)).json).toEqual({ state: "confirmed", email: account.email });
      expect(((await agent.request("GET", "/api/user/notifications")).json as NotificationSettings).confirmedAt).toEqual(expect.any(String));

      await runToEnd(agent.api, second.id);
      const found = await waitFor(
        async () => {
          const { alerts } = await agent.api.listTrackerAlerts(second.id);
          return alerts.length > 0 && alerts;
        },
        { what: "the second tracker's alerts" },
      );
      const alertMail = await waitFor(() => mailTo(account.email).find((mail) => mail.text.startsWith("After confirming:")), { what: "the alert e-mail" });
      expect(alertMail.subject).toBe(found.length === 1 ? "Your tracker has 1 new alert" : `Your tracker has ${found.length} new alerts`);
      // The confirmation and the one alert e-mail: the first tracker's alerts, found before the address was proved, were never sent.
      expect(mailTo(account.email).map((mail) => mail.subject)).toEqual(["Confirm your address for AI Search Comparison", alertMail.subject]);
      expect(mailTo(account.email).some((mail) => mail.text.includes("Before confirming"))).toBe(false);
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 180_000);

  test("one e-mail per run with all its alerts, no user text in its Subject, names shown through visibleText", async () => {
    simulator.clearFaults();
    const { app: server, queue } = await app();
    try {
      const { agent, account } = await createProAgent(server, getDb());
      await getDb().db.update(users).set({ emailVerified: account.email, emailVerifiedAt: new Date() }).where(eq(users.id, account.id));
      await agent.request("PUT", "/api/user/notifications", { alerts: true });
      const tracker = (await agent.request("POST", "/api/trackers", alertingTracker)).json as Tracker;
      // Written before inputs refused them: a line break and a right-to-left override in the name, a zero-width space in the brand.
      const name = "CRM\r\nBcc: victim@example.com \u202eevil";
      await getDb()
        .db.update(trackers)
        .set({ name, brand: { name: "Hub\u200bSpot", aliases: [], domains: ["hubspot.com"] } })
        .where(eq(trackers.id, tracker.id));
      await runTimes(agent.api, tracker.id, BASELINE_RUNS);
      // Two providers stop searching the web: several alerts in one run.
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      simulator.setFaults("anthropic", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      const run = await runToEnd(agent.api, tracker.id);
      const found = await waitFor(
        async () => {
          const ofRun = (await agent.api.listTrackerAlerts(tracker.id)).alerts.filter((alert) => alert.runId === run.id);
          return ofRun.length > 0 && ofRun;
        },
        { what: "the run's alerts" },
      );
      expect(found.length).toBeGreaterThan(1);
      const mail = await waitFor(() => mailTo(account.email)[0], { what: "the run's e-mail" });
      expect(mail.subject).toBe(`Your tracker has ${found.length} new alerts`);
      expect(mail.to).toEqual([account.email]);
      // One line a name, as written, its unseen characters named; nothing of the name reached a header.
      expect(mail.text).toStartWith(`CRM Bcc: victim@example.com ⟨U+202E⟩evil: ${found.length} new alerts from its latest run.`);
      expect(mail.text).toContain("Hub⟨U+200B⟩Spot");
      expect(mail.text).not.toMatch(/[\u202e\u200b\r]/);
      expect(mail.text.split("\n").filter((line) => line.startsWith("- CRM Bcc: victim@example.com ⟨U+202E⟩evil: "))).toHaveLength(found.length);
      expect(Object.keys(mail.headers)).not.toContain("bcc");
      await drained();
      expect(mailTo(account.email)).toHaveLength(1);
      expect(((await agent.request("GET", "/api/user/notifications")).json as NotificationSettings).sentToday).toBe(1);
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 180_000);

  test("MAIL_DAILY_CAP e-mails an account a UTC day, confirmation links included; the settings say how many went; the next day sends again", async () => {
    const { app: server, queue, later } = await app({ MAIL_DAILY_CAP: "2" }, { midday: true });
    try {
      const { agent, account } = await createProAgent(server, getDb());
      await agent.request("POST", "/api/trackers", alertingTracker);
      // The link is the day's first e-mail.
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true })).json).toMatchObject({ confirmation: "sent", sentToday: 1, dailyCap: 2 });
      const [link] = linksIn((await waitFor(() => mailTo(account.email)[0], { what: "the link" })).text, "/email/confirm/");
      expect((await createAgent(server).request("POST", `/api/email/confirm/${pathOf(link!).split("/").at(-1)}`)).status).toBe(200);
      // Three digests asked for: the day has room for one.
      for (let i = 0; i < 3; i++) await queue.send("tracker-digest", {});
      await waitFor(() => mailTo(account.email).length === 2, { what: "the day's digest" });
      await drained();
      expect(mailTo(account.email)).toHaveLength(2);
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ sentToday: 2, dailyCap: 2 });
      // Past the cap, asking for a link is refused in words.
      await getDb().db.update(users).set({ emailVerified: null }).where(eq(users.id, account.id));
      later(10 * 60 * 1000);
      const refused = await agent.request("POST", "/api/user/notifications/confirmation");
      expect(refused.status).toBe(429);
      expect((refused.json as { message: string }).message).toBe("Today's 2 e-mails to this account are sent: ask again after 00:00 UTC.");
      await getDb().db.update(users).set({ emailVerified: account.email }).where(eq(users.id, account.id));

      // The next day: sent again, and counted from zero.
      later(24 * 3600 * 1000);
      await queue.send("tracker-digest", {});
      await waitFor(() => mailTo(account.email).length === 3, { what: "the next day's digest" });
      expect(mailTo(account.email).map((mail) => mail.subject)).toEqual([
        "Confirm your address for AI Search Comparison",
        "Your trackers this week (1)",
        "Your trackers this week (1)",
      ]);
      expect(((await agent.request("GET", "/api/user/notifications")).json as NotificationSettings).sentToday).toBe(1);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a confirmation link goes at most every 5 minutes, works for an hour, and only for the address it was sent to; a changed address is proved again", async () => {
    const { app: server, queue, later } = await app({}, { midday: true });
    try {
      const { agent, account } = await createProAgent(server, getDb());
      await agent.request("POST", "/api/trackers", alertingTracker);
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true })).json).toMatchObject({ confirmation: "sent" });
      // Asked again at once (the switch off and on, the button): not sent.
      await agent.request("PUT", "/api/user/notifications", { digest: false });
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true })).json).toMatchObject({ confirmation: "wait", sentToday: 1 });
      const again = await agent.request("POST", "/api/user/notifications/confirmation");
      expect(again.status).toBe(429);
      expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((again.json as { message: string }).message).toMatch(
        /^A confirmation link was sent minutes ago: follow it, or ask again in (a minute|\d minutes)\.$/,
      );
      const first = await waitFor(() => mailTo(account.email)[0], { what: "the link" });

      // An hour later the link has expired; a new one may be asked for.
      later(61 * 60 * 1000);
      const expiredToken = pathOf(linksIn(first.text, "/email/confirm/")[0]!).split("/").at(-1)!;
      expect((await createAgent(server).request("GET", `/api/email/confirm/${expiredToken}`)).json).toEqual({ state: "expired", email: account.email });
      const late = await createAgent(server).request("POST", `/api/email/confirm/${expiredToken}`);
      expect(late.status).toBe(400);
      expect((late.json as { message: string }).message).toBe("This confirmation link has expired: ask for a new one in your profile.");
      expect((await agent.request("POST", "/api/user/notifications/confirmation")).json).toMatchObject({ confirmation: "sent", sentToday: 2 });
      const second = await waitFor(() => mailTo(account.email)[1], { what: "the second link" });
      const token = pathOf(linksIn(second.text, "/email/confirm/")[0]!).split("/").at(-1)!;
      // A forged or altered link is not one, nor a token of its shape naming no account.
      expect((await createAgent(server).request("POST", `/api/email/confirm/${token.slice(0, -2)}AA`)).status).toBe(404);
      expect((await createAgent(server).request("GET", `/api/email/confirm/${"-".repeat(36)}.1.${"A".repeat(43)}`)).status).toBe(404);
      expect((await createAgent(server).request("GET", `/api/email/confirm/${crypto.randomUUID()}.1.${"A".repeat(43)}`)).status).toBe(404);
      expect((await createAgent(server).request("POST", `/api/email/confirm/${token}`)).json).toEqual({ state: "confirmed", email: account.email });

      await queue.send("tracker-digest", {});
      await waitFor(() => mailTo(account.email).length === 3, { what: "the digest to the proved address" });

      // The account's address changes: not proved any more, nothing goes to either address, and the old link does not prove the new one.
      const changed = `changed-${account.email}`;
      await getDb().db.update(users).set({ email: changed }).where(eq(users.id, account.id));
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ email: changed, confirmedAt: null, digest: true });
      expect((await createAgent(server).request("POST", `/api/email/confirm/${token}`)).status).toBe(404);
      await queue.send("tracker-digest", {});
      await drained();
      expect(mailTo(changed)).toHaveLength(0);
      // Turning it on again asks the new address (minutes later), and that link is the one mail it gets.
      later(6 * 60 * 1000);
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true })).json).toMatchObject({ confirmation: "sent" });
      const toNew = await waitFor(() => mailTo(changed)[0], { what: "the link to the new address" });
      expect(toNew.subject).toBe("Confirm your address for AI Search Comparison");
      expect(mailTo(changed)).toHaveLength(1);
      expect(mailTo(account.email)).toHaveLength(3);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("every e-mail carries List-Unsubscribe (https, one-click POST without a session) and a link whose page turns that kind off", async () => {
    const { app: server, queue } = await app();
    try {
      const { agent, account } = await createProAgent(server, getDb());
      await agent.request("POST", "/api/trackers", alertingTracker);
      await agent.request("PUT", "/api/user/notifications", { digest: true, alerts: true });
      const confirmation = await waitFor(() => mailTo(account.email)[0], { what: "the link" });
      await createAgent(server).request("POST", `/api/email/confirm/${pathOf(linksIn(confirmation.text, "/email/confirm/")[0]!).split("/").at(-1)}`);
      await queue.send("tracker-digest", {});
      const digest = await waitFor(() => mailTo(account.email)[1], { what: "the digest" });

      for (const mail of [confirmation, digest]) {
        expect(mail.headers["list-unsubscribe"]).toMatch(new RegExp(`^<${PUBLIC_URL}/api/email/unsubscribe/[^>\\s]+>$`));
        expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
        expect(linksIn(mail.text, "/email/unsubscribe/")).toHaveLength(1);
      }
      expect(digest.text).toContain("Unsubscribe (turns the weekly digest of your trackers off at once): ");

      // The mail provider's one-click POST: no cookie, no Origin, a form body.
      const oneClick = pathOf(digest.headers["list-unsubscribe"]!.slice(1, -1));
      // (A client that opens it in a browser instead is sent to the page.)
      const opened = await createAgent(server).request("GET", oneClick);
      expect({ status: opened.status, location: opened.headers.get("location") }).toEqual({ status: 303, location: oneClick.replace(/^\/api/, "") });
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ digest: true });
      const posted = await server.handle(
        new Request(BASE + oneClick, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" }),
      );
      expect(posted.status).toBe(200);
      expect(await posted.json()).toEqual({ off: "digest" });
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ digest: false, alerts: true });

      // The confirmation mail's link, followed by anyone: the page says so, and this account's e-mails are off.
      const page = await createAgent(server).request("GET", pathOf(linksIn(confirmation.text, "/email/unsubscribe/")[0]!));
      expect(page.status).toBe(200);
      expect(page.text).toContain("Unsubscribed");
      expect(page.text).toContain("This account&#x27;s e-mails are off: nothing more is sent to this address for it.");
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ digest: false, alerts: false });

      // A link that is not ours: 404, and nothing changes.
      await agent.request("PUT", "/api/user/notifications", { alerts: true });
      const forged = oneClick.replace(/\.digest\./, ".alerts.");
      expect((await createAgent(server).request("POST", forged)).status).toBe(404);
      expect((await createAgent(server).request("GET", forged.replace(/^\/api/, ""))).status).toBe(404);
      expect((await agent.request("GET", "/api/user/notifications")).json).toMatchObject({ alerts: true });
    } finally {
      await queue.stop();
    }
  }, 120_000);
});
