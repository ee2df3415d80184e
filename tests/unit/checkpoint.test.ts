import { describe, expect, test } from "bun:test";
import type { SearchResult } from "#src/contract/search-result.ts";
import { createCheckpoint } from "#src/server/services/search/checkpoint.ts";
import { decodeNotice, encodeNotice } from "#src/server/services/search/instances.ts";
import { modelResult } from "#tests/support/results.ts";

describe("a running search's checkpoint", () => {
  /** A save that holds each write until the test lets it land. */
  function slowSave() {
    const saved: SearchResult[] = [];
    const held: Array<() => void> = [];
    const save = (partial: SearchResult) => new Promise<void>((resolve) => held.push(() => (saved.push(partial), resolve())));
    const land = async () => {
      held.shift()?.();
      await Bun.sleep(0);
    };
    return { saved, held, save, land };
  }

  test("an answer shown to the caller is written at once; other runs wait for the interval; one write at a time, the last one after it", async () => {
    const { saved, held, save, land } = slowSave();
    const checkpoint = createCheckpoint(save, { query: "q", iterations: 1 }, 60_000);
    checkpoint.add("openai", modelResult("openai", { status: "error", error: "rate limited" }));
    expect(held).toHaveLength(0);
    checkpoint.add("anthropic", modelResult("anthropic"));
    checkpoint.shown();
    expect(held).toHaveLength(1);
    checkpoint.add("gemini", modelResult("gemini"));
    checkpoint.shown();
    expect(held).toHaveLength(1); // the next waits for this one
    await land();
    expect(held).toHaveLength(1);
    await land();
    expect(saved.map((partial) => Object.keys(partial.models))).toEqual([
      ["openai", "anthropic"],
      ["openai", "anthropic", "gemini"],
    ]);
  });

  test("close() waits for the write in flight and stops any later one", async () => {
    const { held, save, land } = slowSave();
    const checkpoint = createCheckpoint(save, { query: "q", iterations: 1 }, 0);
    checkpoint.add("openai", modelResult("openai"));
    checkpoint.shown();
    checkpoint.add("gemini", modelResult("gemini"));
    let closed = false;
    const closing = checkpoint.close().then(() => (closed = true));
    // Every callback already queued has run: a close() that did not wait for the write would be done.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    await land();
    await closing;
    // A later write would be due at once (interval 0): its timer was set before this one, so it fires first.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(held).toHaveLength(0);
  });
});

describe("cancel notices", () => {
  test("round-trip, and anything else sent on the channel is ignored", () => {
    expect(decodeNotice(encodeNotice({ from: "a", slot: "user:1" }))).toEqual({ from: "a", slot: "user:1" });
    for (const junk of ["", "null", "42", "{", '{"slot":"x"}', '{"from":1,"slot":"x"}']) expect(decodeNotice(junk)).toBeNull();
  });
});
