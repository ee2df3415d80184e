import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { createCollectorPacing } from "#src/server/services/search/collector-pacing.ts";

/** On fake timers: the test moves time, so "never asked" means no tick could have asked. */
describe("the collector is paced while searches run", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("asked again and again while any search runs, never once the last has ended or before the first", () => {
    let collections = 0;
    const pacing = createCollectorPacing(() => collections++, 10);
    jest.advanceTimersByTime(1_000);
    expect(collections).toBe(0);

    const endFirst = pacing.begin();
    const endSecond = pacing.begin();
    jest.advanceTimersByTime(30);
    expect(collections).toBe(3);
    endFirst();
    endFirst(); // ending twice counts once: the second search still runs
    jest.advanceTimersByTime(30);
    expect(collections).toBe(6);

    endSecond();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(collections).toBe(6);

    pacing.begin()(); // a new search starts the pacing again, and ends it
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(1_000);
    expect(collections).toBe(6);
  });
});
