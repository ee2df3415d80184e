import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useMemo, useState, type ReactNode } from "react";
import { ArrowLeft, LoaderCircle, SquarePen } from "lucide-react";
import { Link, useLocation } from "wouter";
import type { SharedTracker } from "#src/contract/shares.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { formatEstimate } from "#src/core/cost.ts";
import { formatDate } from "#src/core/dates.ts";
import { visibleText } from "#src/core/display-text.ts";
import { ShareButton } from "#web/components/share/share-dialog.tsx";
import { RunCard } from "#web/components/trackers/run-card.tsx";
import { LastRun, NextRun, StallWarning } from "#web/components/trackers/run-timing.tsx";
import { TrackerActions } from "#web/components/trackers/tracker-actions.tsx";
import { TrackerAlerts } from "#web/components/trackers/tracker-alerts.tsx";
import { TrackerReportEmail } from "#web/components/trackers/tracker-report-email.tsx";
import { TrackerChanges } from "#web/components/trackers/tracker-changes.tsx";
import { TrackerMissing } from "#web/components/trackers/tracker-missing.tsx";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { TrackerSources } from "#web/components/trackers/tracker-sources.tsx";
import { TrackerSummary } from "#web/components/trackers/tracker-summary.tsx";
import { TrackerTrend } from "#web/components/trackers/tracker-trend.tsx";
import { prefetchTrackersAccess, TrackersGate } from "#web/components/trackers/trackers-gate.tsx";
import { roleAtLeast } from "#src/contract/workspaces.ts";
import { roleLabel, trackersPath, useWorkspaces } from "#web/lib/workspaces.ts";
import type { PrefetchContext } from "#web/page.ts";
import { ReportHeading } from "#web/components/report-heading.tsx";
import { TrackerSourceContext, useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { runKey, useOnChange } from "#web/hooks/use-on-change.ts";
import { pollInterval } from "#web/lib/live-poll.ts";
import { pollFacts, RUNS_PAGE, trackerQueries } from "#web/lib/tracker-queries.ts";
import { isLive } from "#web/lib/trackers.ts";
import { ownerTrackerSource, sharedTrackerSource, type TrackerSource } from "#web/lib/tracker-source.ts";
import type { SharedReport } from "#web/lib/shared-queries.ts";
import type { ApiClient } from "#src/client/api.ts";
import { asOfText, trackerMethod } from "#web/lib/report.ts";
import { api, Badge, Button, providerCatalogue, queries, Skeleton } from "#web/shared-chunk.ts";

/** The tracker, its headline, its trend's figures, its alerts, its newest runs and the newest run's results arrive with the page. */
export async function prefetchTracker({ queryClient, api: serverApi, params }: PrefetchContext) {
  const { open } = await prefetchTrackersAccess(queryClient, serverApi);
  if (!open || !params.id) return;
  await Promise.all([
    queryClient.prefetchQuery(trackerQueries.one(serverApi, params.id)),
    prefetchTrackerReport(queryClient, ownerTrackerSource(serverApi, params.id)),
  ]);
}

/** What a tracker's report shows first, from its source (the owner's tracker or a share link's). */
export async function prefetchTrackerReport(queryClient: QueryClient, source: TrackerSource) {
  await Promise.all([
    queryClient.prefetchQuery(trackerQueries.summary(source)),
    queryClient.prefetchQuery(trackerQueries.trend(source, "mention")),
    queryClient.prefetchQuery(trackerQueries.alerts(source)),
    queryClient.prefetchQuery(trackerQueries.changes(source)),
    // The newest run opens with its results: read on its own, with the brand's mentions (a live one's come when it ends).
    queryClient
      .fetchQuery(trackerQueries.runs(source))
      .then(({ runs: [newest] }) => (newest && !isLive(newest) ? queryClient.prefetchQuery(trackerQueries.run(source, newest.id)) : undefined))
      .catch(() => undefined),
  ]);
}

/** A share link's tracker (web/pages/shared.tsx): its first figures arrive with the page. */
export async function prefetchSharedTracker(queryClient: QueryClient, api: ApiClient, token: string) {
  await prefetchTrackerReport(queryClient, sharedTrackerSource(api, token));
}

/** A share link's tracker: the owner's report read through the link, live or as of its snapshot, with nothing that acts. */
export function SharedTrackerReport({ view, token }: { view: Extract<SharedReport, { kind: "tracker" }>; token: string }) {
  const source = useMemo(() => sharedTrackerSource(api, token), [token]);
  const { tracker } = view;
  const { data: listed } = useQuery(trackerQueries.runs(source));
  const when = view.frozen
    ? view.frozenAt
      ? `Snapshot as of ${formatDate(view.frozenAt)}`
      : "Snapshot: no run had finished when it was shared"
    : "Live report";
  return (
    <TrackerSourceContext value={source}>
      <title>{`${visibleText(tracker.name)} · Shared report · AI Search Comparison`}</title>
      <ReportHeading
        printOnly
        kind="Tracker report"
        subject={tracker.name}
        details={[when, asOfText(listed?.runs ?? (tracker.lastRun ? [tracker.lastRun] : [])), tracker.scheduleText, trackerMethod(tracker)]}
      />
      <TrackerReport
        tracker={tracker}
        frozen={view.frozen}
        noRuns="No runs yet."
        actions={
          // On paper the report's heading says it already.
          <Badge variant="secondary" className="print:hidden" data-testid="shared-tracker-state">
            {when}
          </Badge>
        }
      />
    </TrackerSourceContext>
  );
}

/** /trackers/{id}: a tracker, its trend, alerts and what changed, its runs with a live run's progress, and each run's results per question. */
export function TrackerPage({ id }: { id: string }) {
  // Back to its workspace's list, once the tracker says which.
  const { data: tracker } = useQuery({ ...trackerQueries.one(api, id), enabled: false });
  const { data: workspaces } = useWorkspaces();
  return (
    <main className="container mx-auto w-full max-w-5xl flex-1 space-y-6 px-4 py-8">
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href={trackersPath(workspaces?.find((workspace) => workspace.id === tracker?.workspaceId))}>
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
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const { data: tracker, error, isPending } = useQuery(trackerQueries.one(api, id));
  const source = useMemo(() => ownerTrackerSource(api, id), [id]);
  const { data: listed } = useQuery(trackerQueries.runs(source));
  // A viewer reads everything and is offered nothing that changes or spends (the server refuses it anyway).
  const { data: workspaces } = useWorkspaces();
  // The polled tracker shows a run start or end first: its runs are read then, not on their next tick.
  useOnChange(tracker ? runKey(tracker.lastRun) : undefined, () => void queryClient.invalidateQueries({ queryKey: [...source.key, "runs"] }));
  if (isPending) return <Skeleton className="h-64 w-full" aria-label="Loading the tracker" role="status" />;
  if (error) return <TrackerMissing error={error} />;
  const workspace = workspaces?.find((one) => one.id === tracker.workspaceId);
  const edits = workspace ? roleAtLeast(workspace.role, "editor") : false;
  return (
    <TrackerSourceContext value={source}>
      <title>{`${visibleText(tracker.name)} · Trackers · AI Search Comparison`}</title>
      <ReportHeading
        printOnly
        kind="Tracker report"
        subject={tracker.name}
        details={[asOfText(listed?.runs ?? (tracker.lastRun ? [tracker.lastRun] : [])), tracker.scheduleText, trackerMethod(tracker)]}
      />
      <TrackerReport
        tracker={tracker}
        notice={tracker.pausedReason}
        noRuns="No runs yet. The first starts on schedule, or now with Run now."
        actions={
          edits ? (
            <>
              <TrackerActions tracker={tracker} onDeleted={() => navigate(trackersPath(workspace))} />
              <ShareButton target={{ kind: "tracker", id: tracker.id, title: tracker.name }} />
              <Button asChild size="sm" variant="outline">
                <Link href={`/trackers/${tracker.id}/edit`}>
                  <SquarePen aria-hidden="true" />
                  Edit
                </Link>
              </Button>
            </>
          ) : workspace ? (
            <Badge variant="secondary" data-testid="tracker-viewer">{`${roleLabel(workspace.role)} in ${workspace.name}: read only`}</Badge>
          ) : null
        }
      />
      {edits ? <TrackerReportEmail trackerId={tracker.id} /> : null}
    </TrackerSourceContext>
  );
}

type TrackerReportProps = {
  /** The owner's tracker, or a link's (which has no cost estimate: the owner's planned spend is theirs). */
  tracker: SharedTracker & Partial<Pick<Tracker, "estimate">>;
  /** Beside the name: the owner's buttons; a share link's "Live report" or "Snapshot as of …". */
  actions: ReactNode;
  /** Said under the schedule (why the tracker is paused). */
  notice?: string;
  /** A frozen link's tracker runs no more: no next run to tell. */
  frozen?: boolean;
  /** Said while there is no run. */
  noRuns: string;
};

/**
 * A tracker's report: its facts, headline, trend, sources, alerts, what changed and its runs, read from the
 * TrackerSourceContext around it: the owner's page and a share link's page are this one view.
 */
export function TrackerReport({ tracker, actions, notice, frozen = false, noRuns }: TrackerReportProps) {
  return (
    <>
      <TrackerHeader tracker={tracker} actions={actions} notice={notice} frozen={frozen} />
      <TrackerSummary />
      <TrackerTrend tracker={tracker} />
      <TrackerSources />
      <TrackerAlerts />
      <TrackerChanges />
      <Runs tracker={tracker} noRuns={noRuns} frozen={frozen} />
    </>
  );
}

function TrackerHeader({ tracker, actions, notice, frozen }: Omit<TrackerReportProps, "frozen" | "noRuns"> & { frozen: boolean }) {
  return (
    <header className="space-y-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            {/* On paper the report's heading above already names the tracker. */}
            <h1 className="text-2xl font-bold tracking-tight break-words print:hidden">{visibleText(tracker.name)}</h1>
            {tracker.paused ? <Badge variant="outline">Paused</Badge> : null}
          </div>
          {/* On paper the report's heading above says the schedule: once. */}
          <p className="text-muted-foreground print:hidden" data-testid="tracker-schedule">
            {tracker.scheduleText}
          </p>
          {notice ? <p className="text-sm text-amber-700">{notice}</p> : null}
          {/* A frozen link's tracker runs no more: nothing is late. */}
          {frozen ? null : <StallWarning tracker={tracker} />}
        </div>
        <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {frozen ? null : (
          <Fact label="Next run" testId="tracker-next-run">
            <NextRun tracker={{ ...tracker, pausedReason: undefined }} />
          </Fact>
        )}
        <Fact label="Last run" testId="tracker-last-run">
          <LastRun tracker={tracker} />
        </Fact>
        <Fact label="Brand">{[tracker.brand.name, ...tracker.brand.aliases].join(", ")}</Fact>
        <Fact label="Providers">{tracker.providers.map((id) => providerCatalogue[id].name).join(", ")}</Fact>
        <Fact label="Each run">{`${tracker.queries.length} question${tracker.queries.length === 1 ? "" : "s"} × ${tracker.iterations} iteration${tracker.iterations === 1 ? "" : "s"}`}</Fact>
        {tracker.estimate ? (
          <Fact label="Estimated cost">{`${formatEstimate(tracker.estimate.perRunUsd, tracker.estimate.simulated)} per run, ${formatEstimate(tracker.estimate.perMonthUsd, tracker.estimate.simulated)} per month`}</Fact>
        ) : null}
        {tracker.competitors.length > 0 ? <Fact label="Competitors">{tracker.competitors.map((c) => c.name).join(", ")}</Fact> : null}
        {/* The owner's page has it; a share link's may not. */}
        {tracker.detectability ? (
          <Fact label="What it can see" wide testId="tracker-detectability">
            {tracker.detectability.sentence}
          </Fact>
        ) : null}
      </dl>
    </header>
  );
}

function Fact({ label, children, wide = false, testId }: { label: string; children: ReactNode; wide?: boolean; testId?: string }) {
  return (
    <div className={wide ? "min-w-0 sm:col-span-2" : "min-w-0"} data-testid={testId}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** The most runs the page lists (the API's largest page). */
const MAX_RUNS = 100;

/**
 * The runs, read on the page's poll (fast while one is live or due). When the newest run ends, what it
 * changes is read again once: the tracker, its headline, trend, sources, alerts and the run's results.
 */
function Runs({ tracker, noRuns, frozen }: { tracker: SharedTracker; noRuns: string; frozen: boolean }) {
  const queryClient = useQueryClient();
  const source = useTrackerSource();
  const [limit, setLimit] = useState(RUNS_PAGE);
  const runs = useQuery({
    ...trackerQueries.runs(source, limit),
    // A frozen link's runs do not change.
    refetchInterval: frozen
      ? false
      : (query) => {
          const live = query.state.data?.runs.some((run) => isLive(run)) ?? false;
          return pollInterval({ ...pollFacts(tracker), live: live || isLive(tracker.lastRun) }, Date.now());
        },
  });
  const newest = runs.data?.runs[0];
  useOnChange(runs.data ? runKey(newest) : undefined, () => {
    if (!isLive(newest)) void queryClient.invalidateQueries({ queryKey: source.staleOnRunEnd });
  });
  return (
    <section aria-labelledby="runs-heading" className="space-y-3 print:break-before-page">
      <h2 id="runs-heading" className="text-lg font-semibold">
        Runs
      </h2>
      <QueryState query={runs} what="runs" skeletonClassName="h-32 w-full">
        {({ runs: list }) =>
          list.length === 0 ? (
            <p className="text-muted-foreground">{noRuns}</p>
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
