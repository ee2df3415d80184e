/**
 * What a page module is, apart from the route table: pages import these types from here, so no
 * page depends on web/routes.ts (which imports the pages).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import type { ApiClient } from "#src/client/api.ts";

/** The named segments of the matched path, e.g. `{ id }` for /search/:id. */
export type RouteParams = Record<string, string>;

/** Every page is rendered with its route's params (app.tsx routes without wouter's <Route>). */
export type PageProps = { params: RouteParams };

export type PrefetchContext = { queryClient: QueryClient; api: ApiClient; params: RouteParams; url: URL };

/** A page module: its component, and optionally the data to fetch before it renders on the server. */
export type PageModule = {
  default: ComponentType<PageProps>;
  prefetch?: (context: PrefetchContext) => Promise<unknown>;
};
