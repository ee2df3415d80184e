import { expect, test } from "bun:test";
import { DAILY_LIMIT_MESSAGE } from "#src/contract/quota.ts";
import { USERNAME_TAKEN } from "#src/server/services/auth/accounts.ts";
import { TOO_MANY_REGISTRATIONS } from "#src/server/services/quota/registrations.ts";
import { newAccount, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

// The free tier under abuse (ADR 015): one person on one network cannot farm it by clearing
// cookies or registering accounts, and one heavy user does not lock out the others there.

type Agent = ReturnType<typeof createAgent>;
const DAY_MS = 24 * 60 * 60 * 1000;
const search = (agent: Agent) => agent.request("POST", "/api/search", { query: "best project management tool" });

/** Searches until refused; how many went through. */
async function searchUntilRefused(agent: Agent): Promise<number> {
  let served = 0;
  for (;;) {
    const answer = await search(agent);
    if (answer.status === 429) {
      expect(answer.json).toEqual({ code: "DAILY_LIMIT_REACHED", message: DAILY_LIMIT_MESSAGE, remainingSearches: 0 });
      return served;
    }
    expect(answer.status).toBe(200);
    served++;
  }
}

describeEachDatabase("abuse: the free tier per network", (getDb) => {
  test("a scripted abuse run from one address (cleared cookies, new accounts) gets 25 free searches a day in all, with the default policy", async () => {
    const { app } = await createTestApp(getDb());
    const ip = "203.0.113.50";
    let served = 0;
    let registered = 0;
    let refusedRegistrations = 0;
    // Alternate between a fresh browser and a fresh account, 12 rounds of each.
    for (let round = 0; round < 12; round++) {
      served += await searchUntilRefused(createAgent(app, { ip }));
      const browser = createAgent(app, { ip });
      const answer = await browser.request("POST", "/api/register", newAccount());
      if (answer.status === 201) {
        registered++;
        served += await searchUntilRefused(browser);
      } else {
        expect(answer.status).toBe(429);
        expect(answer.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: TOO_MANY_REGISTRATIONS });
        refusedRegistrations++;
      }
    }
    expect({ served, registered, refusedRegistrations }).toEqual({ served: 25, registered: 3, refusedRegistrations: 9 });
    // IPv4-mapped IPv6 is the same network.
    expect((await search(createAgent(app, { ip: `::ffff:${ip}` }))).status).toBe(429);
  }, 120_000);

  test("a heavy visitor takes their 5 and no more; a second visitor on the same address still gets 5", async () => {
    const { app } = await createTestApp(getDb());
    const ip = "203.0.113.51";
    const heavy = createAgent(app, { ip });
    expect(await searchUntilRefused(heavy)).toBe(5);
    for (let i = 0; i < 5; i++) expect((await search(heavy)).status).toBe(429);
    const colleague = createAgent(app, { ip });
    expect(await colleague.api.quota()).toMatchObject({ used: 0, remaining: 5 });
    expect(await searchUntilRefused(colleague)).toBe(5);
    // A signed-in heavy user the same: the account stops at 5, the network keeps the rest.
    const account = createAgent(app, { ip });
    await account.api.register(newAccount());
    expect(await searchUntilRefused(account)).toBe(5);
    expect(await searchUntilRefused(createAgent(app, { ip }))).toBe(5);
  }, 60_000);

  test("the newcomer pool counts what a visitor already used: it shows the tighter of the two", async () => {
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_DAILY_SEARCHES: "7" } });
    const ip = "203.0.113.52";
    expect(await searchUntilRefused(createAgent(app, { ip }))).toBe(5);
    const second = createAgent(app, { ip });
    expect(await second.api.quota()).toMatchObject({ used: 3, limit: 5, remaining: 2 });
    const page = await createAgent(app, { ip }).request("GET", "/");
    expect(page.text).toContain(`"used":3,"limit":5,"remaining":2`);
    expect(await searchUntilRefused(second)).toBe(2);
    expect(await createAgent(app, { ip: "203.0.113.53" }).api.quota()).toMatchObject({ remaining: 5 });
  });

  test("accounts older than a day do not draw on the newcomer pool: an abused address still serves them, up to the member pool", async () => {
    let now = new Date("2031-03-01T10:00:00Z");
    const { app } = await createTestApp(getDb(), { clock: () => now, env: { FREE_NETWORK_MEMBER_SEARCHES: "12" } });
    const ip = "203.0.113.54";
    const members = [];
    for (let i = 0; i < 3; i++) members.push(await signUp(createAgent(app, { ip }), getDb()));
    now = new Date(now.getTime() + DAY_MS + 60_000);
    // Someone empties the newcomer pool with fresh browsers.
    let farmed = 0;
    for (let i = 0; i < 6; i++) farmed += await searchUntilRefused(createAgent(app, { ip }));
    expect(farmed).toBe(25);
    // The members still search: 5, 5, then 2 left in their pool of 12.
    const served = [];
    for (const member of members) {
      const agent = createAgent(app, { ip });
      await agent.api.login(member);
      served.push(await searchUntilRefused(agent));
    }
    expect(served).toEqual([5, 5, 2]);
  }, 60_000);

  test("registrations: 3 a day per network, a refused or failed one costs nothing, another network is not affected, and the next day opens again", async () => {
    let now = new Date("2031-04-01T18:00:00Z");
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const ip = "2001:db8:aa:1::1";
    const taken = newAccount();
    await createAgent(app, { ip: "198.51.100.60" }).api.register(taken);
    // A clash is not counted.
    expect((await createAgent(app, { ip }).request("POST", "/api/register", { ...newAccount(), username: taken.username })).status).toBe(409);
    for (let i = 0; i < 3; i++)
      expect((await createAgent(app, { ip: `2001:db8:aa:1::${i + 10}` }).request("POST", "/api/register", newAccount())).status).toBe(201);
    const fourth = await createAgent(app, { ip }).request("POST", "/api/register", newAccount());
    expect(fourth.status).toBe(429);
    expect(fourth.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: TOO_MANY_REGISTRATIONS });
    expect(fourth.headers.get("retry-after")).toBe(String(6 * 60 * 60));
    expect(fourth.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    expect((await createAgent(app, { ip: "2001:db8:aa:2::1" }).request("POST", "/api/register", newAccount())).status).toBe(201);
    now = new Date("2031-04-02T00:00:01Z");
    expect((await createAgent(app, { ip }).request("POST", "/api/register", newAccount())).status).toBe(201);
  });

  test("registration attempts: 10 in 10 minutes per network whatever their outcome, so taken usernames cannot be asked about without limit", async () => {
    let now = new Date("2031-05-01T12:00:00Z");
    const { app } = await createTestApp(getDb(), { clock: () => now });
    const taken = newAccount();
    await createAgent(app, { ip: "198.51.100.61" }).api.register(taken);
    // Addresses of one /64 are one network; every outcome counts: a new account, one that gives
    // an e-mail another account uses, and eight usernames asked about.
    const from = (i: number) => createAgent(app, { ip: `2001:db8:bb:1::${i}` });
    expect((await from(1).request("POST", "/api/register", newAccount())).status).toBe(201);
    expect((await from(2).request("POST", "/api/register", newAccount({ email: taken.email }))).status).toBe(201);
    for (let i = 3; i <= 10; i++) {
      const probe = await from(i).request("POST", "/api/register", newAccount({ username: taken.username }));
      expect({ i, status: probe.status, json: probe.json }).toEqual({ i, status: 409, json: { code: "ACCOUNT_EXISTS", message: USERNAME_TAKEN } });
    }
    const eleventh = await from(11).request("POST", "/api/register", newAccount({ username: taken.username }));
    expect(eleventh.status).toBe(429);
    expect(eleventh.json).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many registration attempts. Please try again in 10 minutes." });
    expect(eleventh.headers.get("retry-after")).toBe("600");
    // A good registration waits too, and signs nobody in.
    const refused = await from(12).request("POST", "/api/register", newAccount());
    expect(refused.status).toBe(429);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith("session="))).toBe(false);
    // Another network is not affected; this one may try again once the window has passed.
    expect((await createAgent(app, { ip: "2001:db8:bb:2::1" }).request("POST", "/api/register", newAccount())).status).toBe(201);
    now = new Date(now.getTime() + 9 * 60_000);
    expect((await from(13).request("POST", "/api/register", newAccount())).headers.get("retry-after")).toBe("60");
    now = new Date(now.getTime() + 60_000);
    expect((await from(14).request("POST", "/api/register", newAccount())).status).toBe(201);
  });

  test("the registration attempts are configurable (FREE_NETWORK_REGISTRATION_ATTEMPTS), for an audience behind one address", async () => {
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_REGISTRATION_ATTEMPTS: "2" } });
    const ip = "203.0.113.56";
    const taken = newAccount();
    expect((await createAgent(app, { ip }).request("POST", "/api/register", taken)).status).toBe(201);
    expect((await createAgent(app, { ip }).request("POST", "/api/register", taken)).status).toBe(409);
    expect((await createAgent(app, { ip }).request("POST", "/api/register", newAccount())).status).toBe(429);
  });

  test("the pools are configurable: 0 network searches means anonymous visitors and new accounts there get none", async () => {
    const { app } = await createTestApp(getDb(), { env: { FREE_NETWORK_DAILY_SEARCHES: "0" } });
    const visitor = createAgent(app, { ip: "203.0.113.55" });
    expect(await visitor.api.quota()).toMatchObject({ used: 5, remaining: 0 });
    expect(await searchUntilRefused(visitor)).toBe(0);
  });
});
