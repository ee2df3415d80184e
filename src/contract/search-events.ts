/* A search as it runs: the Server-Sent Events of POST /api/search/stream, and its cancel. */
import * as v from "valibot";

import { ErrorBody } from "./errors.ts";
import { ProviderId, ProviderMode } from "./provider-schemas.ts";
import { perProvider } from "./providers.ts";
import { fromSavedWire, fromWireModel, fromWireResult, SavedSearchResponse, SearchResponse, WireModelResult } from "./search-wire.ts";

const Remaining = { remainingSearches: v.optional(v.number()) };
const StartedEvent = v.object({
  type: v.literal("started"),
  query: v.string(),
  iterations: v.number(),
  modes: v.object(perProvider(() => ProviderMode)),
  ...Remaining,
});
const ProgressEvent = v.object({ type: v.literal("progress"), provider: ProviderId, completed: v.number(), failed: v.number(), total: v.number() });
const ResultEvent = v.object({ type: v.literal("result"), provider: ProviderId, result: WireModelResult });
/** A failure after the stream began: an error answer's body and its status. */
const ErrorEvent = v.object({ type: v.literal("error"), ...ErrorBody.entries, status: v.number() });
/** `done` carries exactly what POST /api/search answers. */
const DoneEvent = v.object({ type: v.literal("done"), id: v.string(), result: SearchResponse });
/** The search was cancelled after an answer: what had finished, saved, as GET /api/search/{id} answers it (ADR 030). */
const CancelledEvent = v.object({ type: v.literal("cancelled"), id: v.string(), result: SavedSearchResponse, ...Remaining });

/** One event of the stream as sent. */
export const SearchEventWire = v.variant("type", [StartedEvent, ProgressEvent, ResultEvent, DoneEvent, CancelledEvent, ErrorEvent]);
export type SearchEventWire = v.InferOutput<typeof SearchEventWire>;

/** The same event as a client reads it: `done` carries the result keyed by provider, and the searches left. */
export const SearchEvent = v.variant("type", [
  StartedEvent,
  ProgressEvent,
  v.pipe(
    ResultEvent,
    v.transform(({ result, ...event }) => ({ ...event, result: fromWireModel(result) })),
  ),
  v.pipe(
    DoneEvent,
    v.transform(({ id, result: { remainingSearches, ...wire } }) => ({
      type: "done" as const,
      id,
      result: { ...fromWireResult(wire), id },
      ...(remainingSearches === undefined ? {} : { remainingSearches }),
    })),
  ),
  v.pipe(
    CancelledEvent,
    v.transform(({ id, result, remainingSearches }) => ({
      type: "cancelled" as const,
      id,
      result: fromSavedWire(result),
      ...(remainingSearches === undefined ? {} : { remainingSearches }),
    })),
  ),
  ErrorEvent,
]);
export type SearchEvent = v.InferOutput<typeof SearchEvent>;

/** POST /api/cancel-search. */
export const CancelResult = v.object({ cancelled: v.boolean() });
