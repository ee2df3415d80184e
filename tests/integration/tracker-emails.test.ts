import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { BASELINE_RUNS } from "#tests/support/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * Trackers' e-mails, sent through SMTP to a real SMTP server on loopback (smtp-server):
 * a run's alerts as it ends, for a user who asked for them and proved their address (ADR 053:
 * tests/integration/email-confirmation.test.ts), and the weekly digest. Without SMTP_URL the
 * product says e-mail is not configured.
 */

let simulator: Simulator;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
const inbox = () => smtp.inbox;

beforeAll(async () => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await simulator.stop();
  await smtp.stop();
});

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups", "best crm for small business"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  iterations: 10,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

describeEachDatabase("trackers: e-mail", (getDb) => {
  test("without SMTP_URL the product says e-mail is not configured, and no e-mail can be turned on", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      expect((await agent.request("GET", "/api/user/notifications")).json).toEqual({
        emailConfigured: false,
        email: account.email,
        confirmedAt: null,
        digest: false,
        alerts: false,
        sentToday: 0,
        dailyCap: 10,
      });
      const refused = await agent.request("PUT", "/api/user/notifications", { digest: true });
      expect(refused.status).toBe(400);
      expect((refused.json as { message: string }).message).toBe("E-mail is not configured on this server (SMTP_URL), so no e-mail can be turned on");
    } finally {
      await queue.stop();
    }
  });

  test("a user who asked and proved their address gets a run's alerts in one e-mail as it ends, and the weekly digest with their tracker's lines and the week's alerts", async () => {
    simulator.clearFaults();
    inbox().length = 0;
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { SMTP_URL: smtp.url, MAIL_FROM: "Trackers <trackers@example.com>" } });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true, alerts: true })).json).toMatchObject({
        emailConfigured: true,
        digest: true,
        alerts: true,
        confirmation: "sent",
      });
      // The confirmation link, followed.
      const confirmation = await waitFor(() => inbox().find((mail) => mail.to.includes(account.email)), { what: "the confirmation link" });
      const [link] = linksIn(confirmation.text, "/email/confirm/");
      expect((await createAgent(app).request("POST", `/api${new URL(link!).pathname}`)).json).toEqual({ state: "confirmed", email: account.email });
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const run = async () => {
        const { run: started } = await agent.api.runTracker(tracker.id);
        await waitFor(async () => (await agent.api.getTrackerRun(tracker.id, started.id)).status === "completed", { what: "the run" });
      };
      // A baseline of steady runs, then OpenAI stops searching the web: its citations of hubspot.com fall, an alert.
      for (let i = 0; i < BASELINE_RUNS; i++) await run();
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      await run();
      const alertMail = await waitFor(() => inbox().find((mail) => /^Your tracker has (1 new alert|\d+ new alerts)$/.test(mail.subject)), {
        what: "the alerts' e-mail",
      });
      expect(alertMail.to).toEqual([account.email]);
      expect(alertMail.text).toStartWith("CRM visibility: ");
      expect(alertMail.text).toContain("- CRM visibility: Citations of HubSpot's site fell on ChatGPT / OpenAI");

      // The digest, as the Monday schedule sends it.
      await queue.send("tracker-digest", {});
      const digest = await waitFor(() => inbox().find((mail) => mail.subject === "Your trackers this week (1)"), { what: "the digest" });
      expect(digest.to).toEqual([account.email]);
      expect(digest.text).toContain("CRM visibility — Every Monday at 09:00 (UTC)");
      expect(digest.text).toMatch(
        /ChatGPT \/ OpenAI: HubSpot named in \d+(\.\d+)?% \(.*n=20\) of answers in the latest run; this week: (no clear change|(rose|fell) \(.*\))\./,
      );
      expect(digest.text).toContain("Alerts this week");
      expect(digest.text).toContain("Citations of HubSpot's site fell on ChatGPT / OpenAI");
    } finally {
      simulator.clearFaults();
      await queue.stop();
    }
  }, 120_000);
});
