import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import type { Workspace, WorkspaceRole } from "#src/contract/workspaces.ts";
import { api, queries } from "#web/shared-chunk.ts";

/*
 * Workspaces on the web (ADR 071): the caller's workspaces with their role in each, a workspace's
 * members, invitations and audit log. The URL says which workspace the trackers' screens show:
 * `?workspace={id}` on /trackers and /trackers/new; without it, the personal workspace. A tracker's
 * own page knows its workspace from the tracker.
 */

/** One person's data, dropped on sign-in and sign-out with the rest of "workbench" (personalQueryKeys). */
export const WORKSPACES_KEY = ["workbench", "workspaces"] as const;

/** The search parameter that names the workspace on the trackers' screens. */
export const WORKSPACE_PARAM = "workspace";

export const workspaceQueries = {
  list: (api: ApiClient) =>
    queryOptions({ queryKey: [...WORKSPACES_KEY, "list"], queryFn: async () => (await api.listWorkspaces()).workspaces, staleTime: 60_000 }),
  one: (api: ApiClient, id: string) => queryOptions({ queryKey: [...WORKSPACES_KEY, "one", id], queryFn: () => api.getWorkspace(id) }),
  members: (api: ApiClient, id: string) =>
    queryOptions({ queryKey: [...WORKSPACES_KEY, "members", id], queryFn: async () => (await api.listMembers(id)).members }),
  invitations: (api: ApiClient, id: string) =>
    queryOptions({ queryKey: [...WORKSPACES_KEY, "invitations", id], queryFn: async () => (await api.listInvitations(id)).invitations }),
};

/** The workspace the trackers' screens show: the one the URL names, else the personal one. */
export function chosenWorkspace(workspaces: Workspace[], named: string | null | undefined): Workspace | undefined {
  return (named ? workspaces.find((workspace) => workspace.id === named) : undefined) ?? workspaces.find((workspace) => workspace.personal);
}

/** The trackers list of a workspace; the personal one's keeps the plain /trackers. */
export function trackersPath(workspace: Pick<Workspace, "id" | "personal"> | undefined, path = "/trackers"): string {
  return workspace && !workspace.personal ? `${path}?${WORKSPACE_PARAM}=${encodeURIComponent(workspace.id)}` : path;
}

/** The caller's role in the workspace `id`, once their workspaces are read. */
export function roleIn(workspaces: Workspace[] | undefined, id: string | undefined): WorkspaceRole | undefined {
  return workspaces?.find((workspace) => workspace.id === id)?.role;
}

/** A role as a label: "Owner", "Viewer". */
export function roleLabel(role: WorkspaceRole): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}

/** Whether the trackers are open to this person: Pro, or a member of a workspace besides their own (its Pro comes from its owners). */
export function trackersOpen(isPro: boolean | undefined, workspaces: Workspace[] | undefined): boolean {
  return isPro === true || (workspaces ?? []).some((workspace) => !workspace.personal);
}

/** The caller's workspaces, read once signed in (a signed-out visitor has none, and is not asked). */
export function useWorkspaces() {
  const { data: user } = useQuery(queries.user(api));
  return useQuery({ ...workspaceQueries.list(api), enabled: Boolean(user) });
}
