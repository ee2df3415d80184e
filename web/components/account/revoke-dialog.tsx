import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, ApiError, Button, toast } from "#web/shared-chunk.ts";

/** What a confirmation says about the one thing it revokes. */
export type RevokeWords = {
  title: string;
  description: string;
  /** The buttons: keep it, revoke it. */
  keep: string;
  confirm: string;
  /** The alert's title when the server refuses. */
  failed: string;
  /** The toast once it is revoked. */
  done: { title: string; description: string };
};

type RevokeDialogProps = {
  /** The listed thing's id, and the list (a query of things with ids) it leaves once revoked. */
  id: string;
  listKey: QueryKey;
  revoke: () => Promise<unknown>;
  words: RevokeWords;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRevoked?: (id: string) => void;
  /** Where focus goes when it closes: the row's button, or the list once the row is gone. */
  focusAfter: () => HTMLElement | null;
};

/**
 * The profile's "Revoke …?" confirmations (a CLI token, a share link): the DELETE, then the list
 * without it and a toast. Loaded by the cards when a Revoke button is first pointed at or focused.
 */
export function RevokeDialog({ id, listKey, revoke: revokeIt, words, open, onOpenChange, onRevoked, focusAfter }: RevokeDialogProps) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: revokeIt,
    onSuccess: () => {
      queryClient.setQueryData<Array<{ id: string }>>(listKey, (list) => list?.filter((other) => other.id !== id));
      onOpenChange(false);
      onRevoked?.(id);
      toast(words.done);
    },
    // Already revoked (elsewhere): the list is out of date.
    onError: (error) => {
      if (error instanceof ApiError && error.code === "NOT_FOUND") void queryClient.invalidateQueries({ queryKey: listKey });
    },
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) revoke.reset();
      }}
    >
      <DialogContent
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusAfter()?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="break-words">{words.title}</DialogTitle>
          <DialogDescription>{words.description}</DialogDescription>
        </DialogHeader>
        {revoke.isError ? (
          <Alert variant="destructive">
            <AlertTitle>{words.failed}</AlertTitle>
            <AlertDescription>{errorText(revoke.error)}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{words.keep}</Button>
          </DialogClose>
          <Button variant="destructive" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
            {revoke.isPending ? "Revoking..." : words.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
