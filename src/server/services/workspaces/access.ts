import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { workspaceMembers, workspaces } from "#db/schema.ts";
import { roleAtLeast, roleRequired, type WorkspaceRole } from "#src/contract/workspaces.ts";
import { DomainError } from "../errors.ts";

export const WORKSPACE_NOT_FOUND = "Workspace not found";
export const PERSONAL_NAME = "Personal";

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type Membership = { workspace: WorkspaceRow; role: WorkspaceRole };

/** Anything written in one go with the workspace's rows. */
type Tx = Pick<Db, "select" | "insert" | "execute">;

/**
 * Who may do what in a workspace, read from its members: the one check every workspace-scoped
 * call goes through. Not a member reads exactly like no such workspace (404, its existence is not
 * told); a member below `needed` is a 403 ROLE_REQUIRED naming the role.
 */
export async function requireRole(db: Pick<Db, "select">, userId: string, workspaceId: string, needed: WorkspaceRole): Promise<Membership> {
  const [found] = UUID.test(workspaceId)
    ? await db
        .select({ workspace: workspaces, role: workspaceMembers.role })
        .from(workspaces)
        .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, userId)))
        .where(eq(workspaces.id, workspaceId))
        .limit(1)
    : [];
  if (!found) throw new DomainError("NOT_FOUND", WORKSPACE_NOT_FOUND);
  checkRole(found.role, needed);
  return found;
}

/** ROLE_REQUIRED when `role` is below `needed`. */
export function checkRole(role: WorkspaceRole, needed: WorkspaceRole): void {
  if (!roleAtLeast(role, needed)) throw new DomainError("ROLE_REQUIRED", roleRequired(needed));
}

/**
 * The account's personal workspace, made with it as its owner when it has none yet: at sign-up,
 * and for an account made some other way (a seed, a test's row). Two callers at once make one.
 */
export async function ensurePersonal(db: Tx, userId: string): Promise<string> {
  const [found] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalUserId, userId)).limit(1);
  if (found) return found.id;
  await db.execute(sql`
    with made as (
      insert into ${workspaces} (name, personal_user_id) values (${PERSONAL_NAME}, ${userId})
      on conflict (personal_user_id) do nothing returning id
    )
    insert into ${workspaceMembers} (workspace_id, user_id, role) select id, ${userId}, 'owner' from made`);
  const [row] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.personalUserId, userId)).limit(1);
  if (!row) throw new Error("the personal workspace was not made");
  return row.id;
}

/** Tells whether an account is Pro (billing's). */
export type IsPro = (userId: string) => Promise<boolean>;

/**
 * Whether the workspace has Pro: until Pro belongs to a workspace (seats, ADR 071), it has it
 * through its owners, one of whom must be Pro. A personal workspace's owner is its user.
 */
export async function workspacePro(db: Pick<Db, "select">, isPro: IsPro, workspaceId: string): Promise<boolean> {
  const owners = await db
    .select({ userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")));
  for (const { userId } of owners) if (await isPro(userId)) return true;
  return false;
}

/** The workspaces of the user's that have Pro (all of them, for a Pro user: they own their personal one). */
export async function proWorkspaces(db: Pick<Db, "select">, isPro: IsPro, userId: string): Promise<string[]> {
  const theirs = await db.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(eq(workspaceMembers.userId, userId));
  if (theirs.length === 0) return [];
  const owners = await db
    .select({ workspaceId: workspaceMembers.workspaceId, userId: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(
      and(
        inArray(
          workspaceMembers.workspaceId,
          theirs.map((row) => row.id),
        ),
        eq(workspaceMembers.role, "owner"),
      ),
    );
  const pro = new Map<string, boolean>();
  for (const owner of owners) if (!pro.has(owner.userId)) pro.set(owner.userId, await isPro(owner.userId));
  return [...new Set(owners.filter((owner) => pro.get(owner.userId)).map((owner) => owner.workspaceId))];
}

/** Whether the user may use Pro's tracker tools at all: they are Pro, or a member of a workspace with Pro. */
export async function proHere(db: Pick<Db, "select">, isPro: IsPro, userId: string | undefined): Promise<boolean> {
  return userId !== undefined && ((await isPro(userId)) || (await proWorkspaces(db, isPro, userId)).length > 0);
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
