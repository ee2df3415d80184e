import { ApiError } from "#src/client/errors.ts";
import type { ApiClient } from "#src/client/api.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SavedSearchResult, SearchRequest } from "#src/contract/search.ts";
import { cancelledNote } from "#src/core/progress.ts";
import { CliError } from "./exit.ts";
import { onInterrupt } from "./interrupt.ts";
import type { Progress } from "./progress.ts";

export type StreamedSearch = { result: SavedSearchResult; remainingSearches?: number };
type Counter = { completed: number; failed: number; total: number };

/**
 * Runs a search over the server's event stream, showing each provider's iterations as they
 * complete. Ctrl-C cancels the search on the server (which closes its provider connections and
 * keeps what had finished, ADR 030), tells where that was saved, and the CLI exits 130.
 */
export async function streamSearch(api: ApiClient, request: SearchRequest, progress: Progress): Promise<StreamedSearch> {
  const controller = new AbortController();
  let interrupted = false;
  let answered = () => {};
  const lastWord = new Promise<void>((resolve) => (answered = resolve));
  const stopListening = onInterrupt(async () => {
    interrupted = true;
    progress.update("Cancelling…");
    // Asked of the server rather than by closing the stream: it answers on the stream with what it
    // kept. The interrupt handler waits a few seconds at most.
    const { cancelled } = await api.cancelSearch().catch(() => ({ cancelled: false }));
    if (cancelled) await lastWord;
    controller.abort();
  });
  const counters = new Map<ProviderId, Counter>();
  try {
    for await (const event of api.searchStream(request, controller.signal)) {
      if (event.type === "started") {
        for (const id of providerIds) if (event.modes[id] !== "off") counters.set(id, { completed: 0, failed: 0, total: event.iterations });
        progress.update(progressLine(request.query, counters));
      } else if (event.type === "progress") {
        counters.set(event.provider, event);
        progress.update(progressLine(request.query, counters));
      } else if (event.type === "done") {
        progress.succeed(progressLine(request.query, counters));
        return { result: event.result, ...(event.remainingSearches === undefined ? {} : { remainingSearches: event.remainingSearches }) };
      } else if (event.type === "cancelled") {
        const told = `${cancelledNote(event.result)}: saved as ${event.id} (aisc show ${event.id})`;
        // After Ctrl-C errors are not reported (the exit is 130): the saved id is said here, once.
        if (interrupted) {
          progress.succeed();
          process.stderr.write(`${told}\n`);
        } else progress.fail(told);
        throw new ApiError(409, JSON.stringify({ message: told }), "");
      } else if (event.type === "error") {
        progress.fail(event.message);
        throw new ApiError(event.status, JSON.stringify({ message: event.message }), "");
      }
    }
    throw new CliError("server", "The search ended without a result");
  } finally {
    answered();
    stopListening();
  }
}

/** `Searching "q" · ChatGPT 2/5 · Claude 1/5 (1 failed) · Gemini 5/5`. */
function progressLine(query: string, counters: Map<ProviderId, Counter>): string {
  const parts = [...counters].map(([id, c]) => `${providerCatalogue[id].model} ${c.completed}/${c.total}${c.failed ? ` (${c.failed} failed)` : ""}`);
  return [`Searching "${query}"`, ...parts].join(" · ");
}
