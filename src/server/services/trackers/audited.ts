import type { trackers } from "#db/schema.ts";
import type { UpdateTracker } from "#src/contract/trackers.ts";
import type { Actor, Audit } from "../workspaces/audit.ts";

type TrackerRow = typeof trackers.$inferSelect;

/**
 * What an edit of a tracker writes in its workspace's log (ADR 071): a pause or a resume, a
 * webhook set or removed (its address, never its secret), and the other fields it changed, by name.
 */
export async function auditEdit(audit: Pick<Audit, "record">, actor: Actor, row: TrackerRow, change: UpdateTracker): Promise<void> {
  const at = { workspaceId: row.workspaceId, target: row.name };
  const trackerId = row.id;
  const paused = row.paused || row.pausedReason !== null;
  if (change.paused !== undefined && change.paused !== paused)
    await audit.record(actor, { ...at, action: change.paused ? "tracker.paused" : "tracker.resumed", details: { trackerId } });
  if (change.webhook !== undefined)
    await audit.record(actor, {
      ...at,
      action: "tracker.webhook-set",
      details:
        change.webhook === null
          ? { trackerId, removed: true }
          : { trackerId, url: change.webhook.url, format: change.webhook.format, rotated: Boolean(change.webhook.rotateSecret) },
    });
  const fields = Object.keys(change).filter((field) => field !== "paused" && field !== "webhook" && changed(row, field as keyof UpdateTracker, change));
  if (fields.length)
    await audit.record(actor, {
      ...at,
      action: "tracker.edited",
      details: { trackerId, fields, ...(change.name && change.name !== row.name ? { renamedTo: change.name } : {}) },
    });
}

/** Whether a field given differs from the row's (a schedule by its cron and time zone). */
function changed(row: TrackerRow, field: keyof UpdateTracker, change: UpdateTracker): boolean {
  const given = change[field];
  if (given === undefined) return false;
  if (field === "schedule") {
    const schedule = given as { cron: string; timezone: string };
    return schedule.cron !== row.cron || schedule.timezone !== row.timezone;
  }
  const column = (row as Record<string, unknown>)[field];
  return JSON.stringify(given) !== JSON.stringify(column ?? null);
}
