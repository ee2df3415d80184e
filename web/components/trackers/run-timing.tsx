import { TriangleAlert } from "lucide-react";
import type { SharedTracker } from "#src/contract/shares.ts";
import { lastRunDetail, nextRunText, stallText } from "#src/core/tracker-timing.ts";
import { RunStatus } from "#web/components/trackers/run-status.tsx";
import { useNow } from "#web/hooks/use-now.ts";
import { useViewerZone } from "#web/hooks/use-viewer-zone.ts";

/*
 * A tracker's timing, as the list and the page show it: the next run (in the reader's time zone
 * once the page has hydrated, the tracker's before, each named; and how soon), how the last run ended or since when it has not, and a warning line when the
 * schedule looks stalled. "In 3 hours" is written against the reader's clock: the server's render
 * and the browser's may differ by a minute, so those texts do not warn on hydration. In the browser
 * they follow the clock (useNow): "in 1 minute" turns to "due now" without a new read.
 */

type Timed = Pick<SharedTracker, "nextRunAt" | "paused" | "schedule" | "lastRun" | "stall"> & { pausedReason?: string };

export function NextRun({ tracker }: { tracker: Timed }) {
  const now = useNow(tracker.paused ? null : tracker.nextRunAt);
  const zone = useViewerZone(tracker.schedule.timezone);
  return <span suppressHydrationWarning>{nextRunText(tracker, now, zone)}</span>;
}

export function LastRun({ tracker }: { tracker: Timed }) {
  const run = tracker.lastRun;
  const now = useNow(run ? (run.finishedAt ?? run.startedAt ?? run.scheduledFor) : null);
  const zone = useViewerZone(tracker.schedule.timezone);
  if (!run) return <span>Not run yet</span>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      <RunStatus status={run.status} />
      <span suppressHydrationWarning>{lastRunDetail(run, zone, now)}</span>
    </span>
  );
}

/** The stall in a plain sentence, with what to do; nothing when the schedule is on time. */
export function StallWarning({ tracker, className }: { tracker: Timed; className?: string }) {
  const zone = useViewerZone(tracker.schedule.timezone);
  if (!tracker.stall) return null;
  const advice =
    tracker.stall.kind === "missed"
      ? "Its trend has a gap there. Run now fills it; if the next run does not happen either, the schedule has stopped."
      : "Nothing else runs until it ends.";
  return (
    <p role="status" data-testid="tracker-stall" className={`flex items-start gap-2 text-sm font-medium text-amber-800 dark:text-amber-300 ${className ?? ""}`}>
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span suppressHydrationWarning>
        {stallText(tracker.stall, zone, new Date())} {advice}
      </span>
    </p>
  );
}
