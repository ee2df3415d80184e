import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { trackers } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import type { JobQueue } from "#src/server/services/job-queue.ts";
import { WEBHOOK_TESTS_PER_MINUTE } from "#src/server/services/trackers/index.ts";
import { createWebhooks } from "#src/server/services/trackers/webhooks.ts";
import { checkWebhookUrl, isInternalAddress } from "#src/server/services/trackers/webhook-url.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * A tracker's events posted to its webhook, signed with a secret shown once, retried
 * when the receiver fails, refused for internal addresses unless the operator allows them.
 */

type Received = { headers: Headers; body: string };

/** A loopback receiver (on 127.0.0.1 only): answers `failures` 500s, then 200s; keeps every request. */
function receiver(failures = 0) {
  const received: Received[] = [];
  let left = failures;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      received.push({ headers: request.headers, body: await request.text() });
      if (left > 0) {
        left--;
        return new Response("down", { status: 500 });
      }
      return new Response("ok");
    },
  });
  return { url: `http://127.0.0.1:${server.port}/hook`, port: server.port, received, stop: () => server.stop(true) };
}

/** A queue that runs each job as it is sent, once: a delivery's outcome is known when `send` returns. */
function inlineQueue(): JobQueue {
  let handler: ((data: object, job: { signal: AbortSignal; retryCount: number }) => Promise<void>) | undefined;
  return {
    work: (_queue, _options, work) => {
      handler = work as typeof handler;
    },
    send: async (_queue, data) => {
      await handler?.(data, { signal: new AbortController().signal, retryCount: 0 });
      return "job";
    },
    sendMany: async (_queue, many) => {
      for (const { data } of many) await handler?.(data, { signal: new AbortController().signal, retryCount: 0 });
    },
    schedule: async () => {},
    unschedule: async () => {},
    unscheduleAll: async () => 0,
    onStart: () => {},
    start: async () => {},
    stop: async () => {},
  };
}

/** How a receiver checks a delivery, as the README shows. */
function verified(secret: string, { headers, body }: Received): boolean {
  const header = headers.get("x-aisc-signature") ?? "";
  const { t, v1 } = Object.fromEntries(header.split(",").map((part) => part.split("=") as [string, string]));
  return Boolean(t && v1) && createHmac("sha256", secret).update(`${t}.${body}`).digest("hex") === v1;
}

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};
/** A run's answers: every provider in the catalogue, twice. */
const ANSWERS = providerIds.length * definition.iterations;

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 2 } });
});
afterAll(async () => {
  await simulator.stop();
});

describeEachDatabase("trackers: webhooks", (getDb) => {
  test("a run's end is posted, signed with the secret shown once; a receiver that fails is asked again; slack format is Block Kit with the text fallback", async () => {
    const hook = receiver(1);
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: hook.url } })).json as Tracker;
      const secret = created.webhook?.secret ?? "";
      expect(created.webhook).toMatchObject({ url: hook.url, format: "json" });
      expect(secret).toStartWith("whsec_");
      // Shown once: never again.
      expect((await agent.api.getTracker(created.id)).webhook).toEqual({ url: hook.url, format: "json" });
      expect(JSON.stringify(await agent.api.listTrackers())).not.toContain(secret);

      const { run } = await agent.api.runTracker(created.id);
      // The first delivery met a 500; the retry is delivered.
      await waitFor(() => hook.received.length >= 2, { what: "the delivery and its retry", timeoutMs: 30_000 });
      const [first, second] = hook.received;
      expect(first!.headers.get("x-aisc-event")).toBe("run.completed");
      expect(first!.headers.get("host")).toBe(`127.0.0.1:${hook.port}`);
      expect(second!.headers.get("x-aisc-delivery")).toBe(first!.headers.get("x-aisc-delivery"));
      expect(verified(secret, second!)).toBe(true);
      expect(verified("whsec_someone-else", second!)).toBe(false);
      const body = JSON.parse(second!.body) as {
        event: string;
        tracker: { id: string; name: string };
        run: { id: string; status: string; answers: { done: number } };
        headline: string;
      };
      expect(body).toMatchObject({
        event: "run.completed",
        tracker: { id: created.id, name: "CRM visibility" },
        run: { id: run.id, status: "completed", answers: { done: ANSWERS } },
      });
      // The run's headline, as the tracker page's "This run" reads it.
      expect(body.headline).toBe((await agent.api.getTrackerSummary(created.id, { period: "run" })).sentence);
      expect(body.headline).toStartWith("HubSpot: named in ");

      // Slack format: Block Kit with the one line as the fallback text (Discord's Slack-compatible webhooks show it); a rotated secret signs from then on.
      const rotated = await agent.api.updateTracker(created.id, { webhook: { url: hook.url, format: "slack", rotateSecret: true } });
      expect(rotated.webhook?.secret).toStartWith("whsec_");
      expect(rotated.webhook?.secret).not.toBe(secret);
      const before = hook.received.length;
      const { run: next } = await agent.api.runTracker(created.id);
      await waitFor(async () => (await agent.api.getTrackerRun(created.id, next.id)).status === "completed", { what: "the second run" });
      await waitFor(() => hook.received.length > before, { what: "the second run's delivery" });
      const slack = hook.received.at(-1)!;
      const message = JSON.parse(slack.body) as {
        text: string;
        blocks: Array<{ type: string; text?: { type: string; text: string }; fields?: Array<{ text: string }> }>;
      };
      expect(message.text).toBe(`CRM visibility: run completed, ${ANSWERS} of ${ANSWERS} answers, cost $0.00 (simulated)`);
      // The message opens on the run's headline (brand, rate, rank, change against the run before).
      const headline = (await agent.api.getTrackerSummary(created.id, { period: "run" })).sentence;
      expect(headline).toContain("the run before");
      expect(message.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: headline } });
      expect(message.blocks[1]).toEqual({ type: "section", text: { type: "mrkdwn", text: "*CRM visibility*: run completed" } });
      expect(message.blocks[2]?.fields?.map((field) => field.text)).toContain(`*Answers:*\n${ANSWERS} of ${ANSWERS}`);
      // The button goes to the tracker's page under PUBLIC_URL (http://localhost:PORT here), as e-mails' links do.
      expect(message.blocks.at(-1)).toMatchObject({ type: "actions", elements: [{ type: "button", url: `http://localhost:3000/trackers/${created.id}` }] });
      expect(verified(rotated.webhook!.secret!, slack)).toBe(true);
      expect(verified(secret, slack)).toBe(false);

      // Removed: nothing more is posted.
      expect((await agent.api.updateTracker(created.id, { webhook: null })).webhook).toBeUndefined();
    } finally {
      await queue.stop();
      hook.stop();
    }
  }, 60_000);

  test("a delivery goes to the address its host resolves to at that moment, once checked, with the name as Host; slack text shows names as written", async () => {
    const hook = receiver();
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      // `localhost` resolves to ::1 and 127.0.0.1: the receiver is on the second, reached when the first refuses.
      const created = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: `http://localhost:${hook.port}/hook` } })).json as Tracker;
      const { run } = await agent.api.runTracker(created.id);
      await waitFor(() => hook.received.length >= 1, { what: "the run's delivery" });
      expect(hook.received[0]!.headers.get("host")).toBe(`localhost:${hook.port}`);

      // `.invalid` never resolves: only the address the resolver answered, and that was checked, can be reached.
      await agent.api.updateTracker(created.id, { webhook: { url: `http://hooks.invalid:${hook.port}/hook`, format: "slack" } });
      // A name stored before names were checked for unseen characters, with Slack markup in it.
      await getDb().db.update(trackers).set({ name: "<!channel> CRM & <https://evil.example|co>\n\u202e" }).where(eq(trackers.id, created.id));
      const allowing = createWebhooks({
        db: getDb().db,
        queue: inlineQueue(),
        policy: { allowPrivate: true, httpsOnly: false },
        publicUrl: "https://aisc.example.com",
        resolve: async () => ["127.0.0.1"],
      });
      await allowing.runEnded(run.id, created.id, [], { ended: true });
      expect(hook.received).toHaveLength(2);
      const pinned = hook.received[1]!;
      expect(pinned.headers.get("host")).toBe(`hooks.invalid:${hook.port}`);
      const message = JSON.parse(pinned.body) as { text: string; blocks: object[] };
      expect(message.text).toBe(
        `&lt;!channel&gt; CRM &amp; &lt;https://evil.example|co&gt; ⟨U+202E⟩: run completed, ${ANSWERS} of ${ANSWERS} answers, cost $0.00 (simulated)`,
      );
      // The blocks show the name as written too: no `<` or `>` from it reaches Slack.
      expect(JSON.stringify(message.blocks)).toContain("*&lt;!channel&gt; CRM &amp; &lt;https://evil.example|co&gt; ⟨U+202E⟩*: run completed");
      expect(JSON.stringify(message.blocks)).not.toMatch(/<!channel>|<https:/);
      expect(message.blocks.at(-1)).toMatchObject({ type: "actions", elements: [{ url: `https://aisc.example.com/trackers/${created.id}` }] });

      // Internal addresses refused: the name was public when set, and answers loopback now. Nothing is sent.
      const publicFirst = async () => ["93.184.216.34"];
      await expect(checkWebhookUrl(`http://hooks.invalid:${hook.port}/hook`, { allowPrivate: false, httpsOnly: false }, publicFirst)).resolves.toBeUndefined();
      const strict = createWebhooks({
        db: getDb().db,
        queue: inlineQueue(),
        policy: { allowPrivate: false, httpsOnly: false },
        publicUrl: "https://aisc.example.com",
        resolve: async () => ["127.0.0.1"],
      });
      await strict.runEnded(run.id, created.id, [], { ended: true });
      expect(hook.received).toHaveLength(2);
    } finally {
      await queue.stop();
      hook.stop();
    }
  }, 60_000);

  test("Send test posts a signed `test` event at once and says what came of it: delivered, the endpoint's non-2xx answer, unreachable", async () => {
    const hook = receiver(1);
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { WEBHOOK_ALLOW_PRIVATE: "1" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = (await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: hook.url } })).json as Tracker;
      const secret = created.webhook!.secret!;
      const path = `/api/trackers/${created.id}/webhook/test`;

      // The receiver's first answer is a 500: said, with its status, and not retried.
      expect((await agent.request("POST", path)).json).toEqual({ delivered: false, status: 500, error: "your endpoint answered 500" });
      expect(hook.received).toHaveLength(1);
      expect(await agent.api.testTrackerWebhook(created.id)).toEqual({ delivered: true, status: 200 });
      expect(hook.received).toHaveLength(2);
      const delivered = hook.received[1]!;
      expect(delivered.headers.get("x-aisc-event")).toBe("test");
      expect(verified(secret, delivered)).toBe(true);
      expect(JSON.parse(delivered.body) as unknown).toEqual({
        id: delivered.headers.get("x-aisc-delivery")!,
        event: "test",
        tracker: { id: created.id, name: "CRM visibility", timezone: "UTC" },
      });

      // Slack: a Block Kit message saying it is a test, with the plain text.
      await agent.api.updateTracker(created.id, { webhook: { url: hook.url, format: "slack" } });
      expect(await agent.api.testTrackerWebhook(created.id)).toEqual({ delivered: true, status: 200 });
      const slack = JSON.parse(hook.received[2]!.body) as { text: string; blocks: object[] };
      expect(slack.text).toStartWith("CRM visibility: A test from AI Search Comparison");
      expect(slack.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: "*CRM visibility*: test message" } });

      // Nobody listening: not delivered, in words.
      hook.stop();
      const unreachable = await agent.api.testTrackerWebhook(created.id);
      expect(unreachable.delivered).toBe(false);
      expect(unreachable.status).toBeUndefined();
      expect(unreachable.error).toStartWith("your endpoint could not be reached");
      // Test deliveries are not jobs: nothing was queued to retry.
      expect(hook.received).toHaveLength(3);
    } finally {
      await queue.stop();
      hook.stop();
    }
  }, 60_000);

  test("Send test: 409 without a webhook, 404 for another user's tracker, 403 for a free account, 429 past its limit; a refused address said in words", async () => {
    const hook = receiver();
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      const created = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      const path = `/api/trackers/${created.id}/webhook/test`;
      const none = await agent.request("POST", path);
      expect(none.status).toBe(409);
      expect(none.json).toEqual({ code: "CONFLICT", message: "This tracker has no webhook: set one, then send a test" });

      const { agent: other } = await createProAgent(app, getDb());
      expect((await other.request("POST", path)).status).toBe(404);
      expect((await other.request("POST", "/api/trackers/not-a-tracker/webhook/test")).status).toBe(404);
      const free = createAgent(app);
      await signUp(free, getDb());
      expect((await free.request("POST", path)).json).toMatchObject({ code: "PRO_REQUIRED" });

      // A loopback address kept from when the operator allowed them: refused now, at the test as at a delivery, and nothing sent.
      await getDb().db.update(trackers).set({ webhookUrl: hook.url, webhookFormat: "json", webhookSecret: "whsec_kept" }).where(eq(trackers.id, created.id));
      const refused = await agent.api.testTrackerWebhook(created.id);
      expect(refused.delivered).toBe(false);
      expect(refused.error).toStartWith("webhook.url: 127.0.0.1 is a private, loopback");
      expect(hook.received).toHaveLength(0);

      // A few a minute per account (9 more here: a 409 posts nothing and is not counted), then 429 with Retry-After.
      for (let i = 1; i < WEBHOOK_TESTS_PER_MINUTE; i++) await agent.api.testTrackerWebhook(created.id);
      const limited = await agent.request("POST", path);
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ code: "RATE_LIMITED" });
    } finally {
      await queue.stop();
      hook.stop();
    }
  }, 60_000);

  test("an internal address is refused unless the operator allows it, naming webhook.url", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const { agent } = await createProAgent(app, getDb());
      for (const url of [
        "http://127.0.0.1:9/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/hook",
        "http://10.1.2.3/hook",
        "http://localhost/hook",
        "http://[::ffff:127.0.0.1]:9/hook",
        "http://[::ffff:a9fe:a9fe]/latest/meta-data",
        "http://[64:ff9b::7f00:1]/hook",
        "http://[2002:a00:1::]/hook",
      ]) {
        const refused = await agent.request("POST", "/api/trackers", { ...definition, webhook: { url } });
        expect(refused.status).toBe(400);
        expect((refused.json as { message: string }).message).toStartWith("webhook.url");
      }
      const notUrl = await agent.request("POST", "/api/trackers", { ...definition, webhook: { url: "not a url" } });
      expect(notUrl.status).toBe(400);
      expect((notUrl.json as { message: string }).message).toContain("webhook.url must be a URL");
    } finally {
      await queue.stop();
    }
  });
});

describe("webhook addresses", () => {
  test("internal addresses in IPv4 and IPv6, mapped ones too; public ones pass", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a00:1",
      "224.0.0.1",
    ])
      expect(isInternalAddress(address)).toBe(true);
    for (const address of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(isInternalAddress(address)).toBe(false);
  });

  test("https only in production; a name resolving to an internal address is refused; no credentials in the URL", async () => {
    const publicDns = async () => ["93.184.216.34"];
    const rebound = async () => ["93.184.216.34", "10.0.0.7"];
    const production = { allowPrivate: false, httpsOnly: true };
    await expect(checkWebhookUrl("http://hooks.example.com/x", production, publicDns)).rejects.toThrow("webhook.url must start with https://");
    await expect(checkWebhookUrl("https://hooks.example.com/x", production, publicDns)).resolves.toBeUndefined();
    await expect(checkWebhookUrl("https://hooks.example.com/x", production, rebound)).rejects.toThrow("10.0.0.7");
    await expect(checkWebhookUrl("https://user:pw@hooks.example.com/x", production, publicDns)).rejects.toThrow("user name or password");
    await expect(checkWebhookUrl("ftp://hooks.example.com/x", { allowPrivate: true, httpsOnly: false }, publicDns)).rejects.toThrow("https://");
  });
});
