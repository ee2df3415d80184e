import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import * as v from "valibot";
import { searches, users } from "#db/schema.ts";
import { Login, Register, RegisterForm } from "#src/contract/auth.ts";
import { jwt } from "@elysiajs/jwt";
import { grantPro, newAccount, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { BASE, createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

const DAY_MS = 24 * 3600 * 1000;

/** The Set-Cookie header for one cookie, lower-cased for attribute checks. */
function setCookie(headers: Headers, name: string): string | undefined {
  return headers
    .getSetCookie()
    .find((h) => h.startsWith(`${name}=`))
    ?.toLowerCase();
}

describeEachDatabase("auth: accounts and sessions", (getDb) => {
  test("register signs the visitor in: 201 with the user, an httpOnly Lax session cookie for 30 days, then /api/auth/user answers", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    expect(await visitor.api.currentUser()).toBeNull();
    const account = newAccount();
    const response = await visitor.request("POST", "/api/register", account);
    expect(response.status).toBe(201);
    const user = { username: account.username, firstName: account.username, lastName: "", email: account.email, profileImageUrl: null };
    expect(response.json).toEqual(user);
    const cookie = setCookie(response.headers, "session");
    expect(cookie).toContain("httponly");
    expect(cookie).toContain("samesite=lax");
    expect(cookie).toContain("path=/");
    expect(cookie).toContain("max-age=2592000");
    expect(cookie).not.toContain("secure");
    expect(await visitor.api.currentUser()).toEqual(user);
    expect(await visitor.api.proStatus()).toEqual({ isPro: false });
    // Only a hash of the password is stored, and it is argon2id.
    const [row] = await getDb().db.select().from(users).where(eq(users.username, account.username));
    expect(row?.passwordHash).toStartWith("$argon2id$");
    expect(row?.passwordHash).not.toContain(account.password);
  });

  test("the session cookie is Secure when the browser came over https (directly, or through a trusted proxy)", async () => {
    const { app } = await createTestApp(getDb());
    const direct = await createAgent(app).fetch(`https://localhost/api/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(newAccount()),
    });
    expect(direct.status).toBe(201);
    expect(setCookie(direct.headers, "session")).toContain("secure");
    const proxied = await createAgent(app).request("POST", "/api/register", newAccount(), { "x-forwarded-proto": "https" });
    expect(setCookie(proxied.headers, "session")).toContain("secure");
  });

  test("a username is unique in any letter case: 409 saying so, and nothing about the email", async () => {
    const { app } = await createTestApp(getDb());
    const first = newAccount();
    await createAgent(app).api.register(first);
    const sameName = await createAgent(app).request("POST", "/api/register", newAccount({ username: first.username.toUpperCase() }));
    expect(sameName.status).toBe(409);
    expect(sameName.json).toEqual({ code: "ACCOUNT_EXISTS", message: "Username is already taken" });
    const both = await createAgent(app).request("POST", "/api/register", { ...first, password: "another password" });
    expect(both.status).toBe(409);
    expect(both.json).toEqual({ code: "ACCOUNT_EXISTS", message: "Username is already taken" });
    // A refused registration signs nobody in.
    expect(setCookie(sameName.headers, "session")).toBeUndefined();
  });

  test("an email another account gives is answered like a free one (nothing proves whose it is): both accounts work, each signs in with its own username", async () => {
    const { app } = await createTestApp(getDb());
    const first = newAccount();
    await createAgent(app).api.register(first);
    const second = newAccount({ email: first.email.toUpperCase() });
    const visitor = createAgent(app);
    const answer = await visitor.request("POST", "/api/register", second);
    expect(answer.status).toBe(201);
    expect(answer.json).toMatchObject({ username: second.username, email: second.email });
    expect((await visitor.api.currentUser())?.username).toBe(second.username);
    for (const account of [first, second]) expect((await createAgent(app).api.login(account)).username).toBe(account.username);
  });

  test("two registrations of one username at the same moment: one account, the other gets 409", async () => {
    const { app } = await createTestApp(getDb());
    const account = newAccount();
    const results = await Promise.all([
      createAgent(app).request("POST", "/api/register", account),
      createAgent(app).request("POST", "/api/register", { ...account, username: account.username.toUpperCase(), email: `other.${account.email}` }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  test("login works in any letter case; a wrong password and an unknown user get the same 401 message", async () => {
    const { app } = await createTestApp(getDb());
    const account = newAccount();
    await createAgent(app).api.register(account);

    const visitor = createAgent(app);
    const wrong = await visitor.request("POST", "/api/login", { username: account.username, password: "not the password" });
    const unknown = await visitor.request("POST", "/api/login", { username: "nobody-here", password: account.password });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json).toEqual({ code: "INVALID_LOGIN", message: "Invalid username or password" });
    expect(unknown.json).toEqual(wrong.json);
    expect(setCookie(wrong.headers, "session")).toBeUndefined();

    const ok = await visitor.request("POST", "/api/login", { username: account.username.toUpperCase(), password: account.password });
    expect(ok.status).toBe(200);
    expect((ok.json as { email: string }).email).toBe(account.email);
    expect((await visitor.api.currentUser())?.username).toBe(account.username);
  });

  test("logging out revokes the session server-side: a copy of the cookie made before stops working", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const account = newAccount();
    await visitor.api.register(account);
    const laptop = createAgent(app);
    await laptop.api.login(account);
    const token = visitor.jar.get("session");
    expect(token).toBeString();

    const thief = createAgent(app);
    thief.jar.set("session", token ?? "");
    expect((await thief.api.currentUser())?.username).toBe(account.username);

    const out = await visitor.request("POST", "/api/logout");
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ success: true });
    expect(setCookie(out.headers, "session")).toContain("max-age=0");
    expect(visitor.jar.has("session")).toBe(false);
    expect(await visitor.api.currentUser()).toBeNull();

    // The copied token, and the user's other sessions, are refused: 401, not 500, and the cookie is dropped.
    const replay = await thief.request("GET", "/api/auth/user");
    expect(replay.status).toBe(401);
    expect(replay.json).toEqual({ code: "NOT_SIGNED_IN", message: "Not signed in" });
    expect(thief.jar.has("session")).toBe(false);
    expect(await laptop.api.currentUser()).toBeNull();

    // Logging in again works, with a new token.
    await visitor.api.login(account);
    expect((await visitor.api.currentUser())?.username).toBe(account.username);
    expect(visitor.jar.get("session")).not.toBe(token);
  });

  test("a plain form post to /api/logout signs out and goes home (303); GET no longer signs out (405); GET /api/login redirects to /auth; logging out signed out is fine", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    await visitor.api.register(newAccount());

    // A link (or an image, or a prefetch) on any site must not end the sessions.
    const link = await visitor.fetch(`${BASE}/api/logout`);
    expect(link.status).toBe(405);
    expect(link.headers.get("allow")).toContain("POST");
    expect(((await link.json()) as { message: string }).message).toStartWith("Method not allowed");
    expect(await visitor.api.currentUser()).not.toBeNull();

    // The profile page's form without JavaScript.
    const form = await visitor.fetch(`${BASE}/api/logout`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/");
    expect(setCookie(form.headers, "session")).toContain("max-age=0");
    expect(await visitor.api.currentUser()).toBeNull();
    expect((await visitor.request("POST", "/api/logout")).status).toBe(200);

    const login = await visitor.fetch(`${BASE}/api/login`);
    expect(login.status).toBe(302);
    expect(login.headers.get("location")).toBe("/auth");
  });

  test("signed out: /api/auth/user is 401 with a message, /api/pro-status is false", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const me = await visitor.request("GET", "/api/auth/user");
    expect(me.status).toBe(401);
    expect(me.json).toEqual({ code: "NOT_SIGNED_IN", message: "Not signed in" });
    expect(await visitor.api.proStatus()).toEqual({ isPro: false });
  });

  test("/api/pro-status is true with an active or trialing subscription, false with a canceled one", async () => {
    const { app } = await createTestApp(getDb());
    for (const [status, isPro] of [
      ["active", true],
      ["trialing", true],
      ["canceled", false],
      ["past_due", false],
    ] as const) {
      const visitor = createAgent(app);
      const account = await signUp(visitor, getDb());
      await grantPro(getDb(), account.id, status);
      expect({ status, ...(await visitor.api.proStatus()) }).toEqual({ status, isPro });
    }
  });

  test("forged, garbled, foreign-signed and expired session tokens read as signed out, never as an error", async () => {
    let now = new Date();
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const visitor = createAgent(app);
    const account = await signUp(visitor, getDb());
    const good = visitor.jar.get("session") ?? "";
    const [header = "", payload = ""] = good.split(".");
    const foreign = await jwt({ name: "foreign", secret: "another-secret-another-secret-0123456789" }).decorator.foreign.sign({
      sub: account.id,
      ver: 0,
      exp: 9_999_999_999,
    });
    const forgedPayload = Buffer.from(JSON.stringify({ sub: account.id, ver: 0, exp: 9_999_999_999 })).toString("base64url");
    const unsigned = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    for (const token of ["garbage", "a.b.c", `${header}.${forgedPayload}.${good.split(".")[2]}`, `${header}.${payload}.`, unsigned, foreign, "%E0%A4%A"]) {
      const stranger = createAgent(app);
      stranger.jar.set("session", token);
      const me = await stranger.request("GET", "/api/auth/user");
      expect({ token, status: me.status }).toEqual({ token, status: 401 });
      expect((await stranger.request("POST", "/api/search/stream", { query: "" })).status).toBe(400);
    }
    // 30 days later the token has expired.
    now = new Date(now.getTime() + 31 * DAY_MS);
    expect((await visitor.request("GET", "/api/auth/user")).status).toBe(401);
  });

  test("sessions slide: a token older than a day is replaced on use, so an active user stays signed in past 30 days", async () => {
    let now = new Date();
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const visitor = createAgent(app);
    await visitor.api.register(newAccount());
    const first = visitor.jar.get("session");
    // Within the first day: no new cookie.
    now = new Date(now.getTime() + 3600 * 1000);
    const early = await visitor.request("GET", "/api/auth/user");
    expect(setCookie(early.headers, "session")).toBeUndefined();
    // After a day: a fresh 30-day token.
    now = new Date(now.getTime() + 2 * DAY_MS);
    const later = await visitor.request("GET", "/api/auth/user");
    expect(later.status).toBe(200);
    expect(setCookie(later.headers, "session")).toContain("max-age=2592000");
    expect(visitor.jar.get("session")).not.toBe(first);
    // 31 days after the first token, the renewed one still works; the old one does not.
    now = new Date(now.getTime() + 29 * DAY_MS);
    expect((await visitor.request("GET", "/api/auth/user")).status).toBe(200);
    const stale = createAgent(app);
    stale.jar.set("session", first ?? "");
    expect((await stale.request("GET", "/api/auth/user")).status).toBe(401);
  });

  test("wrong passwords slow down one username on one network only: after 5 the waits double, another network still signs in, the right password clears the count", async () => {
    let now = new Date();
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const account = newAccount();
    await createAgent(app).api.register(account);
    const attacker = (ip: string) => createAgent(app, { ip });
    // Five wrong guesses from one network (IPv6 addresses in one /64 are one network).
    for (let i = 1; i <= 5; i++) {
      const attempt = await attacker(`2001:db8:7:1::${i}`).request("POST", "/api/login", { username: account.username, password: `wrong ${i}` });
      expect({ i, status: attempt.status }).toEqual({ i, status: 401 });
    }
    // The sixth from there waits a second, even with the right password.
    const held = await attacker("2001:db8:7:1::99").request("POST", "/api/login", { username: account.username.toUpperCase(), password: account.password });
    expect(held.status).toBe(429);
    expect(held.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many login attempts. Please try again in 1 second." });
    expect(held.headers.get("retry-after")).toBe("1");
    expect(setCookie(held.headers, "session")).toBeUndefined();
    // The owner, elsewhere, is not locked out.
    expect((await createAgent(app, { ip: "198.51.100.20" }).request("POST", "/api/login", account)).status).toBe(200);
    // Each further wrong guess doubles the wait: 1 s, 2 s, 4 s, 8 s.
    for (const wait of [1, 2, 4, 8]) {
      now = new Date(now.getTime() + wait * 1000);
      expect((await attacker("2001:db8:7:1::5").request("POST", "/api/login", { username: account.username, password: "still wrong" })).status).toBe(401);
    }
    const longer = await attacker("2001:db8:7:1::5").request("POST", "/api/login", account);
    expect(longer.status).toBe(429);
    expect(longer.headers.get("retry-after")).toBe("16");
    // After the wait the right password works, and clears the count.
    now = new Date(now.getTime() + 16_000);
    expect((await attacker("2001:db8:7:1::5").request("POST", "/api/login", account)).status).toBe(200);
    expect((await attacker("2001:db8:7:1::5").request("POST", "/api/login", { username: account.username, password: "typo" })).status).toBe(401);
    expect((await attacker("2001:db8:7:1::5").request("POST", "/api/login", account)).status).toBe(200);
  });

  test("one network gets 30 login attempts a minute over all usernames; another network is not affected", async () => {
    let now = new Date();
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const account = newAccount();
    await createAgent(app).api.register(account);
    // Spraying one password over many usernames from one /64.
    for (let i = 1; i <= 30; i++) {
      const sprayer = createAgent(app, { ip: `2001:db8:1:2::${i.toString(16)}` });
      expect((await sprayer.request("POST", "/api/login", { username: `guess${i}`, password: "123456" })).status).toBe(401);
    }
    const capped = await createAgent(app, { ip: "2001:db8:1:2:ffff::9" }).request("POST", "/api/login", account);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await createAgent(app, { ip: "198.51.100.7" }).request("POST", "/api/login", account)).status).toBe(200);
    expect((await createAgent(app, { ip: "2001:db8:1:3::1" }).request("POST", "/api/login", account)).status).toBe(200);
    now = new Date(now.getTime() + 61_000);
    expect((await createAgent(app, { ip: "2001:db8:1:2::1" }).request("POST", "/api/login", account)).status).toBe(200);
  }, 60_000);

  test("searches made anonymously are adopted by the account on register, and on login", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const { result: before } = await visitor.api.search({ query: "best running shoes" });
    const stranger = createAgent(app);
    const { result: theirs } = await stranger.api.search({ query: "best trail shoes" });
    const account = newAccount();
    await visitor.api.register(account);
    expect((await visitor.api.listSearches()).searches.map((s) => s.id)).toEqual([before.id]);
    expect((await visitor.api.getSearch(before.id)).query).toBe("best running shoes");
    const [row] = await getDb().db.select().from(searches).where(eq(searches.id, theirs.id));
    expect(row?.userId).toBeNull();

    // Signed out again, the browser is anonymous with an empty history; its next searches join on login.
    await visitor.api.logout();
    expect((await visitor.api.listSearches()).searches).toEqual([]);
    const { result: later } = await visitor.api.search({ query: "best hiking boots" });
    await visitor.api.login(account);
    expect((await visitor.api.listSearches()).searches.map((s) => s.id)).toEqual([later.id, before.id]);
    // Another browser's anonymous searches join only when that browser signs in to the account.
    await stranger.api.login(account);
    expect((await stranger.api.listSearches()).searches.map((s) => s.id).sort()).toEqual([later.id, before.id, theirs.id].sort());
  });

  test("every bad body to the auth calls is a 4xx with the spec's message, never a 500", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const good = newAccount();
    const cases: Array<[string, unknown, number, string?]> = [
      ["/api/register", undefined, 400],
      ["/api/register", "{not json", 400, "The request body is not valid JSON"],
      ["/api/register", [], 400],
      ["/api/register", "text", 400],
      ["/api/register", {}, 400],
      ["/api/register", { ...good, username: "ab" }, 400, "Username must be at least 3 characters"],
      ["/api/register", { ...good, username: "   ab   " }, 400, "Username must be at least 3 characters"],
      ["/api/register", { ...good, username: "x".repeat(51) }, 400, "Username must be at most 50 characters"],
      ["/api/register", { ...good, username: 42 }, 400, "Username must be at least 3 characters"],
      ["/api/register", { ...good, email: "not-an-email" }, 400, "Please enter a valid email"],
      ["/api/register", { ...good, email: null }, 400, "Please enter a valid email"],
      ["/api/register", { ...good, password: "short" }, 400, "Password must be at least 8 characters"],
      ["/api/register", { ...good, password: "x".repeat(129) }, 400, "Password must be at most 128 characters"],
      ["/api/login", undefined, 400],
      ["/api/login", "{", 400],
      ["/api/login", {}, 400],
      ["/api/login", { username: "ab", password: "whatever" }, 400, "Username is required"],
      ["/api/login", { username: "someone", password: "" }, 400, "Password is required"],
      ["/api/login", { username: "someone" }, 400, "Password is required"],
      ["/api/login", { username: ["a", "b", "c"], password: "x" }, 400, "Username is required"],
    ];
    for (const [path, body, status, message] of cases) {
      const response = await visitor.request("POST", path, body);
      const json = response.json as { message?: unknown } | undefined;
      expect({ path, body, status: response.status, hasMessage: typeof json?.message === "string" }).toEqual({ path, body, status, hasMessage: true });
      if (message) expect({ path, body, message: json?.message }).toEqual({ path, body, message });
    }
    expect((await visitor.request("GET", "/api/auth/user")).status).toBe(401);
  });

  test("the API reference documents the auth and quota calls", async () => {
    const { app } = await createTestApp(getDb());
    const spec = (await createAgent(app).request("GET", "/api/docs/json")).json as { paths: Record<string, unknown> };
    for (const path of ["/api/register", "/api/login", "/api/logout", "/api/auth/user", "/api/pro-status", "/api/quota"])
      expect(Object.keys(spec.paths)).toContain(path);
  });

  test("every documented call declares what it answers: a schema for each success, or a redirect", async () => {
    const { app } = await createTestApp(getDb());
    type Operation = { responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }> };
    const spec = (await createAgent(app).request("GET", "/api/docs/json")).json as { paths: Record<string, Record<string, Operation>> };
    const undeclared = Object.entries(spec.paths).flatMap(([path, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const answers = Object.entries(operation.responses ?? {});
        const declared = answers.some(
          ([status, answer]) =>
            status.startsWith("3") ||
            (status.startsWith("2") && Object.values(answer.content ?? {}).some((media) => Object.keys(media.schema ?? {}).length > 0)),
        );
        return declared ? [] : [`${method.toUpperCase()} ${path}`];
      }),
    );
    expect(Object.keys(spec.paths).length).toBeGreaterThan(10);
    expect(undeclared).toEqual([]);
  });
});

describe("auth: cross-site requests", () => {
  test("a state-changing request from another origin is refused 403; same origin and no Origin (curl, CLI) pass; reads are not affected", async () => {
    const { openTestDatabase } = await import("#tests/support/databases.ts");
    const database = await openTestDatabase("pglite");
    try {
      const { app } = await createTestApp(database);
      const visitor = createAgent(app);
      const login = { username: "nobody-here", password: "whatever1" };
      const foreign: Array<Record<string, string>> = [
        { origin: "https://evil.example" },
        { origin: "null" },
        { origin: "http://localhost.evil.example" },
        { "sec-fetch-site": "cross-site" },
        { "sec-fetch-site": "same-site" },
      ];
      for (const headers of foreign) {
        for (const [method, path, body] of [
          ["POST", "/api/login", login],
          ["POST", "/api/register", newAccount()],
          ["POST", "/api/logout", undefined],
          ["POST", "/api/search", { query: "x" }],
          ["DELETE", "/api/search/abc", undefined],
        ] as const) {
          const response = await visitor.request(method, path, body, headers);
          expect({ headers, path, status: response.status, json: response.json }).toEqual({
            headers,
            path,
            status: 403,
            json: { code: "CSRF", message: "Cross-origin request refused" },
          });
        }
      }
      // Nothing happened: no account was created.
      expect((await database.db.select().from(users)).length).toBe(0);

      expect((await visitor.request("POST", "/api/login", login, { origin: BASE, "sec-fetch-site": "same-origin" })).status).toBe(401);
      expect((await visitor.request("POST", "/api/login", login)).status).toBe(401);
      expect((await visitor.request("GET", "/api/pro-status", undefined, { origin: "https://evil.example" })).status).toBe(200);
      // Behind a trusted proxy, the host the browser used is X-Forwarded-Host.
      expect((await visitor.request("POST", "/api/login", login, { origin: "https://app.example.com", "x-forwarded-host": "app.example.com" })).status).toBe(
        401,
      );
    } finally {
      await database.close();
    }
  });
});

describe("auth: form schemas (shared with the web forms)", () => {
  const message = (schema: v.GenericSchema, input: unknown) => {
    const result = v.safeParse(schema, input);
    return result.success ? undefined : { message: result.issues[0].message, path: v.getDotPath(result.issues[0]) };
  };
  test("spec §5 messages, and 'Passwords do not match' reported on confirmPassword", () => {
    const ok = { username: "alice", email: "alice@example.com", password: "password1" };
    expect(message(Register, ok)).toBeUndefined();
    expect(message(Register, { ...ok, username: "al" })).toEqual({ message: "Username must be at least 3 characters", path: "username" });
    expect(message(Register, { ...ok, email: "alice" })).toEqual({ message: "Please enter a valid email", path: "email" });
    expect(message(Register, { ...ok, password: "1234567" })).toEqual({ message: "Password must be at least 8 characters", path: "password" });
    expect(message(RegisterForm, { ...ok, confirmPassword: "password1" })).toBeUndefined();
    expect(message(RegisterForm, { ...ok, confirmPassword: "password2" })).toEqual({ message: "Passwords do not match", path: "confirmPassword" });
    expect(message(Login, { username: "al", password: "x" })).toEqual({ message: "Username is required", path: "username" });
    expect(message(Login, { username: "alice", password: "" })).toEqual({ message: "Password is required", path: "password" });
  });
});
