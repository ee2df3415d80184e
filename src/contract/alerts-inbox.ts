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

/** GET /api/user/alerts: `unread` counts every unread alert of the caller's trackers, not only the ones listed. */
export const AlertsInbox = v.object({ unread: v.number(), alerts: v.array(InboxAlert) });
export type AlertsInbox = v.InferOutput<typeof AlertsInbox>;

const MARK_READ_BODY = "The body must be a JSON object, with ids or without";

/**
 * POST /api/user/alerts/read: these alerts (of the caller's trackers), or without `ids` all of them.
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
