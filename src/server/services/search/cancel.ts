/**
 * The in-flight search of each caller on this instance. Starting a new one aborts the previous
 * (spec §4), and POST /api/cancel-search aborts it; the AbortSignal reaches the SDKs, which close
 * their sockets. Other instances are reached by a notice (./instances.ts).
 */
export function createCancelRegistry() {
  const inFlight = new Map<string, AbortController>();
  return {
    /** Aborts the caller's previous search, if any, and registers a new one. */
    begin(key: string): AbortController {
      inFlight.get(key)?.abort(new SearchCancelledError());
      const controller = new AbortController();
      inFlight.set(key, controller);
      return controller;
    },
    end(key: string, controller: AbortController): void {
      if (inFlight.get(key) === controller) inFlight.delete(key);
    },
    cancel(key: string): boolean {
      const controller = inFlight.get(key);
      if (!controller) return false;
      controller.abort(new SearchCancelledError());
      inFlight.delete(key);
      return true;
    },
  };
}

export class SearchCancelledError extends Error {
  override name = "SearchCancelledError";
  constructor() {
    super("Search cancelled");
  }
}
