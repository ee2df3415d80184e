import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, CalendarPlus, SearchX } from "lucide-react";
import { useMemo } from "react";
import { Link, useSearchParams } from "wouter";
import { ReportHeading } from "#web/components/report-heading.tsx";
import { CompareView, Missing } from "#web/components/workbench/compare-view.tsx";
import { compareMethod, comparedOnText } from "#web/lib/report.ts";
import { useProGate } from "#web/hooks/use-pro-gate.ts";
import type { PrefetchContext } from "#web/page.ts";
import type { CompareReport } from "#src/contract/compare.ts";
import { visibleText } from "#src/core/display-text.ts";
import { ShareButton } from "#web/components/share/share-dialog.tsx";
import { trackerPrefillHref } from "#web/lib/tracker-prefill.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { errorText, workbenchMessages } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, Card, CardContent, CardDescription, CardHeader, queries, Skeleton } from "#web/shared-chunk.ts";

/** What /compare was asked: compareQuery and the repeated compareVariants, blank ones left out. */
function asked(params: URLSearchParams): { query: string | undefined; variants: string[] } {
  const query = params.get("compareQuery")?.trim() || undefined;
  const variants = params
    .getAll("compareVariants")
    .map((variant) => variant.trim())
    .filter(Boolean);
  return { query, variants };
}

/** The comparison arrives with the page (for a Pro caller). */
export async function prefetch({ queryClient, api: serverApi, url }: PrefetchContext) {
  const { query, variants } = asked(url.searchParams);
  if (!query && variants.length === 0) return;
  const pro = await queryClient.ensureQueryData(queries.proStatus(serverApi));
  if (pro.isPro) await queryClient.prefetchQuery(workbenchQueries.compare(serverApi, query, variants));
}

/** Spec §2 /compare?compareQuery=..&compareVariants=..: a query against its variants (Pro). */
export default function ComparePage() {
  const [params] = useSearchParams();
  const search = params.toString();
  const { query, variants } = useMemo(() => asked(new URLSearchParams(search)), [search]);
  const ready = useProGate(query || variants.length > 0 ? null : workbenchMessages.noQueries);
  // The same query the comparison below reads (no second request): the original's iterations for the way back.
  const { data: report } = useQuery({ ...workbenchQueries.compare(api, query, variants), enabled: ready });
  const original = report?.searches.find((search) => search.role === "original");
  const iterations = original?.iterationCount;

  return (
    <main className="container mx-auto w-full max-w-6xl flex-1 space-y-6 px-4 py-8">
      <title>Compare Variants · AI Search Comparison</title>
      <header className="space-y-3">
        {query ? (
          <Button asChild variant="ghost" size="sm" className="-ml-2">
            <Link href={`/variants?query=${encodeURIComponent(query)}${iterations ? `&iterations=${iterations}` : ""}`}>
              <ArrowLeft aria-hidden="true" />
              Back to Variants
            </Link>
          </Button>
        ) : null}
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-2xl font-bold tracking-tight">Compare Variants</h1>
          {/* A link pins the original's saved search and its variants': without an original query there is nothing to pin it to. */}
          <div className="flex flex-wrap items-center gap-2">
            {/* The questions it compared, as a tracker's: the form starts from the profile's lens. */}
            {report && report.searches.length > 0 ? (
              <Button asChild variant="outline" size="sm">
                <Link href={trackerPrefillHref({ queries: report.searches.map((search) => search.query), brand: undefined, competitors: [] })}>
                  <CalendarPlus aria-hidden="true" />
                  Track these questions every week
                </Link>
              </Button>
            ) : null}
            {original ? <ShareButton target={{ kind: "compare", id: original.id, title: original.query, variants }} /> : null}
          </div>
        </div>
        {query ? <p className="break-words text-muted-foreground">{`Original query: ${query}`}</p> : null}
      </header>
      {ready ? <Comparison query={query} variants={variants} /> : <Skeleton className="h-64 w-full" aria-label="Loading" />}
    </main>
  );
}

function Comparison({ query, variants }: { query: string | undefined; variants: string[] }) {
  const { data: report, error, isPending } = useQuery(workbenchQueries.compare(api, query, variants));
  if (isPending) return <Skeleton className="h-96 w-full" aria-label="Loading the comparison" role="status" />;
  if (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not compare these searches</AlertTitle>
        <AlertDescription>{errorText(error)}</AlertDescription>
      </Alert>
    );
  }
  if (report.searches.length === 0) {
    return (
      <Card className="mx-auto max-w-2xl gap-4">
        <CardHeader className="items-center text-center">
          <SearchX className="mx-auto size-8 text-muted-foreground" aria-hidden="true" />
          <h2 className="text-lg font-semibold">No Results Found</h2>
          <CardDescription>None of these queries has a saved search of yours yet. Run them first, then compare.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <Missing missing={report.missing} />
          <Button asChild variant="outline">
            <Link href="/">Back to Dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return <ComparisonReport report={report} owner />;
}

/**
 * A comparison under its report heading: the owner's (the heading prints only) or a share link's
 * (web/pages/shared.tsx: read-only, no links to the owner's saved searches).
 */
export function ComparisonReport({ report, owner = false }: { report: CompareReport; owner?: boolean }) {
  const original = report.searches.find((search) => search.role === "original") ?? report.searches[0];
  return (
    <>
      {owner ? null : <title>{`${visibleText(original?.query ?? "Comparison")} · Shared report · AI Search Comparison`}</title>}
      <ReportHeading printOnly={owner} kind="Comparison" subject={original?.query ?? ""} details={[comparedOnText(report), compareMethod(report)]} />
      <CompareView report={report} readOnly={!owner} />
    </>
  );
}
