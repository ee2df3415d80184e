import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import type { SavedSearchListItem } from "#src/contract/history.ts";
import { visibleText } from "#src/core/display-text.ts";
import { useHistoryCache } from "#web/hooks/use-history-cache.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { searchName } from "#web/lib/history.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, Button, Input, toast } from "#web/shared-chunk.ts";

type DialogProps = { search: SavedSearchListItem; open: boolean; onOpenChange: (open: boolean) => void };

/** "Rename search": a title shown in the history instead of the query (which stays visible); empty gives the query back. */
export function RenameDialog({ search, open, onOpenChange }: DialogProps) {
  const inputId = useId();
  const update = useHistoryCache();
  const [title, setTitle] = useState(searchName(search));
  const rename = useMutation({
    mutationFn: (next: string | null) => api.renameSearch(search.id, next),
    onSuccess: (renamed) => {
      update((item) => (item.id === search.id ? withTitle(item, renamed.title) : item));
      onOpenChange(false);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = title.trim();
    rename.mutate(next === "" || next === search.query ? null : next);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (next) setTitle(searchName(search));
        else rename.reset();
      }}
    >
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Rename search</DialogTitle>
            <DialogDescription className="break-words">{`The history shows this name instead of the query “${visibleText(search.query)}”, which stays visible below it. Leave it empty to show the query again.`}</DialogDescription>
          </DialogHeader>
          <div className="space-y-1">
            <label htmlFor={inputId} className="text-sm font-medium">
              Title
            </label>
            <Input id={inputId} value={title} onChange={(event) => setTitle(event.target.value)} maxLength={200} autoFocus />
          </div>
          {rename.isError ? (
            <Alert variant="destructive">
              <AlertTitle>Could not rename the search</AlertTitle>
              <AlertDescription>{errorText(rename.error)}</AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={rename.isPending}>
              {rename.isPending ? "Saving..." : "Save Title"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** "Delete this search?": gone from the history for good (a free search it took is not given back). */
export function DeleteDialog({ search, open, onOpenChange }: DialogProps) {
  const queryClient = useQueryClient();
  const update = useHistoryCache();
  const remove = useMutation({
    mutationFn: () => api.deleteSearch(search.id),
    onSuccess: () => {
      update((item) => (item.id === search.id ? null : item));
      queryClient.removeQueries({ queryKey: ["search", search.id] });
      onOpenChange(false);
      toast({ title: "Search deleted", description: `“${visibleText(searchName(search))}” is no longer in your history.` });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) remove.reset();
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete this search?</DialogTitle>
          <DialogDescription className="break-words">{`“${visibleText(searchName(search))}” and its results leave your history for good. This cannot be undone.`}</DialogDescription>
        </DialogHeader>
        {remove.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not delete the search</AlertTitle>
            <AlertDescription>{errorText(remove.error)}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep Search</Button>
          </DialogClose>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
            {remove.isPending ? "Deleting..." : "Delete Search"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function withTitle(item: SavedSearchListItem, title: string | null): SavedSearchListItem {
  const { title: _, ...rest } = item;
  return title ? { ...rest, title } : rest;
}
