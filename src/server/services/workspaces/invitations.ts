import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users, workspaceInvitations, workspaceMembers } from "#db/schema.ts";
import {
  INVITATION_DAYS,
  INVITATION_PATH,
  roleAtLeast,
  type AcceptedInvitation,
  type CreatedInvitation,
  type CreateInvitation,
  type Invitation,
} from "#src/contract/workspaces.ts";
import { DomainError } from "../errors.ts";
import type { Outbox } from "../mail/outbox.ts";
import { checkRole, UUID, type Membership } from "./access.ts";
import type { Actor, Audit } from "./audit.ts";

export const INVITATION_NOT_FOUND = "Invitation not found";
export const INVITATION_USED = "This invitation has been used already: ask the workspace's admin for a new one";
export const INVITATION_REVOKED = "This invitation was revoked: ask the workspace's admin for a new one";
export const INVITATION_EXPIRED = `This invitation has expired (they last ${INVITATION_DAYS} days): ask the workspace's admin for a new one`;
export const INVITATION_FOR_ANOTHER =
  "This invitation is for another e-mail address than this account's: sign in with that account, or ask for an invitation to yours";

export type InvitationsDeps = { db: Db; audit: Audit; outbox?: Pick<Outbox, "invitation" | "configured">; clock: () => Date };

/**
 * Invitations by link (ADR 071): made by an admin (an owner, to invite an owner) for a role and
 * optionally one address, which is sent the link when the server has SMTP_URL. The link carries a
 * random token shown once and kept only as its hash; it works once, for INVITATION_DAYS, unless revoked.
 */
export function createInvitations({ db, audit, outbox, clock }: InvitationsDeps) {
  return {
    async create(actor: Actor, caller: Membership, input: CreateInvitation, origin: string): Promise<CreatedInvitation> {
      checkRole(caller.role, input.role === "owner" ? "owner" : "admin");
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(clock().getTime() + INVITATION_DAYS * 86_400_000);
      const email = input.email?.toLowerCase() ?? null;
      const invitation = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(workspaceInvitations)
          .values({ workspaceId: caller.workspace.id, tokenHash: hash(token), role: input.role, email, createdBy: actor.userId, createdAt: clock(), expiresAt })
          .returning();
        if (!row) throw new Error("could not save the invitation");
        await audit.record(
          actor,
          {
            workspaceId: caller.workspace.id,
            action: "member.invited",
            target: email ?? "anyone with the link",
            details: { role: input.role, invitationId: row.id },
          },
          tx,
        );
        return row;
      });
      const url = `${origin}${INVITATION_PATH}/${token}`;
      let emailed = false;
      if (email && outbox?.configured) {
        const [inviter] = await db.select({ username: users.username }).from(users).where(eq(users.id, actor.userId)).limit(1);
        const sent = await outbox.invitation(actor.userId, {
          invitationId: invitation.id,
          workspaceId: caller.workspace.id,
          email,
          workspaceName: caller.workspace.name,
          inviter: inviter?.username ?? "Someone",
          role: input.role,
          url,
          expiresAt,
        });
        emailed = sent === "sent";
      }
      return { id: invitation.id, url, expiresAt: expiresAt.toISOString(), emailed };
    },

    /** The ones still open: not used, not revoked, not expired; newest first. */
    async list(workspaceId: string): Promise<{ invitations: Invitation[] }> {
      const rows = await db
        .select({ invitation: workspaceInvitations, createdBy: users.username })
        .from(workspaceInvitations)
        .leftJoin(users, eq(users.id, workspaceInvitations.createdBy))
        .where(and(eq(workspaceInvitations.workspaceId, workspaceId), ...pending(clock())))
        .orderBy(desc(workspaceInvitations.createdAt));
      return {
        invitations: rows.map(({ invitation, createdBy }) => ({
          id: invitation.id,
          role: invitation.role,
          email: invitation.email,
          createdBy,
          createdAt: invitation.createdAt.toISOString(),
          expiresAt: invitation.expiresAt.toISOString(),
        })),
      };
    },

    /** A pending invitation of this workspace only; any other id reads like a missing one. */
    async revoke(actor: Actor, caller: Membership, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = UUID.test(id)
          ? await tx
              .update(workspaceInvitations)
              .set({ revokedAt: clock() })
              .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, caller.workspace.id), ...pending(clock())))
              .returning()
          : [];
        if (!row) throw new DomainError("NOT_FOUND", INVITATION_NOT_FOUND);
        await audit.record(
          actor,
          {
            workspaceId: caller.workspace.id,
            action: "invitation.revoked",
            target: row.email ?? "anyone with the link",
            details: { role: row.role, invitationId: row.id },
          },
          tx,
        );
      });
    },

    /**
     * Joins the caller with the invitation's role. A member already keeps the higher of their role
     * and the invitation's (`joined` false); the invitation is used either way. Refused, saying
     * why, when it was used, revoked or has expired, or names another address than the account's.
     */
    async accept(actor: Actor, token: string): Promise<AcceptedInvitation> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(workspaceInvitations)
          .where(eq(workspaceInvitations.tokenHash, hash(token)))
          .limit(1)
          .for("update");
        if (!row) throw new DomainError("NOT_FOUND", INVITATION_NOT_FOUND);
        if (row.usedAt) throw new DomainError("CONFLICT", INVITATION_USED);
        if (row.revokedAt) throw new DomainError("CONFLICT", INVITATION_REVOKED);
        if (row.expiresAt <= clock()) throw new DomainError("CONFLICT", INVITATION_EXPIRED);
        const [account] = await tx.select({ email: users.email, username: users.username }).from(users).where(eq(users.id, actor.userId)).limit(1);
        if (!account) throw new DomainError("NOT_SIGNED_IN", "Not signed in");
        if (row.email && row.email !== account.email.toLowerCase()) throw new DomainError("WRONG_ACCOUNT", INVITATION_FOR_ANOTHER);
        await tx.update(workspaceInvitations).set({ usedAt: clock(), usedBy: actor.userId }).where(eq(workspaceInvitations.id, row.id));
        const [member] = await tx
          .select({ role: workspaceMembers.role })
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, row.workspaceId), eq(workspaceMembers.userId, actor.userId)))
          .for("update");
        const details = { role: row.role, invitationId: row.id };
        if (!member) {
          await tx.insert(workspaceMembers).values({ workspaceId: row.workspaceId, userId: actor.userId, role: row.role, joinedAt: clock() });
          await audit.record(actor, { workspaceId: row.workspaceId, action: "member.joined", target: account.username, details }, tx);
          return { workspaceId: row.workspaceId, role: row.role, joined: true };
        }
        if (roleAtLeast(member.role, row.role)) return { workspaceId: row.workspaceId, role: member.role, joined: false };
        await tx
          .update(workspaceMembers)
          .set({ role: row.role })
          .where(and(eq(workspaceMembers.workspaceId, row.workspaceId), eq(workspaceMembers.userId, actor.userId)));
        await audit.record(
          actor,
          {
            workspaceId: row.workspaceId,
            action: "member.role-changed",
            target: account.username,
            details: { ...details, userId: actor.userId, from: member.role, to: row.role },
          },
          tx,
        );
        return { workspaceId: row.workspaceId, role: row.role, joined: false };
      });
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;

function pending(now: Date) {
  return [isNull(workspaceInvitations.usedAt), isNull(workspaceInvitations.revokedAt), gt(workspaceInvitations.expiresAt, now)];
}

function hash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
