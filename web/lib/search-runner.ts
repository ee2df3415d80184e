import { perProvider, providerIds } from "#src/contract/providers.ts";
import type { SearchRequest } from "#src/contract/search-request.ts";
import { abortableSleep } from "#src/core/backoff.ts";
import { PROGRESS_TICK_MS, simulatedProgress } from "#src/core/progress.ts";
import { api, ApiError } from "#web/shared-chunk.ts";
import type { DashboardEvent } from "./search-state.ts";

/**
 * One search for the dashboard, as events: the server's live stream, or, when the stream cannot
 * be read, a plain request with progress estimated on the spec's 1800 ms clock. A refusal or a
 * failure the server reports (an ApiError, from the stream or the request) is final. Loaded when
 * the first search starts (ADR 006).
 */
export async function* runDashboardSearch(request: SearchRequest & { iterations: number }, signal: AbortSignal): AsyncGenerator<DashboardEvent> {
  try {
    for await (const event of api.searchStream(request, signal)) {
      yield event;
      if (event.type === "done" || event.type === "cancelled") return;
    }
  } catch (error) {
    if (error instanceof ApiError || signal.aborted) throw error;
    // The stream could not be read (a proxy that buffers it, a dropped connection): fall back.
    yield* fallbackSearch(request, signal);
    return;
  }
  throw new Error("Search failed");
}

/** Without the stream: one request, and estimated progress until it answers. */
async function* fallbackSearch(request: SearchRequest & { iterations: number }, signal: AbortSignal): AsyncGenerator<DashboardEvent> {
  const started = Date.now();
  const answer = api.search(request);
  answer.catch(() => undefined); // raced below; this only marks a rejection as handled
  const counters = perProvider(() => 0);
  for (;;) {
    signal.throwIfAborted();
    const settled = await Promise.race([answer, tick(signal)]).catch(async (error: unknown) => {
      // Cancelled after an answer: the 409 names what was kept, shown as the stream would show it (ADR 030).
      const kept = error instanceof ApiError ? error.json?.id : undefined;
      if (typeof kept !== "string") throw error;
      return { cancelled: await api.getSearch(kept) };
    });
    if (settled && "cancelled" in settled) {
      yield { type: "cancelled", id: settled.cancelled.id, result: settled.cancelled };
      return;
    }
    if (settled) {
      yield { type: "done", ...settled };
      return;
    }
    for (const provider of providerIds) {
      counters[provider] = simulatedProgress(Date.now() - started, request.iterations, counters[provider]);
      yield { type: "progress", provider, completed: counters[provider], failed: 0, total: request.iterations, estimated: true };
    }
  }
}

/** Resolves with nothing after one progress tick, or as soon as the search is cancelled. */
function tick(signal: AbortSignal): Promise<undefined> {
  return abortableSleep(PROGRESS_TICK_MS, signal).then(() => undefined);
}
