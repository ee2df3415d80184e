import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "#src/client/http.ts";
import { providerIds, type ModelResult, type ProviderId, type ProviderMode, type SearchRequest, type SearchResult } from "#src/contract/search.ts";
import { PROGRESS_TICK_MS, simulatedProgress } from "#src/core/progress.ts";
import { api } from "#web/lib/api.ts";

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
      let result: (SearchResult & { id: string }) | undefined;
      try {
        for await (const event of api.searchStream(request, mine.signal)) {
          if (event.type === "started") update((s) => ({ ...s, modes: event.modes }));
          else if (event.type === "progress") update((s) => ({ ...s, progress: { ...s.progress, [event.provider]: { completed: event.completed, failed: event.failed, total: event.total } } }));
          else if (event.type === "result") update((s) => ({ ...s, partial: { ...s.partial, [event.provider]: event.result } }));
          else if (event.type === "done") result = { ...event.result, id: event.id };
          else if (event.type === "error") throw new ApiError(event.status, JSON.stringify({ message: event.message }), "");
        }
      } catch (error) {
        // A refusal or failure reported by the server is final; a stream that could not be read falls back.
        if (error instanceof ApiError || mine.signal.aborted) throw error;
        result = await fallbackSearch(request, mine.signal, update);
      }
      if (!result) throw new Error("Search failed");
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

  const reset = useCallback(() => setState({ status: "idle" }), []);
  return { state, start, reset };
}

/** Without the stream: one request, with counters estimated on the spec's 1800 ms clock. */
async function fallbackSearch(
  request: SearchRequest & { iterations: number },
  signal: AbortSignal,
  update: (fn: (s: Extract<SearchState, { status: "searching" }>) => Extract<SearchState, { status: "searching" }>) => void,
) {
  const started = Date.now();
  const timer = setInterval(() => {
    update((s) => ({
      ...s,
      live: false,
      progress: Object.fromEntries(
        providerIds.map((id) => [id, { ...s.progress[id], completed: simulatedProgress(Date.now() - started, request.iterations, s.progress[id].completed) }]),
      ) as Record<ProviderId, ProviderProgress>,
    }));
  }, PROGRESS_TICK_MS);
  try {
    signal.throwIfAborted();
    return await api.search(request);
  } finally {
    clearInterval(timer);
  }
}
