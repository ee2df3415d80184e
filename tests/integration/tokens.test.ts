import { expect, test } from "bun:test";
import { Elysia } from "elysia";
import { and, eq, isNull } from "drizzle-orm";
import { apiTokens } from "#db/schema.ts";
import { DEFAULT_TOKEN_SCOPES, MAX_LIVE_TOKENS, TokenScope, type CreatedToken } from "#src/contract/tokens.ts";
import { createApiClient } from "#src/client/api.ts";
import { onError } from "#src/server/http/errors.ts";
import { identity } from "#src/server/http/identity.ts";
import { createSigner } from "#src/server/http/signed.ts";
import { forTokens, TOKEN_ACCESS, tokenAccessGuard, type RouteTable } from "#src/server/http/token-access.ts";
import { createTokens } from "#src/server/services/tokens/index.ts";
import { grantPro, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { BASE, createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

describeEachDatabase("personal API tokens", (getDb) => {
  async function withToken() {
    const { app } = await createTestApp(getDb());
    const browser = createAgent(app);
    const account = await signUp(browser, getDb());
    const created = await browser.request("POST", "/api/tokens", { name: "laptop" });
    expect(created.status).toBe(201);
    const token = created.json as CreatedToken;
    // A script: no cookies, the token in the Authorization header, from its own address.
    const script = createAgent(app);
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      script.request(method, path, body, { authorization: `Bearer ${token.token}`, ...headers });
    return { app, browser, account, token, call };
  }

  test("a token is shown once, kept only as a hash, listed by its first characters, and stands for its user", async () => {
    const { browser, account, token, call } = await withToken();
    expect(token.token).toMatch(/^aisc_[A-Za-z0-9_-]{43}$/);
    expect(token.token.startsWith(token.prefix)).toBe(true);
    const listed = (await browser.request("GET", "/api/tokens")).json as { tokens: Array<Record<string, unknown>> };
    expect(listed.tokens).toEqual([
      { id: token.id, name: "laptop", prefix: token.prefix, createdAt: token.createdAt, lastUsedAt: null, scopes: [...DEFAULT_TOKEN_SCOPES] },
    ]);
    const [row] = await getDb().db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row?.tokenHash).not.toContain(token.token);
    expect(JSON.stringify(row)).not.toContain(token.token.slice(10));

    const me = await call("GET", "/api/auth/user");
    expect(me.status).toBe(200);
    expect((me.json as { username: string }).username).toBe(account.username);
    expect(me.headers.getSetCookie()).toEqual([]);
    expect(((await browser.request("GET", "/api/tokens")).json as { tokens: Array<{ lastUsedAt: string | null }> }).tokens[0]?.lastUsedAt).toBeString();
  });

  test("a token carries its user's tier: a free user gets 1 iteration and 5 searches a day, Pro gets more", async () => {
    const { account, call } = await withToken();
    expect((await call("POST", "/api/search", { query: "best crm", iterations: 5 })).status).toBe(403);
    for (let i = 0; i < 5; i++) expect((await call("POST", "/api/search", { query: `best crm ${i}` })).status).toBe(200);
    const sixth = await call("POST", "/api/search", { query: "best crm again" });
    expect(sixth.status).toBe(429);
    expect((sixth.json as { remainingSearches: number }).remainingSearches).toBe(0);

    await grantPro(getDb(), account.id);
    expect((await call("POST", "/api/search", { query: "best crm pro", iterations: 5 })).status).toBe(200);
  });

  test("bearer requests skip the cookie CSRF check; cookie requests from another origin are still refused", async () => {
    const { browser, call } = await withToken();
    const foreign = { origin: "https://evil.example" };
    expect((await call("POST", "/api/cancel-search", undefined, foreign)).status).toBe(200);
    expect((await browser.request("POST", "/api/cancel-search", undefined, foreign)).status).toBe(403);
  });

  test("a revoked, unknown or malformed token is a 401 everywhere, never an anonymous caller; only the owner can revoke", async () => {
    const { app, browser, token, call } = await withToken();
    const stranger = createAgent(app);
    await signUp(stranger, getDb());
    expect((await stranger.request("DELETE", `/api/tokens/${token.id}`)).status).toBe(404);
    expect((await call("GET", "/api/auth/user")).status).toBe(200);

    expect((await browser.request("DELETE", `/api/tokens/${token.id}`)).json).toEqual({ success: true });
    for (const [method, path] of [
      ["GET", "/api/auth/user"],
      ["GET", "/api/status"],
      ["POST", "/api/search"],
    ] as const) {
      const answer = await call(method, path, method === "POST" ? { query: "x" } : undefined);
      expect({ path, status: answer.status, body: answer.json }).toEqual({
        path,
        status: 401,
        body: { code: "NOT_SIGNED_IN", message: "Invalid or revoked token" },
      });
    }
    const anonymous = createAgent(app);
    for (const header of ["Bearer aisc_unknownunknownunknownunknownunknownunknow", "Bearer not-a-token"]) {
      expect((await anonymous.request("GET", "/api/status", undefined, { authorization: header })).status).toBe(401);
    }
    expect(((await browser.request("GET", "/api/tokens")).json as { tokens: unknown[] }).tokens).toEqual([]);
    expect((await createAgent(app).request("POST", "/api/tokens", { name: "x" })).status).toBe(401);
    expect((await browser.request("POST", "/api/tokens", { name: "  " })).status).toBe(400);
  });

  test("outside /api a bearer header is not ours: pages render, and Stripe.js's publishable key reaches the Stripe simulator", async () => {
    const { app } = await createTestApp(getDb());
    const browser = createAgent(app);
    const page = await browser.request("GET", "/", undefined, { authorization: "Bearer pk_test_simulated" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const proxied = await browser.request("GET", "/stripe-sim/v1/prices", undefined, { authorization: "Bearer pk_test_not_ours" });
    expect(proxied.json).not.toEqual({ code: "NOT_SIGNED_IN", message: "Invalid or revoked token" });
    // On the API the same header is a token, and a wrong one is a 401.
    expect((await browser.request("GET", "/api/auth/user", undefined, { authorization: "Bearer pk_test_simulated" })).status).toBe(401);
  });

  test("the typed client with a token header is how the CLI talks to the server", async () => {
    const { app, token } = await withToken();
    const client = createApiClient({
      baseUrl: BASE,
      headers: { authorization: `Bearer ${token.token}` },
      fetch: ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch,
    });
    expect((await client.currentUser())?.username).toBeString();
    const { result, remainingSearches } = await client.search({ query: "best vpn" });
    expect(result.id).toBeString();
    expect(remainingSearches).toBe(4);
  });
  const SESSION_NEEDED = /needs a browser session: an API token cannot manage tokens, billing or the account\. Sign in on the web/;

  test("a token cannot create a token, touch billing or sign the account out: 403 naming why, and nothing changes", async () => {
    const { browser, account, call } = await withToken();
    await grantPro(getDb(), account.id);
    for (const [method, path, body] of [
      ["POST", "/api/tokens", { name: "made by a token" }],
      ["POST", "/api/create-subscription", undefined],
      ["POST", "/api/verify-subscription", { sessionId: "sub_123" }],
      ["GET", "/api/subscription-details", undefined],
      ["POST", "/api/cancel-subscription", { subscriptionId: "sub_123" }],
      ["POST", "/api/resume-subscription", { subscriptionId: "sub_123" }],
      ["POST", "/api/billing-portal", {}],
      ["POST", "/api/logout", undefined],
      ["POST", "/api/register", { username: "newcomer", email: "newcomer@example.com", password: "correct horse battery" }],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
      expect((answer.json as { message: string }).message).toMatch(SESSION_NEEDED);
    }
    // Nothing was made or ended: one token, the browser still signed in, still Pro.
    expect(((await browser.request("GET", "/api/tokens")).json as { tokens: unknown[] }).tokens).toHaveLength(1);
    expect((await browser.api.currentUser())?.username).toBe(account.username);
    expect(await browser.api.proStatus()).toEqual({ isPro: true });
    // The same calls with the browser's session are not refused for want of one.
    expect((await browser.request("POST", "/api/tokens", { name: "made in the browser" })).status).toBe(201);
  });

  test("a token does what the CLI and MCP do: search, history, variants, compare, the brand lens, who am I", async () => {
    const { account, call } = await withToken();
    await grantPro(getDb(), account.id);
    const searched = await call("POST", "/api/search", { query: "best crm" });
    expect(searched.status).toBe(200);
    const id = (searched.json as { id: string }).id;
    for (const [method, path, body] of [
      ["POST", "/api/search/stream", { query: "best crm tools" }],
      ["POST", "/api/cancel-search", undefined],
      ["GET", `/api/search/${id}`, undefined],
      ["GET", "/api/user/searches", undefined],
      ["POST", "/api/generate-variants", { query: "best crm" }],
      ["GET", "/api/variant-batches?query=best%20crm", undefined],
      ["GET", "/api/compare?compareQuery=best%20crm", undefined],
      ["PUT", "/api/user/brand-lens", { brand: { name: "HubSpot", aliases: [], domains: [] }, competitors: [] }],
      ["GET", "/api/user/brand-lens", undefined],
      ["GET", `/api/search/${id}/lens`, undefined],
      ["GET", "/api/auth/user", undefined],
      ["GET", "/api/quota", undefined],
      ["GET", "/api/pro-status", undefined],
      ["GET", "/api/status", undefined],
      ["GET", "/api/tokens", undefined],
    ] as const) {
      const answer = await call(method, path, body);
      expect({ method, path, status: answer.status }).toEqual({ method, path, status: 200 });
    }
  });

  test("a token can revoke itself (aisc logout) but no other token", async () => {
    const { browser, token, call } = await withToken();
    const other = (await browser.request("POST", "/api/tokens", { name: "desktop" })).json as CreatedToken;
    const refused = await call("DELETE", `/api/tokens/${other.id}`);
    expect(refused.status).toBe(403);
    expect((refused.json as { message: string }).message).toContain("only on itself");
    expect((await browser.request("GET", "/api/auth/user", undefined, { authorization: `Bearer ${other.token}` })).status).toBe(200);

    expect((await call("DELETE", `/api/tokens/${token.id}`)).json).toEqual({ success: true });
    expect((await call("GET", "/api/auth/user")).status).toBe(401);
    expect(((await browser.request("GET", "/api/tokens")).json as { tokens: Array<{ id: string }> }).tokens.map((t) => t.id)).toEqual([other.id]);
  });

  test("a token made before scopes (no scopes stored) keeps the default scope, and still cannot make tokens", async () => {
    const { browser, token, call } = await withToken();
    // What the migration leaves on a token that existed before it.
    await getDb().db.update(apiTokens).set({ scopes: null }).where(eq(apiTokens.id, token.id));
    const listed = (await browser.request("GET", "/api/tokens")).json as { tokens: Array<{ scopes: string[] }> };
    expect(listed.tokens[0]?.scopes).toEqual([...DEFAULT_TOKEN_SCOPES]);
    expect((await call("POST", "/api/search", { query: "best crm" })).status).toBe(200);
    expect((await call("GET", "/api/user/searches")).status).toBe(200);
    expect((await call("GET", "/api/auth/user")).status).toBe(200);
    expect((await call("POST", "/api/tokens", { name: "x" })).status).toBe(403);
  });

  test(`at most ${MAX_LIVE_TOKENS} live tokens: the next is refused (409) saying how to free one; revoking one makes room`, async () => {
    const { browser, account } = await withToken();
    for (let i = 2; i <= MAX_LIVE_TOKENS; i++) expect((await browser.request("POST", "/api/tokens", { name: `token ${i}` })).status).toBe(201);
    const over = await browser.request("POST", "/api/tokens", { name: "one too many" });
    expect(over.status).toBe(409);
    expect((over.json as { message: string }).message).toMatch(new RegExp(`${MAX_LIVE_TOKENS} tokens.*revoke one`));
    const live = await getDb()
      .db.select()
      .from(apiTokens)
      .where(and(eq(apiTokens.userId, account.id), isNull(apiTokens.revokedAt)));
    expect(live).toHaveLength(MAX_LIVE_TOKENS);

    const [first] = ((await browser.request("GET", "/api/tokens")).json as { tokens: Array<{ id: string }> }).tokens;
    expect((await browser.request("DELETE", `/api/tokens/${first?.id}`)).status).toBe(200);
    expect((await browser.request("POST", "/api/tokens", { name: "room again" })).status).toBe(201);
  });

  test("every /api route declares what a token needs, and every route that names no scope refuses tokens", async () => {
    const { app, call } = await withToken();
    const scopes = new Set<string>(TokenScope.options);
    const special = new Set(["public", "own-token", "session"]);
    // The reference documents each call's declaration.
    const doc = (await call("GET", "/api/docs/json")).json as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const documented = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith("/api/"))
      .flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, access: operation[TOKEN_ACCESS] })),
      );
    expect(documented.length).toBeGreaterThan(30);
    for (const { method, path, access } of documented)
      expect({ method, path, declared: scopes.has(String(access)) || special.has(String(access)) }).toEqual({ method, path, declared: true });

    // Every route the app has (hidden ones too), not only the documented: a declaration, or a 403 to a token.
    // The reference itself is served before identity is read, to anyone.
    const routes = app.routes.filter((route) => route.path.startsWith("/api/") && !route.path.startsWith("/api/docs"));
    for (const route of routes) {
      const access = (route.hooks.detail as Record<string, unknown> | undefined)?.[TOKEN_ACCESS];
      if (access !== undefined && access !== "session") {
        expect({ route: `${route.method} ${route.path}`, declared: scopes.has(String(access)) || special.has(String(access)) }).toEqual({
          route: `${route.method} ${route.path}`,
          declared: true,
        });
        continue;
      }
      const path = route.path.replace(/:[^/]+/g, crypto.randomUUID());
      const answer = await call(route.method, path, route.method === "GET" ? undefined : {});
      expect({ route: `${route.method} ${route.path}`, status: answer.status }).toEqual({ route: `${route.method} ${route.path}`, status: 403 });
      expect((answer.json as { message: string }).message).toMatch(SESSION_NEEDED);
    }
  });

  test("a route that declares nothing is closed to tokens (deny by default); one that names a scope is open to them", async () => {
    const { token } = await withToken();
    // The product's own identity and guard, on two routes of a small app.
    const who = identity(createSigner("test-secret-test-secret-test-secret-0123"), { tokens: createTokens({ db: getDb().db }) });
    const routes: RouteTable = () => app.routes;
    const app = new Elysia()
      .onError(onError(0))
      .use(tokenAccessGuard(who, routes))
      .get("/api/undeclared", () => ({ ok: true }))
      .get("/api/declared", () => ({ ok: true }), { detail: forTokens("search", { summary: "A route open to search tokens" }) });
    const get = async (path: string) => {
      const response = await app.handle(new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${token.token}` } }));
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    expect(await get("/api/declared")).toEqual({ status: 200, json: { ok: true } });
    const undeclared = await get("/api/undeclared");
    expect(undeclared.status).toBe(403);
    expect(String(undeclared.json.message)).toMatch(SESSION_NEEDED);
    expect((await app.handle(new Request(`${BASE}/api/undeclared`))).status).toBe(200);
  });
});
