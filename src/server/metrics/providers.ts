import { perProvider } from "#src/contract/providers.ts";
import { failureKind } from "#src/server/services/providers/failure.ts";
import type { ProviderAdapter } from "#src/server/services/providers/types.ts";
import type { Providers } from "#src/server/services/search/run.ts";

type CallObserver = (provider: string, call: "search" | "structured", outcome: CallOutcome, seconds: number) => void;

/** How a provider call ended: answered, a ProviderFailure kind (providers/failure.ts), or cut short. */
export type CallOutcome = string;

/**
 * The providers every service of the app calls (searches, trackers' runs, variants), each call
 * counted and timed as it ends: the one place all of them pass through.
 */
export function instrumentProviders(providers: Providers, observe: CallObserver): Providers {
  return perProvider((id) => {
    const adapter = providers[id];
    return adapter ? instrumented(adapter, observe) : null;
  });
}

function instrumented(adapter: ProviderAdapter, observe: CallObserver): ProviderAdapter {
  const timed = async <T>(call: "search" | "structured", signal: AbortSignal, run: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    try {
      const answer = await run();
      observe(adapter.id, call, "ok", seconds());
      return answer;
    } catch (error) {
      observe(adapter.id, call, outcomeOf(error, signal), seconds());
      throw error;
    }
  };
  return {
    ...adapter,
    search: (call) => timed("search", call.signal, () => adapter.search(call)),
    structured: (request, signal) => timed("structured", signal, () => adapter.structured(request, signal)),
    ...(adapter.extractor ? { extractor: instrumented(adapter.extractor, observe) } : {}),
  };
}

/** A call's signal carries why it was cut: its time limit (a TimeoutError) or the caller stopping; else the provider's failure. */
function outcomeOf(error: unknown, signal: AbortSignal): CallOutcome {
  if (signal.aborted) return (signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError" ? "timeout" : "aborted";
  return failureKind(error);
}
