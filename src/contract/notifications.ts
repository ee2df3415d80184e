import * as v from "valibot";

/** The kinds of e-mail a user turns on: trackers' weekly digest, and a run's alerts. */
export type MailKind = "digest" | "alerts";

/** Where a confirmation link opens: `${PUBLIC_URL}${EMAIL_CONFIRM_PATH}/${token}`. */
export const EMAIL_CONFIRM_PATH = "/email/confirm";
/** Where a mail's unsubscribe link opens (its List-Unsubscribe twin is under /api). */
export const EMAIL_UNSUBSCRIBE_PATH = "/email/unsubscribe";

/** GET /api/user/notifications: the e-mails the caller asked for, and whether this server can send e-mail at all (SMTP_URL). */
export const NotificationSettings = v.object({
  emailConfigured: v.boolean(),
  /** The address they go to: the account's. */
  email: v.string(),
  /**
   * When that address was proved (the confirmation link sent to it was followed), or null: until
   * then nothing but the link is sent to it. A changed address is proved again.
   */
  confirmedAt: v.nullable(v.string()),
  /** A weekly digest of their trackers (Mondays, 08:00 UTC). */
  digest: v.boolean(),
  /** One e-mail for each run of their trackers that finds alerts, with all of them. */
  alerts: v.boolean(),
  /** E-mails sent to the account today (UTC), confirmation links included. */
  sentToday: v.number(),
  /** The most a day (MAIL_DAILY_CAP): at it, nothing more is sent until 00:00 UTC. */
  dailyCap: v.number(),
});
export type NotificationSettings = v.InferOutput<typeof NotificationSettings>;

/** PUT /api/user/notifications. */
export const UpdateNotifications = v.object(
  {
    digest: v.optional(v.boolean("digest must be true or false")),
    alerts: v.optional(v.boolean("alerts must be true or false")),
  },
  "The body must be a JSON object with digest and/or alerts",
);
export type UpdateNotifications = v.InferOutput<typeof UpdateNotifications>;

/**
 * What became of the confirmation link an e-mail turned on (or a request for it) asks for:
 * `sent` now; `wait`: one was sent minutes ago (one every few minutes); `capped`: today's e-mails
 * are used up; null: none was needed (the address is proved, or no e-mail is on).
 */
export const ConfirmationSent = v.nullable(v.picklist(["sent", "wait", "capped"]));
export type ConfirmationSent = v.InferOutput<typeof ConfirmationSent>;

/** PUT /api/user/notifications and POST /api/user/notifications/confirmation: the settings, and the confirmation link's fate. */
export const UpdatedNotifications = v.object({ ...NotificationSettings.entries, confirmation: ConfirmationSent });
export type UpdatedNotifications = v.InferOutput<typeof UpdatedNotifications>;

/**
 * GET and POST /api/email/confirm/{token}: the address a confirmation link is for, and its state:
 * `ready` to confirm, `confirmed` (the address is proved), `expired` (an hour has passed: ask for another).
 */
export const EmailConfirmation = v.object({
  state: v.picklist(["ready", "confirmed", "expired"]),
  email: v.string(),
});
export type EmailConfirmation = v.InferOutput<typeof EmailConfirmation>;

/** POST /api/email/unsubscribe/{token}: what is now off (`all`: every e-mail of the account, from a confirmation mail). */
export const Unsubscribed = v.object({ off: v.picklist(["digest", "alerts", "all"]) });
export type Unsubscribed = v.InferOutput<typeof Unsubscribed>;
