import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiError } from "#src/client/errors.ts";
import type { ModelResult, ProviderMode, SearchRequest, SearchResult } from "#src/contract/search.ts";
import { api, providerIds } from "#web/kit.ts";
import type { ProviderId } from "#src/contract/constants.ts";

export type ProviderProgress = { completed: number; failed: number; total: number };

export type SearchState =
  | { status: "idle" }
  | {
      status: "searching";
      query: string;
      iterations: number;
      startedAt: number;
      progress: Record<ProviderId, ProviderProgress>;
      /** Each provider's first answer, shown as a card before the whole search is done. */
      partial: Partial<Record<ProviderId, ModelResult>>;
      modes?: Record<ProviderId, ProviderMode>;
      /** false when the live stream was unavailable and the counters are estimated. */
      live: boolean;
    }
  | { status: "done"; result: SearchResult & { id: string } }
  | { status: "failed"; error: ApiError | Error };

/**
 * Runs searches for the dashboard: live progress from the server's event stream, falling back
 * to a plain request with estimated progress; the previous search is cancelled before a new one
 * and when the page goes away (spec §4).
 */
export function useSearch({ onDone }: { onDone?: (result: SearchResult & { id: string }) => void } = {}) {
  const [state, setState] = useState<SearchState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);
  const onDoneRef = useRef(onDone);
  onDoneRef.current = onDone;

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
    const zero = () => Object.fromEntries(providerIds.map((id) => [id, { completed: 0, failed: 0, total: request.iterations }])) as Record<ProviderId, ProviderProgress>;
    setState({ status: "searching", query: request.query, iterations: request.iterations, startedAt: Date.now(), progress: zero(), partial: {}, live: true });
    const update = (fn: (s: Extract<SearchState, { status: "searching" }>) => Extract<SearchState, { status: "searching" }>) =>
      setState((s) => (s.status === "searching" && controller.current === mine ? fn(s) : s));

    try {
      const { runDashboardSearch } = await import("#web/lib/search-runner.ts");
      const result = await runDashboardSearch(request, mine.signal, update);
      if (controller.current !== mine) return;
      controller.current = null;
      setState({ status: "done", result });
      onDoneRef.current?.(result);
    } catch (error) {
      if (mine.signal.aborted || controller.current !== mine) return;
      controller.current = null;
      setState({ status: "failed", error: error instanceof Error ? error : new Error(String(error)) });
    }
  }, []);

  /** Stops the search in flight: its connection closes, the server is told, the view resets. */
  const cancel = useCallback(() => {
    controller.current?.abort();
    controller.current = null;
    void api.cancelSearch().catch(() => undefined);
    setState({ status: "idle" });
  }, []);

  const reset = useCallback(() => setState({ status: "idle" }), []);
  return { state, start, cancel, reset };
}
