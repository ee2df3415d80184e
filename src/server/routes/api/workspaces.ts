import { Elysia } from "elysia";
import * as v from "valibot";
import {
  AcceptedInvitation,
  AuditPage,
  AuditQuery,
  ChangeRole,
  CreatedInvitation,
  CreateInvitation,
  CreateWorkspace,
  INVITATION_DAYS,
  InvitationList,
  Member,
  MemberList,
  roleRequired,
  UpdateWorkspace,
  Workspace,
  WorkspaceList,
} from "#src/contract/workspaces.ts";
import { requestOrigin } from "#src/server/http/forwarded.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import { forTokens } from "#src/server/http/token-access.ts";
import { AUDIT_CSV_MAX } from "#src/server/services/workspaces/audit.ts";
import type { Workspaces } from "#src/server/services/workspaces/index.ts";

const WorkspaceId = v.object({ id: v.string() });
const MemberOf = v.object({ id: v.string(), userId: v.string() });
const InvitationOf = v.object({ id: v.string(), invitationId: v.string() });
const Token = v.object({ token: v.string() });
const Done = v.object({ success: v.literal(true) });

const SCOPED = "Members only: anyone else gets 404, as for a workspace that does not exist.";
const needs = (role: "viewer" | "editor" | "admin" | "owner") =>
  `${SCOPED} Needs the ${role} role or above (else 403 \`ROLE_REQUIRED\`: "${roleRequired(role)}").`;

/**
 * Workspaces (ADR 071): the caller's list and new ones for any signed-in account; everything under
 * /api/workspaces/{id} declares the role it needs with `workspaceRole` (http/guards.ts), which is
 * checked before anything else. Accepting an invitation needs only an account.
 */
export function workspaceRoutes(workspaces: Workspaces, guards: Guards, { trustProxy }: { trustProxy: number }) {
  return new Elysia()
    .use(guards)
    .get("/api/workspaces", ({ userId }) => workspaces.list(userId), {
      signedIn: true,
      response: WorkspaceList,
      detail: forTokens("workspaces", {
        tags: ["workspaces"],
        summary: "The caller's workspaces",
        description: "Each with the caller's `role` there and how many `members` it has; the personal workspace (`personal`) first.",
      }),
    })
    .post(
      "/api/workspaces",
      async ({ actor, body, set }) => {
        set.status = 201;
        return workspaces.create(actor, body.name);
      },
      {
        signedIn: true,
        body: CreateWorkspace,
        parse: "json",
        response: { 201: Workspace },
        detail: forTokens("workspaces", { tags: ["workspaces"], summary: "Make a workspace", description: "The caller is its owner." }),
      },
    )
    .get("/api/workspaces/:id", ({ userId, membership }) => workspaces.get(userId, membership), {
      workspaceRole: "viewer",
      params: WorkspaceId,
      response: Workspace,
      detail: forTokens("workspaces", { tags: ["workspaces"], summary: "One workspace", description: needs("viewer") }),
    })
    .patch("/api/workspaces/:id", ({ actor, membership, body }) => workspaces.rename(actor, membership, body.name), {
      workspaceRole: "admin",
      params: WorkspaceId,
      body: UpdateWorkspace,
      parse: "json",
      response: Workspace,
      detail: forTokens("workspaces", { tags: ["workspaces"], summary: "Rename a workspace", description: needs("admin") }),
    })
    .delete(
      "/api/workspaces/:id",
      async ({ membership }) => {
        await workspaces.remove(membership);
        return { success: true as const };
      },
      {
        workspaceRole: "owner",
        params: WorkspaceId,
        response: Done,
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "Delete a workspace",
          description: `${needs("owner")} Its trackers (with their runs), share links, invitations and audit log go with it; the searches its trackers made stay in their makers' history. A personal workspace cannot be deleted (409 \`CONFLICT\`).`,
        }),
      },
    )
    .get("/api/workspaces/:id/members", ({ membership }) => workspaces.members.list(membership.workspace.id), {
      workspaceRole: "viewer",
      params: WorkspaceId,
      response: MemberList,
      detail: forTokens("workspaces", {
        tags: ["workspaces"],
        summary: "A workspace's members",
        description: `${needs("viewer")} Owners first, each with their role.`,
      }),
    })
    .patch(
      "/api/workspaces/:id/members/:userId",
      ({ actor, membership, params, body }) => workspaces.members.changeRole(actor, membership, params.userId, body.role),
      {
        workspaceRole: "admin",
        params: MemberOf,
        body: ChangeRole,
        parse: "json",
        response: Member,
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "Change a member's role",
          description:
            `${needs("admin")} Only an owner makes someone an owner or changes an owner's role (403 \`ROLE_REQUIRED\`). The last owner cannot be demoted, nor a personal workspace's own user (409 \`CONFLICT\`). ` +
            "Another id is 404 `NOT_FOUND`.",
        }),
      },
    )
    .delete(
      "/api/workspaces/:id/members/:userId",
      async ({ actor, membership, params }) => {
        await workspaces.members.remove(actor, membership, params.userId);
        return { success: true as const };
      },
      {
        workspaceRole: "viewer",
        params: MemberOf,
        response: Done,
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "Remove a member, or leave",
          description:
            `${SCOPED} Any member may remove themselves (leave). Removing someone else needs the admin role, an owner the owner role (403 \`ROLE_REQUIRED\`). ` +
            "The last owner cannot leave or be removed, nor a personal workspace's own user (409 `CONFLICT`).",
        }),
      },
    )
    .post(
      "/api/workspaces/:id/invitations",
      async ({ actor, membership, body, set, request }) => {
        set.status = 201;
        return workspaces.invitations.create(actor, membership, body, requestOrigin(request, trustProxy));
      },
      {
        workspaceRole: "admin",
        params: WorkspaceId,
        body: CreateInvitation,
        parse: "json",
        response: { 201: CreatedInvitation },
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "Invite someone",
          description:
            `${needs("admin")} Inviting an owner needs the owner role. The \`url\` carries a random token (256 bits), shown in this answer only: it works once, for ${INVITATION_DAYS} days (\`expiresAt\`), unless revoked. ` +
            "With `email`, only the account with that address may accept it, and the link is e-mailed to it when the server has SMTP_URL (`emailed`; at most once a day per workspace and address, counted in the inviter's MAIL_DAILY_CAP).",
        }),
      },
    )
    .get("/api/workspaces/:id/invitations", ({ membership }) => workspaces.invitations.list(membership.workspace.id), {
      workspaceRole: "admin",
      params: WorkspaceId,
      response: InvitationList,
      detail: forTokens("workspaces", {
        tags: ["workspaces"],
        summary: "A workspace's pending invitations",
        description: `${needs("admin")} Not used, revoked nor expired; newest first; never their links.`,
      }),
    })
    .delete(
      "/api/workspaces/:id/invitations/:invitationId",
      async ({ actor, membership, params }) => {
        await workspaces.invitations.revoke(actor, membership, params.invitationId);
        return { success: true as const };
      },
      {
        workspaceRole: "admin",
        params: InvitationOf,
        response: Done,
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "Revoke an invitation",
          description: `${needs("admin")} A pending invitation of this workspace (others 404); its link is refused from then on.`,
        }),
      },
    )
    .post("/api/invitations/:token/accept", ({ actor, params }) => workspaces.invitations.accept(actor, params.token), {
      signedIn: true,
      params: Token,
      response: AcceptedInvitation,
      detail: forTokens("workspaces", {
        tags: ["workspaces"],
        summary: "Accept an invitation",
        description:
          "Signed in: the caller joins the workspace with the invitation's role (`joined` true). A member already keeps the higher of their role and the invitation's (`joined` false), and the invitation is used. " +
          "An unknown link is 404 `NOT_FOUND`; one used, revoked or expired is 409 `CONFLICT` saying which; one naming another e-mail address than the account's is 403 `WRONG_ACCOUNT`.",
      }),
    })
    .get("/api/workspaces/:id/audit", ({ membership, query }) => workspaces.audit.page(membership.workspace.id, query), {
      workspaceRole: "admin",
      params: WorkspaceId,
      transform: lastValues,
      query: AuditQuery,
      response: AuditPage,
      detail: forTokens("workspaces", {
        tags: ["workspaces"],
        summary: "A workspace's audit log",
        description:
          `${needs("admin")} Newest first, \`limit\` entries a page (default 50); \`before\` is the previous page's \`nextBefore\`. Each: when (\`at\`), who (\`actor\`), \`via\` a browser \`session\` or a \`token\` (its id and first characters), ` +
          "`action` (workspace.created, workspace.renamed, member.invited, member.joined, member.role-changed, member.removed, member.left, invitation.revoked, tracker.created, tracker.edited (with the `fields` changed), " +
          "tracker.paused, tracker.resumed, tracker.run, tracker.deleted, tracker.webhook-set, link.shared, link.revoked), its `target` in words and `details`. The same as CSV: GET /api/workspaces/{id}/audit.csv.",
      }),
    })
    .get(
      "/api/workspaces/:id/audit.csv",
      async ({ membership, set }) => {
        set.headers["content-type"] = "text/csv; charset=utf-8";
        set.headers["content-disposition"] = `attachment; filename="audit-${membership.workspace.id}.csv"`;
        return workspaces.audit.csv(membership.workspace.id);
      },
      {
        workspaceRole: "admin",
        params: WorkspaceId,
        response: v.string(),
        detail: forTokens("workspaces", {
          tags: ["workspaces"],
          summary: "A workspace's audit log as CSV",
          description: `${needs("admin")} Its newest ${AUDIT_CSV_MAX} entries, newest first: At, Actor, Actor id, Via, Token (first characters), Action, Target, Details (JSON). Text cells that a spreadsheet would run as a formula start with an apostrophe.`,
        }),
      },
    );
}
