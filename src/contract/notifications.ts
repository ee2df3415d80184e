import * as v from "valibot";

/** GET /api/user/notifications: the e-mails the caller asked for, and whether this server can send e-mail at all (SMTP_URL). */
export const NotificationSettings = v.object({
  emailConfigured: v.boolean(),
  /** The address they go to: the account's. */
  email: v.string(),
  /** A weekly digest of their trackers (Mondays, 08:00 UTC). */
  digest: v.boolean(),
  /** An e-mail for each alert of their trackers, as it comes. */
  alerts: v.boolean(),
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
