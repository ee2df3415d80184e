import { Elysia } from "elysia";
import { PRO_REQUIRED } from "#src/contract/constants.ts";
import type { WorkspaceRole } from "#src/contract/workspaces.ts";
import type { Billing } from "#src/server/services/billing/index.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Owner } from "#src/server/services/owner.ts";
import type { AuthenticatedToken } from "#src/server/services/tokens/index.ts";
import type { Actor, Membership, Workspaces } from "#src/server/services/workspaces/index.ts";
import type { identity } from "./identity.ts";

export const NOT_SIGNED_IN = "Not signed in";

/**
 * Who may call a route, declared in its options beside its schemas (what an API token may do is
 * declared there too, in `detail: forTokens(…)`, token-access.ts):
 * - `signedIn: true`: an account; else 401 `Not signed in`. The handler gets its `userId`.
 * - `pro: true`: a Pro account; else 403 `Pro subscription required`, read once per request.
 *   The handler gets its `userId`; services trust it (a queued job checks again when it runs).
 * - `proInWorkspace: true` (trackers, ADR 071): a Pro account, or a member of a workspace with Pro
 *   (one of its owners is Pro), so that a team's free viewers read its trackers; else 403 as `pro`.
 *   Which tracker a caller reaches, and with what role, the trackers service checks.
 * - `workspaceRole: "editor"` (ADR 071): an account that is a member of the workspace `params.id`
 *   with that role or above; a non-member is 404 as for no such workspace, a member below it 403
 *   `ROLE_REQUIRED` naming the role. The handler gets its `userId` and `membership` (the workspace
 *   and the caller's role), read once per request.
 * Each check runs in the transform phase, before Elysia validates the body, query and params: a
 * caller who may not call is told so, whatever they sent. The resolve step only hands the
 * checked id to the handler, typed, with its `actor` (the user, and the API token if one was used).
 */
export function guards(identityPlugin: ReturnType<typeof identity>, billing: Pick<Billing, "requirePro">, workspaces: Pick<Workspaces, "access" | "proHere">) {
  const checked = new WeakMap<Request, Membership>();
  return new Elysia({ name: "guards" }).use(identityPlugin).macro({
    signedIn: {
      transform: ({ owner }) => void userOf(owner),
      resolve: ({ owner, token }) => ({ userId: userOf(owner), actor: actorOf(owner, token) }),
    },
    pro: {
      transform: async ({ owner }) => void (await billing.requirePro(owner.userId)),
      resolve: ({ owner, token }) => ({ userId: userOf(owner), actor: actorOf(owner, token) }),
    },
    proInWorkspace: {
      transform: async ({ owner }) => {
        if (!(await workspaces.proHere(owner.userId))) throw new DomainError("PRO_REQUIRED", PRO_REQUIRED);
      },
      resolve: ({ owner, token }) => ({ userId: userOf(owner), actor: actorOf(owner, token) }),
    },
    workspaceRole: (needed: WorkspaceRole) => ({
      transform: async ({ owner, params, request }) => {
        checked.set(request, await workspaces.access(userOf(owner), String((params as Record<string, unknown>).id ?? ""), needed));
      },
      resolve: ({ owner, token, request }) => {
        const membership = checked.get(request);
        if (!membership) throw new Error("the workspace role was not checked");
        return { userId: userOf(owner), actor: actorOf(owner, token), membership };
      },
    }),
  });
}

/** Who acts, for the audit log: the user, and the token they used (its id and first characters). */
function actorOf(owner: Owner, token: AuthenticatedToken | undefined): Actor {
  const userId = userOf(owner);
  return token ? { userId, token: { id: token.tokenId, prefix: token.prefix } } : { userId };
}

export type Guards = ReturnType<typeof guards>;

function userOf(owner: Owner): string {
  if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", NOT_SIGNED_IN);
  return owner.userId;
}
