import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ArrowLeft, LoaderCircle, SquarePen } from "lucide-react";
import { Link } from "wouter";
import type { Tracker } from "#src/contract/trackers.ts";
import { formatEstimate } from "#src/core/cost.ts";
import { formatDate } from "#src/core/dates.ts";
import { ShareButton } from "#web/components/share/share-dialog.tsx";
import { RunCard } from "#web/components/trackers/run-card.tsx";
import { TrackerActions } from "#web/components/trackers/tracker-actions.tsx";
import { TrackerAlerts } from "#web/components/trackers/tracker-alerts.tsx";
import { TrackerChanges } from "#web/components/trackers/tracker-changes.tsx";
import { TrackerMissing } from "#web/components/trackers/tracker-missing.tsx";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { TrackerSources } from "#web/components/trackers/tracker-sources.tsx";
import { TrackerTrend } from "#web/components/trackers/tracker-trend.tsx";
import { TrackersGate } from "#web/components/trackers/trackers-gate.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { RUNS_PAGE, trackerQueries } from "#web/lib/tracker-queries.ts";
import { api, Badge, Button, providerCatalogue, queries, Skeleton } from "#web/shared-chunk.ts";

/** The tracker, its trend's figures, its alerts, its newest runs and the newest run's results arrive with the page. */
export async function prefetchTracker({ queryClient, api: serverApi, params }: PrefetchContext) {
  const pro = await queryClient.ensureQueryData(queries.proStatus(serverApi));
  if (!pro.isPro || !params.id) return;
  const id = params.id;
  await Promise.all([
    queryClient.prefetchQuery(trackerQueries.one(serverApi, id)),
    queryClient.prefetchQuery(trackerQueries.trend(serverApi, id, "mention")),
    queryClient.prefetchQuery(trackerQueries.alerts(serverApi, id)),
    queryClient.prefetchQuery(trackerQueries.changes(serverApi, id)),
    // The newest run opens with its results: read on its own, with the brand's mentions.
    queryClient
      .fetchQuery(trackerQueries.runs(serverApi, id))
      .then(({ runs: [newest] }) => (newest ? queryClient.prefetchQuery(trackerQueries.run(serverApi, id, newest.id)) : undefined))
      .catch(() => undefined),
  ]);
}

/** /trackers/{id} (issues 25, 26): a tracker, its trend, alerts and what changed, its runs with a live run's progress, and each run's results per question. */
export function TrackerPage({ id }: { id: string }) {
  return (
    <main className="container mx-auto w-full max-w-5xl flex-1 space-y-6 px-4 py-8">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href="/trackers">
          <ArrowLeft aria-hidden="true" />
          Back to Trackers
        </Link>
      </Button>
      <TrackersGate>
        <TrackerView id={id} />
      </TrackersGate>
    </main>
  );
}

function TrackerView({ id }: { id: string }) {
  const { data: tracker, error, isPending } = useQuery(trackerQueries.one(api, id));
  if (isPending) return <Skeleton className="h-64 w-full" aria-label="Loading the tracker" role="status" />;
  if (error) return <TrackerMissing error={error} />;
  return (
    <>
      <title>{`${tracker.name} · Trackers · AI Search Comparison`}</title>
      <TrackerHeader tracker={tracker} />
      <TrackerTrend tracker={tracker} />
      <TrackerSources trackerId={tracker.id} />
      <TrackerAlerts trackerId={tracker.id} />
      <TrackerChanges trackerId={tracker.id} />
      <Runs tracker={tracker} />
    </>
  );
}

function TrackerHeader({ tracker }: { tracker: Tracker }) {
  return (
    <header className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold tracking-tight break-words">{tracker.name}</h1>
            {tracker.paused ? <Badge variant="outline">Paused</Badge> : null}
          </div>
          <p className="text-muted-foreground" data-testid="tracker-schedule">
            {tracker.scheduleText}
          </p>
          {tracker.pausedReason ? <p className="text-sm text-amber-700">{tracker.pausedReason}</p> : null}
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <TrackerActions tracker={tracker} />
          <ShareButton target={{ kind: "tracker", id: tracker.id, title: tracker.name }} />
          <Button asChild size="sm" variant="outline">
            <Link href={`/trackers/${tracker.id}/edit`}>
              <SquarePen aria-hidden="true" />
              Edit
            </Link>
          </Button>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <Fact label="Next run">{tracker.paused ? "None while paused" : formatDate(tracker.nextRunAt)}</Fact>
        <Fact label="Brand">{[tracker.brand.name, ...tracker.brand.aliases].join(", ")}</Fact>
        <Fact label="Providers">{tracker.providers.map((id) => providerCatalogue[id].name).join(", ")}</Fact>
        <Fact label="Each run">{`${tracker.queries.length} question${tracker.queries.length === 1 ? "" : "s"} × ${tracker.iterations} iteration${tracker.iterations === 1 ? "" : "s"}`}</Fact>
        <Fact label="Estimated cost">{`${formatEstimate(tracker.estimate.perRunUsd, tracker.estimate.simulated)} per run, ${formatEstimate(tracker.estimate.perMonthUsd, tracker.estimate.simulated)} per month`}</Fact>
        {tracker.competitors.length > 0 ? <Fact label="Competitors">{tracker.competitors.map((c) => c.name).join(", ")}</Fact> : null}
      </dl>
    </header>
  );
}

function Fact({ label, children }: { label: string; children: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** The most runs the page lists (the API's largest page). */
const MAX_RUNS = 100;

function Runs({ tracker }: { tracker: Tracker }) {
  const [limit, setLimit] = useState(RUNS_PAGE);
  const runs = useQuery(trackerQueries.runs(api, tracker.id, limit));
  return (
    <section aria-labelledby="runs-heading" className="space-y-3">
      <h2 id="runs-heading" className="text-lg font-semibold">
        Runs
      </h2>
      <QueryState query={runs} what="runs" skeletonClassName="h-32 w-full">
        {({ runs: list }) =>
          list.length === 0 ? (
            <p className="text-muted-foreground">No runs yet. The first starts on schedule, or now with Run now.</p>
          ) : (
            <ul className="space-y-3">
              {list.map((run, index) => (
                <li key={run.id}>
                  <RunCard
                    run={run}
                    providers={tracker.providers}
                    open={index === 0}
                    newSegment={index + 1 < list.length && list[index + 1]?.segment !== run.segment}
                  />
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {runs.data?.nextBefore && limit < MAX_RUNS ? (
        <Button type="button" variant="outline" disabled={runs.isPlaceholderData} onClick={() => setLimit((n) => Math.min(n + RUNS_PAGE, MAX_RUNS))}>
          {runs.isPlaceholderData ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          Older runs
        </Button>
      ) : null}
    </section>
  );
}
