import type { TrackerRun } from "#src/contract/trackers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";

/*
 * What a tracker's webhook is sent: the event and its payload, which ./webhooks.ts posts and
 * ./slack.ts words for Slack.
 */

/** `test` is sent only when the owner asks (Send test), at once and without retries. */
/** `test` is sent only when the owner asks (Send test), at once and without retries. */
export type WebhookEvent = "alert" | "run.completed" | "run.failed" | "run.missed" | "test";
export type WebhookPayload = {
  tracker: { id: string; name: string; timezone?: string };
  /** `run.missed`: the occurrence that was due, and why no run was made for it. */
  missed?: { dueAt: string; reason: string };
  run?: Pick<TrackerRun, "id" | "status" | "reason" | "scheduledFor" | "finishedAt" | "answers" | "cost">;
  alert?: TrackerAlert;
  /** A run's end: the headline of the run against the one before (the summary's sentence), which a Slack message opens on. */
  headline?: string;
};
