import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import { nameKey } from "#src/core/names.ts";
import { batchProgress } from "#web/lib/workbench.ts";

export const BATCH_POLL_MS = 1_500;
/** Saved searches finish elsewhere: what a page read this long ago is read again when it is shown (not right after the server rendered it). */
const RECENT_MS = 30_000;

/**
 * The Pro workbench's queries, for the server's prefetch and the browser alike. Every key starts
 * with "workbench": one person's data, dropped on sign-in and sign-out (personalQueryKeys).
 */
export const workbenchQueries = {
  /**
   * The caller's saved variants of a query (any letter case), or `{ set: null }` before any were
   * written. Set by the page as it writes and edits them; read again whenever the page is shown
   * (another tab may have edited them).
   */
  variants: (api: ApiClient, query: string) =>
    queryOptions({ queryKey: ["workbench", "variants", nameKey(query)], queryFn: () => api.currentVariants(query), staleTime: 0 }),
  /** One batch, polled every 1.5 s while any item is queued or running. */
  batch: (api: ApiClient, id: string) =>
    queryOptions({
      queryKey: ["workbench", "batch", id],
      queryFn: () => api.getBatch(id),
      refetchInterval: (query) => (query.state.data && batchProgress(query.state.data.items).active ? BATCH_POLL_MS : false),
    }),
  compare: (api: ApiClient, query: string | undefined, variants: string[]) =>
    queryOptions({
      queryKey: ["workbench", "compare", query ?? null, variants],
      queryFn: () => api.compare({ ...(query ? { query } : {}), variants }),
      staleTime: RECENT_MS,
    }),
  brandLens: (api: ApiClient) => queryOptions({ queryKey: ["workbench", "brand-lens"], queryFn: () => api.brandLens() }),
  /** The lens on a saved search: the profile's brand, or `override` for this view only. */
  searchLens: (api: ApiClient, id: string, override: string | null) =>
    queryOptions({ queryKey: ["workbench", "lens", id, override], queryFn: () => api.searchLens(id, override ? { name: override } : undefined) }),
  /** Spec §2 `/?query=`: the caller's latest saved search of the query (any letter case), or null. */
  latestSearch: (api: ApiClient, query: string) =>
    queryOptions({
      queryKey: ["workbench", "latest-search", nameKey(query)],
      queryFn: async () => (await api.listSearches({ query, limit: 1 })).searches[0] ?? null,
      staleTime: RECENT_MS,
    }),
};
