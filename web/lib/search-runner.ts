import { providerIds, type ProviderId, type SearchRequest, type SearchResult } from "#src/contract/search.ts";
import { PROGRESS_TICK_MS, simulatedProgress } from "#src/core/progress.ts";
import type { ProviderProgress, SearchState } from "#web/hooks/use-search.ts";
import { api, ApiError } from "#web/kit.ts";

type Searching = Extract<SearchState, { status: "searching" }>;
export type Update = (fn: (s: Searching) => Searching) => void;

/**
 * Runs one search for the dashboard, reporting into `update`: live progress from the server's
 * event stream, or, when the stream cannot be read, a plain request with estimated progress.
 * Loaded when the first search starts (ADR 006).
 */
export async function runDashboardSearch(request: SearchRequest & { iterations: number }, signal: AbortSignal, update: Update): Promise<SearchResult & { id: string }> {
  let result: (SearchResult & { id: string }) | undefined;
  try {
    for await (const event of api.searchStream(request, signal)) {
      if (event.type === "started") update((s) => ({ ...s, modes: event.modes }));
      else if (event.type === "progress") update((s) => ({ ...s, progress: { ...s.progress, [event.provider]: { completed: event.completed, failed: event.failed, total: event.total } } }));
      else if (event.type === "result") update((s) => ({ ...s, partial: { ...s.partial, [event.provider]: event.result } }));
      else if (event.type === "done") result = { ...event.result, id: event.id };
      else if (event.type === "error") throw new ApiError(event.status, JSON.stringify({ message: event.message }), "");
    }
  } catch (error) {
    // A refusal or failure reported by the server is final; a stream that could not be read falls back.
    if (error instanceof ApiError || signal.aborted) throw error;
    result = await fallbackSearch(request, signal, update);
  }
  if (!result) throw new Error("Search failed");
  return result;
}

/** Without the stream: one request, with counters estimated on the spec's 1800 ms clock. */
async function fallbackSearch(
  request: SearchRequest & { iterations: number },
  signal: AbortSignal,
  update: Update,
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
