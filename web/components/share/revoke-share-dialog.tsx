import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Share } from "#src/contract/shares.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { shareQueries } from "#web/lib/shares.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, ApiError, Button, toast } from "#web/shared-chunk.ts";

type RevokeShareDialogProps = {
  share: Share;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when it closes: the row's button, or the list once the row is gone. */
  focusAfter: () => HTMLElement | null;
};

/** The Shared links card's "Revoke the link?" confirmation: DELETE /api/shares/:id, then the list and the toast. */
export function RevokeShareDialog({ share, open, onOpenChange, focusAfter }: RevokeShareDialogProps) {
  const queryClient = useQueryClient();
  const key = shareQueries.list(api).queryKey;
  const revoke = useMutation({
    mutationFn: () => api.revokeShare(share.id),
    onSuccess: () => {
      queryClient.setQueryData(key, (list) => list?.filter((other) => other.id !== share.id));
      onOpenChange(false);
      toast({ title: "Link revoked", description: `The link to “${share.title}” no longer opens.` });
    },
    // Already revoked (elsewhere): the list is out of date.
    onError: (error) => {
      if (error instanceof ApiError && error.code === "NOT_FOUND") void queryClient.invalidateQueries({ queryKey: key });
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
          <DialogTitle className="break-words">{`Revoke the link to “${share.title}”?`}</DialogTitle>
          <DialogDescription>
            Whoever has it can no longer open it: it answers “not found” at once. This cannot be undone: to share it again, create a new link.
          </DialogDescription>
        </DialogHeader>
        {revoke.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not revoke the link</AlertTitle>
            <AlertDescription>{errorText(revoke.error)}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep link</Button>
          </DialogClose>
          <Button variant="destructive" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
            {revoke.isPending ? "Revoking..." : "Revoke link"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
