import type { ProviderId } from "#src/contract/providers.ts";
import { requestedIterations, type ParsedSearchRequest, type ProviderMode, type SavedSearchResult } from "#src/contract/search.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { DomainError } from "../errors.ts";
import type { DomainEvents } from "../events.ts";
import { ownerKey, type Caller, type Owner } from "../owner.ts";
import type { Quota, QuotaService } from "../quota/index.ts";
import { createCancelRegistry, SearchCancelledError } from "./cancel.ts";
import { AllProvidersFailedError, modesOf, runSearch, type Providers, type RunEvent } from "./run.ts";
import type { SearchStore } from "./store.ts";

export type { RunEvent } from "./run.ts";

export type SearchServiceDeps = {
  store: SearchStore;
  quota: QuotaService;
  providers: Providers;
  /** Provider calls in flight at once, per provider. */
  concurrency: number;
  retry?: RetryPolicy;
};

export type RunOptions = {
  /** The caller went away (a closed connection): the search is cancelled. */
  signal?: AbortSignal;
  /** Progress, each provider's first answer, and the saved result, as they happen. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Which other searches this one takes the place of: by default the owner's (a new search on the
   * dashboard cancels the previous one, spec §4); a batch item has a key of its own, so the
   * items of a batch never cancel each other or the owner's dashboard search.
   */
  slot?: string;
};

/** A search the quota has admitted, ready to run once. */
export type SearchTicket = {
  /** The caller's standing with this search taken from it. */
  quota: Quota;
  /**
   * Runs and saves the search. On failure throws DomainError (SEARCH_CANCELLED, PROVIDERS_FAILED)
   * carrying the standing after the refund rule: a search that delivered no provider's answer to
   * the caller is given back; one that showed an answer is not.
   */
  run(options?: RunOptions): Promise<{ result: SavedSearchResult; quota: Quota }>;
};

/**
 * The metered search: admit (tier and daily quota) → run → refund, for every way in (the web's
 * two routes, and later the CLI, variant batches, schedules). Callers pass plain values.
 */
export function createSearchService({ store, quota, providers, concurrency, retry }: SearchServiceDeps) {
  const registry = createCancelRegistry();

  /** Takes the search from the caller's allowance; throws DomainError when the tier or the day says no. */
  async function admit(caller: Caller, request: ParsedSearchRequest): Promise<SearchTicket> {
    const admission = await quota.admit(caller, { iterations: requestedIterations(request) });
    let used = false;
    return {
      quota: admission.quota,
      async run({ signal, onEvent, slot } = {}) {
        if (used) throw new Error("a search ticket runs once");
        used = true;
        // The refund rule needs to know whether the caller has seen any provider's answer.
        let delivered = false;
        const report = (event: RunEvent) => {
          if (event.type === "result" && event.result.status === "ok") delivered = true;
          onEvent?.(event);
        };
        try {
          const result = await execute(caller.owner, request, { signal, onEvent: report, slot });
          return { result, quota: admission.quota };
        } catch (error) {
          const standing = delivered ? admission.quota : await admission.refund();
          if (error instanceof SearchCancelledError) throw new DomainError("SEARCH_CANCELLED", "Search cancelled", { quota: standing });
          if (error instanceof AllProvidersFailedError) throw new DomainError("PROVIDERS_FAILED", error.message, { quota: standing });
          throw error;
        }
      },
    };
  }

  /**
   * Runs and saves a search. A newer search by the same owner, cancel() or the signal aborts it;
   * the saved row then says cancelled.
   */
  async function execute(owner: Owner, request: ParsedSearchRequest, { signal, onEvent, slot }: RunOptions): Promise<SavedSearchResult> {
    const key = slot ?? ownerKey(owner);
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
  }

  return {
    admit,
    /** Admit and run in one call, for callers with nothing to tell in between (a CLI, a schedule). */
    search: async (caller: Caller, request: ParsedSearchRequest, options?: RunOptions) => (await admit(caller, request)).run(options),
    cancel: (owner: Owner) => registry.cancel(ownerKey(owner)),
    get: store.get,
    list: store.list,
    latestFor: store.latestFor,
    modes: (): Record<ProviderId, ProviderMode> => modesOf(providers),
    adopt: (event: DomainEvents["signedIn"]) => store.adopt(event),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
