import type { ApiClient, SearchAnswer } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SearchRequest } from "#src/contract/search-request.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { visibleText } from "#src/core/display-text.ts";
import { cancelledNote } from "#src/core/progress.ts";
import { CliError } from "./exit.ts";
import { onInterrupt } from "./interrupt.ts";
import type { Progress } from "./progress.ts";

type Counter = { completed: number; failed: number; total: number };

/**
 * Runs a search over the server's event stream, showing each provider's iterations as they
 * complete. Ctrl-C cancels the search on the server (which closes its provider connections and
 * keeps what had finished, ADR 030), tells where that was saved, and the CLI exits 130.
 */
export async function streamSearch(api: ApiClient, request: SearchRequest, progress: Progress): Promise<SearchAnswer> {
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
        const { type: _, ...answer } = event;
        return answer;
      } else if (event.type === "cancelled") {
        const told = `${cancelledNote(event.result)}: saved as ${event.id} (aisc show ${event.id})`;
        // After Ctrl-C errors are not reported (the exit is 130): the saved id is said here, once.
        if (interrupted) {
          progress.succeed();
          process.stderr.write(`${told}\n`);
        } else progress.fail(told);
        throw new ApiError(409, JSON.stringify({ code: "SEARCH_CANCELLED", message: told, id: event.id }), "");
      }
    }
    throw new CliError("server", "The search ended without a result");
  } catch (error) {
    if (error instanceof ApiError) progress.fail(visibleText(error.serverMessage ?? error.message));
    throw error;
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
