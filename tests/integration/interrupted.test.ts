import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { instances, searches } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { SearchEvent } from "#src/contract/search-events.ts";
import { createInstance } from "#src/server/instance.ts";
import { sweepAbandoned } from "#src/server/services/search/abandoned.ts";
import { createLease, HEARTBEAT_MS, leaseOf } from "#src/server/services/search/instances.ts";
import { PROVIDER_INTERRUPTED } from "#src/server/services/search/stopped.ts";
import { createSearchStore } from "#src/server/services/search/store.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { savedResult } from "#tests/support/results.ts";
import { waitFor } from "#tests/support/wait.ts";

describeEachDatabase("interrupted searches", (getDb) => {
  let sim: Simulator;
  beforeAll(() => {
    sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
  });
  afterEach(() => sim.clearFaults());
  afterAll(() => sim.stop());

  /** Providers that never answer, until the test is over. */
  const hang = (...ids: typeof providerIds) => ids.forEach((id) => sim.setFaults(id, [{ kind: "timeout" }], { persistent: true }));

  /**
   * An app on a server that is about to die: its instance never took a lease (as one whose lease
   * lapsed), so the next instance to start sweeps its runs. Its in-memory run goes on until the
   * test lets it go, and then must not undo the sweep.
   */
  async function doomedServer() {
    const instance = createInstance(getDb());
    const { app } = await createTestApp(getDb(), { simulator: sim, instance });
    const rowOf = async (query: string) =>
      (
        await getDb()
          .db.select()
          .from(searches)
          .where(and(eq(searches.instanceId, instance.id), eq(searches.query, query)))
      )[0];
    return { app, rowOf };
  }

  /** The next server starts: its start-up sweep. */
  async function restart(): Promise<void> {
    const next = createInstance(getDb());
    await next.start();
    await next.stop();
  }

  test("the sweep marks interrupted only runs whose instance's lease lapsed (or that have none); then a late failure does not overwrite it, a late result does", async () => {
    const { db } = getDb();
    const [live, dead] = [randomUUID(), randomUUID()];
    await createLease(db, live).beat();
    await db.insert(instances).values({ id: dead, heartbeatAt: sql`now() - interval '1 hour'` });
    const run = async (instanceId: string) => {
      const [row] = await db.insert(searches).values({ anonymousId: "sweep", query: "q", iterations: 1, instanceId }).returning({ id: searches.id });
      return row?.id ?? "";
    };
    const [onLive, onDead, onNone] = await Promise.all([run(live), run(dead), run(randomUUID())]);

    await sweepAbandoned(db, leaseOf(HEARTBEAT_MS));
    const status = async (id: string) => (await db.select({ status: searches.status }).from(searches).where(eq(searches.id, id)))[0]?.status;
    expect([await status(onLive), await status(onDead), await status(onNone)]).toEqual(["running", "interrupted", "interrupted"]);
    expect(await db.select().from(instances).where(eq(instances.id, dead))).toEqual([]);

    const store = createSearchStore(db);
    expect(await store.fail(onDead, dead, "failed", "late")).toBe(false);
    expect(await status(onDead)).toBe("interrupted");
    await store.complete(onLive, dead, savedResult()); // not its instance's run
    expect(await status(onLive)).toBe("running");
    await store.complete(onDead, dead, savedResult());
    expect(await status(onDead)).toBe("completed");
    await store.fail(onLive, live, "cancelled", "done with it");
  });

  test("cut off after showing an answer: listed as interrupted with what finished, its page shows that answer and an interrupted card for the rest, and it is not given back", async () => {
    const { app, rowOf } = await doomedServer();
    const visitor = createAgent(app);
    hang("anthropic", "gemini");
    const gone = new AbortController();
    const events = visitor.api.searchStream({ query: "best running shoes" }, gone.signal)[Symbol.asyncIterator]();
    let event: SearchEvent | undefined;
    while (!(event?.type === "result" && event.provider === "openai")) event = (await events.next()).value;
    // The answer the caller saw is on the row (the checkpoint) before the server dies.
    await waitFor(async () => JSON.stringify((await rowOf("best running shoes"))?.result ?? null).includes('"status":"ok"'));

    await restart();
    gone.abort();
    await waitFor(() => sim.aborts.length >= 2);

    const row = await rowOf("best running shoes");
    expect(row).toMatchObject({ status: "interrupted", charge: null });
    const [listed] = (await visitor.api.listSearches()).searches;
    expect(listed).toMatchObject({ id: row?.id, status: "interrupted", iterationCount: 1 });
    expect(listed?.totalProducts).toBeGreaterThan(0);
    const page = await visitor.request("GET", `/api/search/${row?.id}`);
    expect(page.json).toMatchObject({
      status: "interrupted",
      query: "best running shoes",
      totalProducts: listed?.totalProducts,
      openai: { status: "ok" },
      anthropic: { status: "error", error: PROVIDER_INTERRUPTED },
      gemini: { status: "error", error: PROVIDER_INTERRUPTED },
    });
    expect((await visitor.api.quota()).remaining).toBe(4);
  });

  test("cut off before showing anything: given back once, listed as interrupted with no totals, its page has an interrupted card for every provider", async () => {
    const { app, rowOf } = await doomedServer();
    const visitor = createAgent(app);
    await visitor.api.search({ query: "best vpn" });
    hang(...providerIds);
    const gone = new AbortController();
    const before = sim.requests.length;
    const pending = visitor.fetch("http://localhost/api/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "best crm" }),
      signal: gone.signal,
    });
    await waitFor(async () => (await rowOf("best crm"))?.status === "running");
    // The calls have reached the simulator, so it sees them closed (an abort before that goes unrecorded).
    await waitFor(() => sim.requests.length - before >= providerIds.length);
    expect((await visitor.api.quota()).remaining).toBe(3);

    await restart();
    expect((await visitor.api.quota()).remaining).toBe(4);
    // The dead server's run ends late: the sweep gave the search back already, it must not again.
    gone.abort();
    await pending.catch(() => undefined);
    await waitFor(() => sim.aborts.length >= providerIds.length);
    expect((await visitor.api.quota()).remaining).toBe(4);

    const { searches: listed } = await visitor.api.listSearches();
    expect(listed.map((s) => [s.query, s.status])).toEqual([
      ["best crm", "interrupted"],
      ["best vpn", "completed"],
    ]);
    expect(listed[0]).toMatchObject({ totalProducts: 0, totalCompanies: 0, totalLinks: 0 });
    const id = listed[0]?.id;
    expect(id).toBe((await rowOf("best crm"))?.id ?? "");
    const page = await visitor.request("GET", `/api/search/${id}`);
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ status: "interrupted", query: "best crm", totalProducts: 0 });
    for (const provider of providerIds) expect(page.json).toMatchObject({ [provider]: { status: "error", error: PROVIDER_INTERRUPTED } });
    // The web reads it like any saved search.
    expect(Object.keys((await visitor.api.getSearch(id ?? "")).models)).toEqual([...providerIds]);
  });
});
