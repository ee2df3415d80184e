import type { ParsedSearchRequest, SearchEvent, SearchResult } from "#src/contract/search.ts";
import { requestedIterations } from "#src/contract/search.ts";
import { ownerKey, type Owner } from "#src/server/services/auth/identity.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { createCancelRegistry, SearchCancelledError } from "./cancel.ts";
import { AllProvidersFailedError, runSearch, type Providers } from "./run.ts";
import type { SearchStore } from "./store.ts";

export type SearchServiceDeps = { store: SearchStore; providers: Providers; concurrency: number; retry?: RetryPolicy };

/** Runs, cancels and saves searches on behalf of an owner. */
export function createSearchService({ store, providers, concurrency, retry }: SearchServiceDeps) {
  const registry = createCancelRegistry();

  return {
    providers,

    /**
     * Runs and saves a search. A newer search by the same owner, POST /api/cancel-search or the
     * client going away (`signal`) aborts it; the saved row then says cancelled.
     */
    async run(owner: Owner, request: ParsedSearchRequest, { signal, onEvent }: { signal?: AbortSignal; onEvent?: (e: SearchEvent) => void } = {}): Promise<SearchResult & { id: string }> {
      const key = ownerKey(owner);
      const controller = registry.begin(key);
      const onClientGone = () => controller.abort(new SearchCancelledError());
      signal?.addEventListener("abort", onClientGone, { once: true });
      const iterations = requestedIterations(request);
      // The row is written while the providers work: it is not on the search's critical path.
      const recorded = store.begin(owner, request.query, iterations, request.options);
      recorded.catch(() => undefined); // awaited below; this only marks a rejection as handled
      let id: string | undefined;
      try {
        const result = await runSearch({ query: request.query, iterations, options: request.options, providers, concurrency, signal: controller.signal, onEvent, retry });
        id = await recorded;
        const saved = { ...result, id, options: request.options, createdAt: new Date().toISOString() };
        await store.complete(id, saved);
        onEvent?.({ type: "done", id, result: saved });
        return saved;
      } catch (error) {
        const cancelled = controller.signal.aborted;
        id ??= await recorded;
        await store.fail(id, cancelled ? "cancelled" : "failed", error instanceof Error ? error.message : String(error));
        throw cancelled ? new SearchCancelledError() : error;
      } finally {
        signal?.removeEventListener("abort", onClientGone);
        registry.end(key, controller);
      }
    },

    cancel: (owner: Owner) => registry.cancel(ownerKey(owner)),
    get: store.get,
    list: store.list,
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
export { AllProvidersFailedError, SearchCancelledError };
