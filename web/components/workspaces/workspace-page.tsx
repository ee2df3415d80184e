import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, CalendarClock } from "lucide-react";
import { Link } from "wouter";
import { roleAtLeast } from "#src/contract/workspaces.ts";
import { RequireUser } from "#web/components/auth/require-user.tsx";
import { WorkspaceAudit } from "#web/components/workspaces/workspace-audit.tsx";
import { WorkspaceInvitations } from "#web/components/workspaces/workspace-invitations.tsx";
import { WorkspaceMembers } from "#web/components/workspaces/workspace-members.tsx";
import { WorkspaceSettings } from "#web/components/workspaces/workspace-settings.tsx";
import { roleLabel, trackersPath, workspaceQueries } from "#web/lib/workspaces.ts";
import { errorText } from "#web/lib/workbench.ts";
import type { PrefetchContext, PrefetchOutcome } from "#web/page.ts";
import { Alert, AlertDescription, AlertTitle, api, ApiError, Badge, Button, queries, Skeleton } from "#web/shared-chunk.ts";

/** A member's workspace and its members arrive with the page; anyone else's answer is a 404, as the API's is. */
export async function prefetchWorkspace({ queryClient, api: serverApi, params }: PrefetchContext): Promise<PrefetchOutcome> {
  const user = await queryClient.ensureQueryData(queries.user(serverApi));
  if (!user || !params.id) return;
  try {
    await queryClient.fetchQuery(workspaceQueries.one(serverApi, params.id));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { status: 404 };
    return;
  }
  await queryClient.prefetchQuery(workspaceQueries.members(serverApi, params.id));
}

/**
 * /workspaces/{id}: a workspace's name (rename, delete), its members and their roles, its
 * invitations and its audit log, each shown as far as the reader's role allows (ADR 071; the server
 * checks every change anyway).
 */
export function WorkspacePage({ id }: { id: string }) {
  return (
    <main className="container mx-auto w-full max-w-4xl flex-1 space-y-6 px-4 py-8">
      <RequireUser>
        <Workspace key={id} id={id} />
      </RequireUser>
    </main>
  );
}

function Workspace({ id }: { id: string }) {
  const { data: workspace, error, isPending } = useQuery(workspaceQueries.one(api, id));
  if (isPending) return <Skeleton className="h-64 w-full" aria-label="Loading the workspace" role="status" />;
  if (error) {
    return (
      <>
        <title>Workspace not found · AI Search Comparison</title>
        <Alert variant="destructive" role="alert">
          <AlertTitle>{error instanceof ApiError && error.status === 404 ? "Workspace not found" : "Could not load the workspace"}</AlertTitle>
          <AlertDescription>{errorText(error)}</AlertDescription>
        </Alert>
        <Button asChild variant="outline">
          <Link href="/trackers">Go to your trackers</Link>
        </Button>
      </>
    );
  }
  const manages = roleAtLeast(workspace.role, "admin");
  return (
    <>
      <title>{`${workspace.name} · Workspace · AI Search Comparison`}</title>
      <Button asChild variant="ghost" size="sm" className="-ml-2">
        <Link href={trackersPath(workspace)}>
          <ArrowLeft aria-hidden="true" />
          Back to Trackers
        </Link>
      </Button>
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <p className="text-sm text-muted-foreground">{workspace.personal ? "Your personal workspace" : "Workspace"}</p>
          <h1 className="text-2xl font-bold tracking-tight break-words">{workspace.name}</h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>Your role:</span>
            <Badge variant="secondary" data-testid="workspace-role">
              {roleLabel(workspace.role)}
            </Badge>
            <span>{`${workspace.members} ${workspace.members === 1 ? "member" : "members"}`}</span>
          </p>
        </div>
        <Button asChild variant="outline">
          <Link href={trackersPath(workspace)}>
            <CalendarClock aria-hidden="true" />
            Its trackers
          </Link>
        </Button>
      </header>
      {manages ? <WorkspaceSettings workspace={workspace} /> : null}
      <WorkspaceMembers workspace={workspace} />
      {manages ? <WorkspaceInvitations workspace={workspace} /> : null}
      {manages ? <WorkspaceAudit workspace={workspace} /> : null}
    </>
  );
}
