import type { SearchStreamEvent } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import type { ModelResult, SavedSearchResult } from "#src/contract/search-result.ts";

export type ProviderProgress = { completed: number; failed: number; total: number };

export type Searching = {
  status: "searching";
  query: string;
  iterations: number;
  startedAt: number;
  progress: Record<ProviderId, ProviderProgress>;
  /** Each provider's first answer, shown as a card before the whole search is done. */
  partial: Partial<Record<ProviderId, ModelResult>>;
  modes?: Record<ProviderId, ProviderMode>;
  /** false when the live stream was unavailable and the counters are estimated. */
  live: boolean;
  /** Cancel was asked for: the server is stopping it, and answers with what it kept. */
  cancelling?: boolean;
};

export type SearchState = { status: "idle" } | Searching | { status: "done"; result: SavedSearchResult } | { status: "failed"; error: ApiError | Error };

/**
 * What a dashboard search reports: the server's stream events (a failure is thrown, not an
 * event), and, when the stream could not be read, progress the client estimated (spec §4
 * simulated progress) marked `estimated`.
 */
export type DashboardEvent = SearchStreamEvent | (Extract<SearchStreamEvent, { type: "progress" }> & { estimated: true });

/** The state as a search starts, before the server has said anything. */
export function beginSearch(request: { query: string; iterations: number }, now: number): Searching {
  return {
    status: "searching",
    query: request.query,
    iterations: request.iterations,
    startedAt: now,
    progress: perProvider(() => ({ completed: 0, failed: 0, total: request.iterations })),
    partial: {},
    live: true,
  };
}

/** The dashboard's search state after one more event. Pure: events that do not apply leave it as it is. */
export function reduceSearch(state: SearchState, event: DashboardEvent): SearchState {
  if (state.status !== "searching") return state;
  switch (event.type) {
    case "started":
      return { ...state, modes: event.modes };
    case "progress": {
      const { provider, completed, failed, total } = event;
      return { ...state, progress: { ...state.progress, [provider]: { completed, failed, total } }, live: state.live && !("estimated" in event) };
    }
    case "result":
      return { ...state, partial: { ...state.partial, [event.provider]: event.result } };
    case "done":
    case "cancelled":
      // A cancelled search shows what it kept, with its note (ADR 030).
      return { status: "done", result: event.result };
  }
}

/** A search that ended without a result: a failure to report, or, when it was cancelled here and kept nothing, back to idle. */
export function failSearch(state: SearchState, error: Error): SearchState {
  if (state.status === "searching" && state.cancelling && error instanceof ApiError && error.code === "SEARCH_CANCELLED") return { status: "idle" };
  return { status: "failed", error };
}
