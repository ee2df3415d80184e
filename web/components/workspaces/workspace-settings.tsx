import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useLocation } from "wouter";
import type { Workspace } from "#src/contract/workspaces.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import { errorText } from "#web/lib/workbench.ts";
import { WORKSPACES_KEY } from "#web/lib/workspaces.ts";
import { Alert, AlertDescription, api, Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, toast } from "#web/shared-chunk.ts";

/** Rename (admins and owners) and delete (owners; never the personal workspace). */
export function WorkspaceSettings({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const nameId = useId();
  const [name, setName] = useState(workspace.name);
  const rename = useMutation({
    mutationFn: () => api.renameWorkspace(workspace.id, name),
    onSuccess: async (renamed) => {
      setName(renamed.name);
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
      toast({ title: "Workspace renamed", description: `It's now ${renamed.name}.` });
    },
  });
  return (
    <Card aria-labelledby={`${nameId}-title`}>
      <CardHeader>
        <CardTitle id={`${nameId}-title`} role="heading" aria-level={2}>
          Name
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate();
          }}
        >
          <div className="flex-1 space-y-1.5">
            <label htmlFor={nameId} className="text-sm font-medium">
              Workspace name
            </label>
            <Input id={nameId} value={name} maxLength={80} onChange={(event) => setName(event.target.value)} />
          </div>
          <Button type="submit" disabled={rename.isPending || name.trim() === workspace.name}>
            {rename.isPending ? "Saving..." : "Rename"}
          </Button>
        </form>
        {rename.isError ? (
          <Alert variant="destructive" role="alert">
            <AlertDescription>{errorText(rename.error)}</AlertDescription>
          </Alert>
        ) : null}
        {workspace.role === "owner" ? <DeleteWorkspace workspace={workspace} /> : null}
      </CardContent>
    </Card>
  );
}

function DeleteWorkspace({ workspace }: { workspace: Workspace }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const remove = useMutation({
    mutationFn: () => api.deleteWorkspace(workspace.id),
    onSuccess: async () => {
      setOpen(false);
      queryClient.removeQueries({ queryKey: [...WORKSPACES_KEY, "one", workspace.id] });
      await queryClient.invalidateQueries({ queryKey: ["workbench"] });
      toast({ title: "Workspace deleted", description: `${workspace.name}, its trackers and their runs are gone.` });
      navigate("/trackers");
    },
    onError: (error) => toast({ variant: "destructive", title: "Could not delete the workspace", description: errorText(error) }),
  });
  if (workspace.personal) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="personal-not-deletable">
        Your personal workspace can't be deleted: it's where your own trackers live, and it stays with your account.
      </p>
    );
  }
  return (
    <>
      <Button type="button" variant="ghost" className="text-destructive" onClick={() => setOpen(true)}>
        Delete workspace
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle className="break-words">{`Delete “${workspace.name}”?`}</DialogTitle>
            <DialogDescription>
              Its trackers stop and are deleted with their runs, and its share links, invitations and audit log go with it. Searches its runs saved stay in
              their makers' history. This cannot be undone.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Keep it</Button>
            </DialogClose>
            <Button variant="destructive" disabled={remove.isPending} onClick={() => remove.mutate()}>
              {remove.isPending ? "Deleting..." : "Delete workspace"}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
