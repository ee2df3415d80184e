import { describe, expect, test } from "bun:test";
import { parseEnv } from "#src/server/env.ts";
import { deadlineFor, deadlineMessage } from "#src/server/services/search/deadline.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const policy = { oneIterationMs: 90_000, hundredIterationsMs: 600_000 };

describe("a search's time limit", () => {
  test("is the 1-iteration limit for 1 iteration, the 100-iteration one for 100, and in proportion between", () => {
    expect(deadlineFor(1, policy, 0)).toEqual({ at: 90_000, ms: 90_000 });
    expect(deadlineFor(100, policy, 0)).toEqual({ at: 600_000, ms: 600_000 });
    expect(deadlineFor(25, policy, 1_000).ms).toBe(Math.round(90_000 + (510_000 * 24) / 99));
    expect(deadlineFor(25, policy, 1_000).at).toBe(1_000 + deadlineFor(25, policy, 1_000).ms);
  });

  test("never falls below the 1-iteration limit", () => {
    expect(deadlineFor(50, { oneIterationMs: 300_000, hundredIterationsMs: 60_000 }, 0).ms).toBe(300_000);
  });

  test("the card says how long it waited, in whole seconds from 10 s", () => {
    expect(deadlineMessage(90_000)).toBe("No answer within 90 s: the search's time limit was reached.");
    expect(deadlineMessage(136_364)).toBe("No answer within 136 s: the search's time limit was reached.");
    expect(deadlineMessage(500)).toBe("No answer within 0.5 s: the search's time limit was reached.");
  });

  test("the environment's defaults: 90 s for 1 iteration, 600 s for 100, a heartbeat every 15 s, 8 s of grace on SIGTERM", () => {
    const env = parseEnv({ DATA_DIR: mkdtempSync(join(tmpdir(), "deadline-env-")) });
    expect([env.SEARCH_DEADLINE_SECONDS, env.SEARCH_DEADLINE_SECONDS_AT_100, env.SSE_HEARTBEAT_SECONDS, env.SHUTDOWN_GRACE_SECONDS]).toEqual([90, 600, 15, 8]);
    const dir = mkdtempSync(join(tmpdir(), "deadline-env-"));
    expect(parseEnv({ DATA_DIR: dir, SEARCH_DEADLINE_SECONDS: "0.25", SHUTDOWN_GRACE_SECONDS: "0" })).toMatchObject({
      SEARCH_DEADLINE_SECONDS: 0.25,
      SHUTDOWN_GRACE_SECONDS: 0,
    });
    expect(() => parseEnv({ DATA_DIR: dir, SEARCH_DEADLINE_SECONDS: "0" })).toThrow(
      "Invalid environment variable SEARCH_DEADLINE_SECONDS: expected a number of seconds above 0 to 86400",
    );
    expect(() => parseEnv({ DATA_DIR: dir, SSE_HEARTBEAT_SECONDS: "soon" })).toThrow("SSE_HEARTBEAT_SECONDS");
    // Bun drops a connection quiet for 30 s: a heartbeat must come sooner.
    expect(() => parseEnv({ DATA_DIR: dir, SSE_HEARTBEAT_SECONDS: "30" })).toThrow("SSE_HEARTBEAT_SECONDS: expected a number of seconds above 0 to 25");
  });
});
