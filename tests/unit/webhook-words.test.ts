import { describe, expect, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { WEBHOOK_VERIFY_NODE, webhookTestInWords } from "#src/core/webhooks.ts";
import { signWebhook } from "#src/server/services/trackers/webhooks.ts";

/*
 * What the owner is told about their webhook: Send test's outcome in words, and the verification
 * recipe the form shows, run here against the server's own signatures.
 */

type Verify = (header: string, rawBody: string, secret: string) => boolean;

/** The recipe as the form shows it, its import given as the function's arguments. */
function recipe(): Verify {
  const body = WEBHOOK_VERIFY_NODE.replace(/^import .*$/m, "");
  return new Function("createHmac", "timingSafeEqual", "Buffer", `${body}\nreturn verified;`)(createHmac, timingSafeEqual, Buffer) as Verify;
}

describe("webhook words", () => {
  test("the recipe accepts the server's signature, and refuses another secret, another body, a bad header or an old timestamp", () => {
    const verified = recipe();
    const body = JSON.stringify({ id: "d", event: "test", tracker: { id: "t", name: "CRM ü & <b>" } });
    const now = Math.floor(Date.now() / 1000);
    const header = signWebhook("whsec_abc", now, body);
    expect(verified(header, body, "whsec_abc")).toBe(true);
    expect(verified(header, body, "whsec_other")).toBe(false);
    expect(verified(header, `${body} `, "whsec_abc")).toBe(false);
    expect(verified("t=1,v1=zz", body, "whsec_abc")).toBe(false);
    expect(verified("nonsense", body, "whsec_abc")).toBe(false);
    expect(verified(signWebhook("whsec_abc", now - 600, body), body, "whsec_abc")).toBe(false);
  });

  test("Send test's outcome in words", () => {
    expect(webhookTestInWords({ delivered: true, status: 200 })).toBe("Delivered: your endpoint answered 200.");
    expect(webhookTestInWords({ delivered: false, status: 500, error: "your endpoint answered 500" })).toBe("Not delivered: your endpoint answered 500.");
    expect(webhookTestInWords({ delivered: false, error: "webhook.url: 10.0.0.1 is a private address." })).toBe(
      "Not delivered: webhook.url: 10.0.0.1 is a private address.",
    );
  });
});
