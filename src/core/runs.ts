import type { ProviderId } from "#src/contract/providers.ts";
import type { RunRecord, SearchResult } from "#src/contract/search-result.ts";
import { runRecord } from "./aggregate.ts";

/*
 * The iterations a later analysis reads: every completed one where the result kept them, else
 * (a result saved before they were kept) only the answer on the provider's card.
 */

/** The provider's completed iterations; undefined when the result kept no runs at all. */
export function keptRuns(result: Pick<SearchResult, "runs">, provider: ProviderId): RunRecord[] | undefined {
  return result.runs ? (result.runs[provider] ?? []).filter((run) => run.status === "ok") : undefined;
}

/** The provider's displayed answer as its one run, when it succeeded. */
export function displayedRuns(result: Pick<SearchResult, "models">, provider: ProviderId): RunRecord[] {
  const model = result.models[provider];
  return model?.status === "ok" ? [runRecord(model)] : [];
}
