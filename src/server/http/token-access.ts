import { Elysia, type DocumentDecoration } from "elysia";
import type { TokenScope } from "#src/contract/tokens.ts";
import { DomainError } from "#src/server/services/errors.ts";
import type { AuthenticatedToken } from "#src/server/services/tokens/index.ts";
import type { identity } from "./identity.ts";

/**
 * What an API token may do on a route (ADR 025), declared once in the route's `detail` with
 * `forTokens`, so the API reference and the guard below read the same word:
 * - a scope: a token with that scope may call it;
 * - "public": anyone may, token or not (the route reads nothing of the caller);
 * - "own-token": a token may act on itself only (the route's `:id` is the token's own id);
 * - "session": no token may: it needs a browser session.
 * A route that declares nothing is "session" for tokens: a new route is never open to tokens by accident.
 */
export type TokenAccess = TokenScope | "public" | "own-token" | "session";

/** The OpenAPI extension each operation carries its declaration in. */
export const TOKEN_ACCESS = "x-token-access";

const NEEDS_SESSION = "an API token cannot manage tokens, billing or the account. Sign in on the web to do it";

/** A route's `detail` with its token access declared, and said in its description. */
export function forTokens<D extends DocumentDecoration>(access: TokenAccess, detail: D): D & { [TOKEN_ACCESS]: TokenAccess } {
  return { ...detail, ...(detail.hide ? {} : { description: `${detail.description ?? ""}\n\n${documented(access)}`.trim() }), [TOKEN_ACCESS]: access };
}

/** The routes as registered, read at the first request (the app is complete by then). */
export type RouteTable = () => ReadonlyArray<{ method: string; path: string; hooks?: { detail?: unknown } }>;

/**
 * The one place token access is enforced: before any handler of a call made with a token, the
 * matched route's declaration is looked up and a call it does not allow is a 403 naming why.
 * It runs in the transform phase, before Elysia validates the body, query and params: a token is
 * told it may not call, whatever it sent. Browser sessions and anonymous callers pass untouched
 * (routes declare what they need of those with `signedIn` / `pro`, guards.ts).
 */
export function tokenAccessGuard(identityPlugin: ReturnType<typeof identity>, routes: RouteTable) {
  let declared: Map<string, TokenAccess> | undefined;
  const accessOf = (method: string, route: string): TokenAccess => {
    declared ??= new Map(
      routes().flatMap(({ method, path, hooks }) => {
        const detail = hooks?.detail;
        return isDeclaration(detail) ? [[`${method} ${path}`, detail[TOKEN_ACCESS]] as const] : [];
      }),
    );
    // HEAD is answered by the GET route; the catch-alls are registered for ALL methods.
    return declared.get(`${method} ${route}`) ?? (method === "HEAD" ? declared.get(`GET ${route}`) : undefined) ?? declared.get(`ALL ${route}`) ?? "session";
  };

  return new Elysia({ name: "token-access" }).use(identityPlugin).onTransform({ as: "global" }, ({ token, request, route, params }) => {
    if (!token) return;
    const access = accessOf(request.method, route);
    if (access === "public") return;
    const call = `${request.method} ${new URL(request.url).pathname}`;
    if (access === "own-token") {
      if ((params as Record<string, string | undefined>).id === token.tokenId) return;
      throw new DomainError(
        "SESSION_REQUIRED",
        `An API token can do ${call} only on itself: for another token, sign in on the web (your profile's CLI access card)`,
      );
    }
    if (access === "session") throw new DomainError("SESSION_REQUIRED", `${call} needs a browser session: ${NEEDS_SESSION}`);
    if (!token.scopes.includes(access))
      throw new DomainError("SESSION_REQUIRED", `This token lacks the "${access}" scope that ${call} needs: sign in on the web, or use a token that has it`);
  });
}

/**
 * For a call whose need depends on what it asks (a share link needs the scope that reads what it
 * shows): a token without `scope` is refused as the guard above refuses one; a session passes.
 */
export function requireScope(token: Pick<AuthenticatedToken, "scopes"> | undefined, scope: TokenScope, what: string, because?: string): void {
  if (token && !token.scopes.includes(scope))
    throw new DomainError(
      "SESSION_REQUIRED",
      `This token lacks the "${scope}" scope that ${what} needs${because ? ` (${because})` : ""}: sign in on the web, or use a token that has it`,
    );
}

function documented(access: TokenAccess): string {
  if (access === "public") return "API tokens: no scope needed.";
  if (access === "own-token") return "API tokens: a token may do this to itself only (its own `id`); anything else needs a browser session (403).";
  if (access === "session") return "API tokens: refused (403); this needs a browser session.";
  return `API tokens: need the \`${access}\` scope.`;
}

function isDeclaration(detail: unknown): detail is { [TOKEN_ACCESS]: TokenAccess } {
  return typeof detail === "object" && detail !== null && TOKEN_ACCESS in detail;
}
