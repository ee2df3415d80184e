import { and, eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users } from "#db/schema.ts";
import type {
  ConfirmationSent,
  EmailConfirmation,
  NotificationSettings,
  Unsubscribed,
  UpdatedNotifications,
  UpdateNotifications,
} from "#src/contract/notifications.ts";
import { DomainError } from "../errors.ts";
import type { MailLinks } from "../mail/links.ts";
import type { Outbox } from "../mail/outbox.ts";

const NOT_CONFIGURED = "E-mail is not configured on this server (SMTP_URL), so no e-mail can be turned on";
const BAD_CONFIRM_LINK = "This confirmation link is not valid: it may be for an address this account no longer has. Ask for a new one in your profile.";
const EXPIRED_CONFIRM_LINK = "This confirmation link has expired: ask for a new one in your profile.";
const BAD_UNSUBSCRIBE_LINK = "This unsubscribe link is not valid. You can turn e-mails off in your profile.";

/**
 * The e-mails a user asked for, sent only to an address they proved (ADR 053): turning
 * one on sends a confirmation link first, and nothing else goes until it is followed; every e-mail
 * can be turned off from the mail itself, without signing in. Turning one on is refused while the
 * server sends no e-mail.
 */
export function createNotifications({ db, outbox, links, clock = () => new Date() }: { db: Db; outbox: Outbox; links: MailLinks; clock?: () => Date }) {
  async function settings(userId: string): Promise<NotificationSettings> {
    const [row] = await db
      .select({
        email: users.email,
        verified: users.emailVerified,
        verifiedAt: users.emailVerifiedAt,
        digest: users.digestEmails,
        alerts: users.alertEmails,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    if (!row) throw new DomainError("NOT_FOUND", "Account not found");
    const confirmed = row.verified !== null && row.verified === row.email && row.verifiedAt !== null;
    return {
      emailConfigured: outbox.configured,
      email: row.email,
      confirmedAt: confirmed ? row.verifiedAt!.toISOString() : null,
      digest: row.digest,
      alerts: row.alerts,
      sentToday: await outbox.sentToday(userId),
      dailyCap: outbox.dailyCap,
    };
  }

  /** The confirmation link, if the address is not proved yet and an e-mail is on: what became of it. */
  async function confirmIfNeeded(userId: string, now: NotificationSettings): Promise<ConfirmationSent> {
    if (now.confirmedAt || !(now.digest || now.alerts)) return null;
    return (await outbox.confirmation(userId)).outcome;
  }

  /** The account a confirmation link names, with its address now, and what the link is worth for it. */
  async function readConfirmLink(token: string) {
    const named = links.confirmTokenUser(token);
    if (!named) throw new DomainError("NOT_FOUND", BAD_CONFIRM_LINK);
    const [row] = await db.select({ email: users.email, verified: users.emailVerified }).from(users).where(eq(users.id, named.userId)).limit(1);
    const check = row ? links.checkConfirm(token, row.email) : "invalid";
    if (!row || check === "invalid") throw new DomainError("NOT_FOUND", BAD_CONFIRM_LINK);
    return { userId: named.userId, email: row.email, confirmed: row.verified === row.email, expired: check === "expired" };
  }

  return {
    settings,

    async update(userId: string, change: UpdateNotifications): Promise<UpdatedNotifications> {
      const turningOn = Boolean(change.digest || change.alerts);
      if (!outbox.configured && turningOn) throw new DomainError("INVALID_INPUT", NOT_CONFIGURED);
      await db
        .update(users)
        .set({
          ...(change.digest === undefined ? {} : { digestEmails: change.digest }),
          ...(change.alerts === undefined ? {} : { alertEmails: change.alerts }),
          updatedAt: clock(),
        })
        .where(eq(users.id, userId));
      const now = await settings(userId);
      // Turning one on asks the address first; a change that turns nothing on sends nothing.
      const confirmation = turningOn ? await confirmIfNeeded(userId, now) : null;
      return { ...now, ...(confirmation === "sent" ? { sentToday: await outbox.sentToday(userId) } : {}), confirmation };
    },

    /** Sends the confirmation link again (the profile's "Send the link again"): 429 while one went out minutes ago, or today's e-mails are used up. */
    async resendConfirmation(userId: string): Promise<UpdatedNotifications> {
      if (!outbox.configured) throw new DomainError("INVALID_INPUT", NOT_CONFIGURED);
      const before = await settings(userId);
      if (before.confirmedAt) throw new DomainError("CONFLICT", `${before.email} is already confirmed.`);
      const { outcome, retryAfterS } = await outbox.confirmation(userId);
      if (outcome === "wait")
        throw new DomainError("RATE_LIMITED", `A confirmation link was sent minutes ago: follow it, or ask again in ${minutes(retryAfterS)}.`, { retryAfterS });
      if (outcome === "capped")
        throw new DomainError("RATE_LIMITED", `Today's ${outbox.dailyCap} e-mails to this account are sent: ask again after 00:00 UTC.`, { retryAfterS });
      return { ...(await settings(userId)), confirmation: outcome };
    },

    /** What a confirmation link is for, without acting on it (the page shows it, then asks for the click). */
    async confirmation(token: string): Promise<EmailConfirmation> {
      const link = await readConfirmLink(token);
      return { state: link.confirmed ? "confirmed" : link.expired ? "expired" : "ready", email: link.email };
    },

    /** Follows a confirmation link: its address, if still the account's and within the hour, is proved now. */
    async confirm(token: string): Promise<EmailConfirmation> {
      const link = await readConfirmLink(token);
      if (link.confirmed) return { state: "confirmed", email: link.email };
      if (link.expired) throw new DomainError("INVALID_INPUT", EXPIRED_CONFIRM_LINK);
      // Only while the address is the one the link was for (it could change between the read and this).
      await db
        .update(users)
        .set({ emailVerified: link.email, emailVerifiedAt: clock() })
        .where(and(eq(users.id, link.userId), eq(users.email, link.email)));
      return { state: "confirmed", email: link.email };
    },

    /** Follows an unsubscribe link (the mail's own, or RFC 8058's one-click POST): that kind of e-mail is off, no session needed. */
    async unsubscribe(token: string): Promise<Unsubscribed> {
      const link = links.readUnsubscribe(token);
      if (!link) throw new DomainError("NOT_FOUND", BAD_UNSUBSCRIBE_LINK);
      await db
        .update(users)
        .set({
          ...(link.kind === "alerts" ? { alertEmails: false } : link.kind === "digest" ? { digestEmails: false } : { alertEmails: false, digestEmails: false }),
          updatedAt: clock(),
        })
        .where(eq(users.id, link.userId));
      return { off: link.kind };
    },
  };
}

export type Notifications = ReturnType<typeof createNotifications>;

function minutes(seconds: number): string {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return n === 1 ? "a minute" : `${n} minutes`;
}
