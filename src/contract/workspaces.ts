import * as v from "valibot";
import { visibleOnly } from "./visible-input.ts";

/*
 * Workspaces (ADR 071): trackers, their share links and saved variants belong to a workspace, and
 * people are its members with a role. These names are the contract the web, the CLI, MCP and the
 * tests share.
 */

/** From least to most: each role may do everything the ones before it may. */
export const workspaceRoles = ["viewer", "editor", "admin", "owner"] as const;
export const WorkspaceRole = v.picklist(workspaceRoles, `role must be one of ${workspaceRoles.join(", ")}`);
export type WorkspaceRole = v.InferOutput<typeof WorkspaceRole>;

/** Whether `role` is `needed` or above it. */
export function roleAtLeast(role: WorkspaceRole, needed: WorkspaceRole): boolean {
  return workspaceRoles.indexOf(role) >= workspaceRoles.indexOf(needed);
}

/** The 403 `ROLE_REQUIRED` message, the same words everywhere. */
export function roleRequired(needed: WorkspaceRole): string {
  return needed === "owner" ? "This needs the owner role." : `This needs the ${needed} role or higher.`;
}

/** An invitation lives this long. */
export const INVITATION_DAYS = 7;
/** Where an invitation opens: `${origin}${INVITATION_PATH}/${token}`. */
export const INVITATION_PATH = "/invitations";
/** Entries in one page of the audit log, at most. */
export const MAX_AUDIT_PAGE = 200;

const Name = v.pipe(
  v.string("A workspace name is required"),
  v.trim(),
  v.minLength(1, "A workspace name is required"),
  v.maxLength(80, "A workspace name must be at most 80 characters"),
  visibleOnly("A workspace name"),
);

/** POST /api/workspaces, PATCH /api/workspaces/{id}. */
export const CreateWorkspace = v.object({ name: Name }, "The body must be a JSON object with a name");
export const UpdateWorkspace = CreateWorkspace;

/** A workspace as one of its members sees it. */
export const Workspace = v.object({
  id: v.string(),
  name: v.string(),
  /** The account's own one: made with it, never deleted. */
  personal: v.boolean(),
  /** The caller's role in it. */
  role: WorkspaceRole,
  members: v.number(),
  createdAt: v.string(),
});
export type Workspace = v.InferOutput<typeof Workspace>;
export const WorkspaceList = v.object({ workspaces: v.array(Workspace) });
export type WorkspaceList = v.InferOutput<typeof WorkspaceList>;

export const Member = v.object({
  userId: v.string(),
  username: v.string(),
  role: WorkspaceRole,
  joinedAt: v.string(),
});
export type Member = v.InferOutput<typeof Member>;
export const MemberList = v.object({ members: v.array(Member) });
export type MemberList = v.InferOutput<typeof MemberList>;

/** PATCH /api/workspaces/{id}/members/{userId}. */
export const ChangeRole = v.object({ role: WorkspaceRole }, "The body must be a JSON object with a role");

/** POST /api/workspaces/{id}/invitations. */
export const CreateInvitation = v.object(
  {
    role: WorkspaceRole,
    /** Only the account with this address may accept; it is sent the link when the server has SMTP_URL. */
    email: v.optional(
      v.pipe(v.string("email must be an e-mail address"), v.trim(), v.maxLength(254, "email is too long"), v.email("email must be an e-mail address")),
    ),
  },
  "The body must be a JSON object with a role",
);
export type CreateInvitation = v.InferOutput<typeof CreateInvitation>;

/** The answer to POST …/invitations: the link, shown this once (only its hash is kept). */
export const CreatedInvitation = v.object({ id: v.string(), url: v.string(), expiresAt: v.string(), emailed: v.boolean() });
export type CreatedInvitation = v.InferOutput<typeof CreatedInvitation>;

/** A pending invitation as listed: never its link. */
export const Invitation = v.object({
  id: v.string(),
  role: WorkspaceRole,
  email: v.nullable(v.string()),
  createdBy: v.nullable(v.string()),
  createdAt: v.string(),
  expiresAt: v.string(),
});
export type Invitation = v.InferOutput<typeof Invitation>;
export const InvitationList = v.object({ invitations: v.array(Invitation) });
export type InvitationList = v.InferOutput<typeof InvitationList>;

/** POST /api/invitations/{token}/accept. */
export const AcceptedInvitation = v.object({
  workspaceId: v.string(),
  role: WorkspaceRole,
  /** False when the caller was a member already with this role or a higher one, which they keep. */
  joined: v.boolean(),
});
export type AcceptedInvitation = v.InferOutput<typeof AcceptedInvitation>;

export const AuditEntry = v.object({
  id: v.number(),
  at: v.string(),
  actor: v.object({ userId: v.nullable(v.string()), username: v.string() }),
  via: v.picklist(["session", "token"]),
  /** The token's id and first characters, when it was done with an API token. */
  token: v.nullable(v.object({ id: v.string(), prefix: v.string() })),
  action: v.string(),
  target: v.string(),
  details: v.record(v.string(), v.unknown()),
});
export type AuditEntry = v.InferOutput<typeof AuditEntry>;
export const AuditPage = v.object({ entries: v.array(AuditEntry), nextBefore: v.optional(v.number()) });
export type AuditPage = v.InferOutput<typeof AuditPage>;

export const AuditQuery = v.object({
  /** The previous page's `nextBefore`. */
  before: v.optional(v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,15}$/, "before must be an entry id"), v.transform(Number))),
  limit: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.integer(`limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`),
      v.minValue(1, `limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`),
      v.maxValue(MAX_AUDIT_PAGE, `limit must be a whole number from 1 to ${MAX_AUDIT_PAGE}`),
    ),
    "50",
  ),
});

/** `?workspaceId=` on the tracker and share lists: one workspace's, of those the caller is a member of. */
export const WorkspaceFilter = v.object({ workspaceId: v.optional(v.pipe(v.string(), v.uuid("workspaceId must be a workspace id"))) });

/** The audit's actions, as they are written. */
export const AUDIT_ACTIONS = [
  "workspace.created",
  "workspace.renamed",
  "member.invited",
  "member.joined",
  "member.role-changed",
  "member.removed",
  "member.left",
  "invitation.revoked",
  "tracker.created",
  "tracker.edited",
  "tracker.paused",
  "tracker.resumed",
  "tracker.run",
  "tracker.deleted",
  "tracker.webhook-set",
  "link.shared",
  "link.revoked",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
