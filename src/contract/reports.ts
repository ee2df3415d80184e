import * as v from "valibot";

/*
 * A tracker's report by e-mail: its headline, per-provider figures, the period's alerts and a link,
 * sent weekly or monthly to a list of recipients, each of whom confirms once by a link before
 * anything is sent to them, and each mail with its unsubscribe link.
 */

export const reportCadences = ["weekly", "monthly", "off"] as const;
export type ReportCadence = (typeof reportCadences)[number];

/** The most recipients one tracker's report has. */
export const MAX_REPORT_RECIPIENTS = 10;

/** Where a recipient's confirmation link opens: `${PUBLIC_URL}${REPORT_CONFIRM_PATH}/${token}`. */
export const REPORT_CONFIRM_PATH = "/email/report/confirm";
/** Where a report's unsubscribe link opens (its List-Unsubscribe twin is under /api). */
export const REPORT_UNSUBSCRIBE_PATH = "/email/report/unsubscribe";

export const recipientStatuses = ["pending", "confirmed", "unsubscribed"] as const;

const Email = v.pipe(
  v.string("each recipient must be an e-mail address"),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(254, "an e-mail address has at most 254 characters"),
  v.email("each recipient must be an e-mail address, such as ceo@example.com"),
);

/** PUT /api/trackers/{id}/report: the whole setting. Recipients not in the list are removed; new ones are sent a confirmation link. */
export const UpdateReport = v.object(
  {
    cadence: v.picklist(reportCadences, `cadence must be one of ${reportCadences.join(", ")}`),
    recipients: v.pipe(
      v.array(Email, "recipients must be a list of e-mail addresses"),
      v.maxLength(MAX_REPORT_RECIPIENTS, `a report has at most ${MAX_REPORT_RECIPIENTS} recipients`),
      v.check((list) => new Set(list).size === list.length, "recipients must not repeat an address"),
    ),
  },
  "The body must be a JSON object with cadence and recipients",
);
export type UpdateReport = v.InferOutput<typeof UpdateReport>;

export const ReportRecipient = v.object({
  email: v.string(),
  /** `pending`: a confirmation link was sent and not followed yet (nothing else is sent); `unsubscribed`: they followed a report's unsubscribe link. */
  status: v.picklist(recipientStatuses),
  confirmedAt: v.nullable(v.string()),
  /** When their confirmation link was last sent (null: not sent, e.g. today's e-mails were used up). */
  confirmationSentAt: v.nullable(v.string()),
});
export type ReportRecipient = v.InferOutput<typeof ReportRecipient>;

/** GET and PUT /api/trackers/{id}/report. */
export const ReportSettings = v.object({
  /** Whether this server sends e-mail (SMTP_URL); without it nothing is sent and the settings cannot be turned on. */
  emailConfigured: v.boolean(),
  cadence: v.picklist(reportCadences),
  recipients: v.array(ReportRecipient),
  /** The read-only share link recipients' reports link to, made at the first send; null before, or after the owner revoked it. */
  shareUrl: v.nullable(v.string()),
  /** The owner revoked that link: later reports go without one until they make a new one (POST …/report/link). */
  shareRevoked: v.boolean(),
  /** The tracker's time zone, the one the cadence's 08:00 is read in. */
  timezone: v.string(),
  /** When the next scheduled report goes, in UTC (null when off). */
  nextAt: v.nullable(v.string()),
});
export type ReportSettings = v.InferOutput<typeof ReportSettings>;

/** What "Send a test now" did, in words too: `sent` to the owner's own address, or why not. */
export const ReportTestResult = v.object({
  outcome: v.picklist(["sent", "unconfirmed", "capped"]),
  to: v.string(),
  message: v.string(),
});
export type ReportTestResult = v.InferOutput<typeof ReportTestResult>;

/** GET/POST /api/email/report/confirm/{token}: the recipient's address, the tracker's name, and the state. */
export const ReportConfirmation = v.object({
  state: v.picklist(["ready", "confirmed", "unsubscribed"]),
  email: v.string(),
  tracker: v.string(),
});
export type ReportConfirmation = v.InferOutput<typeof ReportConfirmation>;

/** POST /api/email/report/unsubscribe/{token}. */
export const ReportUnsubscribed = v.object({ email: v.string(), tracker: v.string() });
export type ReportUnsubscribed = v.InferOutput<typeof ReportUnsubscribed>;
