import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers, users, workspaceMembers, workspaces } from "#db/schema.ts";
import { workspaceRoles, type Member, type WorkspaceRole } from "#src/contract/workspaces.ts";
import { DomainError } from "../errors.ts";
import { checkRole, UUID, type Membership } from "./access.ts";
import type { Actor, Audit } from "./audit.ts";

export const MEMBER_NOT_FOUND = "Member not found";
export const LAST_OWNER = "A workspace keeps at least one owner: make another member an owner first";
export const PERSONAL_OWNER = "Your personal workspace is always yours: its owner cannot leave, be removed or change role";

/**
 * A workspace's members (ADR 071): listed to every member; roles changed and members removed by
 * an admin (an owner only to make or unmake an owner); anyone may leave. The last owner stays,
 * and so does a personal workspace's own user. Trackers a departing member made pass to the
 * workspace's first owner, whose account their runs are paid as from then on. Each change is checked and written under a lock
 * on the workspace's row, so two at once cannot both take away the last owner.
 */
export function createMembers(db: Db, audit: Audit) {
  /** The member's row, read under the workspace's lock, or NOT_FOUND. */
  async function memberIn(tx: Pick<Db, "select">, workspaceId: string, userId: string) {
    await tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update");
    const [found] = UUID.test(userId)
      ? await tx
          .select({ role: workspaceMembers.role, username: users.username })
          .from(workspaceMembers)
          .innerJoin(users, eq(users.id, workspaceMembers.userId))
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
          .limit(1)
      : [];
    if (!found) throw new DomainError("NOT_FOUND", MEMBER_NOT_FOUND);
    return found;
  }

  async function owners(tx: Pick<Db, "select">, workspaceId: string): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)` })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")));
    return Number(row?.n ?? 0);
  }

  /** Taking an owner away: never the personal workspace's own user, never the last one. */
  async function checkOwnerMayGo(tx: Pick<Db, "select">, { workspace }: Membership, userId: string, role: WorkspaceRole): Promise<void> {
    if (workspace.personalUserId === userId) throw new DomainError("CONFLICT", PERSONAL_OWNER);
    if (role === "owner" && (await owners(tx, workspace.id)) <= 1) throw new DomainError("CONFLICT", LAST_OWNER);
  }

  return {
    /** Owners first, then by role, then by who joined first. */
    async list(workspaceId: string): Promise<{ members: Member[] }> {
      const rows = await db
        .select({ userId: workspaceMembers.userId, username: users.username, role: workspaceMembers.role, joinedAt: workspaceMembers.joinedAt })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(eq(workspaceMembers.workspaceId, workspaceId))
        .orderBy(asc(workspaceMembers.joinedAt), asc(users.username));
      const rank = (role: WorkspaceRole) => -workspaceRoles.indexOf(role);
      const members = rows.map((row) => ({ ...row, joinedAt: row.joinedAt.toISOString() }));
      return { members: members.sort((a, b) => rank(a.role) - rank(b.role)) };
    },

    /** `caller` is the actor's own membership, as the guard found it. */
    async changeRole(actor: Actor, caller: Membership, userId: string, role: WorkspaceRole): Promise<Member> {
      checkRole(caller.role, "admin");
      return db.transaction(async (tx) => {
        const target = await memberIn(tx, caller.workspace.id, userId);
        // Only an owner makes or unmakes an owner.
        if (target.role === "owner" || role === "owner") checkRole(caller.role, "owner");
        if (target.role !== role) {
          if (target.role === "owner") await checkOwnerMayGo(tx, caller, userId, target.role);
          await tx
            .update(workspaceMembers)
            .set({ role })
            .where(and(eq(workspaceMembers.workspaceId, caller.workspace.id), eq(workspaceMembers.userId, userId)));
          await audit.record(
            actor,
            { workspaceId: caller.workspace.id, action: "member.role-changed", target: target.username, details: { userId, from: target.role, to: role } },
            tx,
          );
        }
        const [row] = await tx
          .select({ joinedAt: workspaceMembers.joinedAt })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, caller.workspace.id), eq(workspaceMembers.userId, userId)));
        return { userId, username: target.username, role, joinedAt: (row?.joinedAt ?? new Date()).toISOString() };
      });
    },

    /** Removing someone else needs an admin (an owner, to remove an owner); removing oneself is leaving. */
    async remove(actor: Actor, caller: Membership, userId: string): Promise<{ left: boolean }> {
      const leaving = userId === actor.userId;
      if (!leaving) checkRole(caller.role, "admin");
      await db.transaction(async (tx) => {
        const target = await memberIn(tx, caller.workspace.id, userId);
        if (!leaving && target.role === "owner") checkRole(caller.role, "owner");
        await checkOwnerMayGo(tx, caller, userId, target.role);
        await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, caller.workspace.id), eq(workspaceMembers.userId, userId)));
        // A tracker's runs are paid as its maker's: one who is gone stops paying, and the workspace's first owner takes them over.
        const [heir] = await tx
          .select({ userId: workspaceMembers.userId })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, caller.workspace.id), eq(workspaceMembers.role, "owner")))
          .orderBy(asc(workspaceMembers.joinedAt))
          .limit(1);
        const handed = heir
          ? await tx
              .update(trackers)
              .set({ userId: heir.userId })
              .where(and(eq(trackers.workspaceId, caller.workspace.id), eq(trackers.userId, userId)))
              .returning({ id: trackers.id })
          : [];
        await audit.record(
          actor,
          {
            workspaceId: caller.workspace.id,
            action: leaving ? "member.left" : "member.removed",
            target: target.username,
            details: { userId, role: target.role, ...(handed.length && heir ? { trackersPassedTo: heir.userId, trackers: handed.length } : {}) },
          },
          tx,
        );
      });
      return { left: leaving };
    },
  };
}

export type Members = ReturnType<typeof createMembers>;
