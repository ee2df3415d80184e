import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { searches } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { SearchStreamEvent as SearchEvent } from "#src/client/api.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * A cancelled search keeps what had finished (ADR 030): the cancel call, a closed connection and a
 * newer search by the same person each save it as "cancelled" with the iterations that were done,
 * its page says how far it came, and the history lists it. One cancelled before any answer keeps
 * nothing and is given back, as before. A slow simulator (each answer takes a while) leaves a
 * 100-iteration search far from done when it is cancelled.
 */
describeEachDatabase("cancelled searches", (getDb) => {
  let slow: Simulator;
  beforeAll(() => {
    slow = startSimulator({ latency: { kind: "fixed", ms: 150 } });
  });
  afterAll(() => slow.stop());

  /** Per test: `bun test <file>` may not apply bunfig's timeout. No test asserts on time. */
  const TIMEOUT = 30_000;
  const slowApp = async () => (await createTestApp(getDb(), { simulator: slow })).app;
  type Agent = ReturnType<typeof createAgent>;

  /** The most iterations any provider had finished, by the progress events seen. */
  const furthest = (events: SearchEvent[]) => Math.max(0, ...events.map((e) => (e.type === "progress" ? e.completed + e.failed : 0)));
  const progressCount = (events: SearchEvent[]) => events.filter((e) => e.type === "progress").length;

  /**
   * Streams a search; at 9 progress events calls `stop` (which may cancel it), then reads the
   * stream to its end, or, when `signal` is given, closes it there (the client going away).
   */
  async function streamUntil(agent: Agent, query: string, iterations: number, stop: () => Promise<void> | void, signal?: AbortSignal) {
    const events: SearchEvent[] = [];
    let stopped = false;
    for await (const event of agent.api.searchStream({ query, iterations }, signal)) {
      events.push(event);
      if (stopped || progressCount(events) < 9) continue;
      stopped = true;
      await stop();
      if (signal) break;
    }
    return events;
  }

  /** GET /api/search/{id} as sent, and /api/user/searches' entry for it. */
  async function saved(agent: Agent, id: string) {
    const page = await agent.request("GET", `/api/search/${id}`);
    const listed = (await agent.api.listSearches()).searches.find((s) => s.id === id);
    return { page, listed };
  }

  test(
    "POST /api/cancel-search at 9 progress events of 100 iterations: the stream ends with what was kept, saved as cancelled with the finished iterations, and listed",
    async () => {
      const { agent: pro } = await createProAgent(await slowApp(), getDb());
      const events = await streamUntil(pro, "best crm for startups", 100, async () => {
        expect((await pro.api.cancelSearch()).cancelled).toBe(true);
      });
      const last = events.at(-1);
      if (last?.type !== "cancelled") throw new Error(`the stream ended with ${JSON.stringify(last)}`);
      const done = furthest(events);
      expect(done).toBeGreaterThan(0);
      expect(done).toBeLessThan(100);
      expect(last.result).toMatchObject({ id: last.id, status: "cancelled", iterationCount: 100 });

      const { page, listed } = await saved(pro, last.id);
      expect(page.status).toBe(200);
      expect(page.json).toMatchObject({ id: last.id, status: "cancelled", query: "best crm for startups", iterationCount: 100 });
      const wire = page.json as Record<string, { iterations: number; failedIterations: number } | undefined>;
      for (const id of providerIds) {
        const ran = events.filter((e) => e.type === "progress" && e.provider === id).length;
        const stats = wire[`${id}AggregatedStats`];
        // Every iteration that had finished is kept, and nothing more.
        expect((stats?.iterations ?? 0) + (stats?.failedIterations ?? 0)).toBe(ran);
      }
      expect(
        Math.max(...providerIds.map((id) => (wire[`${id}AggregatedStats`]?.iterations ?? 0) + (wire[`${id}AggregatedStats`]?.failedIterations ?? 0))),
      ).toBe(done);
      expect((await pro.api.getSearch(last.id)).status).toBe("cancelled");
      expect(listed).toMatchObject({ id: last.id, status: "cancelled", iterationCount: 100 });
      expect(listed?.totalProducts).toBeGreaterThan(0);
    },
    TIMEOUT,
  );

  test(
    "a client that closes the stream cancels the search, and it is saved the same way",
    async () => {
      const { agent: pro } = await createProAgent(await slowApp(), getDb());
      const gone = new AbortController();
      const events = await streamUntil(pro, "best project management tool", 100, () => gone.abort(), gone.signal);
      let listed: Awaited<ReturnType<typeof saved>>["listed"];
      await waitFor(
        async () => {
          listed = (await pro.api.listSearches()).searches.find((s) => s.query === "best project management tool");
          return listed !== undefined;
        },
        { timeoutMs: 20_000 },
      );
      if (!listed) throw new Error("not listed");
      expect(listed.status).toBe("cancelled");
      const read = await pro.api.getSearch(listed.id);
      expect(read.status).toBe("cancelled");
      // What had finished when the connection closed, at least what the client saw, and not the whole search.
      const finished = Math.max(...providerIds.map((id) => (read.stats[id]?.iterations ?? 0) + (read.stats[id]?.failedIterations ?? 0)));
      expect(finished).toBeGreaterThanOrEqual(furthest(events));
      expect(finished).toBeLessThan(100);
    },
    TIMEOUT,
  );

  test(
    "a new search by the same person cancels the one running, which is kept and listed beside the new one",
    async () => {
      const { agent: pro } = await createProAgent(await slowApp(), getDb());
      let next: Promise<unknown> | undefined;
      const events = await streamUntil(pro, "best espresso machine", 100, () => {
        next = pro.api.search({ query: "best coffee grinder", iterations: 1 });
      });
      const last = events.at(-1);
      if (last?.type !== "cancelled") throw new Error(`the stream ended with ${JSON.stringify(last)}`);
      await next;
      const history = (await pro.api.listSearches()).searches.map((s) => ({ query: s.query, status: s.status }));
      expect(history).toEqual([
        { query: "best coffee grinder", status: "completed" },
        { query: "best espresso machine", status: "cancelled" },
      ]);
      expect((await pro.api.getSearch(last.id)).status).toBe("cancelled");
    },
    TIMEOUT,
  );

  test(
    "POST /api/search cancelled after an answer: 409 names the saved search, whose unanswered providers say they were cancelled; it counts",
    async () => {
      const { app, simulator } = await createTestApp(getDb());
      const visitor = createAgent(app);
      await visitor.api.status(); // its anonymous cookie, which the cancel call must carry too
      // OpenAI answers at once, the others never do.
      simulator.setFaults("anthropic", [{ kind: "timeout" }], { persistent: true });
      simulator.setFaults("gemini", [{ kind: "timeout" }], { persistent: true });
      try {
        const pending = visitor.request("POST", "/api/search", { query: "best password manager" });
        // OpenAI's answer is in (the row's checkpoint holds it).
        await waitFor(async () => {
          const rows = await getDb().db.select({ result: searches.result }).from(searches).where(eq(searches.query, "best password manager"));
          return (rows[0]?.result as { models?: { openai?: { status?: string } } } | null)?.models?.openai?.status === "ok";
        });
        expect((await visitor.api.cancelSearch()).cancelled).toBe(true);
        const response = await pending;
        expect(response.status).toBe(409);
        const body = response.json as { code: string; message: string; id: string; remainingSearches: number };
        expect(body).toEqual({ code: "SEARCH_CANCELLED", message: "Search cancelled", id: expect.any(String), remainingSearches: 4 });
        const { page, listed } = await saved(visitor, body.id);
        expect(page.json).toMatchObject({
          status: "cancelled",
          openai: { status: "ok" },
          anthropic: { status: "error", stopped: "cancelled", error: "Cancelled before this provider answered." },
          gemini: { status: "error", stopped: "cancelled", error: "Cancelled before this provider answered." },
        });
        expect(listed?.status).toBe("cancelled");
      } finally {
        simulator.clearFaults();
      }
    },
    TIMEOUT,
  );

  test(
    "a search cancelled before any answer keeps nothing: given back, and not in the history",
    async () => {
      const { app, simulator } = await createTestApp(getDb());
      const visitor = createAgent(app);
      await visitor.api.status();
      for (const id of providerIds) simulator.setFaults(id, [{ kind: "timeout" }], { persistent: true });
      try {
        const before = simulator.requests.length;
        const pending = visitor.request("POST", "/api/search", { query: "best travel backpack" });
        await waitFor(() => simulator.requests.length >= before + providerIds.length);
        expect((await visitor.api.cancelSearch()).cancelled).toBe(true);
        const response = await pending;
        expect(response.json).toEqual({ code: "SEARCH_CANCELLED", message: "Search cancelled", remainingSearches: 5 });
        expect((await visitor.api.listSearches()).searches).toEqual([]);
      } finally {
        simulator.clearFaults();
      }
    },
    TIMEOUT,
  );
});
