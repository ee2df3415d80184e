import { afterEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type Database, selectRows } from "#db/client.ts";
import { pgBossDb } from "#src/server/jobs/adapter.ts";
import { MIN_POLLING_INTERVAL_SECONDS, startJobs, type Jobs } from "#src/server/jobs/index.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * The durable job queue (pg-boss on the app's own connection) on both databases. No test waits on a
 * clock: each waits for the handler calls it expects, which a notification or the shortest poll brings.
 */

/** A promise with its resolve, for "wait until the handler has seen N jobs". */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Rows of a drizzle execute() result, whichever driver produced it. */
async function query(database: Database, statement: ReturnType<typeof sql>): Promise<Array<Record<string, unknown>>> {
  return selectRows(database.db, statement);
}

async function jobState(database: Database, id: string): Promise<unknown> {
  const [row] = await query(database, sql`select state from pgboss.job where id = ${id}::uuid`);
  return row?.state;
}

describeEachDatabase("jobs", (getDb) => {
  // Every Jobs a test starts is stopped after it, passed or not, and reports no background error.
  const started: Jobs[] = [];
  let errors: Error[] = [];
  const start = async () => {
    const jobs = await startJobs(getDb(), { pollingIntervalSeconds: MIN_POLLING_INTERVAL_SECONDS, onError: (e) => errors.push(e) });
    started.push(jobs);
    return jobs;
  };
  afterEach(async () => {
    await Promise.all(started.splice(0).map((jobs) => jobs.stop()));
    const seen = errors;
    errors = [];
    expect(seen.map((e) => e.message)).toEqual([]);
  });

  test("a job sent is handled once, with its data, by a handler that uses the database itself", async () => {
    const jobs = await start();
    const calls: Array<{ data: unknown; retryCount: number }> = [];
    const handled = deferred();
    await jobs.work<{ query: string; n: number }>("once", { concurrency: 1 }, async (data, job) => {
      // The handler's own queries share the database (on PGlite: the one session) with pg-boss's polling.
      await getDb().db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
      });
      calls.push({ data, retryCount: job.retryCount });
      handled.resolve();
    });
    const id = await jobs.send("once", { query: "best running shoes", n: 3 });
    expect(id).toEqual(expect.any(String));
    await handled.promise;
    await jobs.stop();
    expect(calls).toEqual([{ data: { query: "best running shoes", n: 3 }, retryCount: 0 }]);
    expect(await jobState(getDb(), id!)).toBe("completed");
  });

  test("at most `concurrency` handlers run at once in this process", async () => {
    const jobs = await start();
    const total = 5;
    for (let i = 0; i < total; i++) expect(await jobs.send("concurrent", { i })).not.toBeNull();

    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    const twoRunning = deferred();
    const allDone = deferred();
    await jobs.work<{ i: number }>("concurrent", { concurrency: 2 }, async ({ i }) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      if (inFlight === 2) twoRunning.resolve();
      // The first handlers hold on until a second one runs beside them (a guard keeps a broken
      // concurrency from hanging the test: it then fails on `peak` below).
      await Promise.race([twoRunning.promise, Bun.sleep(5_000)]);
      inFlight--;
      seen.push(i);
      if (seen.length === total) allDone.resolve();
    });
    await allDone.promise;
    expect(peak).toBe(2);
    expect(seen.toSorted()).toEqual([0, 1, 2, 3, 4]);
  });

  test("quick jobs: a burst is handled `concurrency` at a time without a polling interval between them; one that throws is retried on its own", async () => {
    // A minute between polls: handled one at a time, each worker would wait that long after each
    // job (a burst of 1,000 trackers' ticks took a quarter of an hour), and this test would time out.
    const jobs = await startJobs(getDb(), { pollingIntervalSeconds: 60, onError: (e) => errors.push(e) });
    started.push(jobs);
    const total = 9;
    const ids: string[] = [];
    for (let i = 0; i < total; i++) ids.push((await jobs.send("quick", { i }, { retryLimit: 1, retryDelaySeconds: 0 }))!);
    let inFlight = 0;
    let peak = 0;
    const attempts = new Map<number, number>();
    const allDone = deferred();
    let done = 0;
    await jobs.work<{ i: number }>("quick", { concurrency: 4, quick: true }, async ({ i }, job) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      attempts.set(i, job.retryCount + 1);
      await Bun.sleep(20);
      inFlight--;
      if (i === 0 && job.retryCount === 0) throw new Error("the database was away");
      if (++done === total) allDone.resolve();
    });
    await allDone.promise;
    expect(peak).toBe(4);
    // Job 0 was asked twice; the others, which shared its batch, once each.
    expect([...attempts.entries()].toSorted(([a], [b]) => a - b)).toEqual(Array.from({ length: total }, (_, i) => [i, i === 0 ? 2 : 1]));
    await waitForStates();
    async function waitForStates() {
      for (;;) {
        const states = await Promise.all(ids.map((id) => jobState(getDb(), id)));
        if (states.every((state) => state === "completed")) return;
        await Bun.sleep(50);
      }
    }
  });

  test("a handler that throws is retried (up to retryLimit) and then succeeds", async () => {
    const jobs = await start();
    const attempts: number[] = [];
    const succeeded = deferred();
    await jobs.work<{ flaky: boolean }>("flaky", { concurrency: 1 }, async (_data, job) => {
      attempts.push(job.retryCount);
      if (job.retryCount === 0) throw new Error("provider timed out");
      succeeded.resolve();
    });
    const id = await jobs.send("flaky", { flaky: true }, { retryLimit: 1, retryDelaySeconds: 0 });
    await succeeded.promise;
    await jobs.stop();
    expect(attempts).toEqual([0, 1]);
    expect(await jobState(getDb(), id!)).toBe("completed");
  });

  test("a job sent while no worker runs is handled after a restart", async () => {
    const before = await start();
    const id = await before.send("restart", { batch: "b-1" });
    await before.stop();

    const after = await start();
    const handled = deferred<unknown>();
    await after.work<{ batch: string }>("restart", { concurrency: 1 }, async (data) => handled.resolve(data));
    expect(await handled.promise).toEqual({ batch: "b-1" });
    await after.stop();
    expect(await jobState(getDb(), id!)).toBe("completed");
  });

  test("a singletonKey already queued or running is not queued again; other keys and keyless sends are", async () => {
    const jobs = await start();
    const first = await jobs.send("batches", { n: 1 }, { singletonKey: "batch-7" });
    expect(first).toEqual(expect.any(String));
    expect(await jobs.send("batches", { n: 2 }, { singletonKey: "batch-7" })).toBeNull();
    expect(await jobs.send("batches", { n: 3 }, { singletonKey: "batch-8" })).toEqual(expect.any(String));
    expect(await jobs.send("batches", { n: 4 })).toEqual(expect.any(String));

    // Running still counts; once it is done, the key is free again.
    const running = deferred();
    const release = deferred();
    const handled: number[] = [];
    const allDone = deferred();
    await jobs.work<{ n: number }>("batches", { concurrency: 3 }, async ({ n }) => {
      if (n === 1) {
        running.resolve();
        await release.promise;
      }
      handled.push(n);
      if (handled.length === 3) allDone.resolve();
    });
    await running.promise;
    expect(await jobs.send("batches", { n: 5 }, { singletonKey: "batch-7" })).toBeNull();
    release.resolve();
    await allDone.promise;
    await jobs.stop();
    expect(handled.toSorted()).toEqual([1, 3, 4]);
    expect(await jobState(getDb(), first!)).toBe("completed");
    const next = await start();
    expect(await next.send("batches", { n: 6 }, { singletonKey: "batch-7" })).toEqual(expect.any(String));
  });

  test("stop() waits for a running handler, which then completes its job", async () => {
    const jobs = await start();
    const running = deferred();
    const release = deferred();
    const order: string[] = [];
    await jobs.work("graceful", { concurrency: 1 }, async () => {
      running.resolve();
      await release.promise;
      order.push("handler finished");
    });
    const id = await jobs.send("graceful", {});
    await running.promise;
    const stopped = jobs.stop().then(() => order.push("stopped"));
    // Give stop() the chance to return early (it must not), then let the handler finish.
    await Bun.sleep(50);
    order.push("released");
    release.resolve();
    await stopped;
    expect(order).toEqual(["released", "handler finished", "stopped"]);
    expect(await jobState(getDb(), id!)).toBe("completed");
  });

  test("adapter: a pg-boss script that fails half-way leaves no aborted transaction for the app's next query", async () => {
    const database = getDb();
    const boss = pgBossDb(database);
    const failing = boss.executeSql("BEGIN; SELECT 1; SELECT 1 / 0; COMMIT;").then(
      () => "succeeded",
      (error: Error) => error.message,
    );
    // Queued right behind it (on PGlite: the same session).
    const next = query(database, sql`select 42 as answer`);
    expect(await failing).toContain("division by zero");
    expect(await next).toEqual([{ answer: 42 }]);
    expect((await boss.executeSql("BEGIN; SELECT 1 AS a; SELECT 2 AS b; COMMIT;")).rows).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
