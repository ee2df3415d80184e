import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Building, ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { Link, useLocation, useSearchParams } from "wouter";
import type { Workspace } from "#src/contract/workspaces.ts";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#web/components/ui/dialog.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu.tsx";
import { chosenWorkspace, roleLabel, trackersPath, WORKSPACE_PARAM, WORKSPACES_KEY, workspaceQueries } from "#web/lib/workspaces.ts";
import { Alert, AlertDescription, api, ApiError, Button, Input, queries, toast } from "#web/shared-chunk.ts";

/**
 * The header's workspace switcher (ADR 071), for those with trackers (Pro, or a member of another's
 * workspace): the workspace the page shows, my workspaces with my role in each, "New workspace…" and
 * the workspace's own page. Choosing one opens its trackers. Drawn by the user menu's chunk.
 */
export function WorkspaceSwitcher() {
  const [, navigate] = useLocation();
  const { data: pro } = useQuery(queries.proStatus(api));
  const { data: workspaces } = useQuery(workspaceQueries.list(api));
  const current = useCurrentWorkspace(workspaces ?? []);
  const [creating, setCreating] = useState(false);
  if (!workspaces || !(pro?.isPro || workspaces.some((workspace) => !workspace.personal))) return null;
  return (
    <>
      {/* Not modal: "New workspace…" opens a dialog as the menu closes. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button
            size="sm"
            variant="ghost"
            className="max-w-40 sm:max-w-56"
            data-testid="workspace-switcher"
            aria-label={`Workspace: ${current?.name ?? "none"}`}
          >
            <Building aria-hidden="true" />
            <span className="hidden truncate sm:inline">{current?.name ?? "Workspaces"}</span>
            <ChevronDown aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-72 max-w-[calc(100vw-1rem)]">
          <DropdownMenuLabel>Workspaces</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={current?.id ?? ""} onValueChange={(id) => navigate(trackersPath(workspaces.find((one) => one.id === id)))}>
            {workspaces.map((workspace) => (
              <DropdownMenuRadioItem key={workspace.id} value={workspace.id} data-testid="workspace-choice">
                <span className="min-w-0 flex-1 truncate">{workspace.name}</span>
                <span className="text-xs text-muted-foreground">{roleLabel(workspace.role)}</span>
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          {current ? (
            <DropdownMenuItem asChild>
              <Link href={`/workspaces/${current.id}`}>
                {current.role === "owner" || current.role === "admin" ? "Manage workspace" : "Workspace and members"}
              </Link>
            </DropdownMenuItem>
          ) : null}
          <DropdownMenuItem onSelect={() => setCreating(true)}>New workspace…</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <NewWorkspace open={creating} onOpenChange={setCreating} />
    </>
  );
}

/** The workspace the page is about: the workspace page's, a tracker's, the URL's `?workspace=`, else the personal one. */
function useCurrentWorkspace(workspaces: Workspace[]): Workspace | undefined {
  const [location] = useLocation();
  const [params] = useSearchParams();
  const onWorkspace = /^\/workspaces\/([^/]+)/.exec(location)?.[1];
  const trackerId = /^\/trackers\/([0-9a-f-]{36})/.exec(location)?.[1];
  // The tracker's page reads it (web/lib/tracker-queries.ts' key); this only looks.
  const { data: tracker } = useQuery<{ workspaceId: string }>({ queryKey: ["workbench", "trackers", "one", trackerId], enabled: false });
  const named = onWorkspace ? decodeURIComponent(onWorkspace) : trackerId ? tracker?.workspaceId : params.get(WORKSPACE_PARAM);
  return chosenWorkspace(workspaces, named);
}

function NewWorkspace({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const nameId = useId();
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => api.createWorkspace(name),
    onSuccess: async (workspace) => {
      await queryClient.invalidateQueries({ queryKey: WORKSPACES_KEY });
      toast({ title: "Workspace created", description: `${workspace.name}: invite people from its page.` });
      onOpenChange(false);
      setName("");
      navigate(trackersPath(workspace));
    },
  });
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            create.mutate();
          }}
        >
          <DialogHeader>
            <DialogTitle>New workspace</DialogTitle>
            <DialogDescription>A place of its own for a team's or a client's trackers. You'll be its owner, and can invite people to it.</DialogDescription>
          </DialogHeader>
          <div className="space-y-1.5">
            <label htmlFor={nameId} className="text-sm font-medium">
              Workspace name
            </label>
            <Input id={nameId} value={name} maxLength={80} required autoFocus onChange={(event) => setName(event.target.value)} />
          </div>
          {create.isError ? (
            <Alert variant="destructive" role="alert">
              <AlertDescription>
                {create.error instanceof ApiError ? (create.error.serverMessage ?? create.error.message) : create.error.message}
              </AlertDescription>
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Creating..." : "Create workspace"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
