import * as v from "valibot";
import { LogoutResult, ProStatus, User, type Login, type Register } from "#src/contract/auth.ts";
import { QuotaStatus } from "#src/contract/quota.ts";
import { ApiStatus, SavedSearchList, SearchResult, type SearchEvent, type SearchRequest } from "#src/contract/search.ts";
import { ApiError, createHttp, type HttpOptions } from "#src/client/http.ts";
import { readEventStream } from "#src/client/sse.ts";

/** The typed API client, shared by the web app, the CLI and the integration tests. */
export function createApiClient(options: HttpOptions = {}) {
  const http = createHttp(options);
  const doFetch = options.fetch ?? fetch;
  const SavedResult = v.object({ ...SearchResult.entries, id: v.string() });

  return {
    search: (request: SearchRequest) => http("POST", "/api/search", SavedResult, request),

    /** The same search with live progress: yields each event as the server sends it. */
    async *searchStream(request: SearchRequest, signal?: AbortSignal): AsyncGenerator<SearchEvent> {
      const response = await doFetch(`${options.baseUrl ?? ""}/api/search/stream`, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json", accept: "text/event-stream", ...options.headers },
        body: JSON.stringify(request),
        signal,
      });
      if (!response.ok || !response.body) throw new ApiError(response.status, await response.text(), response.statusText);
      // The server writes these from the contract's SearchEvent union.
      for await (const event of readEventStream(response.body)) yield event as SearchEvent;
    },

    cancelSearch: () => http("POST", "/api/cancel-search", v.object({ cancelled: v.boolean() })),
    getSearch: (id: string) => http("GET", `/api/search/${encodeURIComponent(id)}`, SavedResult),
    listSearches: (query: { limit?: number; before?: string } = {}) => {
      const params = new URLSearchParams(Object.entries(query).flatMap(([k, val]) => (val === undefined ? [] : [[k, String(val)]])));
      return http("GET", `/api/user/searches${params.size ? `?${params}` : ""}`, SavedSearchList);
    },
    status: () => http("GET", "/api/status", ApiStatus),

    register: (input: Register) => http("POST", "/api/register", User, input),
    login: (input: Login) => http("POST", "/api/login", User, input),
    logout: () => http("POST", "/api/logout", LogoutResult),
    /** The signed-in user, or null: spec §7 counts a 401 as "not logged in", not as an error. */
    async currentUser(): Promise<User | null> {
      try {
        return await http("GET", "/api/auth/user", User);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    proStatus: () => http("GET", "/api/pro-status", ProStatus),
    quota: () => http("GET", "/api/quota", QuotaStatus),
    health: () => http("GET", "/healthz", v.object({ ok: v.literal(true), db: v.picklist(["pglite", "postgres"]) })),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
