import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { selectRows } from "#db/client.ts";
import { providerPauses, trackerMissedRuns, trackerRuns, trackers } from "#db/schema.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { stallText } from "#src/core/tracker-timing.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv, testRetry } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { runToEnd } from "#tests/support/trackers.ts";
import { sendsJob, startsWith, withStatementFaults, type Statement } from "#tests/support/statement-faults.ts";
import { waitFor } from "#tests/support/wait.ts";
import type { App } from "#src/server/app.ts";
import { nextOccurrence } from "#src/server/services/trackers/schedule.ts";

/*
 * A stalled tracker is impossible to miss: the list and the page say when it runs next and how its
 * last run ended, and plainly when a due run did not happen or a run has gone on too long; a missed
 * run is told to its owner once (a bell item, an e-mail, a `run.missed` webhook), however often
 * and by however many instances it is found; a provider's 429 pauses every instance's calls.
 */

let simulator: Simulator;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 2 } });
  smtp = await startSmtpSink();
});
afterAll(async () => {
  await simulator.stop();
  await smtp.stop();
});

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 1,
  schedule: { cron: "0 9 * * *", timezone: "Europe/Berlin" },
};

/** A loopback webhook receiver: keeps every request and what it answered, 503 to the first of event `refuseFirst`, 200 to the rest. */
function receiver({ refuseFirst }: { refuseFirst?: string } = {}) {
  const received: { event: string; delivery: string; body: string; status: number }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const event = request.headers.get("x-aisc-event") ?? "";
      const status = event === refuseFirst && !received.some((earlier) => earlier.event === event) ? 503 : 200;
      received.push({ event, delivery: request.headers.get("x-aisc-delivery") ?? "", body: await request.text(), status });
      return new Response(status === 200 ? "ok" : "unavailable", { status });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, received, stop: () => server.stop(true) };
}

describeEachDatabase("trackers: a stalled tracker is impossible to miss", (getDb) => {
  /** The tracker as if it was last saved `days` ago with no scheduled run since: its due run is long past. */
  /** As if saved `days` ago with no instance up since: its next run is still the first occurrence after that. */
  async function savedDaysAgo(trackerId: string, days: number): Promise<void> {
    const [row] = await getDb().db.select({ cron: trackers.cron, timezone: trackers.timezone }).from(trackers).where(eq(trackers.id, trackerId));
    const saved = new Date(Date.now() - days * 24 * 3600_000);
    const next = nextOccurrence({ cron: row!.cron, timezone: row!.timezone }, saved.getTime());
    await getDb()
      .db.update(trackers)
      .set({ updatedAt: saved, nextRunAt: next === null ? null : new Date(next) })
      .where(eq(trackers.id, trackerId));
  }

  /** A Pro account with alert e-mails on and its address proved (ADR 053); the SMTP sink emptied after. */
  async function provedAccount(app: App) {
    const made = await createProAgent(app, getDb());
    await made.agent.request("PUT", "/api/user/notifications", { alerts: true });
    const confirmation = await waitFor(() => smtp.inbox.find((mail) => mail.to.includes(made.account.email)), { what: "the confirmation link" });
    const [link] = linksIn(confirmation.text, "/email/confirm/");
    expect((await createAgent(app).request("POST", `/api${new URL(link!).pathname}`)).json).toMatchObject({ state: "confirmed" });
    smtp.inbox.length = 0;
    return made;
  }

  /** Until no job of these queues waits or runs. */
  async function settled(queues: string[]): Promise<void> {
    await waitFor(
      async () => {
        const rows = await selectRows<{ n: number }>(
          getDb().db,
          sql`select count(*)::int as n from pgboss.job where name in ${sql.raw(`(${queues.map((name) => `'${name}'`).join(", ")})`)} and state in ('created', 'retry', 'active')`,
        );
        return rows[0]?.n === 0;
      },
      { what: `the jobs of ${queues.join(", ")} to end` },
    );
  }

  test("the list and the page show the next run and how the last run ended; a due run that did not happen, or a run going on too long, is said plainly", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      expect(created).toMatchObject({ lastRun: null, stall: null });
      expect(new Date(created.nextRunAt!).getTime()).toBeGreaterThan(Date.now());

      const run = await runToEnd(agent.api, created.id);
      const [listed] = (await agent.api.listTrackers()).trackers;
      expect(listed).toMatchObject({ id: created.id, stall: null, lastRun: { id: run.id, status: "completed", finishedAt: run.finishedAt } });
      const page = await agent.request("GET", `/trackers/${created.id}`);
      expect(page.text).toContain("Next run");
      expect(page.text).toContain("(Europe/Berlin)");
      expect(page.text).toContain("Completed");
      expect(page.text).not.toContain("did not happen");

      // Saved three days ago, and no scheduled run since: the runs due at 09:00 since did not happen.
      await savedDaysAgo(created.id, 3);
      const [row] = await getDb().db.select({ updatedAt: trackers.updatedAt }).from(trackers).where(eq(trackers.id, created.id));
      const stalled = await agent.api.getTracker(created.id);
      expect(stalled.stall?.kind).toBe("missed");
      const dueAt = new Date((stalled.stall as { dueAt: string }).dueAt);
      // The first 09:00 in Berlin after it was saved.
      expect(dueAt.getTime()).toBeGreaterThan(row!.updatedAt.getTime());
      expect(dueAt.getTime() - row!.updatedAt.getTime()).toBeLessThanOrEqual(24 * 3600_000);
      expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" }).format(dueAt)).toBe("09:00");
      expect((await agent.api.listTrackers()).trackers[0]?.stall).toEqual(stalled.stall);
      for (const path of ["/trackers", `/trackers/${created.id}`]) {
        const html = (await agent.request("GET", path)).text;
        expect(html).toContain("did not happen");
        expect(html).toMatch(/The run due at (Dec|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov) \d+, 09:00 \(Europe\/Berlin\) did not happen\./);
      }

      // Paused, nothing is late.
      await agent.api.updateTracker(created.id, { paused: true });
      expect((await agent.api.getTracker(created.id)).stall).toBeNull();
      await agent.api.updateTracker(created.id, { paused: false });
      expect((await agent.api.getTracker(created.id)).stall).toBeNull();

      // A run that has been going for five hours, far longer than a run of one question can take.
      const since = new Date(Date.now() - 5 * 3600_000);
      await getDb().db.update(trackerRuns).set({ status: "running", startedAt: since, finishedAt: null }).where(eq(trackerRuns.id, run.id));
      const going = await agent.api.getTracker(created.id);
      expect(going.stall).toEqual({ kind: "running", since: since.toISOString() });
      expect(stallText(going.stall!, "Europe/Berlin")).toStartWith("This run has been going for 5 hours");
      expect((await agent.request("GET", "/trackers")).text).toContain("This run has been going for 5 hours");
      await getDb().db.update(trackerRuns).set({ status: "completed", finishedAt: new Date() }).where(eq(trackerRuns.id, run.id));
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a missed run makes one bell item, one e-mail and one run.missed webhook, however often and by however many instances it is found", async () => {
    smtp.inbox.length = 0;
    const hook = receiver();
    const env = { SMTP_URL: smtp.url, MAIL_FROM: "Trackers <trackers@example.com>", WEBHOOK_ALLOW_PRIVATE: "1" };
    const first = await createTestApp(getDb(), { simulator, env });
    const second = await createTestApp(getDb(), { simulator, env });
    let trackerId: string | undefined;
    try {
      const { agent, account } = await provedAccount(first.app);

      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: hook.url } })).json as Tracker;
      trackerId = tracker.id;
      await savedDaysAgo(tracker.id, 2);
      const due = (await agent.api.getTracker(tracker.id)).stall;
      expect(due?.kind).toBe("missed");

      // The check, found by both instances at once, and again.
      await second.queue.start();
      await Promise.all([
        first.queue.send("tracker-missed-check", {}),
        second.queue.send("tracker-missed-check", {}),
        first.queue.send("tracker-missed-check", {}),
      ]);
      await settled(["tracker-missed-check"]);
      await first.queue.send("tracker-missed-check", {});
      await settled(["tracker-missed-check", "tracker-missed-tell", "tracker-webhook", "tracker-email"]);

      // One record, for the occurrence the tracker shows as missed.
      const recorded = await getDb().db.select().from(trackerMissedRuns).where(eq(trackerMissedRuns.trackerId, tracker.id));
      expect(recorded.map((row) => row.dueAt.toISOString())).toEqual([(due as { dueAt: string }).dueAt]);
      // Found by the check, or by an instance's dispatcher as it started: the same occurrence either way.
      const why = /no run was made for it|the service was not running/;
      expect(recorded[0]!.reason).toMatch(why);

      // The bell: one unread item, named by its tracker; marking all read reads it.
      const inbox = await agent.api.listUserAlerts();
      expect(inbox.unread).toBe(1);
      // The overview marks its tracker with it.
      expect(inbox.unreadByTracker).toEqual({ [tracker.id]: 1 });
      expect(inbox.missed).toEqual([
        expect.objectContaining({
          trackerId: tracker.id,
          trackerName: "CRM visibility",
          timezone: "Europe/Berlin",
          dueAt: recorded[0]!.dueAt.toISOString(),
          read: false,
        }),
      ]);
      expect(await agent.api.markAlertsRead()).toEqual({ unread: 0 });
      expect((await agent.api.listUserAlerts()).missed[0]?.read).toBe(true);

      // One e-mail, its Subject free of anything the user wrote, with the way out.
      const mails = smtp.inbox.filter((mail) => mail.to.includes(account.email));
      expect(mails.map((mail) => mail.subject)).toEqual(["A scheduled run of your tracker did not happen"]);
      expect(mails[0]!.text).toMatch(
        /CRM visibility: the run due [A-Z][a-z]{2} \d+, \d{4}, 09:00 \(Europe\/Berlin\) did not happen: (no run was made for it|missed: the service was not running)/,
      );
      expect(mails[0]!.headers["list-unsubscribe"]).toBeDefined();

      // One webhook delivery, `run.missed`, with the occurrence and why.
      const missed = hook.received.filter((delivery) => delivery.event === "run.missed");
      expect(missed).toHaveLength(1);
      expect(JSON.parse(missed[0]!.body)).toMatchObject({
        event: "run.missed",
        tracker: { id: tracker.id, name: "CRM visibility", timezone: "Europe/Berlin" },
        missed: { dueAt: recorded[0]!.dueAt.toISOString(), reason: expect.stringMatching(why) },
      });
      // Nothing else was posted (named, so a stray delivery says what it was).
      expect(hook.received.map((delivery) => delivery.event)).toEqual(["run.missed"]);
    } finally {
      // Left due, the next test's dispatcher would catch it up, posting to a receiver gone by then.
      if (trackerId) await getDb().db.delete(trackers).where(eq(trackers.id, trackerId));
      await second.queue.stop();
      await first.queue.stop();
      hook.stop();
    }
  }, 120_000);

  test("a missed run's e-mail and webhook are sent once each, however handing them on fails and the webhook answers 503", async () => {
    const hook = receiver({ refuseFirst: "run.missed" });
    const faults = withStatementFaults(getDb());
    const env = { SMTP_URL: smtp.url, MAIL_FROM: "Trackers <trackers@example.com>", WEBHOOK_ALLOW_PRIVATE: "1" };
    const { app, queue } = await createTestApp(faults.database, { simulator, env });
    let trackerId: string | undefined;
    try {
      const { agent, account } = await provedAccount(app);
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: hook.url } })).json as Tracker;
      trackerId = tracker.id;
      // Handing the miss on fails once at each step, as a database blip would: sending its job (so
      // nothing is handed on), then sending its webhook, then recording it told once the webhook
      // and the e-mail are both handed on (so its retry hands both on again).
      const steps = [
        sendsJob("tracker-missed-tell"),
        (statement: Statement) => sendsJob("tracker-webhook")(statement) && statement.params.some((param) => String(param).includes('"event":"run.missed"')),
        startsWith('update "tracker_missed_runs" set "told_at"'),
      ].map((matches) => faults.add(matches));
      await savedDaysAgo(tracker.id, 2);
      await queue.send("tracker-missed-check", {});
      const [recorded] = await waitFor(
        async () => {
          const rows = await getDb().db.select().from(trackerMissedRuns).where(eq(trackerMissedRuns.trackerId, tracker.id));
          return rows.length > 0 && rows;
        },
        { what: "the miss recorded" },
      );
      // Its job was lost with the first failure: a later check sends it.
      await settled(["tracker-missed-check"]);
      await queue.send("tracker-missed-check", {});
      await waitFor(
        () =>
          smtp.inbox.some((mail) => mail.to.includes(account.email)) &&
          hook.received.some((request) => request.event === "run.missed" && request.status === 200),
        { what: "the e-mail and the webhook", timeoutMs: 120_000 },
      );
      await settled(["tracker-missed-check", "tracker-missed-tell", "tracker-webhook", "tracker-email"]);
      expect(steps.map((step) => step.left())).toEqual([0, 0, 0]);
      expect((await getDb().db.select().from(trackerMissedRuns).where(eq(trackerMissedRuns.id, recorded!.id)))[0]?.toldAt).toBeInstanceOf(Date);

      const mails = smtp.inbox.filter((mail) => mail.to.includes(account.email));
      expect(mails.map((mail) => mail.subject)).toEqual(["A scheduled run of your tracker did not happen"]);
      // One delivery, the miss's, asked twice: refused with 503, then taken.
      const missed = hook.received.filter((request) => request.event === "run.missed");
      expect(missed.map((request) => [request.delivery, request.status])).toEqual([
        [recorded!.id, 503],
        [recorded!.id, 200],
      ]);
      expect(JSON.parse(missed[1]!.body)).toMatchObject({ id: recorded!.id, missed: { dueAt: recorded!.dueAt.toISOString() } });
    } finally {
      if (trackerId) await getDb().db.delete(trackers).where(eq(trackers.id, trackerId));
      await queue.stop();
      hook.stop();
    }
  });

  test("the check deletes missed runs recorded more than 90 days ago, and keeps the rest", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 3600_000);
      await getDb()
        .db.insert(trackerMissedRuns)
        .values(
          [91, 89, 0].map((days) => ({
            trackerId: tracker.id,
            dueAt: daysAgo(days),
            reason: `${days} days ago`,
            toldAt: daysAgo(days),
            createdAt: daysAgo(days),
          })),
        );
      await queue.send("tracker-missed-check", {});
      await settled(["tracker-missed-check"]);
      const kept = await getDb().db.select({ reason: trackerMissedRuns.reason }).from(trackerMissedRuns).where(eq(trackerMissedRuns.trackerId, tracker.id));
      expect(kept.map((row) => row.reason).sort()).toEqual(["0 days ago", "89 days ago"]);
    } finally {
      await queue.stop();
    }
  });

  test("a tick skipped because the previous run was still going is told as a missed run, once however often it is sent", async () => {
    const hook = receiver();
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: hook.url } })).json as Tracker;
      const run = await runToEnd(agent.api, tracker.id);
      // Its run stuck running: the next tick cannot start one.
      await getDb().db.update(trackerRuns).set({ status: "running", finishedAt: null }).where(eq(trackerRuns.id, run.id));
      const scheduledFor = "2026-12-01T08:00:00.000Z";
      for (let i = 0; i < 2; i++) await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor });
      await settled(["tracker-tick", "tracker-missed-tell", "tracker-webhook"]);

      const skipped = (await agent.api.listTrackerRuns(tracker.id)).runs.find((item: TrackerRun) => item.scheduledFor === scheduledFor);
      expect(skipped).toMatchObject({ status: "skipped", reason: "the previous run was still going" });
      expect((await agent.api.listUserAlerts()).missed).toEqual([
        expect.objectContaining({ trackerId: tracker.id, dueAt: scheduledFor, reason: "the previous run was still going" }),
      ]);
      // The run before it was posted as it ended; the tick it blocked, once.
      expect(hook.received.map((delivery) => delivery.event).sort()).toEqual(["run.completed", "run.missed"]);
      await getDb().db.update(trackerRuns).set({ status: "completed", finishedAt: new Date() }).where(eq(trackerRuns.id, run.id));
    } finally {
      await queue.stop();
      hook.stop();
    }
  }, 120_000);

  test("a scheduled run the tracker's budget refuses is told as a missed run; the same refusal of a Run now is not (its owner is looking)", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator, env: liveProviderEnv(simulator) });
    try {
      const { agent } = await createProAgent(app, getDb());
      const tracker = (await agent.request("POST", "/api/trackers", { ...definition, monthlyBudgetUsd: 0.01 })).json as Tracker;
      const manual = await runToEnd(agent.api, tracker.id);
      expect(manual).toMatchObject({ status: "skipped", reason: expect.stringContaining("monthly budget") });
      const scheduledFor = "2026-12-02T08:00:00.000Z";
      await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor });
      await settled(["tracker-tick"]);
      const missed = (await agent.api.listUserAlerts()).missed;
      expect(missed).toEqual([expect.objectContaining({ trackerId: tracker.id, dueAt: scheduledFor, reason: expect.stringContaining("monthly budget") })]);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a provider's 429 met by one instance makes another instance wait until the pause ends", async () => {
    // No retries inside a call and a 3 s pause after a 429: the pause is what makes the calls wait.
    const retry = { ...testRetry, retries: 0, maxDelayMs: 3_000 };
    const limited = startSimulator({ latency: { kind: "fixed", ms: 2 } });
    const clean = startSimulator({ latency: { kind: "fixed", ms: 2 } });
    limited.setFaults("openai", [{ kind: "rate_limit", retryAfterSeconds: 0 }], { persistent: true, kinds: ["search"] });
    const first = await createTestApp(getDb(), { simulator: limited, retry });
    const second = await createTestApp(getDb(), { simulator: clean, retry });
    try {
      await getDb().db.delete(providerPauses);
      const { agent } = await createProAgent(first.app, getDb());
      const one = { ...definition, providers: ["openai"] };
      const tracker = (await agent.request("POST", "/api/trackers", one)).json as Tracker;
      await agent.api.runTracker(tracker.id);
      // The first instance met the 429 and paused OpenAI in the database.
      const [pause] = await waitFor(
        async () => {
          const rows = await getDb().db.select().from(providerPauses).where(eq(providerPauses.provider, "openai"));
          return rows.length > 0 && rows;
        },
        { what: "the pause" },
      );
      const until = pause!.until.getTime();
      expect(until).toBeGreaterThan(Date.now());
      // It stops; the other instance takes its run, and a run of its own, while the pause lasts.
      await first.queue.stop({ graceful: false });
      limited.clearFaults();
      // The same browser, on the other instance.
      const elsewhere = createAgent(second.app, { jar: agent.jar, ip: agent.ip });
      await second.queue.start();
      const other = (await elsewhere.request("POST", "/api/trackers", { ...one, name: "CRM elsewhere" })).json as Tracker;
      const ended = await runToEnd(elsewhere.api, other.id);
      expect(ended.status).toBe("completed");
      // Not one OpenAI call reached the other instance's provider before the pause ended.
      const calls = clean.requests.filter((request) => request.provider === "openai" && request.kind === "search");
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) expect(call.atMs).toBeGreaterThanOrEqual(until - 5);
    } finally {
      await second.queue.stop();
      await first.queue.stop();
      await limited.stop();
      await clean.stop();
    }
  }, 120_000);
});
