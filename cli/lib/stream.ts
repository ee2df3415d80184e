import type { ApiClient, SearchAnswer } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SearchRequest } from "#src/contract/search.ts";
import { CliError } from "./exit.ts";
import { onInterrupt } from "./interrupt.ts";
import type { Progress } from "./progress.ts";

type Counter = { completed: number; failed: number; total: number };

/**
 * Runs a search over the server's event stream, showing each provider's iterations as they
 * complete. Ctrl-C aborts the stream and cancels the search on the server (which then closes its
 * provider connections) before the CLI exits 130.
 */
export async function streamSearch(api: ApiClient, request: SearchRequest, progress: Progress): Promise<SearchAnswer> {
  const controller = new AbortController();
  const stopListening = onInterrupt(async () => {
    controller.abort();
    progress.fail("Cancelled");
    await api.cancelSearch();
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
      }
    }
    throw new CliError("server", "The search ended without a result");
  } catch (error) {
    if (error instanceof ApiError) progress.fail(error.serverMessage ?? error.message);
    throw error;
  } finally {
    stopListening();
  }
}

/** `Searching "q" · ChatGPT 2/5 · Claude 1/5 (1 failed) · Gemini 5/5`. */
function progressLine(query: string, counters: Map<ProviderId, Counter>): string {
  const parts = [...counters].map(([id, c]) => `${providerCatalogue[id].model} ${c.completed}/${c.total}${c.failed ? ` (${c.failed} failed)` : ""}`);
  return [`Searching "${query}"`, ...parts].join(" · ");
}
