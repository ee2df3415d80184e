import { Elysia, type Context } from "elysia";
import { REMAINING_HEADER } from "#src/contract/quota.ts";
import { DeletedSearch, RenamedSearch, RenameSearch, SavedSearchList, SavedSearchListQuery } from "#src/contract/history.ts";
import { CancelResult, SearchEventWire, type SearchEventWire as WireEvent } from "#src/contract/search-events.ts";
import { DEFAULT_ANTHROPIC_MAX_USES, SearchRequest, type ParsedSearchRequest } from "#src/contract/search-request.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { SavedSearchResponse, SearchResponse, toSavedWire, toWireModel, toWireResult } from "#src/contract/search-wire.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { RunEvent, SearchService } from "#src/server/services/search/index.ts";
import type { Caller } from "#src/server/services/owner.ts";
import { errorAnswer } from "#src/server/http/errors.ts";
import type { identity } from "#src/server/http/identity.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import { remainingOf, reportQuota } from "#src/server/http/quota-report.ts";
import { eventStream } from "#src/server/http/sse.ts";
import { jsonSchemaOf } from "./docs.ts";
import { forTokens } from "#src/server/http/token-access.ts";

const QUOTA_DOCS =
  ` Free callers: 1 iteration (more is 403 \`Pro subscription required\`), \`openaiContextSize\` low or medium and \`anthropicMaxUses\` up to ${DEFAULT_ANTHROPIC_MAX_USES} ` +
  "(more is 403 naming the option), and 5 searches per UTC day (then 429 with the spec's limit text); " +
  "a search that fails or is cancelled before any provider's answer reached the caller is given back. Pro: unlimited, iterations 1, 5, 10, 25, 50 or 100 (others 400). " +
  `Answers to free callers carry the searches left in \`${REMAINING_HEADER}\`, \`remainingSearches\` in the body, and the \`daily_searches\` cookie.`;

type AdmitContext = Pick<Context, "set" | "cookie" | "request"> & { caller: Caller; body: ParsedSearchRequest };

/** Spec §7 search calls, plus the streaming form that reports real progress. */
export function searchRoutes(
  search: SearchService,
  identityPlugin: ReturnType<typeof identity>,
  { trustProxy, heartbeatMs }: { trustProxy: number; heartbeatMs: number },
) {
  /** Both search routes start here: take the search from the quota, say where the caller stands. */
  async function admit(context: AdmitContext) {
    const ticket = await search.admit(context.caller, context.body);
    reportQuota(context, ticket.quota, trustProxy);
    return ticket;
  }

  return new Elysia()
    .use(identityPlugin)
    .post(
      "/api/search",
      async (context) => {
        const ticket = await admit(context);
        const { result, quota } = await ticket.run({ signal: context.request.signal });
        return { ...toWireResult(result), id: result.id, ...remainingOf(quota) };
      },
      {
        body: SearchRequest,
        parse: "json",
        response: SearchResponse,
        detail: forTokens("search", {
          tags: ["search"],
          summary: "Run a search and return the saved result",
          description:
            "Sends the query to every connected provider with web search on, `iterations` times each (1–100), and returns the aggregated result once all have answered. " +
            'A provider that fails has `status: "error"` and an `error`; the call fails (502) only if none answered. The search has a time limit (SEARCH_DEADLINE_SECONDS, ' +
            'more for more iterations): a provider without an answer by then has `status: "error"`, `stopped: "deadline"` and an `error` saying so. A server that stops mid-search ' +
            'answers 503 and keeps what had finished in the history (`status: "interrupted"`). A newer search by the same caller, ' +
            'POST /api/cancel-search or closing the connection cancels it (409); once a provider had answered, what had finished is kept (`status: "cancelled"`) and the 409 names it (`id`). `geminiThreshold` is accepted and stored, but current Gemini models always ground with Google Search.' +
            QUOTA_DOCS,
        }),
      },
    )
    .post(
      "/api/search/stream",
      async (context) => {
        const ticket = await admit(context);
        const remaining = remainingOf(ticket.quota);
        return eventStream<WireEvent>(context.request.signal, heartbeatMs, async (send) => {
          let cancelled = false;
          try {
            await ticket.run({
              signal: context.request.signal,
              onEvent: (event) => {
                cancelled ||= event.type === "cancelled";
                send(toWireEvent(event, remaining));
              },
            });
          } catch (error) {
            // A cancelled search that kept what had finished has said so in its own last event.
            if (cancelled) return;
            // The headers are gone: the error travels as the stream's last event.
            const { status, body } = errorAnswer(error);
            send({ type: "error", status, ...body, ...(error instanceof DomainError && error.options.quota ? remainingOf(error.options.quota) : remaining) });
          }
        });
      },
      {
        body: SearchRequest,
        parse: "json",
        detail: forTokens("search", {
          tags: ["search"],
          summary: "Run a search with live progress (Server-Sent Events)",
          description:
            "Same body and behaviour as POST /api/search, answered as `text/event-stream`. Events, each with a JSON `data` line: " +
            "`started` {query, iterations, modes}; `progress` {provider, completed, failed, total} after every iteration of every provider; " +
            "`result` {provider, result} as soon as a provider's first iteration completes (sent again if a later iteration replaces an error); " +
            "`done` {id, result} with the saved search; `cancelled` {id, result} when it was cancelled after an answer, with what had finished, saved (as GET /api/search/{id} answers it); or `error` {code, message, status} (the error body a call answers, and its status). Between events, a comment line `: heartbeat` every SSE_HEARTBEAT_SECONDS (15). Closing the stream cancels the search. " +
            "Quota as for POST /api/search, checked before the stream starts (a refusal is a plain JSON error); `started`, `done`'s result and `error` carry `remainingSearches`. " +
            "A stream closed after a provider's result was sent is not given back.",
          responses: { 200: { description: "The event stream", content: { "text/event-stream": { schema: jsonSchemaOf(SearchEventWire) } } } },
        }),
      },
    )
    .post("/api/cancel-search", async ({ owner }) => ({ cancelled: await search.cancel(owner) }), {
      response: CancelResult,
      detail: forTokens("search", {
        tags: ["search"],
        summary: "Cancel the caller's search in flight",
        description:
          "Cancels it on whichever app instance runs it. Returns `{ cancelled }`: false when nothing was running. A search cancelled after a provider's answer keeps what had finished " +
          '(`status: "cancelled"`, in the history); its stream ends with a `cancelled` event.',
      }),
    })
    .get(
      "/api/search/:id",
      async ({ params, owner }) => {
        const found = await search.open(owner, params.id);
        if (!found) throw new DomainError("NOT_FOUND", "Search not found");
        return toSavedWire(found);
      },
      {
        response: SavedSearchResponse,
        detail: forTokens("history", {
          tags: ["search"],
          summary: "One saved search",
          description:
            'Only its owner can read it; any other id answers 404 `Search not found`. A search its server stopped mid-way has `status: "interrupted"`, one cancelled after an answer ' +
            '`status: "cancelled"`: it holds what had finished, and every provider that had not answered is an error card saying so (all of them when nothing had finished). ' +
            "One a tracker's run asked has `tracker`: the tracker's id and name, and the run's id and `scheduledFor`.",
        }),
      },
    )
    .get("/api/user/searches", ({ query, owner }) => search.list(owner, query), {
      transform: lastValues,
      query: SavedSearchListQuery,
      response: SavedSearchList,
      detail: forTokens("history", {
        tags: ["search"],
        summary: "The caller's saved searches, newest first",
        description:
          "Summary columns only, and `title` once renamed. `limit` 1–100 (default 20); pass the response's `nextCursor` as `before` for the next page (with the same filters); `query` keeps one query's searches (any letter case). " +
          "Filters: `q` (text in the query or the title, any letter case), `provider` (it answered), `iterations`, `from` and `to` (each a day, YYYY-MM-DD in UTC, or an ISO timestamp; both ends included); a bad one is 400. " +
          'Lists completed searches, interrupted ones (`status: "interrupted"`, their totals counting what had finished, 0 when nothing had) and the ones cancelled after an answer (`status: "cancelled"`).',
      }),
    })
    .patch("/api/search/:id", ({ params, owner, body }) => search.rename(owner, params.id, body.title), {
      body: RenameSearch,
      parse: "json",
      response: RenamedSearch,
      detail: forTokens("history", {
        tags: ["search"],
        summary: "Rename a saved search",
        description:
          "`{ title }` (up to 200 characters): the history shows it instead of the query, which stays visible. `null` or an empty title gives the query back. Owner only: any other id is 404 `Search not found`.",
      }),
    })
    .delete(
      "/api/search/:id",
      async ({ params, owner }) => {
        await search.remove(owner, params.id);
        return { success: true as const };
      },
      {
        response: DeletedSearch,
        detail: forTokens("history", {
          tags: ["search"],
          summary: "Delete a saved search",
          description:
            "Removes it from the history for good. Owner only: any other id is 404 `Search not found`. A search still running is 409 (cancel it first). The free search it took is not given back.",
        }),
      },
    );
}

/** A run's event as the stream sends it: the result in the spec's JSON, and the searches left. */
function toWireEvent(event: RunEvent, remaining: { remainingSearches?: number }): WireEvent {
  if (event.type === "started") return { ...event, ...remaining };
  if (event.type === "done") return { type: "done", id: event.id, result: { ...toWireResult(event.result), id: event.id, ...remaining } };
  if (event.type === "cancelled") return { type: "cancelled", id: event.id, result: toSavedWire(event.result), ...remaining };
  if (event.type === "result") return { ...event, result: toWireModel(event.result) };
  return event;
}

/** A saved search as GET /api/search/{id} answers it: a completed one exactly the spec's JSON, a stopped one with its `status`. */
