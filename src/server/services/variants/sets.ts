import { and, eq, isNull, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { variantSets } from "#db/schema.ts";
import { GeneratedBy, SavedVariant, type VariantSet } from "#src/contract/variants.ts";
import { DomainError } from "../errors.ts";
import { ensurePersonal } from "../workspaces/access.ts";

type Row = typeof variantSets.$inferSelect;
type Written = { variants: SavedVariant[]; generatedBy: GeneratedBy | null };

/**
 * A user's current variants of each query (any letter case): written once, kept with the
 * person's edits until they ask for new ones, so a reload, Back or a second tab shows the same
 * set. Running the set as a batch links it to the batch, whose queries are fixed.
 */
export function createVariantSets(db: Db) {
  const ofQuery = (userId: string, query: string) => and(eq(variantSets.userId, userId), eq(sql`lower(${variantSets.query})`, query.trim().toLowerCase()));

  /** Updates the user's set of the query, or inserts it; the row as it now stands. */
  async function upsert(userId: string, query: string, values: Partial<Omit<Row, "id" | "userId" | "query">> & { variants: SavedVariant[] }): Promise<Row> {
    // Update first; insert when there is none; a concurrent insert (unique index) means update again.
    for (let attempt = 0; attempt < 2; attempt++) {
      const [updated] = await db.update(variantSets).set(values).where(ofQuery(userId, query)).returning();
      if (updated) return updated;
      const [inserted] = await db
        .insert(variantSets)
        .values({ userId, workspaceId: await ensurePersonal(db, userId), query, ...values })
        .onConflictDoNothing()
        .returning();
      if (inserted) return inserted;
    }
    throw new Error("could not save the variants");
  }

  /** The saved set of the query, or null. */
  async function current(userId: string, query: string): Promise<VariantSet | null> {
    const [row] = await db.select().from(variantSets).where(ofQuery(userId, query)).limit(1);
    return row ? toSet(row) : null;
  }

  return {
    current,

    /** Saves what a model just wrote, unless a set appeared meanwhile (another tab): the saved one wins. */
    async keep(userId: string, query: string, written: Written): Promise<VariantSet> {
      // Saved variants are their user's own for now (ADR 071): they live in the personal workspace.
      await db
        .insert(variantSets)
        .values({ userId, workspaceId: await ensurePersonal(db, userId), query, ...written })
        .onConflictDoNothing();
      const set = await current(userId, query);
      if (!set) throw new Error("could not save the variants");
      return set;
    },

    /** A new set in place of the saved one (Regenerate): edits and the link to a batch are dropped. */
    replace: async (userId: string, query: string, written: Written): Promise<VariantSet> =>
      toSet(await upsert(userId, query, { ...written, edited: false, batchId: null, createdAt: new Date(), updatedAt: new Date() })),

    /** The person's edits; refused once the set has run (its queries are the batch's now). */
    async edit(userId: string, query: string, variants: SavedVariant[]): Promise<VariantSet> {
      const [row] = await db
        .update(variantSets)
        .set({ variants, edited: true, updatedAt: new Date() })
        .where(and(ofQuery(userId, query), isNull(variantSets.batchId)))
        .returning();
      if (row) return toSet(row);
      if (await current(userId, query)) throw new DomainError("CONFLICT", "These variants have already run as searches: regenerate them for a new set");
      throw new DomainError("NOT_FOUND", "No variants saved for this query: generate them first");
    },

    /** The set now runs as `batchId`, with the queries the batch saved (a set is made when there was none). */
    async ranAs(userId: string, query: string, batchId: string, variants: SavedVariant[]): Promise<void> {
      await upsert(userId, query, { variants, batchId, updatedAt: new Date() });
    },
  };
}

export type VariantSets = ReturnType<typeof createVariantSets>;

function toSet(row: Row): VariantSet {
  const generatedBy = parseGeneratedBy(row.generatedBy);
  return {
    query: row.query,
    variants: v.parse(v.array(SavedVariant), row.variants),
    ...(generatedBy ? { generatedBy } : {}),
    edited: row.edited,
    ...(row.batchId ? { batchId: row.batchId } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function parseGeneratedBy(value: unknown): GeneratedBy | null {
  const parsed = v.safeParse(GeneratedBy, value);
  return parsed.success ? parsed.output : null;
}
