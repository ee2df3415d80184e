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

/**
 * What a prefetch may tell the server renderer from the data it read: the page's HTTP status when
 * it is not 200, whatever the page then shows. 404: the address names nothing, or nothing any more;
 * 429: what it names is being read too often (a share link), with the wait in seconds (Retry-After);
 * 200 with `preload`: the other page modules (by their file's stem in pages/) this page will load
 * for what it read, whose chunks the HTML then preloads beside its own.
 */
export type PrefetchOutcome = { status: 404 } | { status: 429; retryAfterS: number } | { status: 200; preload: string[] } | undefined | void;

/**
 * A page module: its component, optionally the data to fetch before it renders on the server, and
 * its chrome: "app" (the default) under the product's header with its navigation and account;
 * "report" without it, for a page read by someone who may not use the product (a share link),
 * which draws its own slim heading.
 */
export type PageModule = {
  default: ComponentType<PageProps>;
  prefetch?: (context: PrefetchContext) => Promise<PrefetchOutcome>;
  chrome?: "app" | "report";
};
