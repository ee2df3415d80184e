import { type Query, useMutation, useQueryClient } from "@tanstack/react-query";
import { CalendarX } from "lucide-react";
import { useId, useState } from "react";
import type { Tracker } from "#src/contract/trackers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { LIST_KEY, TRACKERS_KEY } from "#web/lib/tracker-queries.ts";
import { cn } from "#web/lib/utils.ts";
import { errorText } from "#web/lib/workbench.ts";
import { api, Button, toast } from "#web/shared-chunk.ts";

/**
 * "Delete tracker" and its confirmation, wherever a tracker can be deleted (its page, its card in
 * the list, its edit form). Its saved searches are kept by default: deleting answers can't be
 * undone, and the history's "Hide tracker runs" is no help once they stop being a tracker's.
 */
export function DeleteTracker({
  tracker,
  onDeleted,
  className,
}: {
  tracker: Pick<Tracker, "id" | "name" | "savedSearches">;
  onDeleted?: () => void;
  className?: string;
}) {
  const queryClient = useQueryClient();
  const keepId = useId();
  const [open, setOpen] = useState(false);
  const [keepSearches, setKeepSearches] = useState(true);
  const count = tracker.savedSearches;
  const searches = `${count} saved ${count === 1 ? "search" : "searches"}`;
  const remove = useMutation({
    mutationFn: () => api.deleteTracker(tracker.id, { keepSearches: keepSearches ? "true" : "false" }),
    onSuccess: () => {
      // Its own reads are not asked again (they would be 404s while its card or page is still on screen): the list drops it at once.
      const its = (query: Query) => query.queryKey.includes(tracker.id);
      queryClient.setQueriesData<Tracker[]>({ queryKey: LIST_KEY }, (list) => list?.filter((item) => item.id !== tracker.id));
      queryClient.removeQueries({ predicate: its, type: "inactive" });
      void queryClient.invalidateQueries({ queryKey: TRACKERS_KEY, predicate: (query) => !its(query) });
      // The history marks, lists or hides its searches: it is read again.
      void queryClient.invalidateQueries({ queryKey: ["searches"] });
      const kept = count > 0 && keepSearches ? ` Its ${searches} stay in your history.` : "";
      toast({ title: "Tracker deleted", description: `${visibleText(tracker.name)} and its runs are gone.${kept}` });
      setOpen(false);
      onDeleted?.();
    },
    onError: (error) => toast({ variant: "destructive", title: "Could not delete the tracker", description: errorText(error) }),
  });
  return (
    <>
      <Button type="button" size="sm" variant="ghost" className={cn("text-destructive", className)} onClick={() => setOpen(true)}>
        <CalendarX aria-hidden="true" />
        Delete tracker
        <span className="sr-only">{`: ${visibleText(tracker.name)}`}</span>
      </Button>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setKeepSearches(true);
        }}
      >
        <DialogContent>
          <DialogHeader>
            <DialogTitle className="break-words">{`Delete “${visibleText(tracker.name)}”?`}</DialogTitle>
            <DialogDescription>
              {count === 0
                ? "The tracker and all its runs are deleted, and no more runs start. Its runs saved no searches. This cannot be undone."
                : `The tracker and all its runs are deleted, and no more runs start. Its runs saved ${searches} in your history: kept, they stay there as your own searches; otherwise they are deleted too. This cannot be undone.`}
            </DialogDescription>
          </DialogHeader>
          {count > 0 ? (
            <label htmlFor={keepId} className="flex items-center gap-2 text-sm">
              <input
                id={keepId}
                type="checkbox"
                className="size-4 accent-primary"
                checked={keepSearches}
                onChange={(event) => setKeepSearches(event.target.checked)}
              />
              {`Keep its ${searches} in my history`}
            </label>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Keep it</Button>
            </DialogClose>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting..." : "Delete tracker"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
