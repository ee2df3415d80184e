import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { apiTokens } from "#db/schema.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import { createApiClient } from "#src/client/api.ts";
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
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => script.request(method, path, body, { authorization: `Bearer ${token.token}`, ...headers });
    return { app, browser, account, token, call };
  }

  test("a token is shown once, kept only as a hash, listed by its first characters, and stands for its user", async () => {
    const { browser, account, token, call } = await withToken();
    expect(token.token).toMatch(/^aisc_[A-Za-z0-9_-]{43}$/);
    expect(token.token.startsWith(token.prefix)).toBe(true);
    const listed = (await browser.request("GET", "/api/tokens")).json as { tokens: Array<Record<string, unknown>> };
    expect(listed.tokens).toEqual([{ id: token.id, name: "laptop", prefix: token.prefix, createdAt: token.createdAt, lastUsedAt: null }]);
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
      expect({ path, status: answer.status, body: answer.json }).toEqual({ path, status: 401, body: { message: "Invalid or revoked token" } });
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
    expect(proxied.json).not.toEqual({ message: "Invalid or revoked token" });
    // On the API the same header is a token, and a wrong one is a 401.
    expect((await browser.request("GET", "/api/auth/user", undefined, { authorization: "Bearer pk_test_simulated" })).status).toBe(401);
  });

  test("the typed client with a token header is how the CLI talks to the server", async () => {
    const { app, token } = await withToken();
    const client = createApiClient({ baseUrl: BASE, headers: { authorization: `Bearer ${token.token}` }, fetch: ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch });
    expect((await client.currentUser())?.username).toBeString();
    const { result, remainingSearches } = await client.search({ query: "best vpn" });
    expect(result.id).toBeString();
    expect(remainingSearches).toBe(4);
  });
});
