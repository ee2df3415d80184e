import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DomainError } from "../errors.ts";
import type { JobQueue, SendOptions } from "../job-queue.ts";
import { createRunViews } from "./runs.ts";
import { postPinned, type Resolve, type Send, type WebhookPolicy, type WebhookTarget, webhookTarget } from "./webhook-url.ts";
import { alertInWords, missedInWords, runInWords } from "./words.ts";

/** One delivery of an event to a tracker's webhook, retried with backoff. */
const QUEUE = "tracker-webhook";
/** A delivery's retries: 7 after the first, 2, 4, 8… seconds apart (pg-boss's backoff), about 4 minutes in all. */
export const DELIVERY_RETRIES = { retryLimit: 7, retryDelaySeconds: 2, retryBackoff: true } satisfies SendOptions;
const TIMEOUT_MS = 10_000;

export type WebhookEvent = "alert" | "run.completed" | "run.failed" | "run.missed";
type Payload = {
  tracker: { id: string; name: string; timezone?: string };
  /** `run.missed`: the occurrence that was due, and why no run was made for it. */
  missed?: { dueAt: string; reason: string };
  run?: Pick<TrackerRun, "id" | "status" | "reason" | "scheduledFor" | "finishedAt" | "answers" | "cost">;
  alert?: TrackerAlert;
};
type Delivery = { id: string; trackerId: string; event: WebhookEvent; payload: Payload };

/** The header a delivery is signed in: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the webhook's secret>`. */
export const SIGNATURE_HEADER = "x-aisc-signature";

/** A new webhook secret: 32 random bytes, shown once. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The signature header's value for a body sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/**
 * A tracker's events, posted to its webhook: a run's end (`run.completed`, for a
 * partial run too, or `run.failed`), each alert, and a due run that did not happen (`run.missed`). Each delivery is a pg-boss job: a webhook that
 * does not answer 2xx is asked again with backoff; one removed or changed to a refused address
 * since is not.
 */
export function createWebhooks({
  db,
  queue,
  policy,
  clock = () => new Date(),
  resolve,
  transport,
}: {
  db: Db;
  queue: JobQueue;
  policy: WebhookPolicy;
  clock?: () => Date;
  /** How a webhook's host is resolved (`node:dns` by default; a test answers its own). */
  resolve?: Resolve;
  /** How the request goes out (`fetch` by default). */
  transport?: Send;
}) {
  const runViews = createRunViews(db);
  queue.work<Delivery>(QUEUE, { concurrency: 4 }, deliver);

  return {
    /** Sends a run's end and its new alerts to the tracker's webhook, if it has one. */
    async runEnded(runId: string, trackerId: string, alerts: readonly TrackerAlert[], { ended }: { ended: boolean }): Promise<void> {
      const [tracker] = await db
        .select({ id: trackers.id, name: trackers.name, url: trackers.webhookUrl })
        .from(trackers)
        .where(eq(trackers.id, trackerId))
        .limit(1);
      if (!tracker?.url) return;
      const view = await runViews.one(trackerId, runId);
      if (!view) return;
      const { id, status, reason, scheduledFor, finishedAt, answers, cost } = view;
      const base = { tracker: { id: tracker.id, name: tracker.name } };
      const run = { id, status, ...(reason ? { reason } : {}), scheduledFor, finishedAt, answers, cost };
      if (ended) await send(trackerId, status === "failed" ? "run.failed" : "run.completed", { ...base, run });
      for (const alert of alerts) await send(trackerId, "alert", { ...base, alert });
    },

    /**
     * A due run that did not happen (./missed.ts, which tells each once), to the tracker's webhook if
     * it has one; `deliveryId` is the miss's own, so that its teller, retried, sends it once.
     */
    async missed(trackerId: string, missed: { dueAt: string; reason: string }, deliveryId: string): Promise<void> {
      const [tracker] = await db
        .select({ id: trackers.id, name: trackers.name, timezone: trackers.timezone, url: trackers.webhookUrl })
        .from(trackers)
        .where(eq(trackers.id, trackerId))
        .limit(1);
      if (!tracker?.url) return;
      await send(trackerId, "run.missed", { tracker: { id: tracker.id, name: tracker.name, timezone: tracker.timezone }, missed }, deliveryId);
    },
  };

  /** A delivery is its job: sent again under the same id, it is not sent twice. */
  async function send(trackerId: string, event: WebhookEvent, payload: Payload, id: string = randomUUID()): Promise<void> {
    await queue.send<Delivery>(QUEUE, { id, trackerId, event, payload }, { id, ...DELIVERY_RETRIES });
  }

  async function deliver({ id, trackerId, event, payload }: Delivery): Promise<void> {
    const [hook] = await db
      .select({ url: trackers.webhookUrl, format: trackers.webhookFormat, secret: trackers.webhookSecret })
      .from(trackers)
      .where(eq(trackers.id, trackerId))
      .limit(1);
    if (!hook?.url || !hook.secret) return;
    let target: WebhookTarget;
    try {
      target = await webhookTarget(hook.url, policy, resolve);
    } catch (error) {
      // Refused (the URL or an address it resolves to): not sent, not retried. Unresolved: retried.
      if (!(error instanceof DomainError)) throw error;
      console.warn(`webhook of tracker ${trackerId} not sent: ${error.message}`);
      return;
    }
    const body = JSON.stringify(hook.format === "slack" ? { text: slackText(textOf(event, payload)) } : { id, event, ...payload });
    const timestamp = Math.floor(clock().getTime() / 1000);
    const headers = {
      "content-type": "application/json",
      "user-agent": "ai-search-comparison-webhooks",
      "x-aisc-event": event,
      "x-aisc-delivery": id,
      [SIGNATURE_HEADER]: signWebhook(hook.secret, timestamp, body),
    };
    // To an address just checked, not to the name resolved again; a redirect counts as a failure.
    const response = await postPinned(target, { headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) }, transport);
    await response.body?.cancel();
    if (response.status < 200 || response.status >= 300) throw new Error(`the webhook answered ${response.status}`);
  }
}

export type Webhooks = ReturnType<typeof createWebhooks>;

/**
 * Text for Slack's mrkdwn (and Discord's Slack-compatible webhooks): what users wrote stays as
 * written and does nothing. One line, unseen characters named (visibleText); `&`, `<` and `>`
 * escaped, Slack's rule, so `<!channel>` or `<https://…|text>` is shown, not acted on; and
 * `@everyone` / `@here`, which Discord would act on, broken by a zero-width space.
 */
export function slackText(text: string): string {
  return visibleText(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@(everyone|here)\b/gi, "@\u200b$1");
}

/** The event in one line, for Slack and Discord. */
function textOf(event: WebhookEvent, { tracker, run, alert, missed }: Payload): string {
  if (alert) return alertInWords(tracker.name, alert);
  if (missed) return missedInWords(tracker.name, missed, tracker.timezone ?? "UTC");
  return run ? runInWords(tracker.name, event, run) : `${tracker.name}: ${event}`;
}
