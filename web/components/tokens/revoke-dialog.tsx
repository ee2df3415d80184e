import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ApiToken } from "#src/contract/tokens.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { tokenQueries } from "#web/lib/token-queries.ts";
import { errorText } from "#web/lib/workbench.ts";
import { Alert, AlertDescription, AlertTitle, api, ApiError, Button, toast } from "#web/shared-chunk.ts";

type RevokeDialogProps = {
  token: ApiToken;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRevoked: (id: string) => void;
  /** Where focus goes when it closes: the row's button, or the list once the row is gone. */
  focusAfter: () => HTMLElement | null;
};

/** The CLI access card's "Revoke token?" confirmation: DELETE /api/tokens/:id, then the list and the toast. */
export function RevokeDialog({ token, open, onOpenChange, onRevoked, focusAfter }: RevokeDialogProps) {
  const queryClient = useQueryClient();
  const key = tokenQueries.list(api).queryKey;
  const revoke = useMutation({
    mutationFn: () => api.revokeToken(token.id),
    onSuccess: () => {
      queryClient.setQueryData(key, (list) => list?.filter((other) => other.id !== token.id));
      onOpenChange(false);
      onRevoked(token.id);
      toast({ title: "Token revoked", description: `“${token.name}” no longer works: whatever used it is signed out.` });
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
          <DialogTitle className="break-words">{`Revoke “${token.name}”?`}</DialogTitle>
          <DialogDescription>
            Whatever uses it (the aisc CLI, a script, an MCP client) is signed out at once. This cannot be undone: to sign in again, create a new token.
          </DialogDescription>
        </DialogHeader>
        {revoke.isError ? (
          <Alert variant="destructive">
            <AlertTitle>Could not revoke the token</AlertTitle>
            <AlertDescription>{errorText(revoke.error)}</AlertDescription>
          </Alert>
        ) : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Keep token</Button>
          </DialogClose>
          <Button variant="destructive" disabled={revoke.isPending} onClick={() => revoke.mutate()}>
            {revoke.isPending ? "Revoking..." : "Revoke token"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
