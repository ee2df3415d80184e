import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { dailyUsage } from "#db/schema.ts";
import { DAILY_LIMIT_MESSAGE, PRO_REQUIRED, QUOTA_COOKIE, readQuotaCookie, utcDay } from "#src/contract/quota.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { SearchStreamEvent } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import type { SearchEventWire } from "#src/contract/search-events.ts";
import { createInstance } from "#src/server/instance.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { createProAgent, grantPro, newAccount, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { waitFor } from "#tests/support/wait.ts";
import { createTestApp, useSimulatedDatabase } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

type Agent = ReturnType<typeof createAgent>;
type Answer = Awaited<ReturnType<Agent["request"]>>;

/** What a search answer says about the quota, in its three places. */
function quotaOf(answer: Answer) {
  const cookie = answer.headers.getSetCookie().find((h) => h.startsWith(`${QUOTA_COOKIE}=`));
  return {
    status: answer.status,
    header: answer.headers.get("x-searches-remaining"),
    body: (answer.json as { remainingSearches?: number } | undefined)?.remainingSearches,
    cookie: cookie === undefined ? undefined : readQuotaCookie(cookie.split(";")[0] ?? "", utcDay()).count,
  };
}

const search = (agent: Agent, body: Record<string, unknown> = { query: "best running shoes" }) => agent.request("POST", "/api/search", body);

describeEachDatabase("quota: free daily searches", (getDb) => {
  test("an anonymous visitor gets 5 searches a day; header, body and cookie count down together; the 6th is 429 with the spec text", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    expect(await visitor.api.quota()).toEqual({ isPro: false, day: utcDay(), used: 0, limit: 5, remaining: 5 });
    for (let used = 1; used <= 5; used++) {
      const answer = await search(visitor);
      expect(quotaOf(answer)).toEqual({ status: 200, header: String(5 - used), body: 5 - used, cookie: used });
    }
    const sixth = await search(visitor);
    expect(quotaOf(sixth)).toEqual({ status: 429, header: "0", body: 0, cookie: 5 });
    expect(sixth.json).toEqual({ code: "DAILY_LIMIT_REACHED", message: DAILY_LIMIT_MESSAGE, remainingSearches: 0 });
    expect(await visitor.api.quota()).toMatchObject({ used: 5, remaining: 0 });

    // The cookie is the spec's display cookie: readable by scripts, 2 days, whole site.
    const raw =
      sixth.headers
        .getSetCookie()
        .find((h) => h.startsWith(`${QUOTA_COOKIE}=`))
        ?.toLowerCase() ?? "";
    expect(raw).not.toContain("httponly");
    expect(raw).toContain("max-age=172800");
    expect(raw).toContain("path=/");
    expect(readQuotaCookie([...visitor.jar].map(([k, val]) => `${k}=${val}`).join("; "))).toEqual({ date: utcDay(), count: 5 });
  });

  test("clearing cookies does not reset it on a network whose pool is used (ADR 015), editing the display cookie does not either, and another address is not affected", async () => {
    // The network's pool at 5: the one visitor uses it all.
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_DAILY_SEARCHES: "5" } });
    const ip = "203.0.113.10";
    const visitor = createAgent(app, { ip });
    for (let i = 0; i < 5; i++) expect((await search(visitor)).status).toBe(200);

    visitor.jar.set(QUOTA_COOKIE, encodeURIComponent(JSON.stringify({ date: utcDay(), count: 0 })));
    expect((await search(visitor)).status).toBe(429);

    const clearedCookies = createAgent(app, { ip });
    const again = await search(clearedCookies);
    expect(quotaOf(again)).toEqual({ status: 429, header: "0", body: 0, cookie: 5 });
    expect(again.json).toEqual({ code: "DAILY_LIMIT_REACHED", message: DAILY_LIMIT_MESSAGE, remainingSearches: 0 });

    const elsewhere = createAgent(app, { ip: "203.0.113.11" });
    expect(quotaOf(await search(elsewhere))).toMatchObject({ status: 200, body: 4 });

    // The same browser on another network is still the same visitor.
    const movedJar = createAgent(app, { ip: "203.0.113.12" });
    for (const [k, val] of visitor.jar) movedJar.jar.set(k, val);
    expect((await search(movedJar)).status).toBe(429);
  });

  test("a page rendered on the server reads the quota as the visitor, from their address", async () => {
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_DAILY_SEARCHES: "5" } });
    const ip = "203.0.113.20";
    const visitor = createAgent(app, { ip });
    for (let i = 0; i < 4; i++) await search(visitor);
    expect((await visitor.request("GET", "/")).text).toContain(`"used":4,"limit":5,"remaining":1`);
    await search(visitor);
    // A fresh browser on the same network, whose pool is used: the home page's prefetched quota already says 0 left.
    const page = await createAgent(app, { ip }).request("GET", "/");
    expect(page.text).toContain(`"used":5,"limit":5,"remaining":0`);
    expect((await createAgent(app).request("GET", "/")).text).toContain(`"used":0,"limit":5,"remaining":5`);
  });

  test("the address is stored only as a keyed hash", async () => {
    const { app } = await createTestApp(getDb());
    await search(createAgent(app, { ip: "192.0.2.77" }));
    const rows = await getDb().db.select().from(dailyUsage);
    expect(rows.some((r) => r.subjectKind === "ip")).toBe(true);
    for (const row of rows) expect(row.subjectKey).not.toContain("192.0.2.77");
  });

  test("a free caller asking for more than 1 iteration is refused 403 even when calling the API directly, and it costs nothing", async () => {
    const { app } = await createTestApp(getDb());
    const anonymous = createAgent(app);
    const signedIn = createAgent(app);
    await signedIn.api.register(newAccount());
    for (const visitor of [anonymous, signedIn]) {
      for (const body of [
        { query: "best crm", iterations: 5 },
        { query: "best crm", options: { iterations: 5 } },
        { query: "best crm", iterations: "2" },
      ]) {
        const answer = await search(visitor, body);
        expect(quotaOf(answer)).toEqual({ status: 403, header: "5", body: 5, cookie: 0 });
        expect(answer.json).toEqual({ code: "PRO_REQUIRED", message: PRO_REQUIRED, remainingSearches: 5 });
      }
      const stream = await visitor.request("POST", "/api/search/stream", { query: "best crm", iterations: 10 });
      expect(stream.status).toBe(403);
      expect(stream.json).toEqual({ code: "PRO_REQUIRED", message: PRO_REQUIRED, remainingSearches: 5 });
      expect(quotaOf(await search(visitor, { query: "best crm", iterations: 1 }))).toMatchObject({ status: 200, body: 4 });
    }
  });

  test("the costliest provider options are Pro: a free caller asking for them is refused 403 naming the option, and it costs nothing; Pro gets them sent to the providers", async () => {
    const sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
    try {
      const { app } = await createTestApp(getDb(), { simulator: sim });
      const signedIn = createAgent(app);
      await signedIn.api.register(newAccount());
      for (const visitor of [createAgent(app), signedIn]) {
        for (const [options, message] of [
          [{ anthropicMaxUses: 20 }, "Pro subscription required for anthropicMaxUses above 5"],
          [{ anthropicMaxUses: 6 }, "Pro subscription required for anthropicMaxUses above 5"],
          [{ openaiContextSize: "high" }, 'Pro subscription required for openaiContextSize "high"'],
        ] as const) {
          const answer = await search(visitor, { query: "best crm", options });
          expect(quotaOf(answer)).toEqual({ status: 403, header: "5", body: 5, cookie: 0 });
          expect(answer.json).toEqual({ code: "PRO_REQUIRED", message, remainingSearches: 5 });
          const stream = await visitor.request("POST", "/api/search/stream", { query: "best crm", options });
          expect({ status: stream.status, json: stream.json }).toEqual({ status: 403, json: { code: "PRO_REQUIRED", message, remainingSearches: 5 } });
        }
        // What a default search spends stays free.
        expect(quotaOf(await search(visitor, { query: "best crm", options: { anthropicMaxUses: 5, openaiContextSize: "medium" } }))).toMatchObject({
          status: 200,
          body: 4,
        });
      }
      expect(
        sim.requests.filter((request) => request.kind === "search" && JSON.stringify(request.body).match(/"max_uses":20|"search_context_size":"high"/)),
      ).toEqual([]);

      const { agent: pro } = await createProAgent(app, getDb());
      expect((await search(pro, { query: "best standing desk", options: { anthropicMaxUses: 20, openaiContextSize: "high" } })).status).toBe(200);
      const sent = sim.requests.filter((request) => request.kind === "search").map((request) => JSON.stringify(request.body));
      expect(sent.some((body) => body.includes('"max_uses":20'))).toBe(true);
      expect(sent.some((body) => body.includes('"search_context_size":"high"'))).toBe(true);
    } finally {
      await sim.stop();
    }
  });

  test("a Pro user may run 5 iterations, is never counted, and gets no quota header, body field or cookie", async () => {
    const { app } = await createTestApp(getDb());
    const { agent: pro, account } = await createProAgent(app, getDb());
    const answer = await search(pro, { query: "best standing desk", iterations: 5 });
    expect(answer.status).toBe(200);
    expect((answer.json as { iterationCount: number }).iterationCount).toBe(5);
    expect(quotaOf(answer)).toEqual({ status: 200, header: null, body: undefined, cookie: undefined });
    for (let i = 0; i < 6; i++) expect((await search(pro)).status).toBe(200);
    expect(await getDb().db.select().from(dailyUsage).where(eq(dailyUsage.subjectKey, account.id))).toEqual([]);
    expect(await pro.api.quota()).toEqual({ isPro: true, day: utcDay(), used: null, limit: null, remaining: null });
  });

  test("Pro iterations are 1, 5, 10, 25, 50 or 100: anything else is 400", async () => {
    const { app } = await createTestApp(getDb());
    const { agent: pro } = await createProAgent(app, getDb());
    for (const iterations of [2, 3, 7, 99]) {
      const answer = await search(pro, { query: "best crm", iterations });
      expect({ iterations, status: answer.status, json: answer.json }).toEqual({
        iterations,
        status: 400,
        json: { code: "INVALID_INPUT", message: "Iterations must be one of 1, 5, 10, 25, 50 or 100" },
      });
    }
  });

  test("a signed-in free user is counted per account, wherever they search from", async () => {
    const { app } = await createTestApp(getDb());
    const phone = createAgent(app, { ip: "198.51.100.1" });
    const account = await signUp(phone, getDb());
    for (let i = 0; i < 5; i++) expect((await search(phone)).status).toBe(200);
    expect(quotaOf(await search(phone))).toMatchObject({ status: 429, body: 0 });
    const laptop = createAgent(app, { ip: "198.51.100.2" });
    await laptop.api.login(account);
    expect((await search(laptop)).status).toBe(429);
    // Upgrading lifts the limit at once.
    await grantPro(getDb(), account.id);
    expect(quotaOf(await search(laptop))).toEqual({ status: 200, header: null, body: undefined, cookie: undefined });
  });

  test("registering does not start the day over: the anonymous searches count against the new account", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    for (let i = 0; i < 5; i++) expect((await search(visitor)).status).toBe(200);
    await visitor.api.register(newAccount());
    expect(quotaOf(await search(visitor))).toMatchObject({ status: 429, body: 0 });
    expect(await visitor.api.quota()).toMatchObject({ used: 5, remaining: 0 });
  });

  test("searches run at the same moment cannot overdraw the day: exactly 5 of 8 go through, for one visitor and for a network's pool", async () => {
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_DAILY_SEARCHES: "5" } });
    const visitor = createAgent(app);
    const own = await Promise.all(Array.from({ length: 8 }, () => search(visitor)));
    expect(own.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect((await visitor.api.quota()).remaining).toBe(0);
    // Different browsers on one network, all at once.
    const ip = "203.0.113.99";
    const answers = await Promise.all(Array.from({ length: 8 }, () => search(createAgent(app, { ip }))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect((await createAgent(app, { ip }).api.quota()).remaining).toBe(0);
  });

  test("the count is per UTC day: the next day starts at 5 again", async () => {
    let now = new Date("2030-01-01T23:59:00Z");
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const visitor = createAgent(app);
    for (let i = 0; i < 5; i++) await search(visitor);
    expect((await search(visitor)).status).toBe(429);
    now = new Date("2030-01-02T00:00:30Z");
    const answer = await search(visitor);
    expect(quotaOf(answer)).toMatchObject({ status: 200, body: 4 });
    const cookie =
      answer.headers
        .getSetCookie()
        .find((h) => h.startsWith(`${QUOTA_COOKIE}=`))
        ?.split(";")[0] ?? "";
    expect(readQuotaCookie(cookie, "2030-01-02")).toEqual({ date: "2030-01-02", count: 1 });
    // A client reading yesterday's cookie today sees a fresh day (spec §9).
    expect(readQuotaCookie(cookie, "2030-01-03")).toEqual({ date: "2030-01-03", count: 0 });
  });
});

describe("quota: searches that produce nothing are given back", () => {
  const fx = useSimulatedDatabase();

  test("a search where every provider fails (502) does not count", async () => {
    const { app } = await createTestApp(fx.db, { simulator: fx.sim });
    const visitor = createAgent(app);
    expect(quotaOf(await search(visitor))).toMatchObject({ status: 200, body: 4 });
    for (const id of providerIds) fx.sim.setFaults(id, [{ kind: "server_error" }], { persistent: true });
    try {
      const failed = await search(visitor);
      expect(quotaOf(failed)).toEqual({ status: 502, header: "4", body: 4, cookie: 1 });
      // The stream's error event is thrown as the same ApiError the plain call gives.
      const streamed = await (async () => {
        for await (const _ of visitor.api.searchStream({ query: "best mattress" }));
      })().catch((error: unknown) => error);
      expect(streamed).toBeInstanceOf(ApiError);
      const { status, code, remainingSearches } = streamed as ApiError;
      expect({ status, code, remainingSearches }).toEqual({ status: 502, code: "PROVIDERS_FAILED", remainingSearches: 4 });
    } finally {
      fx.sim.clearFaults();
    }
    expect(await visitor.api.quota()).toMatchObject({ used: 1, remaining: 4 });
  });

  test("a search with one provider failing still counts (it produced a result)", async () => {
    const { app } = await createTestApp(fx.db, { simulator: fx.sim });
    const visitor = createAgent(app);
    fx.sim.setFaults("openai", [{ kind: "server_error" }], { persistent: true });
    try {
      expect(quotaOf(await search(visitor))).toMatchObject({ status: 200, body: 4 });
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("the stream reports the count in started, done and its headers", async () => {
    const { app } = await createTestApp(fx.db, { simulator: fx.sim });
    const visitor = createAgent(app);
    const response = await visitor.fetch("http://localhost/api/search/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "best crm" }),
    });
    expect(response.headers.get("x-searches-remaining")).toBe("4");
    const text = await response.text();
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => JSON.parse(line.slice(5)) as SearchEventWire);
    expect(events[0]).toMatchObject({ type: "started", remainingSearches: 4 });
    expect(events.at(-1)).toMatchObject({ type: "done", result: { remainingSearches: 4 } });
    expect(await visitor.api.quota()).toMatchObject({ used: 1 });
  });

  test("a cancelled search is given back; a stream closed after a provider answered is not", async () => {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 10_000 } });
    try {
      const { app } = await createTestApp(fx.db, { simulator: slow });
      const visitor = createAgent(app);
      await visitor.api.status();
      const pending = search(visitor);
      await waitFor(() => slow.requests.length === providerIds.length);
      await visitor.api.cancelSearch();
      expect(quotaOf(await pending)).toEqual({ status: 409, header: "5", body: 5, cookie: 0 });
    } finally {
      slow.stop();
    }

    // OpenAI answers, the others hang: the caller has seen a result when the stream is closed.
    const hung = providerIds.filter((id) => id !== "openai");
    for (const id of hung) fx.sim.setFaults(id, [{ kind: "timeout" }], { persistent: true });
    try {
      const instance = createInstance(fx.db);
      const { app } = await createTestApp(fx.db, { simulator: fx.sim, instance });
      const visitor = createAgent(app);
      const controller = new AbortController();
      const seen: SearchStreamEvent[] = [];
      for await (const event of visitor.api.searchStream({ query: "best vpn" }, controller.signal)) {
        seen.push(event);
        if (event.type === "result" && event.result.status === "ok") break;
      }
      controller.abort();
      expect(seen.at(-1)).toMatchObject({ type: "result", provider: "openai" });
      await waitFor(() => fx.sim.aborts.length >= hung.length);
      // A drain returns once no search runs here: the cancelled one has been saved and its charge settled.
      expect(await instance.drain(60_000)).toMatchObject({ interrupted: 0 });
      expect(await visitor.api.quota()).toMatchObject({ used: 1 });
    } finally {
      fx.sim.clearFaults();
    }
  });
});
