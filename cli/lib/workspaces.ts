import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import type { AuditEntry, Member, Workspace } from "#src/contract/workspaces.ts";
import { visibleText } from "#src/core/display-text.ts";
import type { SavedWorkspace } from "./config.ts";
import type { Context } from "./context.ts";
import { CliError } from "./exit.ts";
import { fitTable } from "./fit-table.ts";
import { when } from "./trackers.ts";

/*
 * Workspaces (ADR 071) as the CLI and the MCP tools name them: by id or by name (any letter
 * case), the one given with --workspace (or a tool's `workspace`) over the one `aisc workspace use`
 * remembered.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One of the caller's workspaces by its id or its name, in any letter case: an id first, then
 * names; none is exit 5, two of the same name exit 1 naming their ids.
 */
export async function findWorkspace(api: ApiClient, ref: string): Promise<Workspace> {
  const { workspaces } = await api.listWorkspaces();
  const wanted = ref.trim();
  if (UUID.test(wanted)) {
    const byId = workspaces.find((workspace) => workspace.id.toLowerCase() === wanted.toLowerCase());
    if (byId) return byId;
  }
  const key = wanted.toLocaleLowerCase();
  const named = workspaces.filter((workspace) => workspace.name.toLocaleLowerCase() === key);
  if (named.length === 1 && named[0]) return named[0];
  if (named.length > 1)
    throw new CliError(
      "usage",
      `${named.length} of your workspaces are named "${visibleText(wanted)}": give its id instead (${named.map((w) => `${w.id} ${roleLabel(w)}`).join(", ")})`,
    );
  throw new CliError("notFound", `No workspace "${visibleText(wanted)}" among yours (aisc workspace list)`);
}

/**
 * The workspace a command acts in: `--workspace` (or a tool's `workspace`), else the one remembered
 * on this server, else none (the API's default: lists of every workspace, a new tracker in the
 * personal one). A remembered one that is no longer the caller's is refused, saying how to choose again.
 */
export async function currentWorkspace(context: Context, api: ApiClient, given?: string): Promise<Workspace | undefined> {
  const ref = given ?? context.workspaceFlag;
  if (ref !== undefined) return findWorkspace(api, ref);
  const saved = context.savedWorkspace;
  if (!saved) return undefined;
  const found = (await api.listWorkspaces()).workspaces.find((workspace) => workspace.id === saved.id);
  if (!found)
    throw new CliError(
      "notFound",
      `The workspace you chose, "${visibleText(saved.name)}" (${saved.id}), is no longer one of yours: aisc workspace use <id|name>, or --personal`,
    );
  return found;
}

/** The workspace `aisc workspace members|invite|audit` acts in: the current one, else the personal one. */
export async function currentOrPersonal(context: Context, api: ApiClient, given?: string): Promise<Workspace> {
  const current = await currentWorkspace(context, api, given);
  if (current) return current;
  const personal = (await api.listWorkspaces()).workspaces.find((workspace) => workspace.personal);
  if (!personal) throw new Error("the server lists no personal workspace");
  return personal;
}

/**
 * A tracker's commands name it by id, wherever it is: a workspace given explicitly (not the
 * remembered one) is checked against the tracker's, and refused when it is another.
 */
export async function checkTrackerIn(context: Context, api: ApiClient, trackerId: string, given?: string): Promise<void> {
  const ref = given ?? context.workspaceFlag;
  if (ref === undefined) return;
  const [workspace, tracker] = await Promise.all([findWorkspace(api, ref), api.getTracker(trackerId)]);
  if (tracker.workspaceId !== workspace.id)
    throw new CliError("notFound", `The tracker ${trackerId} is not in the workspace "${visibleText(workspace.name)}" (${workspace.id})`);
}

/** A share link named by id, as a tracker is: a workspace given explicitly must be the link's. */
export async function checkShareIn(context: Context, api: ApiClient, shareId: string, given?: string): Promise<void> {
  const ref = given ?? context.workspaceFlag;
  if (ref === undefined) return;
  const workspace = await findWorkspace(api, ref);
  const { shares } = await api.listShares({ workspaceId: workspace.id });
  if (!shares.some((share) => share.id === shareId))
    throw new CliError("notFound", `No share link ${shareId} in the workspace "${visibleText(workspace.name)}" (${workspace.id})`);
}

/**
 * A call in a workspace, a missing role told with the caller's own: the server's 403 ROLE_REQUIRED
 * ("This needs the editor role or higher.") and "you are a viewer in …" (exit 3, as the server's code says).
 */
export async function withRole<T>(workspace: Workspace | undefined, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!workspace || !(error instanceof ApiError) || error.code !== "ROLE_REQUIRED") throw error;
    throw new CliError(
      "limit",
      `${visibleText(error.serverMessage ?? "Your role does not allow this.")} You are ${article(workspace.role)} ${workspace.role} in "${visibleText(workspace.name)}".`,
    );
  }
}

/** The caller's workspaces' names by id; none when they cannot be listed (a token without the workspaces scope). */
export async function workspaceNames(api: ApiClient): Promise<Map<string, string>> {
  try {
    return new Map((await api.listWorkspaces()).workspaces.map((workspace) => [workspace.id, workspace.name]));
  } catch {
    return new Map();
  }
}

/** The workspace `aisc workspace use` chose, in words (as remembered: no call). */
export function chosenText(chosen: SavedWorkspace | undefined): string {
  return chosen ? `${visibleText(chosen.name)} (${chosen.id})` : "none chosen (every workspace's trackers; new ones in your personal workspace)";
}

/** "owner, personal": the caller's role, and whether it is their personal workspace. */
export function roleLabel(workspace: Workspace): string {
  return workspace.personal ? `${workspace.role}, personal` : workspace.role;
}

/** `aisc workspace list`: id, name, the caller's role, members; the current one marked. */
export function workspacesTable(workspaces: readonly Workspace[], currentId: string | undefined): string {
  return fitTable(
    [{ head: "" }, { head: "ID" }, { head: "Name", flexible: true }, { head: "Your role" }, { head: "Members", droppable: true }],
    workspaces.map((workspace) => [
      workspace.id === currentId ? "*" : "",
      workspace.id,
      visibleText(workspace.name),
      roleLabel(workspace),
      String(workspace.members),
    ]),
  );
}

/** `aisc workspace members`. */
export function membersTable(members: readonly Member[]): string {
  return fitTable(
    [{ head: "User ID" }, { head: "Username", flexible: true }, { head: "Role" }, { head: "Joined (UTC)", droppable: true }],
    members.map((member) => [member.userId, visibleText(member.username), member.role, when(member.joinedAt)]),
  );
}

/** `aisc workspace audit`: newest first, who, how (session or which token), what. */
export function auditTable(entries: readonly AuditEntry[]): string {
  return fitTable(
    [{ head: "At (UTC)" }, { head: "Who" }, { head: "Via", droppable: true }, { head: "Action" }, { head: "Target", flexible: true }],
    entries.map((entry) => [
      when(entry.at),
      visibleText(entry.actor.username),
      entry.token ? `token ${entry.token.prefix}…` : entry.via,
      entry.action,
      [visibleText(entry.target), ...detailsText(entry)].join("\n"),
    ]),
  );
}

/** An entry's details as lines (`fields: name, queries`), the ids left to --json. */
function detailsText(entry: AuditEntry): string[] {
  return Object.entries(entry.details).flatMap(([key, value]) => {
    if (/id$/i.test(key) || value === null || value === undefined) return [];
    const text = Array.isArray(value) ? value.join(", ") : typeof value === "object" ? JSON.stringify(value) : String(value);
    return [`${key}: ${visibleText(text)}`];
  });
}

function article(role: string): string {
  return /^[aeiou]/.test(role) ? "an" : "a";
}
