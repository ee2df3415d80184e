import { CirclePlay, LoaderCircle, Pause, RotateCw } from "lucide-react";
import type { Tracker } from "#src/contract/trackers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DeleteTracker } from "#web/components/trackers/delete-tracker.tsx";
import { useTrackerActions } from "#web/hooks/use-tracker-actions.ts";
import { isLive } from "#web/lib/trackers.ts";
import { Button } from "#web/shared-chunk.ts";

/** "Run now", "Pause" / "Resume" and "Delete tracker" of one tracker; Run now waits while a run is queued or running. */
export function TrackerActions({ tracker, onDeleted }: { tracker: Tracker; onDeleted?: () => void }) {
  const { runNow, setPaused, busy } = useTrackerActions(tracker);
  const live = isLive(tracker.lastRun);
  return (
    <>
      <Button type="button" size="sm" disabled={busy || live} onClick={() => runNow.mutate()}>
        {runNow.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
        Run now
        <span className="sr-only">{`: ${visibleText(tracker.name)}`}</span>
      </Button>
      <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => setPaused.mutate(!tracker.paused)}>
        {tracker.paused ? <CirclePlay aria-hidden="true" /> : <Pause aria-hidden="true" />}
        {tracker.paused ? "Resume" : "Pause"}
        <span className="sr-only">{`: ${visibleText(tracker.name)}`}</span>
      </Button>
      <DeleteTracker tracker={tracker} {...(onDeleted ? { onDeleted } : {})} />
    </>
  );
}
