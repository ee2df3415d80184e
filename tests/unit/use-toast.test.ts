import { afterEach, beforeEach, describe, expect, jest, test } from "bun:test";
import { createElement } from "react";
import { renderToString } from "react-dom/server";

import { reducer, toast, TOAST_REMOVE_DELAY, useToast, type State, type ToasterToast } from "#web/hooks/use-toast.ts";

function makeToast(id: string, title: string): ToasterToast {
  return { id, title, open: true };
}

/**
 * What a component using useToast() gets when it renders now (callbacks included, as the Toaster
 * receives them): the app-wide store that toast() dispatches to. How long a toast stays open is
 * Radix's timer, tested in Chromium: tests/e2e/toasts.e2e.test.ts.
 */
function readStore(): ReturnType<typeof useToast> {
  let seen: ReturnType<typeof useToast> | undefined;
  renderToString(
    createElement(function Probe() {
      seen = useToast();
      return null;
    }),
  );
  return seen!;
}

/** What a reader of the store would show: each toast's id, title and whether it is open. */
function shownToasts(): Array<Pick<ToasterToast, "id" | "title" | "open">> {
  return readStore().toasts.map(({ id, title, open }) => ({ id, title, open }));
}

describe("toast()", () => {
  // A fake clock for the removal of closed toasts. Each test leaves the store empty: it is one
  // per process, and a server rendering in this process (e2e files) would render its toasts.
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    readStore().dismiss();
    jest.advanceTimersByTime(TOAST_REMOVE_DELAY);
    jest.useRealTimers();
  });

  test("a component using useToast() sees the new toast, open", () => {
    const shown = toast({ title: "Saved", description: "Your search was saved" });
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Saved", open: true }]);
  });

  test("a second toast replaces the first: only the newest is shown", () => {
    const first = toast({ title: "First" });
    const second = toast({ title: "Second" });
    expect(second.id).not.toBe(first.id);
    expect(shownToasts()).toEqual([{ id: second.id, title: "Second", open: true }]);
  });

  test("when the toast reports itself closed (its timer ran out, or the close button), it is shown closed", () => {
    const shown = toast({ title: "Bye" });
    const [current] = readStore().toasts;
    current?.onOpenChange?.(false);
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Bye", open: false }]);
  });

  test("update() changes the shown toast's text in place; dismiss() closes it", () => {
    const shown = toast({ title: "Searching…" });
    shown.update({ id: shown.id, title: "Done" });
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Done", open: true }]);
    shown.dismiss();
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Done", open: false }]);
  });

  test("a closed toast stays listed (for its exit animation) until TOAST_REMOVE_DELAY has passed, then is removed", () => {
    const shown = toast({ title: "Bye" });
    shown.dismiss();
    jest.advanceTimersByTime(TOAST_REMOVE_DELAY - 1);
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Bye", open: false }]);
    jest.advanceTimersByTime(1);
    expect(shownToasts()).toEqual([]);
  });

  test("an open toast is not removed however long it has been shown (closing it is the Toaster's timer)", () => {
    const shown = toast({ title: "Still here" });
    jest.advanceTimersByTime(TOAST_REMOVE_DELAY * 2);
    expect(shownToasts()).toEqual([{ id: shown.id, title: "Still here", open: true }]);
  });
});

describe("toast reducer", () => {
  const empty: State = { toasts: [] };

  test("adding a toast shows it", () => {
    const state = reducer(empty, {
      type: "ADD_TOAST",
      toast: makeToast("a", "Saved"),
    });
    expect(state.toasts).toHaveLength(1);
    expect(state.toasts[0]?.title).toBe("Saved");
    expect(state.toasts[0]?.open).toBe(true);
  });

  test("adding a second toast replaces the first (only one is shown)", () => {
    let state = reducer(empty, {
      type: "ADD_TOAST",
      toast: makeToast("a", "First"),
    });
    state = reducer(state, {
      type: "ADD_TOAST",
      toast: makeToast("b", "Second"),
    });
    expect(state.toasts).toHaveLength(1);
    expect(state.toasts[0]?.id).toBe("b");
    expect(state.toasts[0]?.title).toBe("Second");
  });

  test("does not mutate the previous state", () => {
    const before: State = { toasts: [makeToast("a", "First")] };
    reducer(before, { type: "ADD_TOAST", toast: makeToast("b", "Second") });
    expect(before.toasts.map((t) => t.id)).toEqual(["a"]);
  });

  test("updating a toast changes its content in place", () => {
    const state = reducer({ toasts: [makeToast("a", "Searching…")] }, { type: "UPDATE_TOAST", toast: { id: "a", title: "Done" } });
    expect(state.toasts).toHaveLength(1);
    expect(state.toasts[0]?.title).toBe("Done");
    expect(state.toasts[0]?.open).toBe(true);
  });

  test("dismissing a toast closes it (open becomes false) but keeps it for the exit animation", () => {
    const state = reducer({ toasts: [makeToast("dismiss-1", "Bye")] }, { type: "DISMISS_TOAST", toastId: "dismiss-1" });
    expect(state.toasts).toHaveLength(1);
    expect(state.toasts[0]?.open).toBe(false);
  });

  test("dismissing another id leaves the shown toast open", () => {
    const state = reducer({ toasts: [makeToast("keep-1", "Stay")] }, { type: "DISMISS_TOAST", toastId: "other-id" });
    expect(state.toasts[0]?.open).toBe(true);
  });

  test("dismissing without an id closes every toast", () => {
    const state = reducer({ toasts: [makeToast("all-1", "One")] }, { type: "DISMISS_TOAST" });
    expect(state.toasts.every((t) => t.open === false)).toBe(true);
  });

  test("removing a toast takes it out of the list", () => {
    const state = reducer({ toasts: [makeToast("a", "Gone")] }, { type: "REMOVE_TOAST", toastId: "a" });
    expect(state.toasts).toHaveLength(0);
  });

  test("removing another id leaves the toast in place", () => {
    const state = reducer({ toasts: [makeToast("a", "Stay")] }, { type: "REMOVE_TOAST", toastId: "zzz" });
    expect(state.toasts.map((t) => t.id)).toEqual(["a"]);
  });

  test("removing without an id clears all toasts", () => {
    const state = reducer({ toasts: [makeToast("a", "One")] }, { type: "REMOVE_TOAST" });
    expect(state.toasts).toEqual([]);
  });
});
