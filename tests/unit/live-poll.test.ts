import { describe, expect, test } from "bun:test";
import { DUE_GRACE_MS, DUE_SOON_MS, FAST_POLL_MS, listPollInterval, pollInterval, SLOW_POLL_MS } from "#web/lib/live-poll.ts";

const NOW = Date.parse("2026-12-07T09:00:00Z");
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

describe("how often an open tracker page reads again", () => {
  test("fast while a run is queued or running, whatever the schedule says", () => {
    expect(pollInterval({ live: true, nextRunAt: null }, NOW)).toBe(FAST_POLL_MS);
    expect(pollInterval({ live: true, nextRunAt: at(6 * 3_600_000), paused: true }, NOW)).toBe(FAST_POLL_MS);
  });

  test("fast from a minute before a run is due until it is late enough to be a stall", () => {
    expect(pollInterval({ live: false, nextRunAt: at(DUE_SOON_MS + 1) }, NOW)).toBe(SLOW_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: at(DUE_SOON_MS) }, NOW)).toBe(FAST_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: at(0) }, NOW)).toBe(FAST_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: at(-DUE_GRACE_MS + 1) }, NOW)).toBe(FAST_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: at(-DUE_GRACE_MS) }, NOW)).toBe(SLOW_POLL_MS);
  });

  test("slow when nothing runs or is due: an hour away, paused, or a schedule that does not fire again", () => {
    expect(pollInterval({ live: false, nextRunAt: at(3_600_000) }, NOW)).toBe(SLOW_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: at(10_000), paused: true }, NOW)).toBe(SLOW_POLL_MS);
    expect(pollInterval({ live: false, nextRunAt: null }, NOW)).toBe(SLOW_POLL_MS);
    expect(SLOW_POLL_MS).toBeGreaterThan(FAST_POLL_MS);
  });

  test("a list reads as often as its busiest tracker asks, an empty one slowly", () => {
    const idle = { live: false, nextRunAt: at(3_600_000) };
    expect(listPollInterval([], NOW)).toBe(SLOW_POLL_MS);
    expect(listPollInterval([idle, idle], NOW)).toBe(SLOW_POLL_MS);
    expect(listPollInterval([idle, { live: true, nextRunAt: null }], NOW)).toBe(FAST_POLL_MS);
    expect(listPollInterval([idle, { live: false, nextRunAt: at(30_000) }], NOW)).toBe(FAST_POLL_MS);
  });
});
