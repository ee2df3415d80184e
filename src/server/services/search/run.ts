import { perProvider, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import type { SearchEvent } from "#src/contract/search-events.ts";
import type { SearchOptions } from "#src/contract/search-request.ts";
import { offModelResult, type ModelResult, type SearchResult } from "#src/contract/search-result.ts";
import type { PriceTable } from "#src/contract/prices.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";
import { noKeyFailure } from "#src/server/services/providers/failure.ts";
import { answerCharge, answerCost } from "#src/core/cost.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { ProviderAdapter } from "#src/server/services/providers/types.ts";
import type { SpendBudget } from "../spend/index.ts";
import type { Deadline } from "./deadline.ts";
import { createLimiter } from "./limit.ts";
import { askProvider, failedCard, readAnswer, type ProviderRun } from "./run-provider.ts";

/** Every catalogue provider's adapter, or null where it is not connected. */
export type Providers = Record<ProviderId, ProviderAdapter | null>;

/** What a search reports while it runs, and when it is saved: the stream's events without errors. */
export type RunEvent = Exclude<SearchEvent, { type: "error" }>;

export type SearchRun = {
  query: string;
  iterations: number;
  options: SearchOptions;
  providers: Providers;
  /** Calls in flight per provider. */
  concurrency: number;
  signal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Each finished iteration of each provider (a "not connected" card counts as one), as it lands. */
  onRun?: (provider: ProviderId, result: ModelResult) => void;
  retry?: RetryPolicy;
  /** When the search must be over: calls in flight are cut there, and iterations not started by then count as cut (./deadline.ts). */
  deadline: Deadline;
  /** What turns each answer's usage into its cost (ADR 041). */
  prices: PriceTable;
  /** The spend limits' allowance: once it is used up, iterations not started yet become cards saying so. */
  budget?: SpendBudget;
};

export class AllProvidersFailedError extends Error {
  override name = "AllProvidersFailedError";
}

/**
 * Runs every provider `iterations` times in parallel (each provider at most `concurrency` calls
 * at once), reporting real progress, and aggregates. Fails only if no provider succeeded once.
 */
export async function runSearch(run: SearchRun): Promise<SearchResult> {
  const started = performance.now();
  const emit = run.onEvent ?? (() => {});
  emit({ type: "started", query: run.query, iterations: run.iterations, modes: modesOf(run.providers) });

  const runs = perProvider((): ModelResult[] => []);
  await Promise.all(
    providerIds.map(async (id) => {
      const adapter = run.providers[id];
      if (!adapter) {
        const off = {
          ...offModelResult(id),
          modelName: "not connected",
          modelVersion: "not connected",
          // The Connection Status' words for it (providers/failure.ts).
          ...noKeyCard(id),
        };
        runs[id].push(off);
        run.onRun?.(id, off);
        emit({ type: "result", provider: id, result: off });
        return;
      }
      const limit = createLimiter(run.concurrency);
      const call: ProviderRun = { query: run.query, options: run.options, signal: run.signal, retry: run.retry, deadline: run.deadline };
      let shown: ModelResult | undefined;
      await Promise.all(
        Array.from({ length: run.iterations }, () =>
          (async () => {
            // Only the search holds one of the provider's `concurrency` places: its answer is read
            // while the next iteration's search runs.
            const asked = await limit(async () => {
              run.signal.throwIfAborted();
              const reached = run.budget?.exhausted();
              return reached ? { failed: spendLimitCard(adapter, reached) } : askProvider(adapter, call);
            });
            const read = "failed" in asked ? asked.failed : await readAnswer(adapter, asked, call);
            const result = { ...read, cost: answerCost(read, run.prices) };
            runs[id].push(result);
            run.onRun?.(id, result);
            const failed = runs[id].filter((r) => r.status === "error").length;
            emit({ type: "progress", provider: id, completed: runs[id].length - failed, failed, total: run.iterations });
            // The card appears with the first answer; an error is replaced by a later success.
            if (!shown || (shown.status !== "ok" && result.status === "ok")) {
              shown = result;
              emit({ type: "result", provider: id, result });
            }
            // Counted once it is shown: the spend is recorded while the next iterations run. A model
            // without a price is charged at the table's highest rates (ADR 052); its cost still reads unknown.
            await run.budget?.spend(answerCharge(read, run.prices));
          })(),
        ),
      );
    }),
  );

  if (!providerIds.some((id) => runs[id].some((r) => r.status === "ok"))) {
    const reasons = providerIds.map((id) => `${id}: ${runs[id][0]?.error ?? "no answer"}`).join("; ");
    throw new AllProvidersFailedError(`Search failed: no provider answered (${reasons})`);
  }
  const result = buildSearchResult({ query: run.query, executionTimeMs: Math.round(performance.now() - started), iterations: run.iterations, runs });
  const limited = providerIds.flatMap((id) => runs[id]).find((r) => r.stopped === "spend-limit");
  return limited?.error ? { ...result, spendLimit: limited.error } : result;
}

/** An iteration the spend limit kept from starting: no call was made. */
function spendLimitCard(adapter: ProviderAdapter, reached: string): ModelResult {
  return { ...failedCard(adapter, performance.now()), stopped: "spend-limit", error: `Stopped: ${reached}. What had finished is kept.` };
}

export function modesOf(providers: Providers): Record<ProviderId, ProviderMode> {
  return perProvider((id) => providers[id]?.mode ?? "off");
}

function noKeyCard(id: ProviderId): Pick<ModelResult, "error" | "failure"> {
  const { failure, message } = noKeyFailure(id);
  return { error: message, failure };
}
