import type { WebhookTestResult } from "#src/contract/trackers.ts";

/* A tracker's webhook as its owner is told about it, alike on the web and in the CLI. */

/** "Delivered: your endpoint answered 200." / "Not delivered: your endpoint answered 500." / the refusal. */
export function webhookTestInWords(result: WebhookTestResult): string {
  if (result.delivered) return `Delivered: your endpoint answered ${result.status ?? "2xx"}.`;
  const why = result.error ?? `your endpoint answered ${result.status}`;
  return `Not delivered: ${why.replace(/\.$/, "")}.`;
}

/** How a receiver checks a delivery, in one sentence (the signing is src/server/services/trackers/webhooks.ts's signWebhook). */
export const WEBHOOK_VERIFY_WORDS =
  'Each request carries X-AISC-Signature: t=<unix seconds>,v1=<hex>, where v1 is the HMAC-SHA256 of "<t>.<body>" keyed with this secret. Compute it over the body exactly as received (before parsing it), compare in constant time, and refuse a t more than 5 minutes from now.';

/** The same in Node, as the form shows it (a unit test runs it against real signatures). */
export const WEBHOOK_VERIFY_NODE = `import { createHmac, timingSafeEqual } from "node:crypto";

// header: the X-AISC-Signature value; rawBody: the body as received, as a string.
function verified(header, rawBody, secret) {
  const { t, v1 } = Object.fromEntries(header.split(",").map((part) => part.split("=")));
  const expected = createHmac("sha256", secret).update(\`\${t}.\${rawBody}\`).digest("hex");
  return typeof v1 === "string" && v1.length === expected.length &&
    timingSafeEqual(Buffer.from(v1), Buffer.from(expected)) &&
    Math.abs(Date.now() / 1000 - Number(t)) < 300;
}`;
