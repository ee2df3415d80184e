import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import type { WebhookTestResult } from "#src/contract/trackers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { DomainError } from "../errors.ts";
import type { JobQueue, SendOptions } from "../job-queue.ts";
import { createRunViews } from "./runs.ts";
import { slackMessage } from "./slack.ts";
import type { WebhookEvent, WebhookPayload } from "./webhook-event.ts";
import { postPinned, type Resolve, type Send, type WebhookPolicy, type WebhookTarget, webhookTarget } from "./webhook-url.ts";

/** One delivery of an event to a tracker's webhook, retried with backoff. */
const QUEUE = "tracker-webhook";
/** A delivery's retries: 7 after the first, 2, 4, 8… seconds apart (pg-boss's backoff), about 4 minutes in all. */
export const DELIVERY_RETRIES = { retryLimit: 7, retryDelaySeconds: 2, retryBackoff: true } satisfies SendOptions;
const TIMEOUT_MS = 10_000;

type Delivery = { id: string; trackerId: string; event: WebhookEvent; payload: WebhookPayload };
export type Hook = { url: string; format: "json" | "slack"; secret: string };

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
 * partial run too, or `run.failed`), each alert, and a due run that did not happen (`run.missed`:
 * a tick skipped behind a run still going, a run a limit refused, a stall). Each delivery is a pg-boss job: a webhook that
 * does not answer 2xx is asked again with backoff; one removed or changed to a refused address
 * since is not. A `test` is posted the same way, at once, and says what came of it.
 */
export function createWebhooks({
  db,
  queue,
  policy,
  publicUrl,
  headline,
  clock = () => new Date(),
  resolve,
  transport,
}: {
  db: Db;
  queue: JobQueue;
  policy: WebhookPolicy;
  /** Where the product is (PUBLIC_URL, as e-mails link to it): Slack messages link to the tracker's page under it. */
  publicUrl: string;
  /** The headline of a tracker's newest run, for a run's end (./summary.ts); none without it. */
  headline?: (trackerId: string) => Promise<string | undefined>;
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
        .select({ id: trackers.id, name: trackers.name, timezone: trackers.timezone, url: trackers.webhookUrl })
        .from(trackers)
        .where(eq(trackers.id, trackerId))
        .limit(1);
      if (!tracker?.url) return;
      const view = await runViews.one(trackerId, runId);
      if (!view) return;
      const { id, status, reason, scheduledFor, finishedAt, answers, cost } = view;
      const base = { tracker: { id: tracker.id, name: tracker.name, timezone: tracker.timezone } };
      const run = { id, status, ...(reason ? { reason } : {}), scheduledFor, finishedAt, answers, cost };
      if (ended) {
        // Read when the run ended, so that a delivery retried later still tells this run's.
        const sentence = status === "failed" ? undefined : await headline?.(trackerId);
        await send(trackerId, status === "failed" ? "run.failed" : "run.completed", { ...base, run, ...(sentence ? { headline: sentence } : {}) });
      }
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

    /** Posts a `test` event to a tracker's webhook now, once, as a delivery goes (checked address, signed), and says what came of it. */
    async test(tracker: { id: string; name: string; timezone: string }, hook: Hook): Promise<WebhookTestResult> {
      const payload = { tracker: { id: tracker.id, name: tracker.name, timezone: tracker.timezone } };
      let response: Response;
      try {
        response = await post(hook, { id: randomUUID(), trackerId: tracker.id, event: "test", payload });
      } catch (error) {
        return { delivered: false, error: failureInWords(error) };
      }
      const { status } = response;
      if (status >= 200 && status < 300) return { delivered: true, status };
      return {
        delivered: false,
        status,
        error: status >= 300 && status < 400 ? `your endpoint answered ${status}, a redirect, which is not followed` : `your endpoint answered ${status}`,
      };
    },
  };

  /** A delivery is its job: sent again under the same id, it is not sent twice. */
  async function send(trackerId: string, event: WebhookEvent, payload: WebhookPayload, id: string = randomUUID()): Promise<void> {
    await queue.send<Delivery>(QUEUE, { id, trackerId, event, payload }, { id, ...DELIVERY_RETRIES });
  }

  async function deliver(delivery: Delivery): Promise<void> {
    const [hook] = await db
      .select({ url: trackers.webhookUrl, format: trackers.webhookFormat, secret: trackers.webhookSecret })
      .from(trackers)
      .where(eq(trackers.id, delivery.trackerId))
      .limit(1);
    if (!hook?.url || !hook.secret) return;
    let response: Response;
    try {
      response = await post({ url: hook.url, format: hook.format ?? "json", secret: hook.secret }, delivery);
    } catch (error) {
      // Refused (the URL or an address it resolves to): not sent, not retried. Unresolved or unreachable: retried.
      if (!(error instanceof DomainError)) throw error;
      console.warn(`webhook of tracker ${delivery.trackerId} not sent: ${error.message}`);
      return;
    }
    if (response.status < 200 || response.status >= 300) throw new Error(`the webhook answered ${response.status}`);
  }

  /**
   * The one way an event is posted: the URL checked and resolved once (DomainError when refused),
   * the body in the hook's format, signed, to an address just checked, never to the name resolved
   * again; a redirect is answered, not followed. Throws when it could not be posted.
   */
  async function post(hook: Hook, { id, trackerId, event, payload }: Delivery): Promise<Response> {
    const target: WebhookTarget = await webhookTarget(hook.url, policy, resolve);
    const trackerUrl = `${publicUrl}/trackers/${trackerId}`;
    const body = JSON.stringify(hook.format === "slack" ? slackMessage(event, payload, { trackerUrl, headline: payload.headline }) : { id, event, ...payload });
    const timestamp = Math.floor(clock().getTime() / 1000);
    const headers = {
      "content-type": "application/json",
      "user-agent": "ai-search-comparison-webhooks",
      "x-aisc-event": event,
      "x-aisc-delivery": id,
      [SIGNATURE_HEADER]: signWebhook(hook.secret, timestamp, body),
    };
    const response = await postPinned(target, { headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) }, transport);
    await response.body?.cancel();
    return response;
  }
}

/** Why a test was not posted, in words: refused, unresolved, unreachable or too slow. */
function failureInWords(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `your endpoint did not answer within ${TIMEOUT_MS / 1000} seconds`;
  return `your endpoint could not be reached: ${error instanceof Error ? error.message : String(error)}`;
}

export type Webhooks = ReturnType<typeof createWebhooks>;
