import type { QueryClient } from "@tanstack/react-query";
import type { ComponentType } from "react";
import { parse } from "regexparam";
import type { ApiClient } from "#src/client/api.ts";
// The landing page ships inside the entry bundle: one request fewer for most first visits,
// and no page of tiny shared chunks (ADR 006). Every other page is code-split.
import * as homePage from "./pages/home.tsx";

export type PrefetchContext = { queryClient: QueryClient; api: ApiClient; params: Record<string, string>; url: URL };

/** A page module: its component, and optionally the data to fetch before it renders on the server. */
export type PageModule = {
  default: ComponentType;
  prefetch?: (context: PrefetchContext) => Promise<unknown>;
};

type PageDef = { path: string | null; load: () => Promise<PageModule> };

// One table for both sides: the server matches and preloads from it, the browser code-splits on it.
export const pages = {
  home: { path: "/", load: () => Promise.resolve(homePage) },
  search: { path: "/search/:id", load: () => import("./pages/search.tsx") },
  profile: { path: "/user/profile", load: () => import("./pages/profile.tsx") },
  history: { path: "/user/history", load: () => import("./pages/profile.tsx") },
  subscription: { path: "/user/subscription", load: () => import("./pages/subscription.tsx") },
  auth: { path: "/auth", load: () => import("./pages/auth.tsx") },
  checkout: { path: "/checkout", load: () => import("./pages/checkout.tsx") },
  variants: { path: "/variants", load: () => import("./pages/variants.tsx") },
  compare: { path: "/compare", load: () => import("./pages/compare.tsx") },
  upgrade: { path: "/upgrade", load: () => import("./pages/upgrade.tsx") },
  notFound: { path: null, load: () => import("./pages/not-found.tsx") },
} satisfies Record<string, PageDef>;

export type PageId = keyof typeof pages;
export type PageMatch = { id: PageId; params: Record<string, string> };

const compiled = Object.entries(pages).flatMap(([id, page]) =>
  page.path === null ? [] : [{ id: id as PageId, ...parse(page.path) }],
);

export function matchPage(pathname: string): PageMatch {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  for (const route of compiled) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params = Object.fromEntries(route.keys.map((key, i) => [key, decodeURIComponent(found[i + 1] ?? "")]));
    return { id: route.id, params };
  }
  return { id: "notFound", params: {} };
}

type TrackedPromise<T> = Promise<T> & { status?: "pending" | "fulfilled" | "rejected"; value?: T };
const loaded = new Map<PageId, TrackedPromise<PageModule>>();

/**
 * Loads a page module once. The promise carries React's `status`/`value` fields, so `use()`
 * reads an already loaded page synchronously: hydration and preloaded navigations never suspend.
 */
export function loadPage(id: PageId): Promise<PageModule> {
  let promise = loaded.get(id);
  if (!promise) {
    const tracked: TrackedPromise<PageModule> = pages[id].load();
    tracked.status = "pending";
    tracked.then(
      (mod) => Object.assign(tracked, { status: "fulfilled", value: mod }),
      () => {
        tracked.status = "rejected";
        loaded.delete(id);
      },
    );
    loaded.set(id, tracked);
    promise = tracked;
  }
  return promise;
}
