import { createHash, randomBytes } from "node:crypto";
import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { apiTokens, users } from "#db/schema.ts";
import { DEFAULT_TOKEN_SCOPES, MAX_LIVE_TOKENS, TOKEN_PREFIX, TokenScope, type ApiToken, type CreatedToken } from "#src/contract/tokens.ts";
import { DomainError } from "../errors.ts";

/** A token's last use is written at most this often: a script's hundred calls are not a hundred writes. */
const LAST_USED_PRECISION_MS = 60_000;
const SHOWN_CHARACTERS = TOKEN_PREFIX.length + 4;

export const INVALID_TOKEN = "Invalid or revoked token";
export const TOKEN_LIMIT = `You already have ${MAX_LIVE_TOKENS} tokens, the most an account can have: revoke one you no longer use (your profile's CLI access card, or aisc tokens revoke <id>) to create another`;

/** A token as the server knows it once authenticated: whose, which, and what it may do. */
export type AuthenticatedToken = { userId: string; tokenId: string; prefix: string; scopes: readonly TokenScope[] };

/**
 * Personal API tokens for the CLI and MCP clients: created for a signed-in user and shown once,
 * kept only as a SHA-256 hash (a leaked database cannot be replayed), revoked by their owner. A
 * token stands for its user, with the user's own tier and quota, on the calls its scopes allow
 * (src/server/http/token-access.ts); at most MAX_LIVE_TOKENS live ones per user.
 */
export function createTokens({ db, clock = () => new Date() }: { db: Db; clock?: () => Date }) {
  return {
    /** Every token gets the default scopes (all the CLI and MCP clients need), stored with it. */
    async create(userId: string, name: string): Promise<CreatedToken> {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
      const row = await db.transaction(async (tx) => {
        // The user's row is the lock: two creates at once cannot both see room for one more.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const [live] = await tx
          .select({ n: count() })
          .from(apiTokens)
          .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
        if ((live?.n ?? 0) >= MAX_LIVE_TOKENS) throw new DomainError("TOKEN_LIMIT_REACHED", TOKEN_LIMIT);
        const [inserted] = await tx
          .insert(apiTokens)
          .values({ userId, name, prefix: token.slice(0, SHOWN_CHARACTERS), tokenHash: hash(token), scopes: [...DEFAULT_TOKEN_SCOPES] })
          .returning();
        return inserted;
      });
      if (!row) throw new Error("could not save the token");
      return { ...listed(row), token };
    },

    async list(userId: string): Promise<ApiToken[]> {
      const rows = await db
        .select()
        .from(apiTokens)
        .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
        .orderBy(desc(apiTokens.createdAt));
      return rows.map(listed);
    },

    /** The owner's token only; any other id reads like a missing one. */
    async revoke(userId: string, id: string): Promise<void> {
      const rows = UUID.test(id)
        ? await db
            .update(apiTokens)
            .set({ revokedAt: clock() })
            .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
            .returning({ id: apiTokens.id })
        : [];
      if (rows.length === 0) throw new DomainError("NOT_FOUND", "Token not found");
    },

    /** Whose token this is, which, and its scopes; INVALID_TOKEN for an unknown or revoked one. Notes when it was used. */
    async authenticate(token: string): Promise<AuthenticatedToken> {
      const [row] = token.startsWith(TOKEN_PREFIX)
        ? await db
            .select({ id: apiTokens.id, userId: apiTokens.userId, prefix: apiTokens.prefix, scopes: apiTokens.scopes })
            .from(apiTokens)
            .where(and(eq(apiTokens.tokenHash, hash(token)), isNull(apiTokens.revokedAt)))
            .limit(1)
        : [];
      if (!row) throw new DomainError("NOT_SIGNED_IN", INVALID_TOKEN);
      const now = clock();
      await db
        .update(apiTokens)
        .set({ lastUsedAt: now })
        .where(and(eq(apiTokens.id, row.id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_PRECISION_MS)))));
      return { userId: row.userId, tokenId: row.id, prefix: row.prefix, scopes: scopesOf(row.scopes) };
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function listed(row: typeof apiTokens.$inferSelect): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    scopes: [...scopesOf(row.scopes)],
  };
}

/** A row's scopes: none stored means a token made before scopes, which keeps the default set; a scope this version no longer knows is dropped. */
function scopesOf(stored: string[] | null): readonly TokenScope[] {
  if (stored === null) return DEFAULT_TOKEN_SCOPES;
  return stored.filter((scope): scope is TokenScope => v.is(TokenScope, scope));
}
