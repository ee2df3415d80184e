import { Elysia } from "elysia";
import type { Caller, Owner } from "#src/server/services/owner.ts";
import type { AuthenticatedToken, Tokens } from "#src/server/services/tokens/index.ts";
import { clientIp, isHttps } from "./forwarded.ts";
import { SESSION_COOKIE, type Sessions } from "./session-cookie.ts";
import type { Signer } from "./signed.ts";

export const ANON_COOKIE = "anon";
const ONE_YEAR_S = 365 * 24 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type IdentityOptions = {
  /** Without sessions every caller is anonymous. */
  sessions?: Sessions;
  /** TRUST_PROXY hops, to tell the client's address and whether the browser used https (Secure cookies). */
  trustProxy?: number;
  /** Personal API tokens (`Authorization: Bearer aisc_…`), for the CLI and MCP clients. */
  tokens?: Pick<Tokens, "authenticate">;
};

/**
 * Issues the httpOnly anonymous id on a visitor's first request and reads it afterwards; a valid
 * session cookie adds the user. The anonymous id stays while signed in: it is how searches made
 * before signing in are adopted, and who the visitor is again after logging out. `caller` adds
 * the client's address, which the free quota counts against. `token` is the API token the call
 * came with (undefined for browsers): what it may do is checked once, in token-access.ts.
 */
export function identity(signer: Signer, { sessions, trustProxy = 0, tokens }: IdentityOptions = {}) {
  return new Elysia({ name: "identity" }).derive({ as: "global" }, async ({ cookie, request, server }) => {
    const bearer = bearerToken(request);
    if (bearer !== undefined && tokens) {
      // A token is the user, with no cookies either way; an unknown or revoked one is a 401, never anonymous.
      const token = await tokens.authenticate(bearer);
      const owner: Owner = { userId: token.userId, anonymousId: token.tokenId };
      return { owner, caller: { owner, ip: clientIp({ request, server }, trustProxy) } satisfies Caller, token: token as AuthenticatedToken | undefined };
    }
    const secure = isHttps(request, trustProxy);
    const jar = cookie[ANON_COOKIE];
    let anonymousId = signer.unsign(jar?.value);
    if (!anonymousId || !UUID.test(anonymousId)) {
      anonymousId = crypto.randomUUID();
      jar?.set({
        value: signer.sign(anonymousId),
        httpOnly: true,
        sameSite: "lax",
        secure,
        path: "/",
        maxAge: ONE_YEAR_S,
      });
    }
    const owner: Owner = { anonymousId };
    const session = cookie[SESSION_COOKIE];
    const userId = sessions && session ? await sessions.read(session, secure) : undefined;
    if (userId) owner.userId = userId;
    const caller: Caller = { owner, ip: clientIp({ request, server }, trustProxy) };
    return { owner, caller, token: undefined };
  });
}

/**
 * The token of an `Authorization: Bearer …` header on an API call, if it has one. Other paths
 * ignore the header: pages are for browsers, and the Stripe simulator's proxy carries Stripe.js's
 * own bearer (the publishable key).
 */
export function bearerToken(request: Request): string | undefined {
  if (!new URL(request.url).pathname.startsWith("/api/")) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}
