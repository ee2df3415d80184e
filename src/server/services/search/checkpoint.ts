import type { ProviderId } from "#src/contract/providers.ts";
import type { ModelResult, SearchResult } from "#src/contract/search-result.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";

/** At most one checkpoint write this often, except when the caller has just been shown an answer. */
export const CHECKPOINT_MS = 5_000;

/**
 * What a running search has finished so far, written to its row as it goes: if the instance dies,
 * the row is marked interrupted with these runs (history shows what finished) and the sweep can
 * tell whether the caller saw an answer (the refund rule). Writes are best effort and one at a
 * time; the final save is what counts.
 */
export function createCheckpoint(save: (partial: SearchResult) => Promise<unknown>, search: { query: string; iterations: number }, intervalMs = CHECKPOINT_MS) {
  const started = performance.now();
  const runs: Partial<Record<ProviderId, ModelResult[]>> = {};
  let unsaved = false;
  let urgent = false;
  let closed = false;
  let lastWrite = 0;
  let writing: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function write(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (closed || writing || !unsaved) return;
    unsaved = urgent = false;
    lastWrite = performance.now();
    writing = save(snapshot())
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        writing = null;
        schedule();
      });
  }

  function snapshot(): SearchResult {
    return buildSearchResult({ query: search.query, executionTimeMs: Math.round(performance.now() - started), iterations: search.iterations, runs });
  }

  function schedule(): void {
    if (closed || writing || !unsaved) return;
    if (urgent) return write();
    timer ??= setTimeout(write, Math.max(0, lastWrite + intervalMs - performance.now()));
  }

  return {
    /** One finished iteration of a provider. */
    add(provider: ProviderId, result: ModelResult): void {
      (runs[provider] ??= []).push(result);
      unsaved = true;
      schedule();
    },
    /** The caller has just been shown an answer: write without waiting for the interval. */
    shown(): void {
      urgent = true;
      schedule();
    },
    /** What has finished so far, as a result (what a search stopped part-way keeps). */
    snapshot,
    /** Stops writing, and waits for a write in flight so it cannot land after the final save. */
    async close(): Promise<void> {
      closed = true;
      if (timer) clearTimeout(timer);
      await writing;
    },
  };
}
