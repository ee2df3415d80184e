import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { createDatabase, MEMORY_DATA_DIR, type Database, type DatabaseKind } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { searches } from "#db/schema.ts";
import { providerIds } from "#src/contract/providers.ts";
import type { App } from "#src/server/app.ts";
import { createInstance, type Instance } from "#src/server/instance.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, testRetry } from "#tests/support/app.ts";
import { DATABASE_SETUP_TIMEOUT_MS, databaseKinds, freshPostgresUrl, openTestDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/**
 * Two app instances on one database, as behind a load balancer. On PostgreSQL each has its own
 * pool (and LISTEN connection) on the same database, as two processes would; on PGlite (one
 * process by nature) they share it, which runs the same code path. Without the PostgreSQL
 * binaries only the PGlite pair runs (databaseKinds).
 */
async function openPair(kind: DatabaseKind): Promise<{ a: Database; b: Database; close(): Promise<void> }> {
  if (kind === "pglite") {
    const shared = await openTestDatabase("pglite");
    return { a: shared, b: shared, close: () => shared.close() };
  }
  const url = await freshPostgresUrl();
  const a = await createDatabase({ databaseUrl: url, dataDir: MEMORY_DATA_DIR });
  await migrate(a);
  const b = await createDatabase({ databaseUrl: url, dataDir: MEMORY_DATA_DIR });
  return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
}

/** Generous: the slow simulator takes 10 s to answer, and no call may time out before that. */
const WAIT_MS = 30_000;

for (const kind of databaseKinds) {
  describe(`two app instances on one database [${kind}]`, () => {
    let pair: Awaited<ReturnType<typeof openPair>>;
    let slow: Simulator;
    const instances: Instance[] = [];

    beforeAll(async () => {
      pair = await openPair(kind);
      slow = startSimulator({ latency: { kind: "fixed", ms: 10_000 } });
    }, DATABASE_SETUP_TIMEOUT_MS);
    afterEach(async () => {
      await Promise.all(instances.splice(0).map((instance) => instance.stop()));
      slow.clearLog();
    });
    afterAll(async () => {
      await slow.stop();
      await pair.close();
    });

    /** An app on `database` as an instance of its own, started as src/server/index.ts starts it. */
    async function startInstance(database: Database) {
      const instance = createInstance(database);
      instances.push(instance);
      const { app } = await createTestApp(database, { simulator: slow, instance, retry: { ...testRetry, callTimeoutMs: WAIT_MS } });
      return { app, instance, marked: await instance.start() };
    }

    /** One browser whose requests the load balancer sends to either instance. */
    async function visitorOf(a: App, b: App) {
      const onA = createAgent(a);
      await onA.api.status(); // the anonymous id cookie, valid on both (one SESSION_SECRET)
      return { onA, onB: createAgent(b, { ip: onA.ip, jar: onA.jar }) };
    }

    const runningOn = async (instance: Instance) =>
      pair.a.db
        .select({ id: searches.id })
        .from(searches)
        .where(and(eq(searches.instanceId, instance.id), eq(searches.status, "running")));

    test("restarting instance B (its start-up sweep) leaves A's live search running, and A saves it as completed", async () => {
      slow.setLatency({ kind: "fixed", ms: 5_000 });
      try {
        const a = await startInstance(pair.a);
        const b = await startInstance(pair.b);
        const visitor = createAgent(a.app);
        const pending = visitor.api.search({ query: "best crm" });
        await waitFor(async () => (await runningOn(a.instance)).length === 1, { timeoutMs: WAIT_MS });

        await b.instance.stop();
        const restarted = await startInstance(pair.b);
        expect(restarted.marked).toBe(0);
        expect(await runningOn(a.instance)).toHaveLength(1);

        const { result } = await pending;
        const [row] = await pair.b.db.select().from(searches).where(eq(searches.id, result.id));
        expect(row).toMatchObject({ status: "completed", error: null, instanceId: a.instance.id, charge: null });
      } finally {
        slow.setLatency({ kind: "fixed", ms: 10_000 });
      }
    });

    test("POST /api/cancel-search sent to B cancels the search running on A: its provider connections close and A answers 409", async () => {
      const a = await startInstance(pair.a);
      const b = await startInstance(pair.b);
      const { onA, onB } = await visitorOf(a.app, b.app);
      const pending = onA.request("POST", "/api/search", { query: "best vpn" });
      await waitFor(async () => slow.requests.length === providerIds.length && (await runningOn(a.instance)).length === 1, { timeoutMs: WAIT_MS });

      expect((await onB.api.cancelSearch()).cancelled).toBe(true);
      const response = await pending;
      expect(response.status).toBe(409);
      expect(response.json).toEqual({ code: "SEARCH_CANCELLED", message: "Search cancelled", remainingSearches: 5 });
      await waitFor(() => slow.aborts.length === providerIds.length, { timeoutMs: WAIT_MS });
      expect(await runningOn(a.instance)).toEqual([]);
    });

    test("a new search by the same caller on B cancels the one running on A (and a cancel sent to A stops B's)", async () => {
      const a = await startInstance(pair.a);
      const b = await startInstance(pair.b);
      const { onA, onB } = await visitorOf(a.app, b.app);
      const first = onA.request("POST", "/api/search", { query: "best laptop" });
      await waitFor(() => slow.requests.length === providerIds.length, { timeoutMs: WAIT_MS });

      const second = onB.request("POST", "/api/search", { query: "best 3d printer" });
      expect((await first).status).toBe(409);
      await waitFor(() => slow.aborts.length === providerIds.length, { timeoutMs: WAIT_MS });
      await waitFor(async () => slow.requests.length === 2 * providerIds.length && (await runningOn(b.instance)).length === 1, { timeoutMs: WAIT_MS });

      expect((await onA.api.cancelSearch()).cancelled).toBe(true);
      expect((await second).status).toBe(409);
      await waitFor(() => slow.aborts.length === 2 * providerIds.length, { timeoutMs: WAIT_MS });
    });
  });
}
