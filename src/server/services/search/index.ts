import * as v from "valibot";
import type { SavedSearchList } from "#src/contract/history.ts";
import type { PriceTable } from "#src/contract/prices.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import type { CostEstimate } from "#src/contract/spend.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import { requestedIterations, type ParsedSearchRequest } from "#src/contract/search-request.ts";
import { SearchResult, type SavedSearchResult } from "#src/contract/search-result.ts";
import { ESTIMATE_METHOD, estimateCharge, estimateCost, resultCost, withCost } from "#src/core/cost.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { DomainError } from "../errors.ts";
import type { DomainEvents } from "../events.ts";
import { ownerKey, type Caller, type Owner, type Standing } from "../owner.ts";
import type { Admission, QuotaService } from "../quota/index.ts";
import { describeCharge, type SpendHold, type SpendService } from "../spend/index.ts";
import { INTERRUPTED_MESSAGE } from "./abandoned.ts";
import { createCancelRegistry, SearchCancelledError } from "./cancel.ts";
import { createCheckpoint } from "./checkpoint.ts";
import { createCollectorPacing } from "./collector-pacing.ts";
import { deadlineFor, type DeadlinePolicy } from "./deadline.ts";
import { createRunTracker, RESTART_RETRY_AFTER_S, ServerStoppingError } from "./drain.ts";
import type { InstancePort } from "./instances.ts";
import { AllProvidersFailedError, modesOf, runSearch, type Providers, type RunEvent } from "./run.ts";
import { stoppedResult } from "./stopped.ts";
import type { SearchStore } from "./store.ts";

export type { RunEvent } from "./run.ts";

export type SearchServiceDeps = {
  store: SearchStore;
  quota: QuotaService;
  /** The app instance this runs on: its id goes on the rows it runs, cancels reach the others. */
  instance: InstancePort;
  providers: Providers;
  /** Provider calls in flight at once, per provider. */
  concurrency: number;
  retry?: RetryPolicy;
  /** How long a search may take (SEARCH_DEADLINE_SECONDS and _AT_100). */
  deadline: DeadlinePolicy;
  /** What answers cost (PRICES_FILE or the built-in table, ADR 041). */
  prices: PriceTable;
  /** The daily spend limits: a search that would cross one is refused, a running one stops at it. */
  spend: SpendService;
  /** UNPRICED_MODELS: a model without a price is charged at the table's highest rates, or refused (ADR 052). */
  unpriced?: UnpricedPolicy;
};

/** What a model without a price does to a search or run (UNPRICED_MODELS, ADR 052). */
export type UnpricedPolicy = "charge-ceiling" | "refuse";

/** How long after its deadline an interactive search's hold lapses, if its process died before releasing it. */
export const SEARCH_HOLD_MARGIN_MS = 2 * 60_000;

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
  quota: Standing;
  /**
   * Runs and saves the search. On failure throws DomainError (SEARCH_CANCELLED, PROVIDERS_FAILED,
   * SERVER_STOPPING) carrying the standing after the refund rule: a search that delivered no
   * provider's answer to the caller is given back; one that showed an answer is not.
   */
  run(options?: RunOptions): Promise<{ result: SavedSearchResult; quota: Standing }>;
};

/**
 * The metered search: admit (tier and daily quota) → run → refund, for every way in (the web's
 * two routes, and later the CLI, variant batches, schedules). Callers pass plain values.
 */
export function createSearchService({
  store,
  quota,
  instance,
  providers,
  concurrency,
  retry,
  deadline,
  prices,
  spend,
  unpriced: unpricedPolicy = "charge-ceiling",
}: SearchServiceDeps) {
  const registry = createCancelRegistry();
  instance.onCancel((slot) => registry.cancel(slot));
  const tracker = createRunTracker();
  instance.onDrain((graceMs) => tracker.drain(graceMs));
  const pacing = createCollectorPacing();

  /** The connected providers (or those of `only`) as the estimate sees them. */
  function estimated(only?: readonly ProviderId[]) {
    return providerIdsOf(providers)
      .filter((adapter) => !only || only.includes(adapter.id))
      .map((adapter) => ({
        id: adapter.id,
        model: adapter.model,
        extractionModel: (adapter.extractor ?? adapter).model,
        simulated: adapter.mode === "simulated",
      }));
  }

  /** What a search of N iterations should cost on the connected providers (or those of `only`), and how that is worked out. */
  function estimate(iterations: number, only?: readonly ProviderId[]): CostEstimate {
    const cost = estimateCost(iterations, estimated(only), prices);
    return { iterations, usd: cost.usd, simulated: cost.simulated, ...(cost.unpriced ? { unpriced: cost.unpriced } : {}), method: ESTIMATE_METHOD };
  }

  /**
   * What a search of N iterations is held at when admitted (ADR 052): the estimate, with a model
   * without a price at the table's highest rates; `unpriced` names those models. Under
   * UNPRICED_MODELS=refuse, a search on one is refused (SPEND_LIMIT) until it has a price.
   */
  function charge(iterations: number, only?: readonly ProviderId[], what = "this search"): { usd: number; unpriced: string[]; describe: string } {
    const found = estimateCharge(iterations, estimated(only), prices);
    if (found.unpriced.length && unpricedPolicy === "refuse")
      throw new DomainError(
        "SPEND_LIMIT",
        `No price for ${found.unpriced.join(", ")}, and this service refuses searches on a model without a price (UNPRICED_MODELS=refuse): its operator can add the model to the price table (PRICES_FILE)`,
      );
    return { ...found, describe: describeCharge(what, found.usd, found.unpriced) };
  }

  /**
   * Takes the search from the caller's allowance; throws DomainError when the tier, the day or the
   * spend limits say no. The spend limits are asked first: a refused search takes nothing and calls nothing.
   */
  async function admit(caller: Caller, request: ParsedSearchRequest): Promise<SearchTicket> {
    const iterations = requestedIterations(request);
    const held = charge(iterations);
    // Held until the search ends; if its process dies first, the hold lapses after its deadline and a margin.
    const hold = await spend.admit({
      userId: caller.owner.userId,
      source: "search",
      usd: held.usd,
      holdForMs: deadlineFor(iterations, deadline).ms + SEARCH_HOLD_MARGIN_MS,
      describe: held.describe,
    });
    let admission: Admission;
    try {
      admission = await quota.admit(caller, { iterations, options: request.options });
    } catch (error) {
      await spend.release(hold);
      throw error;
    }
    let used = false;
    return {
      quota: admission.quota,
      async run(options = {}) {
        if (used) throw new Error("a search ticket runs once");
        used = true;
        try {
          return await execute(caller, request, admission, hold, options);
        } finally {
          // Completed, failed, cancelled or interrupted: what it did not spend is given back (or, the database away, lapses at its expiry).
          await spend.release(hold).catch(() => undefined);
        }
      },
    };
  }

  /**
   * Runs and saves a search, by its deadline. A newer search in the same slot, cancel() or the
   * signal (a closed connection) aborts it, on whichever instance it runs: it is saved cancelled
   * with what had finished, and kept in the history when it had an answer (a `cancelled` event,
   * ADR 030). The server stopping (a drain) aborts it too, and keeps what finished, marked interrupted.
   */
  async function execute(
    caller: Caller,
    request: ParsedSearchRequest,
    admission: Admission,
    hold: SpendHold,
    { signal, onEvent, slot }: RunOptions,
  ): Promise<{ result: SavedSearchResult; quota: Standing }> {
    if (tracker.stopping)
      throw new DomainError("SERVER_STOPPING", "The server is restarting: try again in a moment", {
        quota: await admission.refund(),
        retryAfterS: RESTART_RETRY_AFTER_S,
      });
    const key = slot ?? ownerKey(caller.owner);
    const controller = registry.begin(key);
    const untrack = tracker.add(controller);
    const unpace = pacing.begin();
    const onClientGone = () => controller.abort(new SearchCancelledError());
    signal?.addEventListener("abort", onClientGone, { once: true });
    const { query, options } = request;
    const iterations = requestedIterations(request);
    // The row is written, and the slot's run on other instances cancelled, while the providers work.
    const recorded = Promise.all([
      store.begin(caller.owner, query, iterations, options, { instanceId: instance.id, slot: key, charge: admission.charge }),
      instance.broadcast(key),
    ]).then(([id]) => id);
    recorded.catch(() => undefined); // awaited below; this only marks a rejection as handled
    const checkpoint = createCheckpoint(async (partial) => store.checkpoint(await recorded, instance.id, partial), { query, iterations });
    // The refund rule needs to know whether the caller has seen any provider's answer.
    let delivered = false;
    const report = (event: RunEvent) => {
      if (event.type === "result" && event.result.status === "ok") {
        delivered = true;
        checkpoint.shown();
      }
      onEvent?.(event);
    };
    let id: string | undefined;
    try {
      const result = await runSearch({
        query,
        iterations,
        options,
        providers,
        concurrency,
        signal: controller.signal,
        onEvent: report,
        onRun: checkpoint.add,
        retry,
        deadline: deadlineFor(iterations, deadline),
        prices,
        budget: await spend.budget({ userId: caller.owner.userId, source: "search", hold, searchId: () => recorded }),
      });
      await checkpoint.close();
      id = await recorded;
      const saved = { ...result, id, options, createdAt: new Date().toISOString() };
      await store.complete(id, instance.id, saved);
      onEvent?.({ type: "done", id, result: saved });
      return { result: saved, quota: admission.quota };
    } catch (error) {
      await checkpoint.close();
      const interrupted = controller.signal.reason instanceof ServerStoppingError;
      const cancelled = controller.signal.aborted && !interrupted;
      id ??= await recorded;
      const partial = interrupted || cancelled ? checkpoint.snapshot() : undefined;
      const stillOwned = interrupted
        ? await store.fail(id, instance.id, "interrupted", INTERRUPTED_MESSAGE, partial)
        : await store.fail(id, instance.id, cancelled ? "cancelled" : "failed", error instanceof Error ? error.message : String(error), partial);
      // A search that delivered no answer is given back, unless the sweep already settled it (this
      // instance's lease had lapsed, and the row was marked interrupted).
      const standing = delivered ? admission.quota : stillOwned ? await admission.refund() : await quota.standing(caller);
      if (interrupted)
        throw new DomainError("SERVER_STOPPING", "The server restarted during this search: what had finished is saved in your history", { quota: standing });
      if (cancelled && delivered && stillOwned && partial) {
        // What the caller paid for is kept, and shown where they are (the store lists it: it has an answer).
        const kept = {
          ...stoppedResult({ result: partial, query, iterations, options }, "cancelled"),
          id,
          createdAt: new Date().toISOString(),
          status: "cancelled" as const,
        };
        onEvent?.({ type: "cancelled", id, result: kept });
        throw new DomainError("SEARCH_CANCELLED", "Search cancelled", { quota: standing, searchId: id });
      }
      if (cancelled) throw new DomainError("SEARCH_CANCELLED", "Search cancelled", { quota: standing });
      if (error instanceof AllProvidersFailedError) throw new DomainError("PROVIDERS_FAILED", error.message, { quota: standing });
      throw error;
    } finally {
      signal?.removeEventListener("abort", onClientGone);
      registry.end(key, controller);
      untrack();
      unpace();
    }
  }

  /** Cancels the owner's search, here or on another instance; false when none was running. */
  async function cancel(owner: Owner): Promise<boolean> {
    const key = ownerKey(owner);
    const here = registry.cancel(key);
    // Asked before the broadcast: once it lands, the other instance's row no longer says running.
    const elsewhere = !here && (await store.runningElsewhere(key, instance.id, instance.leaseMs));
    await instance.broadcast(key);
    return here || elsewhere;
  }

  /** What a search saved before costs were kept cost, from its answers' usage; null when they do not read. */
  function savedCostUsd(models: unknown, iterationCount: number): number | null {
    const parsed = v.safeParse(SearchResult.entries.models, models);
    return parsed.success ? resultCost({ models: parsed.output, iterationCount }, prices).total.usd : null;
  }

  return {
    admit,
    /** Admit and run in one call, for callers with nothing to tell in between (a CLI, a schedule). */
    search: async (caller: Caller, request: ParsedSearchRequest, options?: RunOptions) => (await admit(caller, request)).run(options),
    cancel,
    estimate,
    charge,
    /** A saved search, its cost worked out from its usage when it was saved before costs were kept. */
    get: async (owner: Owner, id: string) => {
      const result = await store.get(owner, id);
      return result && withCost(result, prices);
    },
    /**
     * A saved search as its owner opens it, or a member of the workspace whose tracker asked it: with
     * the tracker and run that asked it, if one did (a share link's read never has them).
     */
    open: async (owner: Owner, id: string): Promise<SavedSearchResult | null> => {
      let [reader, result] = [owner, await store.get(owner, id)];
      const maker = !result && owner.userId ? await store.askedForTeamOf(owner.userId, id) : null;
      if (maker) [reader, result] = [maker, await store.get(maker, id)];
      const origin = result && (await store.origin(reader, id));
      return result && { ...withCost(result, prices), ...(origin ? { tracker: origin } : {}) };
    },
    /** The history; a search saved before costs were kept gets its cost from its usage where it can. */
    list: async (...args: Parameters<SearchStore["list"]>): Promise<SavedSearchList> => {
      const page = await store.list(...args);
      return {
        ...page,
        searches: page.searches.map(({ savedModels, ...item }) =>
          savedModels === undefined ? item : { ...item, costUsd: savedCostUsd(savedModels, item.iterationCount) },
        ),
      };
    },
    rename: store.rename,
    remove: store.remove,
    latestFor: async (owner: Owner, query: string) => {
      const result = await store.latestFor(owner, query);
      return result && withCost(result, prices);
    },
    modes: (): Record<ProviderId, ProviderMode> => modesOf(providers),
    adopt: (event: DomainEvents["signedIn"]) => store.adopt(event),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

function providerIdsOf(providers: Providers) {
  return Object.values(providers).filter((adapter) => adapter !== null);
}
