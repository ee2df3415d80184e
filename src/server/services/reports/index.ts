import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { shares, trackerReportRecipients, trackerReportSends, trackers, users } from "#db/schema.ts";
import type { ReportConfirmation, ReportSettings, ReportTestResult, ReportUnsubscribed, UpdateReport } from "#src/contract/reports.ts";
import { SHARE_PATH } from "#src/contract/shares.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { createThrottle, tryAgainIn } from "../auth/throttle.ts";
import { DomainError } from "../errors.ts";
import type { JobQueue } from "../job-queue.ts";
import type { MailLinks } from "../mail/links.ts";
import type { Outbox } from "../mail/outbox.ts";
import type { Shares } from "../shares/index.ts";
import type { Trackers } from "../trackers/index.ts";
import type { Alerts } from "../trackers/alerts.ts";
import type { Rollups } from "../trackers/rollups.ts";
import { nextRun, occurrenceAt } from "../trackers/schedule.ts";
import { summarySubject, trackerSummary } from "../trackers/summary.ts";
import { composeReport, type ReportHistoryRow, type ReportLink } from "./compose.ts";

/** The reports' look for due ones: every 15 minutes, so a report goes within a quarter hour of 08:00 in any time zone. */
const REPORTS = "tracker-reports";
const REPORTS_CRON = "*/15 * * * *";
/** When each cadence's report is due, read in the tracker's time zone. */
const CRON = { weekly: "0 8 * * 1", monthly: "0 8 1 * *" } as const;
/** A report not sent within this of its time (the server was down) waits for the next period. */
const LATE_MS = 24 * 3600_000;
const DAY_MS = 86_400_000;
/** Periods in the report's small chart. */
const HISTORY = 4;
export const REPORT_TESTS_PER_HOUR = 5;

const NOT_CONFIGURED = "E-mail is not configured on this server (SMTP_URL), so no report can be e-mailed";
const BAD_LINK = "This link is not valid: the report's owner may have removed this address.";

type Row = typeof trackers.$inferSelect;
type Cadence = "weekly" | "monthly";

/**
 * A tracker's report by e-mail to people who asked for it (ADR 066): weekly (Mondays 08:00) or
 * monthly (the 1st, 08:00) in the tracker's time zone. A recipient is sent one confirmation link
 * and nothing else until they follow it; every report carries their own unsubscribe link. All of
 * it goes through the outbox, counted in the owner's daily cap. Recipients' reports link to a
 * read-only share link of the tracker, made once and listed with the owner's links (revoking it
 * removes the link from later reports); the owner's own test links to the live page.
 */
export function createReports({
  db,
  queue,
  outbox,
  links,
  trackers: trackerService,
  shares: shareService,
  rollups,
  alerts,
  clock = () => new Date(),
}: {
  db: Db;
  queue: JobQueue;
  outbox: Pick<Outbox, "configured" | "deliverReport" | "reportConfirmation" | "publicUrl" | "dailyCap">;
  links: Pick<MailLinks, "readReportLink">;
  trackers: Pick<Trackers, "access">;
  shares: Pick<Shares, "create">;
  rollups: Pick<Rollups, "read">;
  alerts: Pick<Alerts, "list">;
  clock?: () => Date;
}) {
  queue.work<Record<string, never>>(REPORTS, { concurrency: 1 }, () => sendDue());
  const tests = createThrottle({ limit: REPORT_TESTS_PER_HOUR, windowMs: 3600_000, clock });
  let scheduled = false;

  /** The tracker, read by its workspace's members; set, relinked and tested by its editors (ADR 071). */
  function own(userId: string, id: string, needed: "viewer" | "editor" = "viewer"): Promise<Row> {
    return trackerService.access(userId, id, needed);
  }

  async function settings(row: Row): Promise<ReportSettings> {
    const recipients = await db
      .select()
      .from(trackerReportRecipients)
      .where(eq(trackerReportRecipients.trackerId, row.id))
      .orderBy(asc(trackerReportRecipients.createdAt), asc(trackerReportRecipients.email));
    const cadence = row.reportCadence;
    const share = await shareOf(row);
    return {
      emailConfigured: outbox.configured,
      cadence,
      recipients: recipients.map((r) => ({
        email: r.email,
        status: r.status,
        confirmedAt: r.confirmedAt?.toISOString() ?? null,
        confirmationSentAt: r.confirmationSentAt?.toISOString() ?? null,
      })),
      shareUrl: share && "url" in share ? share.url : null,
      shareRevoked: share !== null && "missing" in share,
      timezone: row.timezone,
      nextAt: cadence === "off" ? null : (nextRun({ cron: CRON[cadence], timezone: row.timezone }, clock())?.toISOString() ?? null),
    };
  }

  /** The confirmation link to a pending recipient, unless one went to that address for this tracker within a day. */
  async function askToConfirm(row: Row, recipient: { id: string; email: string }): Promise<void> {
    const outcome = await outbox.reportConfirmation(row.userId, {
      recipientId: recipient.id,
      email: recipient.email,
      trackerId: row.id,
      trackerName: row.name,
    });
    if (outcome === "sent") await db.update(trackerReportRecipients).set({ confirmationSentAt: clock() }).where(eq(trackerReportRecipients.id, recipient.id));
  }

  /** The report's share link: its url; `revoked` once the owner revoked it (revoking deletes the row); null before one was made. */
  async function shareOf(row: Row): Promise<{ url: string } | { missing: "revoked" } | null> {
    if (!row.reportShareId) return null;
    const [share] = await db.select({ token: shares.token }).from(shares).where(eq(shares.id, row.reportShareId)).limit(1);
    return share ? { url: `${outbox.publicUrl}${SHARE_PATH}/${share.token}` } : { missing: "revoked" };
  }

  /** A new share link of the tracker, as the one recipients' reports link to from now on. */
  async function makeShare(row: Row): Promise<{ url: string; row: Row }> {
    const share = await shareService.create({ userId: row.userId }, { kind: "tracker", id: row.id }, outbox.publicUrl);
    await db.update(trackers).set({ reportShareId: share.id }).where(eq(trackers.id, row.id));
    return { url: share.url, row: { ...row, reportShareId: share.id } };
  }

  /**
   * The share link recipients read, made at the first report. A revoked one is not made again (the
   * owner asks for a new one); one that cannot be made is said why, `limit` when the owner's live
   * links are at the most, and tried again at the next report.
   */
  async function recipientsLink(row: Row): Promise<ReportLink> {
    const words = "The tracker's live report (read-only)";
    const current = await shareOf(row);
    if (current) return "url" in current ? { ...current, words } : current;
    try {
      return { url: (await makeShare(row)).url, words };
    } catch (error) {
      console.warn(
        `tracker ${row.id}: its report's share link was not made (${error instanceof Error ? error.message : String(error)}); the report goes without it`,
      );
      return { missing: error instanceof DomainError && error.code === "CONFLICT" ? "limit" : "failed" };
    }
  }

  /** The report's content as of now: the cadence's period, its alerts, the periods before it. */
  async function content(row: Row, cadence: Cadence, link: ReportLink) {
    const now = clock();
    const subject = summarySubject(row);
    const summary = await trackerSummary(rollups, subject, { period: cadence === "weekly" ? "7d" : "30d" }, now);
    const length = (cadence === "weekly" ? 7 : 30) * DAY_MS;
    const history: ReportHistoryRow[] = [];
    for (let back = HISTORY - 1; back >= 1; back--) {
      const until = new Date(now.getTime() - back * length);
      const from = new Date(until.getTime() - length);
      const earlier = await trackerSummary(rollups, subject, { from: from.toISOString(), to: new Date(until.getTime() - 1).toISOString() }, now);
      history.push({ from: from.toISOString(), to: until.toISOString(), figures: earlier.brand });
    }
    history.push({ from: summary.period.from, to: summary.period.to, figures: summary.brand });
    const since = Date.parse(summary.period.from);
    const periodAlerts: TrackerAlert[] = (await alerts.list(row.id)).filter((alert) => Date.parse(alert.at) >= since);
    return composeReport({ trackerName: row.name, cadence, summary, alerts: periodAlerts, history, link });
  }

  /** Each tracker whose report is due (within a day of its time) to each confirmed recipient not sent it for this period. */
  async function sendDue(): Promise<void> {
    if (!outbox.configured) return;
    const now = clock();
    const rows = await db
      .select()
      .from(trackers)
      .where(and(ne(trackers.reportCadence, "off"), eq(trackers.paused, false)));
    for (const row of rows) {
      const cadence = row.reportCadence as Cadence;
      const due = occurrenceAt({ cron: CRON[cadence], timezone: row.timezone }, now);
      if (now.getTime() - due.getTime() >= LATE_MS) continue;
      const period = `${cadence}:${due.toISOString()}`;
      const confirmed = await db
        .select()
        .from(trackerReportRecipients)
        .where(and(eq(trackerReportRecipients.trackerId, row.id), eq(trackerReportRecipients.status, "confirmed")));
      if (confirmed.length === 0) continue;
      let mail: ReturnType<typeof composeReport> | undefined;
      for (const recipient of confirmed) {
        // Claimed first: a retried or concurrent look finds the row and sends nothing (a crash between the two loses this one report, never doubles it).
        const claimed = await db
          .insert(trackerReportSends)
          .values({ recipientId: recipient.id, period, outcome: "queued" })
          .onConflictDoNothing()
          .returning({ recipientId: trackerReportSends.recipientId });
        if (claimed.length === 0) continue;
        mail ??= await content(row, cadence, await recipientsLink(row));
        const composed = mail;
        const delivery = await outbox.deliverReport({ ownerId: row.userId, recipientId: recipient.id, email: recipient.email }, () => composed);
        if (delivery === "capped") {
          console.warn(`tracker ${row.id}: a report was not sent, the owner's ${outbox.dailyCap} e-mails of today are used up`);
          await db
            .update(trackerReportSends)
            .set({ outcome: "capped" })
            .where(and(eq(trackerReportSends.recipientId, recipient.id), eq(trackerReportSends.period, period)));
        }
      }
    }
  }

  async function recipientByLink(token: string, purpose: "confirm" | "unsubscribe") {
    const id = links.readReportLink(token, purpose);
    if (!id) throw new DomainError("NOT_FOUND", BAD_LINK);
    const [found] = await db
      .select({ id: trackerReportRecipients.id, email: trackerReportRecipients.email, status: trackerReportRecipients.status, tracker: trackers.name })
      .from(trackerReportRecipients)
      .innerJoin(trackers, eq(trackers.id, trackerReportRecipients.trackerId))
      .where(eq(trackerReportRecipients.id, id))
      .limit(1);
    if (!found) throw new DomainError("NOT_FOUND", BAD_LINK);
    return found;
  }

  return {
    async get(userId: string, id: string): Promise<ReportSettings> {
      return settings(await own(userId, id));
    },

    /**
     * The whole setting: recipients not listed are removed (their links then name nobody), new ones
     * are sent a confirmation link, and a pending one listed again is sent it again once a day at most.
     */
    async update(userId: string, id: string, input: UpdateReport): Promise<ReportSettings> {
      const row = await own(userId, id, "editor");
      if (!outbox.configured && (input.cadence !== "off" || input.recipients.length > 0)) throw new DomainError("INVALID_INPUT", NOT_CONFIGURED);
      const existing = await db.select().from(trackerReportRecipients).where(eq(trackerReportRecipients.trackerId, row.id));
      const gone = existing.filter((r) => !input.recipients.includes(r.email)).map((r) => r.id);
      if (gone.length > 0) await db.delete(trackerReportRecipients).where(inArray(trackerReportRecipients.id, gone));
      await db.update(trackers).set({ reportCadence: input.cadence, updatedAt: clock() }).where(eq(trackers.id, row.id));
      const known = new Map(existing.map((r) => [r.email, r]));
      for (const email of input.recipients) {
        const before = known.get(email);
        if (before) {
          const stale = !before.confirmationSentAt || clock().getTime() - before.confirmationSentAt.getTime() >= DAY_MS;
          if (before.status === "pending" && stale) await askToConfirm(row, before);
          continue;
        }
        const [added] = await db
          .insert(trackerReportRecipients)
          .values({ trackerId: row.id, email, createdAt: clock() })
          .onConflictDoNothing()
          .returning({ id: trackerReportRecipients.id, email: trackerReportRecipients.email });
        if (added) await askToConfirm(row, added);
      }
      if (input.cadence !== "off" && !scheduled) {
        await queue.schedule(REPORTS, REPORTS_CRON, {}, { timezone: "UTC", key: "reports" });
        scheduled = true;
      }
      return settings({ ...row, reportCadence: input.cadence });
    },

    /**
     * A new share link for recipients' reports, when they have none live (the owner revoked it, or
     * none was made yet): a revoked link is never made again on its own, so this is how to get one back.
     */
    async newLink(userId: string, id: string): Promise<ReportSettings> {
      const row = await own(userId, id, "editor");
      const current = await shareOf(row);
      if (current && "url" in current)
        throw new DomainError("CONFLICT", `Recipients' reports already link to ${current.url}: revoke it in your profile first to make another.`);
      return settings((await makeShare(row)).row);
    },

    /** "Send a test now": the report as recipients would read it, to the owner's own proved address only, linking to the live page. */
    async test(userId: string, id: string): Promise<ReportTestResult> {
      const row = await own(userId, id, "editor");
      if (!outbox.configured) throw new DomainError("INVALID_INPUT", NOT_CONFIGURED);
      const [owner] = await db.select({ email: users.email, verified: users.emailVerified }).from(users).where(eq(users.id, userId)).limit(1);
      if (!owner) throw new DomainError("NOT_FOUND", "Account not found");
      if (owner.verified !== owner.email)
        return {
          outcome: "unconfirmed",
          to: owner.email,
          message: `Not sent: your address ${owner.email} is not confirmed. Confirm it in your profile's E-mail card, then send a test.`,
        };
      const taken = tests.attempt([`report-test:${userId}`]);
      if (!taken.allowed)
        throw new DomainError("RATE_LIMITED", `Test reports are sent at most ${REPORT_TESTS_PER_HOUR} an hour. ${tryAgainIn(taken.retryAfterS)}`, {
          retryAfterS: taken.retryAfterS,
        });
      const cadence: Cadence = row.reportCadence === "monthly" ? "monthly" : "weekly";
      const mail = await content(row, cadence, { url: `${outbox.publicUrl}/trackers/${row.id}`, words: "The tracker's page" });
      const delivery = await outbox.deliverReport({ ownerId: userId, email: owner.email }, () => ({ ...mail, subject: `[Test] ${mail.subject}` }));
      if (delivery === "capped")
        return {
          outcome: "capped",
          to: owner.email,
          message: `Not sent: today's ${outbox.dailyCap} e-mails to this account are sent. Try again after 00:00 UTC.`,
        };
      if (delivery === "unwanted") return { outcome: "unconfirmed", to: owner.email, message: `Not sent: your address ${owner.email} is not confirmed.` };
      return { outcome: "sent", to: owner.email, message: `A test report was sent to ${owner.email}, and to no one else.` };
    },

    /** What a confirmation link is for, changing nothing (the page asks for the click). */
    async confirmation(token: string): Promise<ReportConfirmation> {
      const found = await recipientByLink(token, "confirm");
      return { state: found.status === "pending" ? "ready" : found.status, email: found.email, tracker: found.tracker };
    },

    /** Follows a confirmation link: a pending recipient is confirmed (again is the same); an unsubscribed one stays so. */
    async confirm(token: string): Promise<ReportConfirmation> {
      const found = await recipientByLink(token, "confirm");
      if (found.status === "pending")
        await db
          .update(trackerReportRecipients)
          .set({ status: "confirmed", confirmedAt: clock() })
          .where(and(eq(trackerReportRecipients.id, found.id), eq(trackerReportRecipients.status, "pending")));
      return { state: found.status === "unsubscribed" ? "unsubscribed" : "confirmed", email: found.email, tracker: found.tracker };
    },

    /** Follows an unsubscribe link (a report's, a confirmation mail's, or RFC 8058's one-click POST): nothing more of this report goes to the address. */
    async unsubscribe(token: string): Promise<ReportUnsubscribed> {
      const found = await recipientByLink(token, "unsubscribe");
      await db.update(trackerReportRecipients).set({ status: "unsubscribed" }).where(eq(trackerReportRecipients.id, found.id));
      return { email: found.email, tracker: found.tracker };
    },

    /** Sends the reports due now: what the quarter-hourly schedule does. */
    sendDue,
  };
}

export type Reports = ReturnType<typeof createReports>;
