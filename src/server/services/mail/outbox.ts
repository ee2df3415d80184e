import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { mailSends, rateCounters, trackerReportRecipients, users, workspaceInvitations } from "#db/schema.ts";
import type { MailKind } from "#src/contract/notifications.ts";
import type { JobQueue } from "../job-queue.ts";
import type { Mailer, MailMessage } from "./index.ts";
import type { MailLinks, UnsubscribeKind } from "./links.ts";

/** One e-mail, retried with backoff while the SMTP server refuses it (the queue keeps its first name, `tracker-email`, so jobs queued by an earlier version still run). */
const SEND = "tracker-email";
/** A confirmation link at most this often per account, whatever asks for it. */
export const CONFIRMATION_EVERY_MS = 5 * 60 * 1000;
const PRODUCT = "AI Search Comparison";

/** A tracker report recipient's confirmation link at most this often per tracker and address, however often the owner adds them. */
export const REPORT_CONFIRMATION_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * A message as queued: whose it is and of what kind, so that it is checked again as it goes. A
 * report's (`report`, `report-confirm`) names its recipient, whose row must still say yes;
 * `report-test` goes to the owner's own proved address.
 */
type Queued = MailMessage & {
  userId: string;
  kind: MailKind | "confirm" | "report" | "report-confirm" | "report-test" | "invitation";
  recipientId?: string;
  invitationId?: string;
};

/** A report's addressee: a recipient of the owner's tracker (`recipientId`), or the owner themselves (a test). */
export type ReportAddressee = { ownerId: string; recipientId?: string; email: string };

export type Delivery = "queued" | "capped" | "unwanted";

/**
 * Everything the product e-mails goes through here (ADR 053), so that none of it can be aimed at
 * an address nobody proved, or sent without end:
 * - a tracker's e-mail only to the account's address as proved (`email_verified` equal to the
 *   account's address now: a changed address is proved again), and only while it is wanted;
 * - at most `dailyCap` e-mails an account a UTC day (`mail_sends`), confirmation links included;
 * - a confirmation link at most every 5 minutes an account (`rate_counters`, one window each);
 * - every mail with its unsubscribe link in the text and as List-Unsubscribe (RFC 8058).
 * The gate is checked when a message is queued and again when it goes (a retry may come later).
 */
export function createOutbox({
  db,
  queue,
  mailer,
  links,
  dailyCap,
  clock = () => new Date(),
}: {
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  links: MailLinks;
  dailyCap: number;
  clock?: () => Date;
}) {
  queue.work<Queued>(SEND, { concurrency: 2 }, async (message) => {
    // Queued by an earlier version, without its account or unsubscribe link: not sent.
    if (!message.userId || (!message.unsubscribe && message.kind !== "invitation")) return;
    if (message.kind === "invitation") {
      // Revoked or used since it was queued: not sent.
      const [pending] = await db
        .select({ usedAt: workspaceInvitations.usedAt, revokedAt: workspaceInvitations.revokedAt, email: workspaceInvitations.email })
        .from(workspaceInvitations)
        .where(eq(workspaceInvitations.id, message.invitationId ?? crypto.randomUUID()))
        .limit(1);
      if (!pending || pending.usedAt || pending.revokedAt || pending.email !== message.to) return;
      await mailer.send(mailOf(message));
      return;
    }
    if (message.kind === "report" || message.kind === "report-confirm") {
      // Removed, unsubscribed, or (for a report) not confirmed since it was queued: not sent.
      const [wanted] = await db
        .select({ email: trackerReportRecipients.email, status: trackerReportRecipients.status })
        .from(trackerReportRecipients)
        .where(eq(trackerReportRecipients.id, message.recipientId ?? ""))
        .limit(1);
      if (!wanted || wanted.email !== message.to || wanted.status !== (message.kind === "report" ? "confirmed" : "pending")) return;
      await mailer.send(mailOf(message));
      return;
    }
    const [row] = await db.select(recipient).from(users).where(eq(users.id, message.userId)).limit(1);
    if (!row || row.email !== message.to) return;
    if (message.kind === "report-test" ? row.emailVerified !== row.email : message.kind !== "confirm" && !allowed(row, message.kind)) return;
    await mailer.send(mailOf(message));
  });

  return {
    configured: mailer.configured,
    dailyCap,
    /** Where the product is, for links in the text (PUBLIC_URL). */
    publicUrl: links.publicUrl,

    /**
     * A tracker's e-mail of `kind` to `userId`, if the account wants it, its address is proved and
     * today's cap allows: `compose` writes its subject and text, the unsubscribe lines are added here.
     * With `id`, delivered again under the same id it is not sent twice (a retried caller's).
     */
    async deliver(userId: string, kind: MailKind, compose: () => { subject: string; text: string }, { id }: { id?: string } = {}): Promise<Delivery> {
      if (!mailer.configured) return "unwanted";
      const [row] = await db.select(recipient).from(users).where(eq(users.id, userId)).limit(1);
      if (!row || !allowed(row, kind)) return "unwanted";
      if (!(await takeToday(userId))) return "capped";
      const { subject, text } = compose();
      const unsubscribe = links.unsubscribePageUrl(userId, kind);
      const footer = [
        "--",
        `You get this e-mail because you turned on ${KIND_WORDS[kind]} in your profile: ${links.publicUrl}/user/profile#email`,
        `Unsubscribe (turns ${KIND_WORDS[kind]} off at once): ${unsubscribe}`,
      ].join("\n");
      await enqueue({ userId, kind, to: row.email, subject, text: `${text.trimEnd()}\n\n${footer}\n`, unsubscribe: links.unsubscribeApiUrl(userId, kind) }, id);
      return "queued";
    },

    /**
     * The confirmation link to the account's address now: `sent`, `wait` (one went out less than 5
     * minutes ago) or `capped` (today's e-mails are used up). It carries no text of the account's.
     */
    async confirmation(userId: string): Promise<{ outcome: "sent" | "wait" | "capped"; retryAfterS: number }> {
      const [row] = await db.select(recipient).from(users).where(eq(users.id, userId)).limit(1);
      if (!row) return { outcome: "capped", retryAfterS: untilTomorrowS() };
      const wait = await takeConfirmationWindow(userId);
      if (wait > 0) return { outcome: "wait", retryAfterS: wait };
      if (!(await takeToday(userId))) return { outcome: "capped", retryAfterS: untilTomorrowS() };
      const all = links.unsubscribePageUrl(userId, "all");
      const text = [
        `Someone signed in to ${PRODUCT} (${links.publicUrl}) asked for their trackers' e-mails to be sent to this address, ${row.email}.`,
        "",
        "If that was you, open this link within an hour and press Confirm:",
        links.confirmUrl(userId, row.email),
        "",
        "If it was not you, ignore this e-mail: no tracker e-mail is sent to this address unless the link is followed.",
        "",
        "--",
        `Unsubscribe (turns all of this account's e-mails off): ${all}`,
      ].join("\n");
      await enqueue({
        userId,
        kind: "confirm",
        to: row.email,
        subject: `Confirm your address for ${PRODUCT}`,
        text: `${text}\n`,
        unsubscribe: links.unsubscribeApiUrl(userId, "all"),
      });
      return { outcome: "sent", retryAfterS: 0 };
    },

    /**
     * A tracker's report to a confirmed recipient, or (a test) to the owner's own proved address,
     * counted in the owner's daily cap: their trackers' mail is theirs, whoever it goes to. The
     * unsubscribe lines (a recipient's own link; for the owner, their account's) are added here.
     */
    async deliverReport(to: ReportAddressee, compose: () => { subject: string; text: string; html: string }, { id }: { id?: string } = {}): Promise<Delivery> {
      if (!mailer.configured) return "unwanted";
      if (!to.recipientId) {
        const [row] = await db.select(recipient).from(users).where(eq(users.id, to.ownerId)).limit(1);
        if (!row || row.emailVerified !== row.email || row.email !== to.email) return "unwanted";
      }
      if (!(await takeToday(to.ownerId))) return "capped";
      const { subject, text, html } = compose();
      const page = to.recipientId ? links.reportUnsubscribePageUrl(to.recipientId) : links.unsubscribePageUrl(to.ownerId, "all");
      const why = to.recipientId
        ? "You get this report because you confirmed you wanted it when its owner added your address."
        : "This is a test of the report, sent to you alone at your request; its recipients' copies carry their own unsubscribe link.";
      const stop = to.recipientId ? `Unsubscribe (no more of this report): ${page}` : `Unsubscribe (turns all of this account's e-mails off): ${page}`;
      await enqueue(
        {
          userId: to.ownerId,
          kind: to.recipientId ? "report" : "report-test",
          ...(to.recipientId ? { recipientId: to.recipientId } : {}),
          to: to.email,
          subject,
          text: `${text.trimEnd()}\n\n--\n${why}\n${stop}\n`,
          html: `${html}<hr><p style="color:#666;font-size:12px">${escapeHtml(why)} <a href="${escapeHtml(page)}">Unsubscribe</a></p>`,
          unsubscribe: to.recipientId ? links.reportUnsubscribeApiUrl(to.recipientId) : links.unsubscribeApiUrl(to.ownerId, "all"),
        },
        id,
      );
      return "queued";
    },

    /**
     * The confirmation link to a report recipient, counted in the owner's cap: `sent`, `wait` (one
     * went to this address for this tracker less than a day ago) or `capped`. It names the tracker
     * and the product, and nothing else is sent to the address until the link is followed.
     */
    async reportConfirmation(
      ownerId: string,
      to: { recipientId: string; email: string; trackerId: string; trackerName: string },
    ): Promise<"sent" | "wait" | "capped"> {
      if (!mailer.configured) return "capped";
      if (!(await takeWindow(`report-confirmation:${to.trackerId}:${to.email}`, REPORT_CONFIRMATION_EVERY_MS))) return "wait";
      if (!(await takeToday(ownerId))) return "capped";
      const stop = links.reportUnsubscribePageUrl(to.recipientId);
      const text = [
        `A user of ${PRODUCT} (${links.publicUrl}) asked for the report of their tracker "${to.trackerName}" to be e-mailed to this address, ${to.email}.`,
        "",
        "If you want it, open this link and press Confirm:",
        links.reportConfirmUrl(to.recipientId),
        "",
        "If not, ignore this e-mail: no report is sent to this address unless the link is followed.",
        "",
        "--",
        `Unsubscribe (never send this report here): ${stop}`,
      ].join("\n");
      await enqueue({
        userId: ownerId,
        kind: "report-confirm",
        recipientId: to.recipientId,
        to: to.email,
        subject: `Confirm you want a tracker's report from ${PRODUCT}`,
        text: `${text}\n`,
        unsubscribe: links.reportUnsubscribeApiUrl(to.recipientId),
      });
      return "sent";
    },

    /**
     * A workspace's invitation link to the address it names, counted in the inviter's cap: `sent`,
     * `wait` (this workspace invited this address less than a day ago) or `capped`. One e-mail,
     * nothing after it; sent only while the invitation is still pending.
     */
    async invitation(
      inviterId: string,
      to: { invitationId: string; workspaceId: string; email: string; workspaceName: string; inviter: string; role: string; url: string; expiresAt: Date },
    ): Promise<"sent" | "wait" | "capped"> {
      if (!mailer.configured) return "capped";
      if (!(await takeWindow(`invitation:${to.workspaceId}:${to.email.toLowerCase()}`, REPORT_CONFIRMATION_EVERY_MS))) return "wait";
      if (!(await takeToday(inviterId))) return "capped";
      const text = [
        `${to.inviter} invited you to the workspace "${to.workspaceName}" on ${PRODUCT} (${links.publicUrl}), as ${to.role}.`,
        "",
        "To join, sign in (or make an account with this address) and open this link:",
        to.url,
        "",
        `The link works once, until ${to.expiresAt.toISOString().slice(0, 10)}.`,
        "",
        "--",
        "If you do not want to join, ignore this e-mail: nothing more is sent to this address about it.",
      ].join("\n");
      await enqueue({
        userId: inviterId,
        kind: "invitation",
        invitationId: to.invitationId,
        to: to.email,
        subject: `${to.inviter} invited you to "${to.workspaceName}" on ${PRODUCT}`,
        text: `${text}\n`,
      });
      return "sent";
    },

    /** E-mails sent to the account today (UTC), confirmation links included. */
    async sentToday(userId: string): Promise<number> {
      const [row] = await db
        .select({ count: mailSends.count })
        .from(mailSends)
        .where(and(eq(mailSends.userId, userId), eq(mailSends.day, utcDay(clock()))));
      return row?.count ?? 0;
    },
  };

  async function enqueue(message: Queued, id?: string): Promise<void> {
    await queue.send(SEND, message, { id, retryLimit: 6, retryDelaySeconds: 30, retryBackoff: true });
  }

  /** One more of today's e-mails for the account, unless the cap is reached (one statement: two at once cannot both take the last). */
  async function takeToday(userId: string): Promise<boolean> {
    const day = utcDay(clock());
    // Only today's row is read: earlier days' go as the account is next sent something.
    await db.delete(mailSends).where(and(eq(mailSends.userId, userId), lt(mailSends.day, day)));
    const taken = await db
      .insert(mailSends)
      .values({ userId, day, count: 1 })
      .onConflictDoUpdate({
        target: [mailSends.userId, mailSends.day],
        set: { count: sql`${mailSends.count} + 1` },
        setWhere: sql`${mailSends.count} < ${dailyCap}`,
      })
      .returning({ count: mailSends.count });
    return taken.length > 0;
  }

  /**
   * The account's confirmation window (5 minutes, fixed, one row of `rate_counters`): the first to
   * take it sends (0); anyone else is told the seconds until the next window.
   */
  async function takeConfirmationWindow(userId: string): Promise<number> {
    return takeWindowWait(`mail-confirmation:${userId}`, CONFIRMATION_EVERY_MS);
  }

  /** Whether this call is the first in `key`'s current window of `everyMs`. */
  async function takeWindow(key: string, everyMs: number): Promise<boolean> {
    return (await takeWindowWait(key, everyMs)) === 0;
  }

  /** 0 for the first to take `key`'s window; anyone else is told the seconds until the next one. */
  async function takeWindowWait(key: string, everyMs: number): Promise<number> {
    const now = clock().getTime();
    const windowStart = new Date(now - (now % everyMs));
    await db.delete(rateCounters).where(and(eq(rateCounters.key, key), lt(rateCounters.windowStart, windowStart)));
    const [row] = await db
      .insert(rateCounters)
      .values({ key, windowStart, count: 1 })
      .onConflictDoUpdate({ target: [rateCounters.key, rateCounters.windowStart], set: { count: sql`${rateCounters.count} + 1` } })
      .returning({ count: rateCounters.count });
    return row?.count === 1 ? 0 : Math.ceil((windowStart.getTime() + everyMs - now) / 1000);
  }

  /** Seconds until 00:00 UTC, when the cap starts again. */
  function untilTomorrowS(): number {
    const now = clock();
    return Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
  }
}

export type Outbox = ReturnType<typeof createOutbox>;

const recipient = {
  email: users.email,
  emailVerified: users.emailVerified,
  digest: users.digestEmails,
  alerts: users.alertEmails,
};

const KIND_WORDS: Record<UnsubscribeKind, string> = {
  digest: "the weekly digest of your trackers",
  alerts: "e-mails of your trackers' alerts",
  all: "all of this account's e-mails",
};

function mailOf(message: Queued): MailMessage {
  return {
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.unsubscribe ? { unsubscribe: message.unsubscribe } : {}),
    ...(message.html ? { html: message.html } : {}),
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Whether the account wants `kind` and its address now is the one it proved. */
function allowed(row: { email: string; emailVerified: string | null; digest: boolean; alerts: boolean }, kind: MailKind): boolean {
  return row.emailVerified !== null && row.emailVerified === row.email && row[kind];
}

/** "2026-12-07": the UTC day the cap counts by. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
