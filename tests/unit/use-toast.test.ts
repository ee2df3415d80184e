import { describe, expect, test } from "bun:test"

import {
  reducer,
  TOAST_DURATION,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  type State,
  type ToasterToast,
} from "#web/hooks/use-toast.ts"

function makeToast(id: string, title: string): ToasterToast {
  return { id, title, open: true }
}

describe("toast constants", () => {
  test("a toast stays open for 5 seconds by default", () => {
    expect(TOAST_DURATION).toBe(5000)
  })

  test("only one toast is shown at a time", () => {
    expect(TOAST_LIMIT).toBe(1)
  })

  test("a dismissed toast lingers in state long enough to animate out", () => {
    expect(TOAST_REMOVE_DELAY).toBe(1000000)
  })
})

describe("toast reducer", () => {
  const empty: State = { toasts: [] }

  test("adding a toast shows it", () => {
    const state = reducer(empty, {
      type: "ADD_TOAST",
      toast: makeToast("a", "Saved"),
    })
    expect(state.toasts).toHaveLength(1)
    expect(state.toasts[0]?.title).toBe("Saved")
    expect(state.toasts[0]?.open).toBe(true)
  })

  test("adding a second toast replaces the first (only one is shown)", () => {
    let state = reducer(empty, {
      type: "ADD_TOAST",
      toast: makeToast("a", "First"),
    })
    state = reducer(state, {
      type: "ADD_TOAST",
      toast: makeToast("b", "Second"),
    })
    expect(state.toasts).toHaveLength(1)
    expect(state.toasts[0]?.id).toBe("b")
    expect(state.toasts[0]?.title).toBe("Second")
  })

  test("does not mutate the previous state", () => {
    const before: State = { toasts: [makeToast("a", "First")] }
    reducer(before, { type: "ADD_TOAST", toast: makeToast("b", "Second") })
    expect(before.toasts.map((t) => t.id)).toEqual(["a"])
  })

  test("updating a toast changes its content in place", () => {
    const state = reducer(
      { toasts: [makeToast("a", "Searching…")] },
      { type: "UPDATE_TOAST", toast: { id: "a", title: "Done" } }
    )
    expect(state.toasts).toHaveLength(1)
    expect(state.toasts[0]?.title).toBe("Done")
    expect(state.toasts[0]?.open).toBe(true)
  })

  test("dismissing a toast closes it (open becomes false) but keeps it for the exit animation", () => {
    const state = reducer(
      { toasts: [makeToast("dismiss-1", "Bye")] },
      { type: "DISMISS_TOAST", toastId: "dismiss-1" }
    )
    expect(state.toasts).toHaveLength(1)
    expect(state.toasts[0]?.open).toBe(false)
  })

  test("dismissing another id leaves the shown toast open", () => {
    const state = reducer(
      { toasts: [makeToast("keep-1", "Stay")] },
      { type: "DISMISS_TOAST", toastId: "other-id" }
    )
    expect(state.toasts[0]?.open).toBe(true)
  })

  test("dismissing without an id closes every toast", () => {
    const state = reducer(
      { toasts: [makeToast("all-1", "One")] },
      { type: "DISMISS_TOAST" }
    )
    expect(state.toasts.every((t) => t.open === false)).toBe(true)
  })

  test("removing a toast takes it out of the list", () => {
    const state = reducer(
      { toasts: [makeToast("a", "Gone")] },
      { type: "REMOVE_TOAST", toastId: "a" }
    )
    expect(state.toasts).toHaveLength(0)
  })

  test("removing another id leaves the toast in place", () => {
    const state = reducer(
      { toasts: [makeToast("a", "Stay")] },
      { type: "REMOVE_TOAST", toastId: "zzz" }
    )
    expect(state.toasts.map((t) => t.id)).toEqual(["a"])
  })

  test("removing without an id clears all toasts", () => {
    const state = reducer(
      { toasts: [makeToast("a", "One")] },
      { type: "REMOVE_TOAST" }
    )
    expect(state.toasts).toEqual([])
  })
})
