import { useQuery } from "@tanstack/react-query";
import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation } from "wouter";
import { SearchResults } from "#web/components/results/search-results.tsx";
import { SearchForm } from "#web/components/search/search-form.tsx";
import { ReportHeading } from "#web/components/report-heading.tsx";
import { formatDate } from "#src/core/dates.ts";
import { visibleText } from "#src/core/display-text.ts";
import { methodNote } from "#src/core/method.ts";
import type { PageProps, PrefetchContext } from "#web/page.ts";
import type { SavedSearchResult, SearchOrigin } from "#src/contract/search-result.ts";
import { ShareButton } from "#web/components/share/share-dialog.tsx";
import { api, ApiError, Button, Card, CardContent, queries, Skeleton, toast } from "#web/shared-chunk.ts";

export async function prefetch({ queryClient, api: serverApi, params }: PrefetchContext) {
  if (params.id) await queryClient.prefetchQuery(queries.search(serverApi, params.id));
}

/** A share link's saved search (web/pages/shared.tsx): every tab, read-only, under its report heading; nothing of its owner's. */
export function SearchReport({ search }: { search: SavedSearchResult }) {
  return (
    <>
      <title>{`${visibleText(search.query)} · Shared report · AI Search Comparison`}</title>
      <ReportHeading kind="Search report" subject={search.query} details={[`Searched ${formatDate(search.createdAt)}`, methodNote(search)]} />
      <SearchResults result={search} isPro={false} readOnly forLink />
    </>
  );
}

/** Spec §2 /search/{id}: one saved search, read-only, arriving with its data in the HTML. */
export default function SavedSearchPage({ params }: PageProps) {
  // The app routes without <Route> (see app.tsx), so wouter's useParams is empty: the id comes
  // from the same route match as the server's prefetch, for the same query key.
  const [, navigate] = useLocation();
  const id = params.id ?? "";
  const { data: result, error } = useQuery(queries.search(api, id));
  const { data: pro } = useQuery(queries.proStatus(api));
  const { data: user } = useQuery(queries.user(api));

  useEffect(() => {
    if (!error) return;
    const notFound = error instanceof ApiError && error.code === "NOT_FOUND";
    toast({
      variant: "destructive",
      title: notFound ? "Search not found" : "Failed to load search results",
      description: notFound ? "This search does not exist or is not yours." : error.message,
    });
    navigate("/", { replace: true });
  }, [error, navigate]);

  return (
    <main className="container mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-8">
      <title>{result ? `${visibleText(result.query)} · AI Search Comparison` : "Saved Search · AI Search Comparison"}</title>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <Button asChild variant="ghost" size="sm">
          {/* A tracker run's search leads back to its tracker, the page it was opened from. */}
          <Link href={result?.tracker ? `/trackers/${result.tracker.id}` : "/"}>
            <ArrowLeft className="size-4" aria-hidden="true" />
            {result?.tracker ? `Back to ${visibleText(result.tracker.name)}` : "Back to Dashboard"}
          </Link>
        </Button>
        {/* A link is its owner's to make and revoke: an anonymous visitor's search has no owner to list it (the footer says how). */}
        {result && user ? <ShareButton target={{ kind: "search", id: result.id, title: result.query }} /> : null}
      </div>
      {result ? (
        <>
          <ReportHeading printOnly kind="Search report" subject={result.query} details={[`Searched ${formatDate(result.createdAt)}`, methodNote(result)]} />
          {result.tracker ? (
            // Asked by a tracker, not typed: where it came from instead of a form that cannot be used.
            <TrackerOrigin origin={result.tracker} query={result.query} />
          ) : (
            <Card className="mx-auto mb-8 w-full max-w-3xl print:hidden">
              <CardContent>
                <SearchForm
                  key={result.id}
                  onSearch={() => undefined}
                  searching={false}
                  disabled
                  isPro={pro?.isPro ?? false}
                  remaining={null}
                  initialQuery={result.query}
                  initialIterations={result.iterationCount}
                />
              </CardContent>
            </Card>
          )}
          <SearchResults result={result} isPro={pro?.isPro ?? false} readOnly />
        </>
      ) : (
        <Skeleton className="h-96 w-full" aria-label="Loading saved search" />
      )}
      <footer className="mt-10 border-t pt-4 text-center text-sm text-muted-foreground print:hidden">
        {result ? `Saved search from ${formatDate(result.createdAt)}. ` : null}
        {user ? (
          <>
            Results are kept in your{" "}
            <Link href="/user/history" className="text-foreground underline underline-offset-2">
              search history
            </Link>
            .
          </>
        ) : (
          // An anonymous visitor's searches belong to this browser until they sign in, when they join the account's history.
          <>
            Only this browser can open it.{" "}
            <Link href="/auth" className="text-foreground underline underline-offset-2">
              Sign up or log in
            </Link>{" "}
            to keep it, and every search you make, in a search history, and to share it with a link.
          </>
        )}
      </footer>
    </main>
  );
}

/** A tracker run's saved search: its question, and the tracker and run that asked it, each a link back. */
function TrackerOrigin({ origin, query }: { origin: SearchOrigin; query: string }) {
  const trackerPath = `/trackers/${origin.id}`;
  return (
    <header className="mb-8 space-y-1 print:hidden" data-testid="search-origin">
      <h1 className="text-2xl font-bold tracking-tight break-words">{visibleText(query)}</h1>
      <p className="text-muted-foreground">
        From the tracker{" "}
        <Link href={trackerPath} className="text-foreground underline underline-offset-2">
          {visibleText(origin.name)}
        </Link>
        ,{" "}
        <Link href={`${trackerPath}#run-${origin.runId}`} className="text-foreground underline underline-offset-2">
          {`run of ${formatDate(origin.scheduledFor)}`}
        </Link>
      </p>
    </header>
  );
}
