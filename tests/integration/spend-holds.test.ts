import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { spend, spendHolds, trackerRuns, users } from "#db/schema.ts";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { DomainError } from "#src/server/services/errors.ts";
import { createSpend } from "#src/server/services/spend/index.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * ADR 052, the probe's finding 3: a search or a tracker's run is admitted by holding its estimate,
 * in one transaction with the check and under one lock, so runs admitted together cannot all pass
 * a limit. The providers are live on the simulator, at the built-in prices: a tracker of 1 query ×
 * 5 iterations on the four providers is estimated at $0.523, 1 × 2 at $0.209 (the probe's, on three,
 * were $0.457 and $0.183 under a $1.00 limit; the limits below keep its proportions).
 */

/** Slow enough that no run has recorded any spend before the others are admitted. */
let slow: Simulator;
beforeAll(() => {
  slow = startSimulator({ latency: { kind: "fixed", ms: 250 } });
});
afterAll(async () => {
  await slow.stop();
});

const tracker = (name: string, iterations: number) => ({
  name,
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
});

type Agent = Awaited<ReturnType<typeof createProAgent>>["agent"];

/** Makes the trackers, runs them all at once (Run now), and gives back their runs once all have ended. */
async function runTogether(agent: Agent, definitions: ReturnType<typeof tracker>[]): Promise<TrackerRun[]> {
  const made = await Promise.all(definitions.map((definition) => agent.api.createTracker(definition)));
  const started = await Promise.all(made.map((t: Tracker) => agent.api.runTracker(t.id)));
  return Promise.all(
    started.map(({ run }) =>
      waitFor(
        async () => {
          const read = await agent.api.getTrackerRun(run.trackerId, run.id);
          return read.status !== "queued" && read.status !== "running" && read;
        },
        { what: "every run to end" },
      ),
    ),
  );
}

describeEachDatabase("spend: held at admission", (getDb) => {
  test("ten $0.25 admissions at once under a $1.00 limit: four are held, the rest refused; answers draw a hold down, a release gives the rest back, a lapsed hold counts for nothing", async () => {
    const { db } = getDb();
    let now = new Date();
    const service = createSpend({ db, limits: { account: 1, deployment: 100, trackerShare: 1 }, clock: () => now });
    const [user] = await db
      .insert(users)
      .values({ username: `holds${crypto.randomUUID().slice(0, 8)}`, email: "h@example.com", passwordHash: "x", firstName: "H", lastName: "H" })
      .returning({ id: users.id });
    const userId = user!.id;
    const admit = (usd = 0.25) => service.admit({ userId, source: "search", usd, holdForMs: 60_000, describe: `this search, about $${usd}` });

    const settled = await Promise.allSettled(Array.from({ length: 10 }, () => admit()));
    const admitted = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    expect(admitted).toHaveLength(4);
    for (const refused of settled.filter((s) => s.status === "rejected"))
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        code: "SPEND_LIMIT",
        message: expect.stringMatching(
          /^Your searches have spent \$0\.00 of today's \$1\.00 limit per account \(ACCOUNT_DAILY_SPEND_USD\), with \$1\.00 more held by your searches still running: this search, about \$0\.25, would go past it\./,
        ),
      });

    // An answer of $0.125 lands: recorded as spend, and its hold shrinks by as much (the total stays $1.00).
    const [first, second] = admitted;
    const budget = await service.budget({ userId, source: "search", hold: first!, searchId: async () => crypto.randomUUID() });
    await budget.spend(0.125);
    const [held] = await db.select().from(spendHolds).where(eq(spendHolds.id, first!.id));
    expect(held?.usd).toBe(0.125);
    await expect(admit(0.125)).rejects.toBeInstanceOf(DomainError);
    // Its search ends: the $0.125 it did not spend is given back, and $0.125 more fits ($0.125 spent + $0.75 held + $0.125).
    await service.release(first!);
    const third = await admit(0.125);
    await expect(admit(0.125)).rejects.toBeInstanceOf(DomainError);
    // A running search's own hold is not counted against it; the others' are ($0.125 + $0.625 < $1.00).
    const running = await service.budget({ userId, source: "search", hold: second!, searchId: async () => crypto.randomUUID() });
    expect(running.exhausted()).toBeNull();

    // A process that died leaves its holds: they lapse at their expiry, and count for nothing after it ($0.125 + 3 × $0.25).
    now = new Date(now.getTime() + 61_000);
    const after = await Promise.allSettled(Array.from({ length: 5 }, () => admit()));
    expect(after.filter((s) => s.status === "fulfilled")).toHaveLength(3);
    expect(await db.select().from(spendHolds).where(eq(spendHolds.id, third.id))).toEqual([]);
    await db.delete(spendHolds);
    await db.delete(spend);
  });

  test("the probe's reproduction: an account with a $1.20 limit runs 3 trackers of $0.523 at once: 2 are admitted, the third is skipped in the limit's words, and the account stays within $1.20", async () => {
    const { app, queue } = await createTestApp(getDb(), {
      simulator: slow,
      // The deployment's trackers' share ($1.50) above the account's limit: the account's is the one met.
      env: liveProviderEnv(slow, { ACCOUNT_DAILY_SPEND_USD: "1.2", DAILY_SPEND_USD: "3" }),
    });
    try {
      const { agent, account } = await createProAgent(app, getDb());
      const runs = await runTogether(agent, [tracker("One", 5), tracker("Two", 5), tracker("Three", 5)]);
      const skipped = runs.filter((run) => run.status === "skipped");
      expect(runs.filter((run) => run.status === "completed")).toHaveLength(2);
      expect(skipped).toHaveLength(1);
      expect(skipped[0]?.reason).toMatch(
        /^Your searches have spent \$0\.00 of today's \$1\.20 limit per account \(ACCOUNT_DAILY_SPEND_USD\), with \$1\.05 more held by your searches still running: this run, about \$0\.523, would go past it\./,
      );
      const spent = await agent.api.spend();
      expect(spent.todayUsd).toBeGreaterThan(0);
      expect(spent.todayUsd).toBeLessThanOrEqual(1.2);
      // Every run has ended, and given back what it held.
      expect(await getDb().db.select().from(spendHolds)).toEqual([]);
      const rows = await getDb().db.select({ source: spend.source }).from(spend).where(eq(spend.userId, account.id));
      expect(new Set(rows.map((row) => row.source))).toEqual(new Set(["tracker"]));
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });

  test("6 runs at once against the deployment's $2.00 with $1.30 spent: the three that fit are admitted, and the deployment stays within $2.00", async () => {
    const { app, queue } = await createTestApp(getDb(), {
      simulator: slow,
      env: liveProviderEnv(slow, { ACCOUNT_DAILY_SPEND_USD: "100", DAILY_SPEND_USD: "2", TRACKER_SPEND_SHARE: "1" }),
    });
    try {
      // Someone's searches spent $1.30 today: $0.70 is left, room for three runs of $0.209.
      await getDb().db.insert(spend).values({ userId: null, searchId: null, usd: 1.3, source: "search" });
      const { agent } = await createProAgent(app, getDb());
      const runs = await runTogether(
        agent,
        Array.from({ length: 6 }, (_, i) => tracker(`Run ${i}`, 2)),
      );
      expect(runs.filter((run) => run.status === "completed")).toHaveLength(3);
      const skipped = runs.filter((run) => run.status === "skipped");
      expect(skipped).toHaveLength(3);
      for (const run of skipped) expect(run.reason).toMatch(/of today's \$2\.00 limit \(DAILY_SPEND_USD\).*this run, about \$0\.209, would go past it/);
      const all = await getDb().db.select({ usd: spend.usd }).from(spend);
      expect(all.reduce((sum, row) => sum + row.usd, 0)).toBeLessThanOrEqual(2);
      expect(await getDb().db.select().from(spendHolds)).toEqual([]);
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
      await getDb().db.delete(trackerRuns);
    }
  });

  test("trackers together use at most TRACKER_SPEND_SHARE of DAILY_SPEND_USD: the second tracker is skipped, and people's searches still run in the rest", async () => {
    const { app, queue } = await createTestApp(getDb(), {
      simulator: slow,
      env: liveProviderEnv(slow, { ACCOUNT_DAILY_SPEND_USD: "100", DAILY_SPEND_USD: "1.2", TRACKER_SPEND_SHARE: "0.5" }),
    });
    try {
      const { agent } = await createProAgent(app, getDb());
      const runs = await runTogether(agent, [tracker("First", 5), tracker("Second", 5)]);
      expect(runs.map((run) => run.status).sort()).toEqual(["completed", "skipped"]);
      expect(runs.find((run) => run.status === "skipped")?.reason).toMatch(
        /^Trackers on this service have spent \$0\.00 of today's \$0\.60 for trackers \(TRACKER_SPEND_SHARE, 0\.5 of DAILY_SPEND_USD; the rest is kept for searches\), with \$0\.523 more held by trackers' runs still running: this run, about \$0\.523, would go past it\./,
      );
      // The other half is kept for people: a Pro search of 5 iterations ($0.523) and an anonymous one run.
      const { result } = await agent.api.search({ query: "best crm for startups", iterations: 5 });
      expect(result.cost?.total.usd).toBeGreaterThan(0);
      const anonymous = await createAgent(app).request("POST", "/api/search", { query: "best vpn" });
      expect(anonymous.status).toBe(200);
      expect(await getDb().db.select().from(spendHolds)).toEqual([]);
    } finally {
      await queue.stop();
      await getDb().db.delete(spend);
    }
  });

  test("a search holds its estimate while it runs and gives it back when it ends, completed or cancelled", async () => {
    const { app } = await createTestApp(getDb(), { simulator: slow, env: liveProviderEnv(slow) });
    const { agent, account } = await createProAgent(app, getDb());
    const holds = () => getDb().db.select().from(spendHolds).where(eq(spendHolds.userId, account.id));
    const estimate = (await agent.api.estimate(5)).usd ?? Number.NaN;

    const searching = agent.api.search({ query: "best crm for startups", iterations: 5 });
    const [held] = await waitFor(async () => {
      const rows = await holds();
      return rows.length > 0 && rows;
    });
    expect(held).toMatchObject({ source: "search" });
    expect(held!.usd).toBeLessThanOrEqual(estimate + 1e-9);
    expect(held!.expiresAt.getTime()).toBeGreaterThan(Date.now());
    await searching;
    expect(await holds()).toEqual([]);

    // Cancelled part-way: given back too.
    slow.clearLog();
    const cancelled = agent.request("POST", "/api/search", { query: "best vpn for travel", iterations: 5 });
    await waitFor(() => slow.searchPrompts().some((asked) => asked.prompt === "best vpn for travel"), { what: "the search to be asking" });
    expect(await holds()).toHaveLength(1);
    await agent.api.cancelSearch();
    expect((await cancelled).status).toBe(409);
    await waitFor(async () => (await holds()).length === 0, { what: "the cancelled search's hold to be released" });
    await getDb().db.delete(spend);
  });
});
