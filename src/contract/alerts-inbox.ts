import * as v from "valibot";
import { TrackerAlert } from "./trend.ts";

/*
 * The header's bell: the caller's newest alerts across their trackers, and which of
 * them they have not read yet.
 */

/** How many alerts the inbox lists (newest first). */
export const INBOX_LIMIT = 20;

/** An alert as the inbox lists it: the tracker it belongs to, and whether it was read. */
export const InboxAlert = v.object({ ...TrackerAlert.entries, trackerId: v.string(), trackerName: v.string(), read: v.boolean() });
export type InboxAlert = v.InferOutput<typeof InboxAlert>;

/** A tracker's due run that did not happen (ADR 057): when it was due, and why no run was made for it. */
export const InboxMissedRun = v.object({
  id: v.string(),
  trackerId: v.string(),
  trackerName: v.string(),
  /** The tracker's time zone, which `dueAt` is written in. */
  timezone: v.string(),
  dueAt: v.string(),
  reason: v.string(),
  read: v.boolean(),
});
export type InboxMissedRun = v.InferOutput<typeof InboxMissedRun>;

/**
 * GET /api/user/alerts: `unread` counts every unread alert and missed run of the caller's trackers,
 * not only the ones listed, and `unreadByTracker` the same per tracker id (trackers with none left
 * out); `missed` lists the newest missed runs (INBOX_LIMIT at most).
 */
export const AlertsInbox = v.object({
  unread: v.number(),
  unreadByTracker: v.optional(v.record(v.string(), v.number()), {}),
  alerts: v.array(InboxAlert),
  missed: v.array(InboxMissedRun),
});
export type AlertsInbox = v.InferOutput<typeof AlertsInbox>;

const MARK_READ_BODY = "The body must be a JSON object, with ids or without";

/**
 * POST /api/user/alerts/read: these alerts and missed runs (of the caller's trackers), or without `ids` all of them.
 * Only an object: valibot's `object` would take an array (`[]`) as one without `ids`, and mark all read.
 */
export const MarkAlertsRead = v.pipe(
  v.unknown(),
  v.check((body) => typeof body === "object" && body !== null && !Array.isArray(body), MARK_READ_BODY),
  v.object(
    {
      ids: v.optional(
        v.pipe(
          v.array(v.pipe(v.string("ids must be alert ids"), v.uuid("ids must be alert ids")), "ids must be a list of alert ids"),
          v.maxLength(200, "ids must list at most 200 alerts"),
        ),
      ),
    },
    MARK_READ_BODY,
  ),
);
export type MarkAlertsRead = v.InferOutput<typeof MarkAlertsRead>;

/** The answer to POST /api/user/alerts/read: what is still unread. */
export const MarkedAlertsRead = v.object({ unread: v.number() });
export type MarkedAlertsRead = v.InferOutput<typeof MarkedAlertsRead>;
