import { expect, test } from "bun:test";
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { selectRows } from "#db/client.ts";
import { createProviderSlots } from "#src/server/services/trackers/slots.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

const CAP = 4;
const options = { leaseMs: 15_000, total: CAP, staleAfterMs: 120_000 };

describeEachDatabase("trackers: the provider cap shared by instances", (getDb) => {
  /** An instance's calls: each takes a slot of `openai`, holds it `ms`, gives it on. Counts what it holds. */
  function instanceCalls(slots: ReturnType<typeof createProviderSlots>, calls: number, ms: number) {
    let holding = 0;
    let peak = 0;
    let done = 0;
    const signal = new AbortController().signal;
    const finished = Promise.all(
      Array.from({ length: calls }, async () => {
        const release = await slots.take("openai", signal);
        holding++;
        peak = Math.max(peak, holding);
        await Bun.sleep(ms);
        holding--;
        done++;
        await release();
      }),
    );
    return { finished, holding: () => holding, peak: () => peak, done: () => done };
  }

  const slotRows = async () =>
    Number((await selectRows<{ n: number }>(getDb().db, sql`select count(*)::int as n from provider_slots where provider = 'openai'`))[0]?.n ?? 0);

  test("a slot goes straight to the next call waiting here: the cap holds, and the calls go back to back", async () => {
    const slots = createProviderSlots(getDb().db, { ...options, instanceId: randomUUID() });
    const calls = instanceCalls(slots, 40, 20);
    let rowsPeak = 0;
    while (calls.done() < 40) {
      rowsPeak = Math.max(rowsPeak, await slotRows());
      await Bun.sleep(5);
    }
    await calls.finished;
    expect(calls.peak()).toBe(CAP);
    expect(rowsPeak).toBeLessThanOrEqual(CAP);
    // Every slot is given back once no call wants it.
    await waitFor(async () => (await slotRows()) === 0, { what: "the slots given back" });
  });

  test("an instance whose calls wait gets its share of the cap from one that holds it all, while that one still has calls waiting", async () => {
    const first = createProviderSlots(getDb().db, { ...options, instanceId: randomUUID() });
    const second = createProviderSlots(getDb().db, { ...options, instanceId: randomUUID() });
    const busy = instanceCalls(first, 200, 30);
    await waitFor(() => busy.holding() === CAP, { what: "the first instance to hold the cap" });
    const late = instanceCalls(second, 40, 30);
    // The second gets half the cap well before the first's 200 calls are done.
    await waitFor(() => late.holding() === CAP / 2, { what: "the second instance to hold its share" });
    expect(busy.done()).toBeLessThan(150);
    let overCap = 0;
    while (late.done() < 40) {
      if (busy.holding() + late.holding() > CAP) overCap++;
      await Bun.sleep(5);
    }
    expect(overCap).toBe(0);
    expect(late.peak()).toBe(CAP / 2);
    await Promise.all([busy.finished, late.finished]);
    await waitFor(async () => (await slotRows()) === 0, { what: "the slots given back" });
  });

  test("a call that stops waiting leaves the queue, and the others are served", async () => {
    const slots = createProviderSlots(getDb().db, { ...options, instanceId: randomUUID() });
    const holders = instanceCalls(slots, CAP, 100);
    await waitFor(() => holders.holding() === CAP, { what: "the cap held" });
    const stop = new AbortController();
    const given = slots.take("openai", stop.signal);
    stop.abort(new Error("stopped"));
    await expect(given).rejects.toThrow("stopped");
    const after = instanceCalls(slots, 2, 10);
    await Promise.all([holders.finished, after.finished]);
    expect(after.done()).toBe(2);
  });
});
