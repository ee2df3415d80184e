import * as v from "valibot";
import { LogoutResult, User, type Login, type Register } from "#src/contract/auth.ts";
import {
  BillingPlan,
  BillingPortalResult,
  CreateSubscriptionResult,
  ProStatus,
  SubscriptionActionResult,
  SubscriptionDetailsResult,
  VerifySubscriptionResult,
} from "#src/contract/billing.ts";
import { Health } from "#src/contract/health.ts";
import { QuotaStatus } from "#src/contract/quota.ts";
import { ApiStatus, CancelResult, fromWireResult, SavedSearchList, SavedSearchResponse, SearchEvent, SearchResponse, type SavedSearchResult, type SearchRequest } from "#src/contract/search.ts";
import { ApiError, createHttp, type HttpOptions } from "#src/client/http.ts";
import { readEventStream } from "#src/client/sse.ts";

/** POST /api/search read back: the result keyed by provider, and the free searches left (absent for Pro). */
export type SearchAnswer = { result: SavedSearchResult; remainingSearches?: number };

// The API speaks the spec's JSON; callers get results keyed by provider (src/contract/search.ts).
const SearchAnswer = v.pipe(
  SearchResponse,
  v.transform(({ remainingSearches, ...wire }): SearchAnswer => ({ result: { ...fromWireResult(wire), id: wire.id }, ...(remainingSearches === undefined ? {} : { remainingSearches }) })),
);
const SavedSearch = v.pipe(
  SavedSearchResponse,
  v.transform((wire): SavedSearchResult => ({ ...fromWireResult(wire), id: wire.id })),
);

/** The typed API client, shared by the web app, the CLI and the integration tests. Every answer is validated. */
export function createApiClient(options: HttpOptions = {}) {
  const http = createHttp(options);
  const doFetch = options.fetch ?? fetch;

  return {
    search: (request: SearchRequest) => http("POST", "/api/search", SearchAnswer, request),

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
      for await (const data of readEventStream(response.body)) yield v.parse(SearchEvent, data);
    },

    cancelSearch: () => http("POST", "/api/cancel-search", CancelResult),
    getSearch: (id: string) => http("GET", `/api/search/${encodeURIComponent(id)}`, SavedSearch),
    listSearches: (query: { limit?: number; before?: string; query?: string } = {}) => {
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
    billingPlan: () => http("GET", "/api/billing/plan", BillingPlan),
    createSubscription: () => http("POST", "/api/create-subscription", CreateSubscriptionResult),
    verifySubscription: (sessionId: string) => http("POST", "/api/verify-subscription", VerifySubscriptionResult, { sessionId }),
    subscriptionDetails: () => http("GET", "/api/subscription-details", SubscriptionDetailsResult),
    cancelSubscription: (subscriptionId: string) => http("POST", "/api/cancel-subscription", SubscriptionActionResult, { subscriptionId }),
    resumeSubscription: (subscriptionId: string) => http("POST", "/api/resume-subscription", SubscriptionActionResult, { subscriptionId }),
    billingPortal: (returnUrl?: string) => http("POST", "/api/billing-portal", BillingPortalResult, returnUrl ? { returnUrl } : {}),
    quota: () => http("GET", "/api/quota", QuotaStatus),
    health: () => http("GET", "/healthz", Health),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
