import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { workspaceMembers, workspaces } from "#db/schema.ts";
import type { Workspace, WorkspaceRole } from "#src/contract/workspaces.ts";
import { DomainError } from "../errors.ts";
import type { Outbox } from "../mail/outbox.ts";
import { checkRole, ensurePersonal, proHere, requireRole, type IsPro, type Membership, type WorkspaceRow } from "./access.ts";
import { createAudit, type Actor } from "./audit.ts";
import { createInvitations } from "./invitations.ts";
import { createMembers } from "./members.ts";

export { checkRole, ensurePersonal, requireRole, type Membership } from "./access.ts";
export type { Actor } from "./audit.ts";

export const PERSONAL_KEPT = "Your personal workspace cannot be deleted: it is where your own trackers and links live";

export type WorkspacesDeps = {
  db: Db;
  /** Sends an invitation to the address it names, when e-mail is configured. */
  outbox?: Pick<Outbox, "invitation" | "configured">;
  /** Ends and deletes a workspace's trackers (their schedules are the engine's) before the workspace goes. */
  removeTrackers: (workspaceId: string) => Promise<void>;
  /** Billing's: a workspace has Pro through its owners. */
  isPro: IsPro;
  clock?: () => Date;
};

/**
 * Workspaces (ADR 071): every account has a personal one, and may make more to share with others.
 * Trackers, their share links and saved variants belong to one; its members each have a role
 * (viewer < editor < admin < owner). `requireRole` is the one check every call scoped to a
 * workspace goes through; members, invitations and the audit log are their own modules.
 */
export function createWorkspaces({ db, outbox, removeTrackers, isPro, clock = () => new Date() }: WorkspacesDeps) {
  const audit = createAudit(db);
  const members = createMembers(db, audit);
  const invitations = createInvitations({ db, audit, outbox, clock });

  async function views(userId: string, rows: Array<{ workspace: WorkspaceRow; role: WorkspaceRole }>): Promise<Workspace[]> {
    const ids = rows.map((row) => row.workspace.id);
    const counts = ids.length
      ? await db
          .select({ id: workspaceMembers.workspaceId, n: sql<number>`count(*)` })
          .from(workspaceMembers)
          .where(inArray(workspaceMembers.workspaceId, ids))
          .groupBy(workspaceMembers.workspaceId)
      : [];
    const count = new Map(counts.map((row) => [row.id, Number(row.n)]));
    return rows.map(({ workspace, role }) => ({
      id: workspace.id,
      name: workspace.name,
      personal: workspace.personalUserId !== null,
      role,
      members: count.get(workspace.id) ?? 1,
      createdAt: workspace.createdAt.toISOString(),
    }));
  }

  return {
    audit,
    members,
    invitations,
    /** The check of every workspace-scoped call: NOT_FOUND for a non-member, ROLE_REQUIRED below `needed`. */
    access: (userId: string, workspaceId: string, needed: WorkspaceRole): Promise<Membership> => requireRole(db, userId, workspaceId, needed),
    personal: (userId: string): Promise<string> => ensurePersonal(db, userId),
    /** Whether the user is Pro, or a member of a workspace with Pro (one of its owners is Pro). */
    proHere: (userId: string | undefined): Promise<boolean> => proHere(db, isPro, userId),

    /** The caller's workspaces with their role in each: the personal one first, then by when they were made. */
    async list(userId: string): Promise<{ workspaces: Workspace[] }> {
      await ensurePersonal(db, userId);
      const rows = await db
        .select({ workspace: workspaces, role: workspaceMembers.role })
        .from(workspaceMembers)
        .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
        .where(eq(workspaceMembers.userId, userId))
        .orderBy(sql`${workspaces.personalUserId} = ${userId} desc nulls last`, asc(workspaces.createdAt), asc(workspaces.id));
      return { workspaces: await views(userId, rows) };
    },

    /** IDs of the workspaces the user is a member of. */
    async ids(userId: string): Promise<string[]> {
      const rows = await db.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(eq(workspaceMembers.userId, userId));
      return rows.map((row) => row.id);
    },

    async create(actor: Actor, name: string): Promise<Workspace> {
      const row = await db.transaction(async (tx) => {
        const [made] = await tx.insert(workspaces).values({ name }).returning();
        if (!made) throw new Error("could not save the workspace");
        await tx.insert(workspaceMembers).values({ workspaceId: made.id, userId: actor.userId, role: "owner", joinedAt: made.createdAt });
        await audit.record(actor, { workspaceId: made.id, action: "workspace.created", target: name }, tx);
        return made;
      });
      const [view] = await views(actor.userId, [{ workspace: row, role: "owner" }]);
      return view!;
    },

    get: async (userId: string, membership: Membership): Promise<Workspace> => (await views(userId, [membership]))[0]!,

    async rename(actor: Actor, membership: Membership, name: string): Promise<Workspace> {
      checkRole(membership.role, "admin");
      const row = await db.transaction(async (tx) => {
        const [renamed] = await tx.update(workspaces).set({ name, updatedAt: clock() }).where(eq(workspaces.id, membership.workspace.id)).returning();
        if (!renamed) throw new DomainError("NOT_FOUND", "Workspace not found");
        if (membership.workspace.name !== name)
          await audit.record(
            actor,
            { workspaceId: renamed.id, action: "workspace.renamed", target: name, details: { from: membership.workspace.name, to: name } },
            tx,
          );
        return renamed;
      });
      return (await views(actor.userId, [{ workspace: row, role: membership.role }]))[0]!;
    },

    /** The owner's only, never a personal one; its trackers, links, invitations and log go with it. */
    async remove(membership: Membership): Promise<void> {
      checkRole(membership.role, "owner");
      if (membership.workspace.personalUserId) throw new DomainError("CONFLICT", PERSONAL_KEPT);
      await removeTrackers(membership.workspace.id);
      await db.delete(workspaces).where(and(eq(workspaces.id, membership.workspace.id)));
    },
  };
}

export type Workspaces = ReturnType<typeof createWorkspaces>;
