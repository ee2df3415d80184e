import { afterAll, beforeAll, expect, test } from "bun:test";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Tracker } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { BASELINE_RUNS } from "#tests/support/trackers.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * Issue 26: trackers' e-mails, sent through SMTP to a real SMTP server on loopback (smtp-server):
 * an alert as it comes, for a user who asked for them, and the weekly digest. Without SMTP_URL the
 * product says e-mail is not configured.
 */

type Mail = { to: string[]; subject: string; text: string };

let simulator: Simulator;
let smtp: SMTPServer;
let smtpUrl = "";
const inbox: Mail[] = [];

beforeAll(async () => {
  simulator = startSimulator({ seed: 26, latency: { kind: "fixed", ms: 2 } });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, done) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), ...parse(raw) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await simulator.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** The subject and the plain text of a message as it came over SMTP (quoted-printable undone). */
function parse(raw: string): { subject: string; text: string } {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(head)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
  const body = rest.join("\n\n");
  const text = /quoted-printable/i.test(head)
    ? body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : body;
  return { subject, text: Buffer.from(text, "latin1").toString("utf8") };
}

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
        digest: false,
        alerts: false,
      });
      const refused = await agent.request("PUT", "/api/user/notifications", { digest: true });
      expect(refused.status).toBe(400);
      expect((refused.json as { message: string }).message).toBe("E-mail is not configured on this server (SMTP_URL), so no e-mail can be turned on");
    } finally {
      await queue.stop();
    }
  });

  test("a user who asked gets each alert by e-mail as it comes, and the weekly digest with their tracker's lines and the week's alerts", async () => {
    simulator.clearFaults();
    inbox.length = 0;
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { SMTP_URL: smtpUrl, MAIL_FROM: "Trackers <trackers@example.com>" } });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      expect((await agent.request("PUT", "/api/user/notifications", { digest: true, alerts: true })).json).toMatchObject({
        emailConfigured: true,
        digest: true,
        alerts: true,
      });
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const run = async () => {
        const { run: started } = await agent.api.runTracker(tracker.id);
        await waitFor(async () => (await agent.api.getTrackerRun(tracker.id, started.id)).status === "completed", { what: "the run" });
      };
      // A baseline of steady runs, then OpenAI stops searching the web: its citations of hubspot.com fall, an alert.
      for (let i = 0; i < BASELINE_RUNS; i++) await run();
      simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
      await run();
      const alertMail = await waitFor(() => inbox.find((mail) => mail.subject.includes("HubSpot fell")), { what: "the alert's e-mail" });
      expect(alertMail.to).toEqual([account.email]);
      expect(alertMail.text).toContain("CRM visibility: Citations of HubSpot's site fell on ChatGPT / OpenAI");

      // The digest, as the Monday schedule sends it.
      await queue.send("tracker-digest", {});
      const digest = await waitFor(() => inbox.find((mail) => mail.subject === "Your trackers this week (1)"), { what: "the digest" });
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
