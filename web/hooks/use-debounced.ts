import { useEffect, useState } from "react";

/**
 * `value` once it has held still for `delayMs` (its first value at once): a server call made from
 * what a person types waits for a pause, not every keystroke. `key` says when it changed (objects
 * are new every render).
 */
export function useDebounced<T>(value: T, delayMs: number, key: string): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
    // `value` is new every render; `key` is what changes with it.
  }, [key, delayMs]);
  return settled;
}
