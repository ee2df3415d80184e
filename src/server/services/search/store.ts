import { and, desc, eq, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { searches } from "#db/schema.ts";
import * as v from "valibot";
import { StoredSearchResult, type SavedSearchList, type SavedSearchResult, type SearchOptions, type SearchResult } from "#src/contract/search.ts";
import type { DomainEvents } from "../events.ts";
import type { Owner } from "../owner.ts";

/** Searches are rows owned by a user, or by an anonymous visitor until they sign in. */
export function createSearchStore(db: Db) {
  const store = {
    /** A row in `running` state, so a crash mid-search leaves a trace that start-up marks interrupted. */
    async begin(owner: Owner, query: string, iterations: number, options: SearchOptions): Promise<string> {
      const [row] = await db
        .insert(searches)
        .values({ userId: owner.userId ?? null, anonymousId: owner.userId ? null : owner.anonymousId, query, iterations, options })
        .returning({ id: searches.id });
      if (!row) throw new Error("could not record the search");
      return row.id;
    },

    /** The finished result and its summary columns, in one statement (one transaction). */
    async complete(id: string, result: SearchResult): Promise<void> {
      const simulated = Object.values(result.models).some((model) => model.simulated);
      await db
        .update(searches)
        .set({
          status: "completed",
          result,
          totalProducts: result.totalProducts,
          totalCompanies: result.totalCompanies,
          totalLinks: result.totalLinks,
          iterationCount: result.iterationCount,
          simulated,
          completedAt: new Date(),
        })
        .where(eq(searches.id, id));
    },

    async fail(id: string, status: "failed" | "cancelled", error: string): Promise<void> {
      await db.update(searches).set({ status, error, completedAt: new Date() }).where(eq(searches.id, id));
    },

    /**
     * The owner's completed search, or null: someone else's id reads exactly like a missing one.
     * Rows written by older versions are upgraded as they are read (StoredSearchResult).
     */
    async get(owner: Owner, id: string): Promise<SavedSearchResult | null> {
      if (!UUID.test(id)) return null;
      const [row] = await db
        .select({ result: searches.result, createdAt: searches.createdAt })
        .from(searches)
        .where(and(eq(searches.id, id), eq(searches.status, "completed"), ownedBy(owner)))
        .limit(1);
      if (!row?.result) return null;
      return { ...v.parse(StoredSearchResult, row.result), id, createdAt: row.createdAt.toISOString() };
    },

    /**
     * Newest first, summary columns only; `before` is the previous page's last timestamp; `query`
     * keeps the searches of that query text (any letter case, spec §5).
     */
    async list(owner: Owner, { limit = 20, before, query }: { limit?: number; before?: string; query?: string } = {}): Promise<SavedSearchList> {
      const rows = await db
        .select({
          id: searches.id,
          query: searches.query,
          createdAt: searches.createdAt,
          totalProducts: searches.totalProducts,
          totalCompanies: searches.totalCompanies,
          totalLinks: searches.totalLinks,
          iterationCount: searches.iterationCount,
          status: searches.status,
        })
        .from(searches)
        .where(and(ownedBy(owner), eq(searches.status, "completed"), before ? lt(searches.createdAt, new Date(before)) : undefined, query ? eq(sql`lower(${searches.query})`, query.toLowerCase()) : undefined))
        .orderBy(desc(searches.createdAt))
        .limit(limit + 1);
      const page = rows.slice(0, limit).map(({ createdAt, ...row }) => ({ ...row, timestamp: createdAt.toISOString() }));
      return { searches: page, nextCursor: rows.length > limit ? page.at(-1)?.timestamp : undefined };
    },

    /** The owner's latest completed search of a query (any letter case), or null. */
    async latestFor(owner: Owner, query: string): Promise<SavedSearchResult | null> {
      const [row] = await db
        .select({ id: searches.id })
        .from(searches)
        .where(and(ownedBy(owner), eq(searches.status, "completed"), eq(sql`lower(${searches.query})`, query.trim().toLowerCase())))
        .orderBy(desc(searches.createdAt))
        .limit(1);
      return row ? store.get(owner, row.id) : null;
    },

    /** Subscribes to sign-in: the searches this browser made anonymously join the account's history. */
    async adopt({ anonymousId, userId }: DomainEvents["signedIn"]): Promise<void> {
      await db
        .update(searches)
        .set({ userId })
        .where(and(isNull(searches.userId), eq(searches.anonymousId, anonymousId)));
    },

    /** Start-up: searches still `running` were cut off by a crash or restart. */
    async markInterrupted(): Promise<number> {
      const rows = await db
        .update(searches)
        .set({ status: "interrupted", error: "The server stopped while this search was running", completedAt: new Date() })
        .where(eq(searches.status, "running"))
        .returning({ id: searches.id });
      return rows.length;
    },
  };
  return store;
}

export type SearchStore = ReturnType<typeof createSearchStore>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ownedBy(owner: Owner): SQL | undefined {
  return owner.userId ? eq(searches.userId, owner.userId) : and(isNull(searches.userId), eq(searches.anonymousId, owner.anonymousId));
}
