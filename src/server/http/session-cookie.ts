import { jwt } from "@elysiajs/jwt";
import type { Cookie } from "elysia";
import type { Accounts } from "#src/server/services/auth/accounts.ts";

export const SESSION_COOKIE = "session";
const LIFETIME_S = 30 * 24 * 3600;
/** Sliding expiry: a token older than this is replaced by a fresh 30-day one on its next use. */
const RENEW_AFTER_S = 24 * 3600;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type SessionsDeps = { accounts: Pick<Accounts, "sessionVersion" | "endSessions">; secret: string; clock?: () => Date };
type Jar = Cookie<unknown>;

/**
 * The session cookie. Sessions are signed tokens (@elysiajs/jwt, HS256) naming the user and their
 * session version, in an httpOnly cookie: no session table, any instance can check them.
 * Revocation is one integer per user (accounts): logout bumps it, and every token carrying the
 * old value stops working, copies included.
 */
export function createSessions({ accounts, secret, clock = () => new Date() }: SessionsDeps) {
  const { session: tokens } = jwt({ name: "session", secret, alg: "HS256" }).decorator;
  const nowS = () => Math.floor(clock().getTime() / 1000);

  async function issue(jar: Jar, user: { id: string; tokenVersion: number }, secure: boolean): Promise<void> {
    const value = await tokens.sign({ sub: user.id, ver: user.tokenVersion, exp: nowS() + LIFETIME_S });
    jar.set({ value, httpOnly: true, sameSite: "lax", secure, path: "/", maxAge: LIFETIME_S });
  }

  function clear(jar: Jar): void {
    jar.set({ value: "", httpOnly: true, sameSite: "lax", path: "/", maxAge: 0, expires: new Date(0) });
  }

  return {
    issue,
    clear,

    /**
     * The signed-in user's id, or undefined. A forged, expired, revoked or malformed token reads
     * as signed out (and the cookie is dropped), never as an error; an old valid one is renewed.
     */
    async read(jar: Jar, secure: boolean): Promise<string | undefined> {
      const value = jar.value;
      if (typeof value !== "string" || value === "") return undefined;
      const claims = await tokens.verify(value, { currentDate: clock(), algorithms: ["HS256"] });
      const userId = claims && typeof claims.sub === "string" && UUID.test(claims.sub) ? claims.sub : undefined;
      const version = claims && typeof claims.ver === "number" ? claims.ver : undefined;
      const current = userId && version !== undefined ? await accounts.sessionVersion(userId) : undefined;
      if (!claims || !userId || current === undefined || current !== version) {
        clear(jar);
        return undefined;
      }
      if (typeof claims.exp === "number" && claims.exp - nowS() < LIFETIME_S - RENEW_AFTER_S) await issue(jar, { id: userId, tokenVersion: current }, secure);
      return userId;
    },

    /** Ends every session of the user, on every device (a copied cookie stops working too). */
    revoke: (userId: string) => accounts.endSessions(userId),
  };
}

export type Sessions = ReturnType<typeof createSessions>;
