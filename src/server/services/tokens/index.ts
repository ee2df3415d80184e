import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { apiTokens } from "#db/schema.ts";
import { TOKEN_PREFIX, type ApiToken, type CreatedToken } from "#src/contract/tokens.ts";
import { DomainError } from "../errors.ts";

/** A token's last use is written at most this often: a script's hundred calls are not a hundred writes. */
const LAST_USED_PRECISION_MS = 60_000;
const SHOWN_CHARACTERS = TOKEN_PREFIX.length + 4;

export const INVALID_TOKEN = "Invalid or revoked token";

/**
 * Personal API tokens for the CLI and MCP clients: created for a signed-in user and shown once,
 * kept only as a SHA-256 hash (a leaked database cannot be replayed), revoked by their owner. A
 * token stands for its user everywhere a session cookie does, with the user's own tier and quota.
 */
export function createTokens({ db, clock = () => new Date() }: { db: Db; clock?: () => Date }) {
  return {
    async create(userId: string, name: string): Promise<CreatedToken> {
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
      const [row] = await db.insert(apiTokens).values({ userId, name, prefix: token.slice(0, SHOWN_CHARACTERS), tokenHash: hash(token) }).returning();
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

    /** Whose token this is (and which), or INVALID_TOKEN for an unknown or revoked one. Notes when it was used. */
    async authenticate(token: string): Promise<{ userId: string; tokenId: string }> {
      const [row] = token.startsWith(TOKEN_PREFIX)
        ? await db
            .select({ id: apiTokens.id, userId: apiTokens.userId })
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
      return { userId: row.userId, tokenId: row.id };
    },
  };
}

export type Tokens = ReturnType<typeof createTokens>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function listed(row: typeof apiTokens.$inferSelect): ApiToken {
  return { id: row.id, name: row.name, prefix: row.prefix, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}
