import { useEffect, useRef } from "react";

/**
 * Calls `onChange` after a render in which `key` differs from the last one seen: the pages read
 * again what a run's start or end changes, once, when a poll shows it. An undefined key (data not
 * read yet) is passed over, so a page's first read is not taken for a change.
 */
export function useOnChange(key: string | undefined, onChange: () => void): void {
  const seen = useRef(key);
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => {
    if (key === undefined) return;
    const before = seen.current;
    seen.current = key;
    if (before !== undefined && before !== key) latest.current();
  }, [key]);
}

/** A run's identity and state, as useOnChange follows it ("" for none). */
export function runKey(run: { id: string; status: string } | null | undefined): string {
  return run ? `${run.id}:${run.status}` : "";
}
