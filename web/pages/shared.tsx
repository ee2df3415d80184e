import { useQuery } from "@tanstack/react-query";
import { Link2Off, Search } from "lucide-react";
import { useMemo } from "react";
import { formatDate } from "#src/core/dates.ts";
import { methodNote } from "#src/core/method.ts";
import { ReportHeading } from "#web/components/report-heading.tsx";
import { SearchResults } from "#web/components/results/search-results.tsx";
import { prefetchTrackerReport, TrackerReport } from "#web/components/trackers/tracker-page.tsx";
import { CompareView } from "#web/components/workbench/compare-view.tsx";
import { TrackerSourceContext } from "#web/hooks/use-tracker-source.ts";
import type { PageProps, PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { asOfText, compareMethod, comparedOnText, trackerMethod } from "#web/lib/report.ts";
import { sharedQueries, type SharedReport } from "#web/lib/shared-queries.ts";
import { sharedTrackerSource } from "#web/lib/tracker-source.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Badge, Skeleton } from "#web/shared-chunk.ts";

/*
 * /shared/{token} (issue 27): what a share link shows to anyone holding it, signed in or not: a
 * saved search with every tab, a comparison, or a tracker's report, read-only. No product header
 * (the visitor may not use the product), no owner, nothing that acts; never indexed.
 */

/** A report page: drawn without the app's header and account (its own slim heading instead). */
export const chrome = "report";

/** What the link shows arrives with the page (a tracker's first figures too); a dead link answers 404. */
export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const token = params.token ?? "";
  const view = await queryClient.fetchQuery(sharedQueries.view(serverApi, token));
  if (!view) return { notFound: true };
  if (view.kind === "tracker") await prefetchTrackerReport(queryClient, sharedTrackerSource(serverApi, token));
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

function Report({ view, token }: { view: SharedReport; token: string }) {
  switch (view.kind) {
    case "search": {
      const search = view.search;
      return (
        <>
          <title>{`${search.query} · Shared report · AI Search Comparison`}</title>
          <ReportHeading kind="Search report" subject={search.query} details={[`Searched ${formatDate(search.createdAt)}`, methodNote(search)]} />
          <SearchResults result={search} isPro={false} readOnly forLink />
        </>
      );
    }
    case "compare": {
      const { report } = view;
      const original = report.searches.find((search) => search.role === "original") ?? report.searches[0];
      return (
        <>
          <title>{`${original?.query ?? "Comparison"} · Shared report · AI Search Comparison`}</title>
          <ReportHeading kind="Comparison" subject={original?.query ?? ""} details={[comparedOnText(report), compareMethod(report)]} />
          <CompareView report={report} readOnly />
        </>
      );
    }
    case "tracker":
      return <SharedTracker view={view} token={token} />;
  }
}

function SharedTracker({ view, token }: { view: Extract<SharedReport, { kind: "tracker" }>; token: string }) {
  const source = useMemo(() => sharedTrackerSource(api, token), [token]);
  const { tracker } = view;
  const when = view.frozen
    ? view.frozenAt
      ? `Snapshot as of ${formatDate(view.frozenAt)}`
      : "Snapshot: no run had finished when it was shared"
    : "Live report";
  return (
    <TrackerSourceContext value={source}>
      <title>{`${tracker.name} · Shared report · AI Search Comparison`}</title>
      <ReportHeading printOnly kind="Tracker report" subject={tracker.name} details={[when, asOfText(tracker.lastRun), trackerMethod(tracker)]} />
      <TrackerReport
        tracker={tracker}
        frozen={view.frozen}
        noRuns="No runs yet."
        actions={
          <Badge variant="secondary" data-testid="shared-tracker-state">
            {when}
          </Badge>
        }
      />
    </TrackerSourceContext>
  );
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
