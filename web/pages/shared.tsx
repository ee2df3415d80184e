import { useQuery } from "@tanstack/react-query";
import { use } from "react";
import { Link2Off, Search } from "lucide-react";
import { formatDate } from "#src/core/dates.ts";
import type { PageProps, PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { sharedQueries, type SharedReport } from "#web/lib/shared-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { SHARE_READS_WINDOW_S } from "#src/contract/shares.ts";
import { Alert, AlertDescription, AlertTitle, api, ApiError, loadOnce, Skeleton } from "#web/shared-chunk.ts";

/*
 * /shared/{token}: what a share link shows to anyone holding it, signed in or not: a
 * saved search with every tab, a comparison, or a tracker's report, read-only. No product header
 * (the visitor may not use the product), no owner, nothing that acts; never indexed.
 */

/** A report page: drawn without the app's header and account (its own slim heading instead). */
export const chrome = "report";

/**
 * What the link shows arrives with the page (a tracker's first figures too). A dead link answers
 * 404; a link read too often answers 429, and the browser then reads it and says why it cannot.
 */
export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const token = params.token ?? "";
  const view = await queryClient.fetchQuery(sharedQueries.view(serverApi, token)).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === "RATE_LIMITED") return "rate-limited" as const;
    throw error;
  });
  if (view === "rate-limited") return { status: 429, retryAfterS: SHARE_READS_WINDOW_S };
  if (!view) return { status: 404 };
  // The view's module is loaded before the page renders: the server's HTML never waits on it,
  // and preloads its chunk so the browser does not find it only once the entry has run.
  if (view.kind === "tracker") await (await views.tracker()).prefetchSharedTracker(queryClient, serverApi, token);
  else await views[view.kind]();
  return { status: 200, preload: [viewModules[view.kind]] };
}

export default function SharedPage({ params }: PageProps) {
  const token = params.token ?? "";
  const { data: view, error, isPending } = useQuery(sharedQueries.view(api, token));
  return (
    <>
      <meta name="robots" content="noindex, nofollow" />
      <SharedHeader />
      <main className="container mx-auto flex w-full max-w-6xl flex-1 flex-col gap-6 px-4 py-8">
        {isPending ? (
          <Skeleton className="h-96 w-full" aria-label="Loading the report" role="status" />
        ) : error ? (
          <Alert variant="destructive">
            <AlertTitle>Could not open this report</AlertTitle>
            <AlertDescription>{errorText(error)}</AlertDescription>
          </Alert>
        ) : view ? (
          <Report view={view} token={token} />
        ) : (
          <Gone />
        )}
      </main>
      {view ? <SharedFooter view={view} /> : null}
    </>
  );
}

/** The product's name and what this page is: no navigation, no account. */
function SharedHeader() {
  return (
    <header className="border-b bg-background">
      <div className="container mx-auto flex h-14 max-w-6xl items-center justify-between gap-2 px-4">
        <span className="flex min-w-0 items-center gap-2 font-semibold tracking-tight">
          <Search className="size-5 shrink-0 text-primary" aria-hidden="true" />
          AI Search Comparison
        </span>
        <span className="text-sm text-muted-foreground">Shared report · read-only</span>
      </div>
    </header>
  );
}

/**
 * Each kind's view lives in the page module that already draws it for its owner, loaded when a
 * link of that kind is opened: a search's link loads no tracker code, and the shared page adds no
 * chunks of its own to the build (each one costs the landing page's entry bytes, ADR 006).
 */
const views = {
  search: loadOnce(() => import("./search.tsx")),
  compare: loadOnce(() => import("./compare.tsx")),
  tracker: loadOnce(() => import("./trackers.tsx")),
};
/** Each kind's page module by its file's stem, as the server's preloads name it. */
const viewModules = { search: "search", compare: "compare", tracker: "trackers" } as const;

function Report({ view, token }: { view: SharedReport; token: string }) {
  switch (view.kind) {
    case "search": {
      const { SearchReport } = use(views.search());
      return <SearchReport search={view.search} />;
    }
    case "compare": {
      const { ComparisonReport } = use(views.compare());
      return <ComparisonReport report={view.report} />;
    }
    case "tracker": {
      const { SharedTrackerReport } = use(views.tracker());
      return <SharedTrackerReport view={view} token={token} />;
    }
  }
}

/** A revoked, expired or unknown link (answered 404 by the server). */
function Gone() {
  return (
    <div className="flex flex-1 flex-col items-center justify-center py-16 text-center">
      <title>Link no longer available · AI Search Comparison</title>
      <Link2Off className="mb-4 size-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="mb-3 text-3xl font-bold tracking-tight">This link is no longer available</h1>
      <p className="max-w-md text-muted-foreground">It may have expired, or the person who shared it may have revoked it. Ask them to send you a new link.</p>
    </div>
  );
}

function SharedFooter({ view }: { view: SharedReport }) {
  const parts: string[] = [`Shared ${formatDate(view.sharedAt)}`];
  if (view.expiresAt) parts.push(`the link works until ${formatDate(view.expiresAt)}`);
  return (
    <footer className="container mx-auto max-w-6xl border-t px-4 py-4 text-center text-sm text-muted-foreground">
      {`${parts.join("; ")}. A read-only report from AI Search Comparison.`}
    </footer>
  );
}
