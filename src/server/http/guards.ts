import { Elysia } from "elysia";
import type { Billing } from "#src/server/services/billing/index.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { Owner } from "#src/server/services/owner.ts";
import type { identity } from "./identity.ts";

export const NOT_SIGNED_IN = "Not signed in";

/**
 * Who may call a route, declared in its options beside its schemas (what an API token may do is
 * declared there too, in `detail: forTokens(…)`, token-access.ts):
 * - `signedIn: true`: an account; else 401 `Not signed in`. The handler gets its `userId`.
 * - `pro: true`: a Pro account; else 403 `Pro subscription required`, read once per request.
 *   The handler gets its `userId`; services trust it (a queued job checks again when it runs).
 * Each check runs in the transform phase, before Elysia validates the body, query and params: a
 * caller who may not call is told so, whatever they sent. The resolve step only hands the
 * checked id to the handler, typed.
 */
export function guards(identityPlugin: ReturnType<typeof identity>, billing: Pick<Billing, "requirePro">) {
  return new Elysia({ name: "guards" }).use(identityPlugin).macro({
    signedIn: {
      transform: ({ owner }) => void userOf(owner),
      resolve: ({ owner }) => ({ userId: userOf(owner) }),
    },
    pro: {
      transform: async ({ owner }) => void (await billing.requirePro(owner.userId)),
      resolve: ({ owner }) => ({ userId: userOf(owner) }),
    },
  });
}

export type Guards = ReturnType<typeof guards>;

function userOf(owner: Owner): string {
  if (!owner.userId) throw new DomainError("NOT_SIGNED_IN", NOT_SIGNED_IN);
  return owner.userId;
}
