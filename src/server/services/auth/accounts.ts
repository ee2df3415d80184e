import { eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users, type User as UserRow } from "#db/schema.ts";
import type { User } from "#src/contract/auth.ts";
import { ensurePersonal } from "../workspaces/access.ts";
import { DomainError } from "../errors.ts";
import type { Events } from "../events.ts";
import type { RegistrationGate } from "../quota/registrations.ts";
import { networkOf } from "../quota/subjects.ts";
import type { LoginGuard } from "./login-guard.ts";
import { tryAgainIn, type Throttle } from "./throttle.ts";

export const INVALID_LOGIN = "Invalid username or password";
export const USERNAME_TAKEN = "Username is already taken";

/** The refusal once a network has tried to register too often: "… Please try again in 7 minutes." */
export function tooManyRegistrationAttempts(waitS: number): string {
  return `Too many registration attempts. ${tryAgainIn(waitS)}`;
}

export type AccountsDeps = {
  db: Db;
  events: Events;
  /** New accounts per network per day. */
  registrations: RegistrationGate;
  /** Registration attempts per network, whatever their outcome (each can tell whether a username exists). */
  registrationAttempts: Throttle;
  /** Wrong passwords per username and network. */
  loginGuard: LoginGuard;
};

/**
 * Accounts: registration, password checks, session versions, and the sign-in event. `ip` is the
 * caller's address: registrations and password guesses are bounded per network (ADR 015).
 */
export function createAccounts({ db, events, registrations, registrationAttempts, loginGuard }: AccountsDeps) {
  // Verifying against a throwaway hash when the username is unknown makes both failures take as
  // long, so response time does not tell which usernames exist.
  let decoyHash: Promise<string> | undefined;

  return {
    /**
     * Creates the account; ACCOUNT_EXISTS when the username is in use (in any letter case). An
     * email may be shared: nothing proves it is the caller's, so it must not tell whose it is.
     * TOO_MANY_ATTEMPTS when the network has made its accounts for the day, or has tried to
     * register too often lately (every attempt counts, taken username or not: each one could ask
     * whether a username exists).
     */
    register(input: { username: string; email: string; password: string }, ip: string): Promise<UserRow> {
      return registrations.admit(ip, () => {
        const verdict = registrationAttempts.attempt([networkOf(ip)]);
        if (!verdict.allowed)
          throw new DomainError("TOO_MANY_ATTEMPTS", tooManyRegistrationAttempts(verdict.retryAfterS), { retryAfterS: verdict.retryAfterS });
        return create(input);
      });
    },

    /**
     * The user whose username (any case) and password match. One answer (INVALID_LOGIN) for an
     * unknown user and a wrong password, in the same time either way: the form cannot be used to
     * find accounts. TOO_MANY_ATTEMPTS while this username is cooling down on this network.
     */
    authenticate(username: string, password: string, ip: string): Promise<UserRow> {
      return loginGuard.attempt(username, ip, () => verify(username, password));
    },

    async find(userId: string): Promise<UserRow | undefined> {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return user;
    },

    /** The user's session version: a session token carrying another one has been revoked. */
    async sessionVersion(userId: string): Promise<number | undefined> {
      const [user] = await db.select({ tokenVersion: users.tokenVersion }).from(users).where(eq(users.id, userId)).limit(1);
      return user?.tokenVersion;
    },

    /** Ends every session of the user, on every device. */
    async endSessions(userId: string): Promise<void> {
      await db
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId));
    },

    /** A visitor signed in from a browser with an anonymous id: what they did there becomes theirs. */
    signedIn: (anonymousId: string, userId: string) => events.emit("signedIn", { anonymousId, userId }),
  };

  async function create(input: { username: string; email: string; password: string }): Promise<UserRow> {
    const [clash] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.username})`, input.username.toLowerCase()))
      .limit(1);
    if (clash) throw new DomainError("ACCOUNT_EXISTS", USERNAME_TAKEN);
    const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
    try {
      return await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          // The form asks for no name (spec §3): the username stands in until a profile says otherwise.
          .values({ username: input.username, email: input.email, passwordHash, firstName: input.username, lastName: "" })
          .returning();
        if (!user) throw new Error("could not create the user");
        // Every account has its personal workspace from the start, owned by it (ADR 071).
        await ensurePersonal(tx, user.id);
        return user;
      });
    } catch (error) {
      // Lost a race with a simultaneous registration: the unique index decides.
      if (uniqueViolation(error)?.includes("username")) throw new DomainError("ACCOUNT_EXISTS", USERNAME_TAKEN);
      throw error;
    }
  }

  async function verify(username: string, password: string): Promise<UserRow> {
    const [user] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
      .limit(1);
    if (!user) {
      decoyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
      await Bun.password.verify(password, await decoyHash);
      throw new DomainError("INVALID_LOGIN", INVALID_LOGIN);
    }
    if (!(await Bun.password.verify(password, user.passwordHash))) throw new DomainError("INVALID_LOGIN", INVALID_LOGIN);
    return user;
  }
}

export type Accounts = ReturnType<typeof createAccounts>;

/** The public face of a user row (spec §3 "User"). */
export function toUser(row: UserRow): User {
  return { username: row.username, firstName: row.firstName, lastName: row.lastName, email: row.email, profileImageUrl: row.profileImageUrl };
}

/** The unique index a failed insert ran into (postgres.js says constraint_name, PGlite constraint). */
function uniqueViolation(error: unknown): string | undefined {
  // drizzle wraps the driver's error in `cause`.
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint_name, constraint } = e as { code?: string; constraint_name?: string; constraint?: string };
    if (code === "23505") return constraint_name ?? constraint ?? "";
  }
  return undefined;
}
