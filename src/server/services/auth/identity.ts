import { Elysia } from "elysia";
import { isHttps } from "#src/server/forwarded.ts";
import { SESSION_COOKIE, type Sessions } from "./sessions.ts";
import type { Signer } from "./signed.ts";

/** Who is asking: the signed-in user, else the anonymous visitor behind the signed cookie. */
export type Owner = { userId?: string; anonymousId: string };

export const ANON_COOKIE = "anon";
const ONE_YEAR_S = 365 * 24 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type IdentityOptions = {
  /** Without sessions every caller is anonymous. */
  sessions?: Sessions;
  /** TRUST_PROXY hops, to tell whether the browser used https (Secure cookies). */
  trustProxy?: number;
};

/**
 * Issues the httpOnly anonymous id on a visitor's first request and reads it afterwards; a valid
 * session cookie adds the user. The anonymous id stays while signed in: it is how searches made
 * before signing in are adopted, and who the visitor is again after logging out.
 */
export function identity(signer: Signer, { sessions, trustProxy = 0 }: IdentityOptions = {}) {
  return new Elysia({ name: "identity" }).derive({ as: "global" }, async ({ cookie, request }) => {
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
    return { owner };
  });
}

export function ownerKey(owner: Owner): string {
  return owner.userId ? `user:${owner.userId}` : `anon:${owner.anonymousId}`;
}
