import { useCallback, useSyncExternalStore } from "react";

/** This browser's answer to "Hide tracker runs" in the history, once the person has given one. */
const KEY = "aisc.history.hideTrackerRuns";
const listeners = new Set<() => void>();

/**
 * "Hide tracker runs", remembered in this browser (no per-user preference is kept on the server).
 * `null` until the person ticks or unticks it, and always on the server and during hydration,
 * so the HTML and the first render agree; the stored answer follows straight after.
 */
export function useHideTrackerRuns(): [boolean | null, (hide: boolean) => void] {
  const stored = useSyncExternalStore(subscribe, read, () => null);
  const remember = useCallback((hide: boolean) => {
    try {
      localStorage.setItem(KEY, String(hide));
    } catch {
      // Storage refused (private mode, full): the choice lasts until the page is left.
      fallback = hide;
    }
    for (const listener of listeners) listener();
  }, []);
  return [stored, remember];
}

let fallback: boolean | null = null;

function read(): boolean | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === null ? fallback : value === "true";
  } catch {
    return fallback;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's choice applies here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}
