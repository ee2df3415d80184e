import { useCallback, useEffect, useRef, useState } from "react";
import type { SearchRequest } from "#src/contract/search-request.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { beginSearch, failSearch, reduceSearch, type DashboardEvent, type SearchState } from "#web/lib/search-state.ts";
import { api, ApiError } from "#web/shared-chunk.ts";

export type UseSearchOptions = {
  onDone?: (result: SavedSearchResult) => void;
  /** The server said how many free searches are left (on start, at the end, or with a refusal). */
  onRemaining?: (remaining: number) => void;
};

/**
 * Runs searches for the dashboard (web/lib/search-runner.ts yields the events, reduceSearch
 * builds the state); the previous search is cancelled before a new one and when the page goes
 * away (spec §4).
 */
export function useSearch(options: UseSearchOptions = {}) {
  const [state, setState] = useState<SearchState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    const leave = () => {
      if (controller.current) navigator.sendBeacon("/api/cancel-search");
    };
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      controller.current?.abort();
    };
  }, []);

  const start = useCallback(async (request: SearchRequest & { iterations: number }) => {
    if (controller.current) {
      controller.current.abort();
      await api.cancelSearch().catch(() => undefined);
    }
    const mine = new AbortController();
    controller.current = mine;
    setState(beginSearch(request, Date.now()));
    // Only the current search may change the state; the check is made when the event arrives.
    const apply = (event: DashboardEvent) => {
      if (controller.current === mine) setState((s) => reduceSearch(s, event));
    };

    try {
      const { runDashboardSearch } = await import("#web/lib/search-runner.ts");
      for await (const event of runDashboardSearch(request, mine.signal)) {
        if (controller.current !== mine) return;
        if ("remainingSearches" in event && event.remainingSearches !== undefined) optionsRef.current.onRemaining?.(event.remainingSearches);
        apply(event);
        if (event.type === "done" || event.type === "cancelled") {
          controller.current = null;
          optionsRef.current.onDone?.(event.result);
          return;
        }
      }
    } catch (error) {
      if (mine.signal.aborted || controller.current !== mine) return;
      controller.current = null;
      const remaining = error instanceof ApiError ? error.remainingSearches : undefined;
      if (remaining !== undefined) optionsRef.current.onRemaining?.(remaining);
      setState((s) => failSearch(s, error instanceof Error ? error : new Error(String(error))));
    }
  }, []);

  /**
   * Stops the search in flight: the server is told, stops it and answers on the search's own
   * connection with what it kept, which stays on the page with its note (ADR 030); a search that
   * had no answer yet kept nothing, and the view resets. When the server has no such search (it
   * had not started yet), the connection is closed, which stops it too.
   */
  const cancel = useCallback(() => {
    const mine = controller.current;
    if (!mine) return;
    setState((s) => (s.status === "searching" ? { ...s, cancelling: true } : s));
    const giveUp = () => {
      if (controller.current !== mine) return;
      mine.abort();
      controller.current = null;
      setState({ status: "idle" });
    };
    api.cancelSearch().then(({ cancelled }) => cancelled || giveUp(), giveUp);
  }, []);

  const reset = useCallback(() => setState({ status: "idle" }), []);
  return { state, start, cancel, reset };
}
