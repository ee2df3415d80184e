import { describe, expect, test } from "bun:test";
import { createCollectorPacing } from "#src/server/services/search/collector-pacing.ts";
import { waitFor } from "#tests/support/wait.ts";

describe("the collector is paced while searches run", () => {
  test("asked again and again while any search runs, never once the last has ended or before the first", async () => {
    let collections = 0;
    const pacing = createCollectorPacing(() => collections++, 1);
    await Bun.sleep(20);
    expect(collections).toBe(0);

    const endFirst = pacing.begin();
    const endSecond = pacing.begin();
    await waitFor(() => collections >= 3);
    endFirst();
    endFirst(); // ending twice counts once: the second search still runs
    const during = collections;
    await waitFor(() => collections >= during + 3);

    endSecond();
    const after = collections;
    await Bun.sleep(20);
    expect(collections).toBe(after);

    pacing.begin()(); // a new search starts the pacing again, and ends it
    const again = collections;
    await Bun.sleep(20);
    expect(collections).toBe(again);
  });
});
