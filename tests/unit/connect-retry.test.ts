import { describe, expect, test } from "bun:test";
import { ConnectError, connectWithRetry, connectRetryPolicy } from "#src/server/connect-retry.ts";

/** A clock that only moves when the retry sleeps or an attempt takes time. */
function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    advance: (ms: number) => void (now += ms),
    hooks: { now: () => now, sleep: async (ms: number) => void (waits.push(ms), (now += ms)) },
  };
}

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
const isTransient = (error: unknown) => (error as { code?: string }).code === "ECONNREFUSED";

describe("connectWithRetry", () => {
  test("a refused database: 5 attempts with doubling waits (0.5, 1, 2, 4 s of a 10 s budget), then ConnectError", async () => {
    const time = fakeTime();
    const retries: number[] = [];
    let attempts = 0;
    const error = await connectWithRetry(
      async () => {
        attempts++;
        throw refused;
      },
      connectRetryPolicy(10),
      { ...time.hooks, isTransient, onRetry: (_, attempt) => retries.push(attempt) },
    ).catch((e: unknown) => e);
    expect(attempts).toBe(5);
    expect(time.waits).toEqual([500, 1000, 2000, 4000]);
    expect(retries).toEqual([1, 2, 3, 4]);
    expect(error).toBeInstanceOf(ConnectError);
    expect(error).toMatchObject({ attempts: 5, elapsedMs: 7500, cause: refused });
  });

  test("a database that comes up on the third attempt is used", async () => {
    const time = fakeTime();
    let attempts = 0;
    const result = await connectWithRetry(
      async () => {
        if (++attempts < 3) throw refused;
        return "connected";
      },
      connectRetryPolicy(10),
      { ...time.hooks, isTransient, onRetry: () => {} },
    );
    expect(result).toBe("connected");
    expect(time.waits).toEqual([500, 1000]);
  });

  test("a failure that will not go away by itself (bad password) is not retried", async () => {
    const time = fakeTime();
    const denied = Object.assign(new Error("password authentication failed"), { code: "28P01" });
    const error = await connectWithRetry(() => Promise.reject(denied), connectRetryPolicy(10), { ...time.hooks, isTransient, onRetry: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ attempts: 1, cause: denied });
    expect(time.waits).toEqual([]);
  });

  test("slow attempts stop at the budget; each gets the time left (at least 1 s)", async () => {
    const time = fakeTime();
    const given: number[] = [];
    const error = await connectWithRetry(
      async (timeoutMs) => {
        given.push(timeoutMs);
        time.advance(Math.min(timeoutMs, 3000));
        throw refused;
      },
      connectRetryPolicy(10),
      { ...time.hooks, isTransient, onRetry: () => {} },
    ).catch((e: unknown) => e);
    // 3 s, wait 0.5, 3 s, wait 1, then the 2.5 s left: the budget is spent, no fourth attempt.
    expect(given).toEqual([10000, 6500, 2500]);
    expect(error).toMatchObject({ attempts: 3, elapsedMs: 10000 });
  });
});
