import { createHmac, timingSafeEqual } from "node:crypto";
import { EMAIL_CONFIRM_PATH, EMAIL_UNSUBSCRIBE_PATH, type MailKind } from "#src/contract/notifications.ts";
import { REPORT_CONFIRM_PATH, REPORT_UNSUBSCRIBE_PATH } from "#src/contract/reports.ts";

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const CONFIRM_TOKEN = new RegExp(`^(${UUID})\\.(\\d{1,12})\\.([A-Za-z0-9_-]{43})$`);
const UNSUBSCRIBE_TOKEN = new RegExp(`^(${UUID})\\.(alerts|digest|all)\\.([A-Za-z0-9_-]{43})$`);
const REPORT_TOKEN = new RegExp(`^(${UUID})\\.([A-Za-z0-9_-]{43})$`);

/** What a report recipient's link does: confirm the address, or stop the reports. */
export type ReportLinkPurpose = "confirm" | "unsubscribe";

/** How long a confirmation link works: long enough to open the mail, short enough that an old one is worthless. */
export const CONFIRM_LINK_TTL_MS = 60 * 60 * 1000;

/** What an unsubscribe link turns off: one kind of e-mail, or (from a confirmation mail) all of an account's. */
export type UnsubscribeKind = MailKind | "all";

export type ConfirmLink = { userId: string; expiresAt: Date };

/**
 * The links e-mails carry, signed with a key derived from the session secret (HMAC-SHA256; a key of
 * its own, so that no link can pass for a signed cookie or the reverse), under PUBLIC_URL:
 * - a confirmation link `/email/confirm/<user>.<expiry>.<mac>`, whose MAC covers the address it was
 *   sent to without carrying it: once the account's address changes, or an hour has passed, it is
 *   worthless;
 * - an unsubscribe link `/email/unsubscribe/<user>.<kind>.<mac>`, which does not expire (an old mail
 *   must still be able to stop the next one), and its API twin for RFC 8058's one-click POST.
 */
export function createMailLinks({ secret, publicUrl, clock = () => new Date() }: { secret: string; publicUrl: string; clock?: () => Date }) {
  const key = createHmac("sha256", secret).update("aisc e-mail links v1").digest();
  const mac = (text: string) => createHmac("sha256", key).update(text).digest("base64url");
  const same = (given: string, expected: string) => {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  const confirmMac = (userId: string, expires: number, email: string) => mac(`confirm\n${userId}\n${expires}\n${email}`);
  const unsubscribeMac = (userId: string, kind: UnsubscribeKind) => mac(`unsubscribe\n${userId}\n${kind}`);

  return {
    publicUrl,

    /** A confirmation link for `email`, the account's address now, working for an hour. */
    confirmUrl(userId: string, email: string): string {
      const expires = Math.floor((clock().getTime() + CONFIRM_LINK_TTL_MS) / 1000);
      return `${publicUrl}${EMAIL_CONFIRM_PATH}/${userId}.${expires}.${confirmMac(userId, expires, email)}`;
    },

    /** The account a confirmation token names, unchecked (to read its address), or null when it is not one. */
    confirmTokenUser(token: string): ConfirmLink | null {
      const match = CONFIRM_TOKEN.exec(token);
      if (!match) return null;
      return { userId: match[1]!, expiresAt: new Date(Number(match[2]) * 1000) };
    },

    /** Whether `token` was made for `email` (the account's address now), and whether it is still in time. */
    checkConfirm(token: string, email: string): "valid" | "expired" | "invalid" {
      const match = CONFIRM_TOKEN.exec(token);
      if (!match) return "invalid";
      const [, userId, expires, given] = match as unknown as [string, string, string, string];
      if (!same(given, confirmMac(userId, Number(expires), email))) return "invalid";
      return Number(expires) * 1000 < clock().getTime() ? "expired" : "valid";
    },

    /** The page a mail's own unsubscribe link opens (following it turns the kind off). */
    unsubscribePageUrl(userId: string, kind: UnsubscribeKind): string {
      return `${publicUrl}${EMAIL_UNSUBSCRIBE_PATH}/${unsubscribeToken(userId, kind)}`;
    },

    /** The List-Unsubscribe address: RFC 8058's one-click POST, no session needed. */
    unsubscribeApiUrl(userId: string, kind: UnsubscribeKind): string {
      return `${publicUrl}/api${EMAIL_UNSUBSCRIBE_PATH}/${unsubscribeToken(userId, kind)}`;
    },

    /**
     * A tracker report recipient's links `<recipient>.<mac>`, one per purpose. They do not expire:
     * the recipient's row holds the state (confirming twice is confirming once), and removing a
     * recipient deletes the row, so its old links name nobody.
     */
    reportConfirmUrl(recipientId: string): string {
      return `${publicUrl}${REPORT_CONFIRM_PATH}/${reportToken(recipientId, "confirm")}`;
    },
    reportUnsubscribePageUrl(recipientId: string): string {
      return `${publicUrl}${REPORT_UNSUBSCRIBE_PATH}/${reportToken(recipientId, "unsubscribe")}`;
    },
    reportUnsubscribeApiUrl(recipientId: string): string {
      return `${publicUrl}/api${REPORT_UNSUBSCRIBE_PATH}/${reportToken(recipientId, "unsubscribe")}`;
    },
    /** The recipient a report link names for `purpose`, or null when its signature is not ours. */
    readReportLink(token: string, purpose: ReportLinkPurpose): string | null {
      const match = REPORT_TOKEN.exec(token);
      if (!match) return null;
      const [, recipientId, given] = match as unknown as [string, string, string];
      return same(given, mac(`report-${purpose}\n${recipientId}`)) ? recipientId : null;
    },

    /** The account and kind an unsubscribe token names, or null when its signature is not ours. */
    readUnsubscribe(token: string): { userId: string; kind: UnsubscribeKind } | null {
      const match = UNSUBSCRIBE_TOKEN.exec(token);
      if (!match) return null;
      const [, userId, kind, given] = match as unknown as [string, string, UnsubscribeKind, string];
      return same(given, unsubscribeMac(userId, kind)) ? { userId, kind } : null;
    },
  };

  function reportToken(recipientId: string, purpose: ReportLinkPurpose): string {
    return `${recipientId}.${mac(`report-${purpose}\n${recipientId}`)}`;
  }

  function unsubscribeToken(userId: string, kind: UnsubscribeKind): string {
    return `${userId}.${kind}.${unsubscribeMac(userId, kind)}`;
  }
}

export type MailLinks = ReturnType<typeof createMailLinks>;
