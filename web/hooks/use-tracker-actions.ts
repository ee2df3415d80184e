import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Tracker } from "#src/contract/trackers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { TRACKERS_KEY, trackerQueries } from "#web/lib/tracker-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { api, ApiError, toast } from "#web/shared-chunk.ts";

/**
 * Run now, and pause or resume, for the list and a tracker's page alike. Each reads the trackers
 * again when done (a new run, the next run's time); a run already queued or running is said so.
 */
export function useTrackerActions(tracker: Pick<Tracker, "id" | "name" | "paused">) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: TRACKERS_KEY });

  const runNow = useMutation({
    mutationFn: () => api.runTracker(tracker.id),
    onSuccess: () => toast({ title: "Run started", description: `${visibleText(tracker.name)} is being asked now.` }),
    onError: (error) =>
      toast(
        error instanceof ApiError && error.code === "CONFLICT"
          ? { title: "Already running", description: `A run of ${visibleText(tracker.name)} is queued or running: it shows its progress here.` }
          : { variant: "destructive", title: "Could not start a run", description: errorText(error) },
      ),
    onSettled: refresh,
  });

  const setPaused = useMutation({
    mutationFn: (paused: boolean) => api.updateTracker(tracker.id, { paused }),
    onSuccess: (saved) => {
      queryClient.setQueryData(trackerQueries.one(api, saved.id).queryKey, saved);
      toast({
        title: saved.paused ? "Tracker paused" : "Tracker resumed",
        description: saved.paused ? "No run starts until you resume it." : saved.scheduleText,
      });
    },
    onError: (error) => toast({ variant: "destructive", title: "Could not change the tracker", description: errorText(error) }),
    onSettled: refresh,
  });

  return { runNow, setPaused, busy: runNow.isPending || setPaused.isPending };
}
