import { expect, test } from "bun:test";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

describeEachDatabase("security headers", (getDb) => {
  test("a page names a fresh nonce in its CSP and on every script React wrote; nothing else inline may run, and nothing may frame it", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const nonces = new Set<string>();
    for (const path of ["/", "/auth", "/no/such/page", "/checkout"]) {
      const page = await visitor.request("GET", path);
      const csp = page.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect({ path, nonce: typeof nonce }).toEqual({ path, nonce: "string" });
      nonces.add(nonce ?? "");
      expect(csp).toContain("script-src 'self' 'nonce-");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      // Simulated billing: Stripe's origins are not let in (its stand-in is ours).
      expect(csp).not.toContain("stripe.com");
      expect(csp).not.toContain("upgrade-insecure-requests");
      const executable = [...page.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "").filter((attrs) => !attrs.includes('type="application/json"'));
      expect(executable.length).toBeGreaterThan(0);
      for (const attrs of executable) expect(attrs).toContain(`nonce="${nonce}"`);
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("strict-transport-security")).toBeNull();
    }
    expect(nonces.size).toBe(4);
  });

  test("API answers forbid everything as a document, and carry nosniff", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    for (const path of ["/api/quota", "/api/no-such-call"]) {
      const answer = await visitor.request("GET", path);
      expect(answer.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("the API reference page lets in scripts and styles from this origin only, nothing inline, and its files are ours", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const page = await visitor.request("GET", "/api/docs");
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).not.toContain("unsafe");
    expect(csp).toContain("frame-ancestors 'none'");
    const sources = [...page.text.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(sources.filter((source) => source !== "data:,").every((source) => source.startsWith("/"))).toBe(true);
    expect(page.text).not.toMatch(/<script>|<script [^>]*>[^<]/);
    for (const source of sources.filter((s) => s.startsWith("/"))) expect({ source, status: (await visitor.request("GET", source)).status }).toEqual({ source, status: 200 });
  });

  test("over HTTPS (through a trusted proxy): HSTS, upgrade-insecure-requests, and Secure cookies", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const page = await visitor.request("GET", "/", undefined, { "x-forwarded-proto": "https" });
    expect(page.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(page.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    for (const cookie of page.headers.getSetCookie()) expect(cookie.toLowerCase()).toContain("secure");
    expect(page.headers.getSetCookie().length).toBeGreaterThan(0);
  });

  test("with live Stripe the pages let in Stripe.js, its frames and its API, and nothing else of Stripe's", async () => {
    const { app, stripe } = await createTestApp(getDb());
    const { app: live } = await createTestApp(getDb(), {
      stripe,
      env: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_PUBLISHABLE_KEY: stripe.publishableKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_PRICE_ID: stripe.priceId, STRIPE_API_BASE: stripe.apiBase },
    });
    expect((await createAgent(app).request("GET", "/checkout")).headers.get("content-security-policy")).not.toContain("stripe.com");
    const csp = (await createAgent(live).request("GET", "/checkout")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).toContain("https://js.stripe.com");
    expect(csp).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
  });
});
