import { expect, test } from "bun:test";
import { CROSS_ORIGIN_MESSAGE } from "#src/server/http/csrf.ts";
import { createProAgent, newAccount, signUp } from "#tests/support/accounts.ts";
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

  test("a page asked again at once carries its own nonce, and shows what changed since (a sign-in, a search spent)", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const visit = async () => {
      const page = await visitor.request("GET", "/");
      const nonce = /'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1] ?? "";
      const executable = [...page.text.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "").filter((attrs) => !attrs.includes('type="application/json"'));
      expect(executable.length).toBeGreaterThan(0);
      for (const attrs of executable) expect(attrs).toContain(`nonce="${nonce}"`);
      return { nonce, text: page.text };
    };
    const first = await visit();
    const again = await visit();
    expect(again.nonce).not.toBe(first.nonce);
    expect(again.text.replaceAll(again.nonce, "")).toBe(first.text.replaceAll(first.nonce, ""));
    const account = await signUp(visitor, getDb());
    const signedIn = await visit();
    expect(signedIn.text).toContain(account.username);
    expect(first.text).not.toContain(account.username);
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

  test("every documented /api call answers Cache-Control: no-store, signed in or not, successes, errors and event streams alike", async () => {
    const { app } = await createTestApp(getDb());
    const { agent: pro, account } = await createProAgent(app, getDb());
    const { result } = await pro.api.search({ query: "best crm" });
    type Operation = { requestBody?: unknown };
    const spec = (await pro.request("GET", "/api/docs/json")).json as { paths: Record<string, Record<string, Operation>> };
    // Bodies that succeed where a success is personal; `{}` (a 4xx, which counts too) elsewhere.
    const bodies: Record<string, unknown> = {
      "POST /api/register": newAccount(),
      "POST /api/login": { username: account.username, password: account.password },
      "POST /api/search": { query: "best crm" },
      "POST /api/search/stream": { query: "best crm" },
      "POST /api/tokens": { name: "laptop" },
    };
    const operations = Object.entries(spec.paths)
      .filter(([path]) => path.startsWith("/api/"))
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation })),
      )
      // Signing out ends the session the others use: last.
      .sort((a, b) => Number(a.key === "POST /api/logout") - Number(b.key === "POST /api/logout"));
    expect(operations.length).toBeGreaterThan(25);
    const answers: Array<{ call: string; status: number; cacheControl: string | null }> = [];
    for (const { key, method, path, operation } of operations) {
      const url = path.replace("{id}", path.startsWith("/api/search/") ? result.id : crypto.randomUUID());
      const body = key in bodies ? bodies[key] : operation.requestBody ? {} : undefined;
      // A copy of the session for each call, so registering or signing in does not change who the next call is.
      const answer = await createAgent(app, { ip: pro.ip, jar: new Map(pro.jar) }).request(method, url, body);
      answers.push({ call: key, status: answer.status, cacheControl: answer.headers.get("cache-control") });
      if (key === "POST /api/search/stream") expect(answer.headers.get("content-type")).toStartWith("text/event-stream");
    }
    // The personal answers named in the issue succeed here, so their success is what is checked.
    for (const call of [
      "GET /api/auth/user",
      "GET /api/search/{id}",
      "GET /api/tokens",
      "POST /api/tokens",
      "POST /api/login",
      "POST /api/register",
      "GET /api/quota",
      "GET /api/user/searches",
    ]) {
      expect({ call, ok: (answers.find((a) => a.call === call)?.status ?? 0) < 300 }).toEqual({ call, ok: true });
    }
    expect(answers.filter((a) => a.status >= 400).length).toBeGreaterThan(5);
    expect(answers.filter((a) => !a.cacheControl?.includes("no-store"))).toEqual([]);
    // Answers no route gives: signed out, unreadable JSON, an unknown call, a cross-site request.
    const anonymous = createAgent(app);
    for (const answer of [
      await anonymous.request("GET", "/api/auth/user"),
      await anonymous.request("POST", "/api/login", "{not json"),
      await anonymous.request("GET", "/api/no-such-call"),
      await anonymous.request("POST", "/api/tokens", { name: "x" }, { origin: "https://evil.example" }),
    ]) {
      expect({ status: answer.status, cacheControl: answer.headers.get("cache-control") }).toEqual({ status: expect.any(Number), cacheControl: "no-store" });
    }
  }, 60_000);

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
    for (const source of sources.filter((s) => s.startsWith("/")))
      expect({ source, status: (await visitor.request("GET", source)).status }).toEqual({ source, status: 200 });
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

  test("behind one trusted proxy, X-Forwarded-Host and -Proto are the proxy's entries (the rightmost), not what the client put before them", async () => {
    const { app } = await createTestApp(getDb());
    const login = { username: "nobody-here", password: "whatever1" };
    // The client names a host of its choosing; the proxy appends the one the browser really used.
    const forged = await createAgent(app).request("POST", "/api/login", login, {
      origin: "https://evil.example",
      "x-forwarded-host": "evil.example, app.example.com",
    });
    expect({ status: forged.status, json: forged.json }).toEqual({ status: 403, json: { code: "CSRF", message: CROSS_ORIGIN_MESSAGE } });
    const real = await createAgent(app).request("POST", "/api/login", login, {
      origin: "https://app.example.com",
      "x-forwarded-host": "evil.example, app.example.com",
    });
    expect(real.status).toBe(401);
    // The client claims https; the proxy says the browser came over http: no Secure cookies, no HSTS.
    const claimed = await createAgent(app).request("POST", "/api/register", newAccount(), { "x-forwarded-proto": "https, http" });
    expect(claimed.status).toBe(201);
    expect(claimed.headers.get("strict-transport-security")).toBeNull();
    expect(claimed.headers.getSetCookie().filter((cookie) => cookie.toLowerCase().includes("secure"))).toEqual([]);
    const secure = await createAgent(app).request("GET", "/", undefined, { "x-forwarded-proto": "http, https" });
    expect(secure.headers.get("strict-transport-security")).not.toBeNull();
    for (const cookie of secure.headers.getSetCookie()) expect(cookie.toLowerCase()).toContain("secure");
  });

  test("behind two trusted proxies, the entries are read two from the right; a header with one entry (a proxy that replaces it) is that entry", async () => {
    const { app } = await createTestApp(getDb(), { env: { TRUST_PROXY: "2" } });
    const login = { username: "nobody-here", password: "whatever1" };
    const as = (headers: Record<string, string>) =>
      createAgent(app, { ip: null }).request("POST", "/api/login", login, { "x-forwarded-for": "203.0.113.9, 10.0.0.2", ...headers });
    expect((await as({ origin: "https://evil.example", "x-forwarded-host": "evil.example, app.example.com, internal:8080" })).status).toBe(403);
    expect((await as({ origin: "https://app.example.com", "x-forwarded-host": "evil.example, app.example.com, internal:8080" })).status).toBe(401);
    expect((await as({ origin: "https://app.example.com", "x-forwarded-host": "app.example.com" })).status).toBe(401);
  });

  test("with live Stripe the pages let in Stripe.js, its frames and its API, and nothing else of Stripe's", async () => {
    const { app, stripe } = await createTestApp(getDb());
    const { app: live } = await createTestApp(getDb(), {
      stripe,
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_PUBLISHABLE_KEY: stripe.publishableKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_PRICE_ID: stripe.priceId,
        STRIPE_API_BASE: stripe.apiBase,
      },
    });
    expect((await createAgent(app).request("GET", "/checkout")).headers.get("content-security-policy")).not.toContain("stripe.com");
    const csp = (await createAgent(live).request("GET", "/checkout")).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self' 'nonce-");
    expect(csp).toContain("https://js.stripe.com");
    expect(csp).toContain("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(csp).toContain("connect-src 'self' https://api.stripe.com");
  });
});
