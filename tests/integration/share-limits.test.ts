import { randomBytes } from "node:crypto";
import { expect, test } from "bun:test";
import { eq, like } from "drizzle-orm";
import { rateCounters } from "#db/schema.ts";
import type { Share } from "#src/contract/shares.ts";
import { signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * Share links' read limits, counted in the database for every instance: per link
 * (SHARE_READS_PER_MINUTE), and per client's network (SHARE_READS_PER_CLIENT_PER_MINUTE), which
 * made-up and revoked tokens count against too, so one reader can neither lock the others out of
 * a link nor make a database look-up per guess. Windows are fixed minutes, on the app's clock.
 */

const tokenOf = (share: Share) => share.url.split("/").at(-1)!;
const madeUp = () => randomBytes(32).toString("base64url");

/** A clock ten seconds into the current minute, moved by the test. */
function movableClock() {
  let now = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;
  return { clock: () => new Date(now), move: (ms: number) => void (now += ms) };
}

describeEachDatabase("share links: read limits", (getDb) => {
  test("one client reads a link at most its own share of the minute, made-up and revoked tokens counted; the others still read it, and the link's own limit holds for all", async () => {
    const time = movableClock();
    const { app } = await createTestApp(getDb(), {
      clock: time.clock,
      env: { SHARE_READS_PER_MINUTE: "5", SHARE_READS_PER_CLIENT_PER_MINUTE: "2" },
    });
    const owner = createAgent(app);
    await signUp(owner, getDb());
    const search = (await owner.api.search({ query: "best crm for startups" })).result;
    const link = (await owner.request("POST", "/api/shares", { kind: "search", id: search.id })).json as Share;
    const revoked = (await owner.request("POST", "/api/shares", { kind: "search", id: search.id })).json as Share;
    expect((await owner.request("DELETE", `/api/shares/${revoked.id}`)).status).toBe(200);
    const read = (agent: ReturnType<typeof createAgent>, token = tokenOf(link)) => agent.request("GET", `/api/shared/${token}`);

    const greedy = createAgent(app, { ip: "203.0.113.7" });
    expect((await read(greedy)).status).toBe(200);
    expect((await read(greedy)).status).toBe(200);
    const refused = await read(greedy);
    expect(refused).toMatchObject({ status: 429, json: { code: "RATE_LIMITED" } });
    expect((refused.json as { message: string }).message).toContain("from your network");
    // The rest of the minute: 50 seconds.
    expect(Number(refused.headers.get("retry-after"))).toBe(50);
    // Its page too, and without what the link shows.
    const page = await greedy.fetch(`http://localhost/shared/${tokenOf(link)}`);
    expect(page.status).toBe(429);
    expect(await page.text()).not.toContain("Pipedrive");
    // Another reader is not locked out.
    expect((await read(createAgent(app, { ip: "198.51.100.20" }))).status).toBe(200);
    // One IPv6 network (its /64) is one client, whichever of its addresses reads.
    expect((await read(createAgent(app, { ip: "2001:db8:1:2::1" }))).status).toBe(200);
    expect((await read(createAgent(app, { ip: "2001:db8:1:2::beef" }))).status).toBe(200);
    expect((await read(createAgent(app, { ip: "2001:db8:1:2:aaaa::9" }))).status).toBe(429);

    // Guessing: made-up and revoked tokens are 404 until the client's count is used, then 429 (no look-up is made).
    const guesser = createAgent(app, { ip: "192.0.2.55" });
    expect((await read(guesser, madeUp())).status).toBe(404);
    expect((await read(guesser, tokenOf(revoked))).status).toBe(404);
    expect((await read(guesser, madeUp())).status).toBe(429);
    expect((await read(guesser)).status).toBe(429);
    // A malformed token costs nothing and counts nothing: always 404.
    expect((await read(createAgent(app, { ip: "192.0.2.56" }), "not-a-token")).status).toBe(404);

    // The link has had 5 reads this minute (its own limit): a new reader is refused, saying the link is.
    const late = await read(createAgent(app, { ip: "198.51.100.21" }));
    expect(late.status).toBe(429);
    expect((late.json as { message: string }).message).toContain("This link has been read too often");

    // The next minute, everyone reads again.
    time.move(60_000);
    expect((await read(greedy)).status).toBe(200);
    expect((await read(guesser)).status).toBe(200);
  });

  test("the counts are shared by every instance and kept across a restart; old windows are deleted as the minutes turn, and only the links'", async () => {
    const time = movableClock();
    const env = { SHARE_READS_PER_MINUTE: "3", SHARE_READS_PER_CLIENT_PER_MINUTE: "100" };
    const one = await createTestApp(getDb(), { clock: time.clock, env });
    const two = await createTestApp(getDb(), { clock: time.clock, env });
    const owner = createAgent(one.app);
    await signUp(owner, getDb());
    const search = (await owner.api.search({ query: "best crm for startups" })).result;
    const link = (await owner.request("POST", "/api/shares", { kind: "search", id: search.id })).json as Share;
    const path = `/api/shared/${tokenOf(link)}`;

    expect((await createAgent(one.app).request("GET", path)).status).toBe(200);
    expect((await createAgent(two.app).request("GET", path)).status).toBe(200);
    expect((await createAgent(one.app).request("GET", path)).status).toBe(200);
    expect((await createAgent(two.app).request("GET", path)).status).toBe(429);
    const restarted = await createTestApp(getDb(), { clock: time.clock, env });
    expect((await createAgent(restarted.app).request("GET", path)).status).toBe(429);

    // Another feature's counter in the same table, from long ago: not the links' to delete.
    const old = new Date(time.clock().getTime() - 86_400_000);
    await getDb().db.insert(rateCounters).values({ key: "someone-else:test", windowStart: old, count: 1 });
    time.move(3 * 60_000);
    expect((await createAgent(two.app).request("GET", path)).status).toBe(200);
    const windows = await getDb().db.select().from(rateCounters).where(like(rateCounters.key, "share-%"));
    expect(windows.length).toBeGreaterThan(0);
    expect(windows.every((row) => row.windowStart.getTime() >= time.clock().getTime() - 2 * 60_000)).toBe(true);
    expect(await getDb().db.select().from(rateCounters).where(eq(rateCounters.key, "someone-else:test"))).toHaveLength(1);
  });
});
