import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Bell, CalendarPlus, CalendarRange } from "lucide-react";
import { Link, useSearchParams } from "wouter";
import { roleAtLeast, type Workspace } from "#src/contract/workspaces.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { SimulatedMark } from "#web/components/results/shared.tsx";
import { LastRun, NextRun, StallWarning } from "#web/components/trackers/run-timing.tsx";
import { Sparkline } from "#web/components/trackers/sparkline.tsx";
import { TrackerActions } from "#web/components/trackers/tracker-actions.tsx";
import { prefetchTrackersAccess, TrackersGate } from "#web/components/trackers/trackers-gate.tsx";
import { chosenWorkspace, roleLabel, trackersPath, WORKSPACE_PARAM, useWorkspaces } from "#web/lib/workspaces.ts";
import type { PrefetchContext } from "#web/page.ts";
import { runKey, useOnChange } from "#web/hooks/use-on-change.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { ownerTrackerSource } from "#web/lib/tracker-source.ts";
import { isLive } from "#web/lib/trackers.ts";
import { brandRunRates, sparklineLabel } from "#web/lib/trend.ts";
import { errorText } from "#web/lib/workbench.ts";
import {
  Alert,
  AlertDescription,
  AlertTitle,
  api,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  queries,
  Skeleton,
} from "#web/shared-chunk.ts";

/** The chosen workspace's trackers arrive with the page, for a reader they are open to. */
export async function prefetchList({ queryClient, api: serverApi, url }: PrefetchContext) {
  const { open, workspaces } = await prefetchTrackersAccess(queryClient, serverApi);
  const chosen = chosenWorkspace(workspaces, url.searchParams.get(WORKSPACE_PARAM));
  if (open && chosen) await queryClient.prefetchQuery(trackerQueries.list(serverApi, chosen.id));
}

/**
 * /trackers, a Pro user's home: a workspace's trackers (`?workspace=`, else the personal one's), each
 * with its headline, a sparkline of the brand's rate, its schedule, how its last run ended, its next
 * run, its unread alerts, a warning when its schedule has stalled, Run now and Pause (for an editor or above).
 */
export function TrackerListPage() {
  const [params] = useSearchParams();
  const { data: workspaces } = useWorkspaces();
  const workspace = workspaces ? chosenWorkspace(workspaces, params.get(WORKSPACE_PARAM)) : undefined;
  const edits = workspace ? roleAtLeast(workspace.role, "editor") : false;
  return (
    <main className="container mx-auto w-full max-w-5xl flex-1 space-y-6 px-4 py-8">
      <title>{workspace && !workspace.personal ? `Trackers · ${workspace.name} · AI Search Comparison` : "Trackers · AI Search Comparison"}</title>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <h1 className="text-2xl font-bold tracking-tight">Trackers</h1>
          {workspace && !workspace.personal ? <WorkspaceLine workspace={workspace} /> : null}
          <p className="text-muted-foreground">Your questions, asked on a schedule: how often each assistant mentions your brand, run after run.</p>
        </div>
        {edits && workspace ? <NewTrackerLink workspace={workspace} /> : null}
      </header>
      <TrackersGate>
        {workspace ? <TrackerList workspace={workspace} /> : <Skeleton className="h-48 w-full" aria-label="Loading your trackers" role="status" />}
      </TrackersGate>
    </main>
  );
}

/** Which workspace's trackers these are, my role in it, and its page. */
function WorkspaceLine({ workspace }: { workspace: Workspace }) {
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <Link href={`/workspaces/${workspace.id}`} className="font-medium break-words underline underline-offset-4" data-testid="trackers-workspace">
        {workspace.name}
      </Link>
      <Badge variant="secondary">{roleLabel(workspace.role)}</Badge>
    </p>
  );
}

function TrackerList({ workspace }: { workspace: Workspace }) {
  const { data: trackers, error, isPending } = useQuery(trackerQueries.list(api, workspace.id));
  const edits = roleAtLeast(workspace.role, "editor");
  if (isPending) return <Skeleton className="h-48 w-full" aria-label="Loading your trackers" role="status" />;
  if (error) {
    return (
      <Alert variant="destructive">
        <AlertTitle>Could not load your trackers</AlertTitle>
        <AlertDescription>{errorText(error)}</AlertDescription>
      </Alert>
    );
  }
  if (trackers.length === 0) return <NoTrackers workspace={workspace} />;
  return (
    <ul className="space-y-3" aria-label="Your trackers">
      {trackers.map((tracker) => (
        <li key={tracker.id}>
          <TrackerRow tracker={tracker} edits={edits} />
        </li>
      ))}
    </ul>
  );
}

function TrackerRow({ tracker, edits }: { tracker: Tracker; edits: boolean }) {
  return (
    <Card className="gap-3 py-4" role="region" aria-label={visibleText(tracker.name)} data-testid="tracker-row">
      <CardContent className="flex flex-col gap-3 px-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <Link href={`/trackers/${tracker.id}`} className="font-semibold break-words underline-offset-4 hover:underline">
              {visibleText(tracker.name)}
            </Link>
            {tracker.paused ? <Badge variant="outline">Paused</Badge> : null}
            <UnreadAlerts tracker={tracker} />
          </div>
          <Headline tracker={tracker} />
          {/* Labelled at every width: on a phone the two dates are otherwise indistinguishable. */}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <dt>Schedule</dt>
            <dd className="text-foreground" data-testid="tracker-schedule">
              {tracker.scheduleText}
            </dd>
            <dt>Last run</dt>
            <dd data-testid="tracker-last-run">
              <LastRun tracker={tracker} />
            </dd>
            <dt>Next run</dt>
            <dd data-testid="tracker-next-run">
              <NextRun tracker={tracker} />
            </dd>
          </dl>
          <StallWarning tracker={tracker} />
        </div>
        {/* A viewer spends nothing and changes nothing: no actions. */}
        {edits ? (
          <div className="flex shrink-0 flex-wrap gap-2">
            <TrackerActions tracker={tracker} />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

/*
 * The headline and the sparkline are read per card, in parallel, under the tracker page's own keys
 * (opening a tracker then shows them at once), and not prefetched with the list: a summary runs the
 * alerts' test over the period's answers, so the list's answer would grow with every tracker it holds,
 * while the list itself stays one quick read that shows before them. Only the list is polled: a card's
 * headline and sparkline (and the bell's alerts) are read again once its last run ends.
 */
function Headline({ tracker }: { tracker: Tracker }) {
  const queryClient = useQueryClient();
  const source = ownerTrackerSource(api, tracker.id);
  useOnChange(runKey(tracker.lastRun), () => {
    if (isLive(tracker.lastRun)) return;
    void queryClient.invalidateQueries({ queryKey: source.key });
    void queryClient.invalidateQueries({ queryKey: trackerQueries.inbox(api).queryKey });
  });
  const summary = useQuery(trackerQueries.summary(source));
  const trend = useQuery(trackerQueries.trend(source, "mention"));
  const rates = trend.data ? brandRunRates(trend.data.points) : [];
  // Honesty rule: a headline read from the simulator's answers carries its flask.
  const { data: status } = useQuery(queries.status(api));
  const simulated = tracker.providers.some((id) => status?.modes[id] === "simulated");
  return (
    <div className="flex items-center gap-3">
      {rates.some(({ rate }) => rate !== null) ? <Sparkline rates={rates.map(({ rate }) => rate)} label={sparklineLabel(tracker.brand.name, rates)} /> : null}
      {summary.isPending ? (
        <Skeleton className="h-5 w-64 max-w-full" aria-label="Loading the headline" role="status" />
      ) : (
        <p className="min-w-0 text-sm break-words" data-testid="tracker-headline">
          {summary.data ? summary.data.sentence : <span className="text-muted-foreground">The headline could not be loaded.</span>}
          {summary.data && simulated ? <SimulatedMark className="ml-1 align-middle" /> : null}
        </p>
      )}
    </div>
  );
}

/** Its unread alerts and missed runs, from the header bell's inbox (one read for every card). */
function UnreadAlerts({ tracker }: { tracker: Tracker }) {
  const { data: inbox } = useQuery(trackerQueries.inbox(api));
  const unread = inbox?.unreadByTracker[tracker.id] ?? 0;
  if (unread === 0) return null;
  return (
    <Badge variant="destructive" asChild data-testid="tracker-unread">
      <Link href={`/trackers/${tracker.id}#alerts-heading`}>
        <Bell aria-hidden="true" />
        {`${unread} unread ${unread === 1 ? "alert" : "alerts"}`}
      </Link>
    </Badge>
  );
}

function NoTrackers({ workspace }: { workspace: Workspace }) {
  return (
    <Card className="mx-auto max-w-2xl items-center gap-3 py-10 text-center">
      <CalendarRange className="size-8 text-muted-foreground" aria-hidden="true" />
      <CardHeader className="w-full gap-2">
        <h2 className="text-lg font-semibold">No trackers yet</h2>
        <CardDescription>
          A tracker asks the questions your buyers ask, daily or weekly, and shows whether each assistant names your brand more or less often than before.
        </CardDescription>
      </CardHeader>
      {roleAtLeast(workspace.role, "editor") ? <NewTrackerLink workspace={workspace} /> : null}
    </Card>
  );
}

function NewTrackerLink({ workspace }: { workspace: Workspace }) {
  return (
    <Button asChild>
      <Link href={trackersPath(workspace, "/trackers/new")}>
        <CalendarPlus aria-hidden="true" />
        New tracker
      </Link>
    </Button>
  );
}
