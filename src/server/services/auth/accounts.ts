import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { searches, users, type User as UserRow } from "#db/schema.ts";
import type { User } from "#src/contract/auth.ts";
import { HttpError } from "#src/server/http-error.ts";

export const INVALID_LOGIN = "Invalid username or password";
const TAKEN = { username: "Username is already taken", email: "An account with this email already exists" } as const;

export type AccountsDeps = {
  db: Db;
  /** Called once a visitor signs in, to carry their anonymous state over (quota). */
  onSignIn?: (anonymousId: string, userId: string) => Promise<void>;
};

/** Accounts: registration, password checks, and what an anonymous visitor brings along on signing in. */
export function createAccounts({ db, onSignIn }: AccountsDeps) {
  // Verifying against a throwaway hash when the username is unknown makes both failures take as
  // long, so response time does not tell which usernames exist.
  let decoyHash: Promise<string> | undefined;

  return {
    /** Creates the account; 409 naming the username or email already in use (case-insensitively). */
    async register(input: { username: string; email: string; password: string }): Promise<UserRow> {
      const clash = await db
        .select({ username: users.username, email: users.email })
        .from(users)
        .where(or(eq(sql`lower(${users.username})`, input.username.toLowerCase()), eq(sql`lower(${users.email})`, input.email.toLowerCase())));
      assertFree(input, clash);
      const passwordHash = await Bun.password.hash(input.password, { algorithm: "argon2id" });
      try {
        const [user] = await db
          .insert(users)
          // The form asks for no name (spec §3): the username stands in until a profile says otherwise.
          .values({ username: input.username, email: input.email, passwordHash, firstName: input.username, lastName: "" })
          .returning();
        if (!user) throw new Error("could not create the user");
        return user;
      } catch (error) {
        // Lost a race with a simultaneous registration: the unique index decides.
        const index = uniqueViolation(error);
        if (index?.includes("username")) throw new HttpError(409, TAKEN.username);
        if (index?.includes("email")) throw new HttpError(409, TAKEN.email);
        throw error;
      }
    },

    /** The user whose username (any case) and password match, or null, in the same time either way. */
    async authenticate(username: string, password: string): Promise<UserRow | null> {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.username})`, username.toLowerCase()))
        .limit(1);
      if (!user) {
        decoyHash ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
        await Bun.password.verify(password, await decoyHash);
        return null;
      }
      return (await Bun.password.verify(password, user.passwordHash)) ? user : null;
    },

    async find(userId: string): Promise<UserRow | undefined> {
      const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
      return user;
    },

    /**
     * The searches this browser made anonymously (same anonymous id, no owner yet) become the
     * account's: they show in its history, and count against its day (onSignIn).
     */
    async adopt(anonymousId: string, userId: string): Promise<void> {
      await db
        .update(searches)
        .set({ userId })
        .where(and(isNull(searches.userId), eq(searches.anonymousId, anonymousId)));
      await onSignIn?.(anonymousId, userId);
    },
  };
}

export type Accounts = ReturnType<typeof createAccounts>;

/** The public face of a user row (spec §3 "User"). */
export function toUser(row: UserRow): User {
  return { username: row.username, firstName: row.firstName, lastName: row.lastName, email: row.email, profileImageUrl: row.profileImageUrl };
}

function assertFree(input: { username: string; email: string }, clash: Array<{ username: string; email: string }>): void {
  const username = clash.some((c) => c.username.toLowerCase() === input.username.toLowerCase());
  const email = clash.some((c) => c.email.toLowerCase() === input.email.toLowerCase());
  if (username && email) throw new HttpError(409, `${TAKEN.username}, and ${TAKEN.email.charAt(0).toLowerCase()}${TAKEN.email.slice(1)}`);
  if (username) throw new HttpError(409, TAKEN.username);
  if (email) throw new HttpError(409, TAKEN.email);
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
