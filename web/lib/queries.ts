import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";

/**
 * Query definitions shared by the server (prefetch before rendering, with an in-process client
 * carrying the request's cookies) and the browser (same keys, so hydrated data is reused).
 */
export const queries = {
  status: (api: ApiClient) => queryOptions({ queryKey: ["status"], queryFn: () => api.status() }),
  search: (api: ApiClient, id: string) => queryOptions({ queryKey: ["search", id], queryFn: () => api.getSearch(id) }),
};
