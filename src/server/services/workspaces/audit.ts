import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { users, workspaceAudit } from "#db/schema.ts";
import type { AuditAction, AuditEntry, AuditPage } from "#src/contract/workspaces.ts";
import { csvText } from "#src/core/export.ts";

/** Who does something: a user, from a browser session or with one of their API tokens. */
export type Actor = { userId: string; token?: { id: string; prefix: string } };

/** What is written: in which workspace, what was done, to what, and what changed. */
export type AuditEvent = { workspaceId: string; action: AuditAction; target: string; details?: Record<string, unknown> };

/** The most entries one CSV export holds, newest first. */
export const AUDIT_CSV_MAX = 10_000;

/** Written from a transaction or the database alike. */
type Writer = Pick<Db, "insert">;

/**
 * A workspace's log of who did what (ADR 071): written beside each change it tells of, read by
 * its owners and admins a page at a time, or whole as CSV. The actor's username is copied in, so
 * an entry still says who after they leave or their account is gone.
 */
export function createAudit(db: Db) {
  return {
    async record(actor: Actor, event: AuditEvent, writer: Writer = db): Promise<void> {
      await writer.insert(workspaceAudit).values({
        workspaceId: event.workspaceId,
        actorId: actor.userId,
        actorName: sql`coalesce((select ${users.username} from ${users} where ${users.id} = ${actor.userId}), '')`,
        via: actor.token ? "token" : "session",
        tokenId: actor.token?.id ?? null,
        tokenPrefix: actor.token?.prefix ?? null,
        action: event.action,
        target: event.target,
        details: event.details ?? {},
      });
    },

    /** Newest first; `before` is the previous page's `nextBefore`. */
    async page(workspaceId: string, { before, limit }: { before?: number; limit: number }): Promise<AuditPage> {
      const rows = await db
        .select()
        .from(workspaceAudit)
        .where(and(eq(workspaceAudit.workspaceId, workspaceId), before === undefined ? undefined : lt(workspaceAudit.id, before)))
        .orderBy(desc(workspaceAudit.id))
        .limit(limit + 1);
      const shown = rows.slice(0, limit).map(entryOf);
      return { entries: shown, ...(rows.length > limit && shown.length ? { nextBefore: shown.at(-1)!.id } : {}) };
    },

    /** The newest AUDIT_CSV_MAX entries as CSV, newest first, each field as the product's exports write it. */
    async csv(workspaceId: string): Promise<string> {
      const rows = await db
        .select()
        .from(workspaceAudit)
        .where(eq(workspaceAudit.workspaceId, workspaceId))
        .orderBy(desc(workspaceAudit.id))
        .limit(AUDIT_CSV_MAX);
      return csvText([
        ["At", "Actor", "Actor id", "Via", "Token", "Action", "Target", "Details"],
        ...rows.map((row) => [
          row.at.toISOString(),
          row.actorName,
          row.actorId ?? "",
          row.via,
          row.tokenPrefix ?? "",
          row.action,
          row.target,
          Object.keys(row.details).length ? JSON.stringify(row.details) : "",
        ]),
      ]);
    },
  };
}

export type Audit = ReturnType<typeof createAudit>;

function entryOf(row: typeof workspaceAudit.$inferSelect): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { userId: row.actorId, username: row.actorName },
    via: row.via,
    token: row.tokenId ? { id: row.tokenId, prefix: row.tokenPrefix ?? "" } : null,
    action: row.action,
    target: row.target,
    details: row.details,
  };
}
