import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { ApiClient, HistoryQuery } from "#src/client/api.ts";

/** What the history page narrows the list to (every page of it): the API's filters. */
export type HistoryFilters = Omit<HistoryQuery, "limit" | "before" | "query">;

/**
 * Query definitions shared by the server (prefetch before rendering, with an in-process client
 * carrying the request's cookies) and the browser (same keys, so hydrated data is reused).
 */
export const queries = {
  /** The server re-checks each provider every few minutes (ADR 040); the page asks again when it regains focus. */
  status: (api: ApiClient) => queryOptions({ queryKey: ["status"], queryFn: () => api.status() }),
  /** Spec §7: the user is cached 5 minutes; a 401 is "signed out", not an error. */
  user: (api: ApiClient) => queryOptions({ queryKey: ["user"], queryFn: () => api.currentUser(), staleTime: 5 * 60_000 }),
  proStatus: (api: ApiClient) => queryOptions({ queryKey: ["pro-status"], queryFn: () => api.proStatus() }),
  /** What Pro costs and how to pay: changes only with the server's configuration. */
  plan: (api: ApiClient) => queryOptions({ queryKey: ["billing-plan"], queryFn: () => api.billingPlan() }),
  subscription: (api: ApiClient) => queryOptions({ queryKey: ["subscription"], queryFn: () => api.subscriptionDetails(), staleTime: 0 }),
  quota: (api: ApiClient) => queryOptions({ queryKey: ["quota"], queryFn: () => api.quota() }),
  /** What N iterations of a search should cost on the connected providers (the search form's and, per question, the tracker form's). */
  estimate: (api: ApiClient, iterations: number) =>
    queryOptions({ queryKey: ["estimate", iterations], queryFn: () => api.estimate(iterations), staleTime: 5 * 60_000 }),
  search: (api: ApiClient, id: string) => queryOptions({ queryKey: ["search", id], queryFn: () => api.getSearch(id) }),
  /**
   * The signed-in user's saved searches, newest first, a page at a time ("" = the first page),
   * narrowed by `filters` (each page alike, so paging goes on through the filtered list).
   * Refetched whenever the history is shown again: searches finish elsewhere (the dashboard).
   */
  searches: (api: ApiClient, filters: HistoryFilters = {}) =>
    infiniteQueryOptions({
      queryKey: ["searches", filters],
      staleTime: 0,
      queryFn: ({ pageParam }) => api.listSearches({ ...filters, ...(pageParam ? { before: pageParam } : {}) }),
      initialPageParam: "",
      getNextPageParam: (last) => last.nextCursor,
    }),
};

/** Query keys that belong to one signed-in person: dropped on every sign-in and sign-out. */
export const personalQueryKeys = [["searches"], ["search"], ["subscription"], ["workbench"], ["tokens"], ["spend"], ["shares"]] as const;
