import { parse } from "regexparam";
import type { PageModule, RouteParams } from "#web/page.ts";
import { loadOnce } from "#web/lib/load-once.ts";
// The landing page ships inside the entry bundle: one request fewer for most first visits,
// and no page of tiny shared chunks (ADR 006). Every other page is code-split.
import * as homePage from "./pages/home.tsx";

/**
 * The page modules, keyed by their file's stem in pages/: scripts/build-assets.ts finds each
 * page's chunk in the build by that name. The browser code-splits on these `import()`s.
 */
export const pageModules = {
  home: () => Promise.resolve(homePage),
  search: () => import("./pages/search.tsx"),
  profile: () => import("./pages/profile.tsx"),
  subscription: () => import("./pages/subscription.tsx"),
  auth: () => import("./pages/auth.tsx"),
  checkout: () => import("./pages/checkout.tsx"),
  variants: () => import("./pages/variants.tsx"),
  compare: () => import("./pages/compare.tsx"),
  plans: () => import("./pages/plans.tsx"),
  trackers: () => import("./pages/trackers.tsx"),
  shared: () => import("./pages/shared.tsx"),
  "email-confirm": () => import("./pages/email-confirm.tsx"),
  unsubscribe: () => import("./pages/unsubscribe.tsx"),
  "report-email": () => import("./pages/report-email.tsx"),
  "not-found": () => import("./pages/not-found.tsx"),
} satisfies Record<string, () => Promise<PageModule>>;

export type PageId = keyof typeof pageModules;
export type PageMatch = { id: PageId; params: RouteParams };

// One table for both sides: the server renders and preloads by it, the browser navigates by it.
// Any other path shows not-found.
const routes: [path: string, page: PageId][] = [
  ["/", "home"],
  ["/search/:id", "search"],
  ["/user/profile", "profile"],
  ["/user/history", "profile"],
  ["/user/subscription", "subscription"],
  ["/auth", "auth"],
  ["/checkout", "checkout"],
  ["/variants", "variants"],
  ["/compare", "compare"],
  ["/upgrade", "plans"],
  // The list, a tracker (or "new", the form), and a tracker's form: web/pages/trackers.tsx tells them apart.
  ["/trackers/:id?", "trackers"],
  ["/trackers/:id/edit", "trackers"],
  // A workspace's page, and an invitation's link (its path is INVITATION_PATH in src/contract/workspaces.ts):
  // drawn by the trackers' chunk too, which saves the first load a page module's entry (ADR 006).
  ["/workspaces/:id", "trackers"],
  ["/invitations/:token", "trackers"],
  // A share link: its path is SHARE_PATH in src/contract/shares.ts.
  ["/shared/:token", "shared"],
  // E-mail links (ADR 053): their paths are EMAIL_CONFIRM_PATH and EMAIL_UNSUBSCRIBE_PATH in src/contract/notifications.ts.
  ["/email/confirm/:token", "email-confirm"],
  ["/email/unsubscribe/:token", "unsubscribe"],
  // A tracker report's recipient (ADR 066): REPORT_CONFIRM_PATH and REPORT_UNSUBSCRIBE_PATH in src/contract/reports.ts.
  ["/email/report/:action/:token", "report-email"],
];

const compiled = routes.map(([path, id]) => ({ id, ...parse(path) }));

export function matchPage(pathname: string): PageMatch {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  for (const route of compiled) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const values = route.keys.map((_, i) => decodeSegment(found[i + 1] ?? ""));
    // A segment that is not valid percent-encoding names nothing: the page is not found (not a 500).
    if (values.some((value) => value === null)) break;
    return { id: route.id, params: Object.fromEntries(route.keys.map((key, i) => [key, values[i] as string])) };
  }
  return { id: "not-found", params: {} };
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

const loaders = Object.fromEntries(Object.entries(pageModules).map(([id, load]) => [id, loadOnce<PageModule>(load)])) as Record<
  PageId,
  () => Promise<PageModule>
>;

/** Loads a page module once (web/lib/load-once.ts: `use()` reads a loaded page synchronously). */
export function loadPage(id: PageId): Promise<PageModule> {
  return loaders[id]();
}
