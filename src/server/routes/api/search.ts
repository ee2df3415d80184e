import { Elysia } from "elysia";
import { REMAINING_HEADER } from "#src/contract/quota.ts";
import { requestedIterations, SavedSearchListQuery, SearchRequest, type SearchEvent } from "#src/contract/search.ts";
import { HttpError, parseInput } from "#src/server/http-error.ts";
import { jsonBody } from "#src/server/routes/api/docs.ts";
import { remainingOf, type Meter } from "#src/server/routes/api/quota.ts";
import type { identity } from "#src/server/services/auth/identity.ts";
import { AllProvidersFailedError, SearchCancelledError, type SearchService } from "#src/server/services/search/index.ts";
import { modesOf } from "#src/server/services/search/run.ts";

const QUOTA_DOCS =
  ` Free callers: 1 iteration (more is 403 \`Pro subscription required\`) and 5 searches per UTC day (then 429 with the spec's limit text); ` +
  "a search that fails or is cancelled is given back. Pro: unlimited, iterations 1, 5, 10, 25, 50 or 100 (others 400). " +
  `Answers to free callers carry the searches left in \`${REMAINING_HEADER}\`, \`remainingSearches\` in the body, and the \`daily_searches\` cookie.`;

/** Spec §7 search calls, plus the streaming form that reports real progress. */
export function searchRoutes(search: SearchService, who: ReturnType<typeof identity>, meter: Meter) {
  return new Elysia()
    .use(who)
    .post(
      "/api/search",
      async (context) => {
        const { body, request, owner } = context;
        const parsed = parseInput(SearchRequest, body);
        // Taken before the search runs, so concurrent requests cannot overdraw the day.
        const admission = await meter.admit(context, requestedIterations(parsed));
        try {
          return { ...(await search.run(owner, parsed, { signal: request.signal })), ...remainingOf(admission.quota) };
        } catch (error) {
          // Nothing came of it (all providers failed, or cancelled): the search is given back.
          throw asHttpError(error, remainingOf(await meter.refund(context, admission)));
        }
      },
      {
        detail: {
          tags: ["search"],
          summary: "Run a search and return the saved result",
          description:
            "Sends the query to every connected provider with web search on, `iterations` times each (1–100), and returns the aggregated result once all have answered. " +
            "A provider that fails has `status: \"error\"` and an `error`; the call fails (502) only if none answered. A newer search by the same caller, " +
            "POST /api/cancel-search or closing the connection cancels it (409). `geminiThreshold` is accepted and stored, but current Gemini models always ground with Google Search." +
            QUOTA_DOCS,
          requestBody: jsonBody(SearchRequest),
        },
      },
    )
    .post(
      "/api/search/stream",
      async (context) => {
        const { body, request, owner } = context;
        const parsed = parseInput(SearchRequest, body);
        const admission = await meter.admit(context, requestedIterations(parsed));
        const remaining = remainingOf(admission.quota);
        return eventStream(request.signal, async (send) => {
          // A provider's answer already on the wire has been seen: closing the stream after it
          // must not be a free search, so only a search that showed nothing is given back.
          let delivered = false;
          const meteredSend = (event: SearchEvent) => {
            if (event.type === "result" && event.result.status === "ok") delivered = true;
            if (event.type === "started") send({ ...event, ...remaining });
            else if (event.type === "done") send({ ...event, result: { ...event.result, ...remaining } });
            else send(event);
          };
          try {
            await search.run(owner, parsed, { signal: request.signal, onEvent: meteredSend });
          } catch (error) {
            const left = delivered ? remaining : remainingOf(await meter.refund(context, admission));
            const http = asHttpError(error);
            send({ type: "error", message: http.message, status: http.status, ...left });
          }
        });
      },
      {
        detail: {
          tags: ["search"],
          summary: "Run a search with live progress (Server-Sent Events)",
          description:
            "Same body and behaviour as POST /api/search, answered as `text/event-stream`. Events, each with a JSON `data` line: " +
            "`started` {query, iterations, modes}; `progress` {provider, completed, failed, total} after every iteration of every provider; " +
            "`result` {provider, result} as soon as a provider's first iteration completes (sent again if a later iteration replaces an error); " +
            "`done` {id, result} with the saved search; or `error` {message, status}. Closing the stream cancels the search. " +
            "Quota as for POST /api/search, checked before the stream starts (a refusal is a plain JSON error); `started`, `done`'s result and `error` carry `remainingSearches`. " +
            "A stream closed after a provider's result was sent is not given back.",
          requestBody: jsonBody(SearchRequest),
        },
      },
    )
    .post("/api/cancel-search", ({ owner }) => ({ cancelled: search.cancel(owner) }), {
      detail: { tags: ["search"], summary: "Cancel the caller's search in flight", description: "Returns `{ cancelled }`: false when nothing was running." },
    })
    .get(
      "/api/search/:id",
      async ({ params, owner }) => {
        const found = await search.get(owner, params.id);
        if (!found) throw new HttpError(404, "Search not found");
        return found;
      },
      { detail: { tags: ["search"], summary: "One saved search", description: "Only its owner can read it; any other id answers 404 `Search not found`." } },
    )
    .get(
      "/api/user/searches",
      ({ query, owner }) => {
        const { limit, before } = parseInput(SavedSearchListQuery, query);
        return search.list(owner, { limit, before });
      },
      {
        detail: {
          tags: ["search"],
          summary: "The caller's saved searches, newest first",
          description: "Summary columns only. `limit` 1–100 (default 20); pass the response's `nextCursor` as `before` for the next page.",
        },
      },
    )
    .get(
      "/api/status",
      () => {
        const modes = modesOf(search.providers);
        return { openai: modes.openai !== "off", anthropic: modes.anthropic !== "off", gemini: modes.gemini !== "off", modes };
      },
      { detail: { tags: ["system"], summary: "Which providers are connected", description: "Booleans per provider, and `modes`: `live`, `simulated` (a loopback simulator; its answers are labelled) or `off`." } },
    );
}

function asHttpError(error: unknown, extra: Record<string, unknown> = {}): HttpError {
  if (error instanceof HttpError) return new HttpError(error.status, error.message, { ...error.extra, ...extra });
  if (error instanceof SearchCancelledError) return new HttpError(409, "Search cancelled", extra);
  if (error instanceof AllProvidersFailedError) return new HttpError(502, error.message, extra);
  console.error("search failed", error);
  return new HttpError(500, "Search failed", extra);
}

/** Server-Sent Events: one `event:` per SearchEvent type, JSON data; ends when `run` settles. */
function eventStream(signal: AbortSignal, run: (send: (event: SearchEvent) => void) => Promise<void>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: SearchEvent) => {
        if (!signal.aborted) controller.enqueue(encoder.encode(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`));
      };
      await run(send);
      if (!signal.aborted) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" } });
}
