/**
 * Events and their delivery. Every state change becomes an Event, kept in `events`; when a
 * webhook target was set at that moment, its exact JSON is POSTed there with a
 * `Stripe-Signature: t=<real unix time>,v1=<HMAC-SHA256(secret, "<t>.<body>")>` header (the
 * SDK's `constructEventAsync` verifies it). Deliveries go one at a time in creation order; a
 * non-2xx answer or a network error is retried after each of `retryDelaysS` (real seconds), then
 * given up. Every attempt is logged in `deliveries`.
 */
import { createHmac } from "node:crypto";
import { abortableSleep } from "#src/core/backoff.ts";
import { newId } from "./store.ts";

export const API_VERSION = "2026-10-28.endive";

export type WebhookTarget =
  | { url: string }
  | { deliver: (request: Request) => Promise<Response> /** The Request's URL (default http://localhost/webhooks/stripe). */; url?: string };

export type StripeEvent = {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
};

export type Delivery = { eventId: string; type: string; status: number | "error"; attempt: number };

/** The API request an event comes from (null for what the clock did). */
export type Cause = { requestId: string; idempotencyKey: string | null } | null;

const DELIVERY_TIMEOUT_MS = 10_000;

export class Webhooks {
  readonly events: StripeEvent[] = [];
  readonly deliveries: Delivery[] = [];
  private target: WebhookTarget | undefined;
  private cause: Cause = null;
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private readonly stopping = new AbortController();

  constructor(
    readonly secret: string,
    private readonly retryDelaysS: readonly number[],
    target: WebhookTarget | undefined,
    /** Simulated time, for `created`. */
    private readonly now: () => number,
  ) {
    this.target = target;
  }

  setTarget(target: WebhookTarget | undefined): void {
    this.target = target;
  }

  /** Runs `work` with its events attributed to `cause` (work is synchronous). */
  during<T>(cause: Cause, work: () => T): T {
    const previous = this.cause;
    this.cause = cause;
    try {
      return work();
    } finally {
      this.cause = previous;
    }
  }

  emit(type: string, object: unknown, previousAttributes?: Record<string, unknown>): StripeEvent {
    const target = this.target;
    const event: StripeEvent = {
      id: newId("evt"),
      object: "event",
      api_version: API_VERSION,
      created: this.now(),
      data: previousAttributes ? { object, previous_attributes: previousAttributes } : { object },
      livemode: false,
      pending_webhooks: target ? 1 : 0,
      request: { id: this.cause?.requestId ?? null, idempotency_key: this.cause?.idempotencyKey ?? null },
      type,
    };
    this.events.push(event);
    if (target) {
      const body = JSON.stringify(event);
      this.pending++;
      this.queue = this.queue.then(() => this.deliver(event, body, target)).finally(() => this.pending--);
    }
    return event;
  }

  /** Resolves once no delivery is pending (including ones queued while waiting). */
  async idle(): Promise<void> {
    while (this.pending > 0) await this.queue;
  }

  stop(): void {
    this.stopping.abort();
  }

  private async deliver(event: StripeEvent, body: string, target: WebhookTarget): Promise<void> {
    for (let attempt = 1; !this.stopping.signal.aborted; attempt++) {
      const status = await this.attempt(body, target);
      this.deliveries.push({ eventId: event.id, type: event.type, status, attempt });
      if (typeof status === "number" && status >= 200 && status < 300) return;
      const delay = this.retryDelaysS[attempt - 1];
      if (delay === undefined) return;
      await abortableSleep(delay * 1000, this.stopping.signal);
    }
  }

  private async attempt(body: string, target: WebhookTarget): Promise<number | "error"> {
    const headers = {
      "content-type": "application/json; charset=utf-8",
      "stripe-signature": signatureHeader(this.secret, body),
      "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
    };
    const signal = AbortSignal.any([this.stopping.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]);
    try {
      const url = "deliver" in target ? (target.url ?? "http://localhost/webhooks/stripe") : target.url;
      const request = new Request(url, { method: "POST", headers, body, signal });
      const response = "deliver" in target ? await target.deliver(request) : await fetch(request);
      await response.body?.cancel().catch(() => undefined);
      return response.status;
    } catch {
      return "error";
    }
  }
}

/** Stripe's `previous_attributes`: the old values of what changed (nested objects: only their changed keys). */
export function previousAttributes(before: object, after: object): Record<string, unknown> | undefined {
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const key of new Set([...Object.keys(old), ...Object.keys(now)])) {
    const a = old[key];
    const b = now[key];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const nested = isPlainObject(a) && isPlainObject(b) ? previousAttributes(a, b) : undefined;
    previous[key] = nested ?? (a === undefined ? null : a);
  }
  return Object.keys(previous).length > 0 ? previous : undefined;
}

function isPlainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, with the real time (the SDK allows 300 s of skew). */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}
