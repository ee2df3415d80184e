import { PGlite } from "@electric-sql/pglite";
import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { dailyUsage } from "#db/schema.ts";
import type { Subject } from "./subjects.ts";

/** A reservation that found one of its counters full; the whole reservation is rolled back. */
class CounterFull extends Error {}

/**
 * The counts last read or written, per database, for PGlite only (ADR 022): its data folder is
 * open in this one process, and every write to `daily_usage` goes through these counters, so
 * dropping a count when it is written keeps the cache exact, whichever app instance (or sweep)
 * wrote it. PostgreSQL is shared by other processes, whose writes would not reach it: no cache.
 */
type CountCache = { counts: Map<string, number>; generation: number };
const caches = new WeakMap<Db, CountCache>();

function cacheOf(db: Db): CountCache | undefined {
  const cached = caches.get(db);
  if (cached || !((db as { $client?: unknown }).$client instanceof PGlite)) return cached;
  const cache: CountCache = { counts: new Map(), generation: 0 };
  caches.set(db, cache);
  return cache;
}

const CACHED_COUNTS = 10_000;
const cacheKey = (subject: Pick<Subject, "kind" | "key">, day: string) => `${day}|${subject.kind}|${subject.key}`;

/**
 * The `daily_usage` counters: one row per subject per UTC day. In a transaction, `root` is the
 * database it runs on, so its writes drop that database's cached counts.
 */
export function createUsageCounters(db: Db, root: Db = db) {
  const row = (subject: Pick<Subject, "kind" | "key">, day: string) =>
    and(eq(dailyUsage.subjectKind, subject.kind), eq(dailyUsage.subjectKey, subject.key), eq(dailyUsage.day, day));
  const cache = cacheOf(root);

  /**
   * Runs a write to these subjects' counters, dropping their cached counts before and after it:
   * the new generation also stops a read that began before the write from storing what it read.
   */
  async function writing<T>(subjects: Array<Pick<Subject, "kind" | "key">>, day: string, write: () => Promise<T>): Promise<T> {
    const forget = () => {
      if (!cache) return;
      cache.generation++;
      for (const subject of subjects) cache.counts.delete(cacheKey(subject, day));
    };
    forget();
    try {
      return await write();
    } finally {
      forget();
    }
  }

  return {
    /**
     * Adds one search to every subject, or to none if any is already at its limit: each counter
     * is bumped by one INSERT … ON CONFLICT DO UPDATE … WHERE count < limit, which PostgreSQL runs
     * atomically per row, and all of them in one transaction. Returns the new counts in the
     * subjects' order, or null when refused. Concurrent requests cannot both take the last search.
     */
    async reserve(subjects: Subject[], day: string): Promise<number[] | null> {
      try {
        return await writing(subjects, day, () =>
          db.transaction(async (tx) => {
            const counts: number[] = [];
            for (const subject of subjects) {
              const [counted] = await tx
                .insert(dailyUsage)
                .values({ subjectKind: subject.kind, subjectKey: subject.key, day, count: 1 })
                .onConflictDoUpdate({
                  target: [dailyUsage.subjectKind, dailyUsage.subjectKey, dailyUsage.day],
                  set: { count: sql`${dailyUsage.count} + 1`, updatedAt: sql`now()` },
                  setWhere: sql`${dailyUsage.count} < ${subject.limit}`,
                })
                .returning({ count: dailyUsage.count });
              // A first insert is not checked by the WHERE: a limit of 0 refuses it here.
              if (!counted || counted.count > subject.limit) throw new CounterFull();
              counts.push(counted.count);
            }
            return counts;
          }),
        );
      } catch (error) {
        if (error instanceof CounterFull) return null;
        throw error;
      }
    },

    /** Takes back one reserved search from every subject (never below zero). */
    async release(subjects: Array<Pick<Subject, "kind" | "key">>, day: string): Promise<void> {
      await writing(subjects, day, () =>
        db.transaction(async (tx) => {
          for (const subject of subjects) {
            await tx
              .update(dailyUsage)
              .set({ count: sql`${dailyUsage.count} - 1` })
              .where(and(row(subject, day), sql`${dailyUsage.count} > 0`));
          }
        }),
      );
    },

    /** Each subject's count on `day`, in the subjects' order. */
    async counts(subjects: Subject[], day: string): Promise<number[]> {
      const known = cache && subjects.map((s) => cache.counts.get(cacheKey(s, day)));
      if (known?.every((count) => count !== undefined)) return known as number[];
      const generation = cache?.generation;
      const rows = await db
        .select({ kind: dailyUsage.subjectKind, key: dailyUsage.subjectKey, count: dailyUsage.count })
        .from(dailyUsage)
        .where(or(...subjects.map((subject) => row(subject, day))));
      const counts = subjects.map((s) => rows.find((r) => r.kind === s.kind && r.key === s.key)?.count ?? 0);
      if (cache && cache.generation === generation) {
        // Bounded: a busy day's visitors drop out together, and are read again at their next page.
        if (cache.counts.size > CACHED_COUNTS) cache.counts.clear();
        subjects.forEach((s, i) => cache.counts.set(cacheKey(s, day), counts[i] ?? 0));
      }
      return counts;
    },

    /**
     * Moves `from`'s count for the day onto `to`, capped at `limit`: when a visitor signs in, the
     * searches they made anonymously (now adopted by the account) count against the account, so
     * registering is not a way to start the day over.
     */
    async transfer(from: Omit<Subject, "limit">, to: Subject, day: string): Promise<void> {
      const { limit } = to;
      await writing([from, to], day, () =>
        db.transaction(async (tx) => {
          const [moved] = await tx.delete(dailyUsage).where(row(from, day)).returning({ count: dailyUsage.count });
          if (!moved?.count) return;
          await tx
            .insert(dailyUsage)
            .values({ subjectKind: to.kind, subjectKey: to.key, day, count: Math.min(limit, moved.count) })
            .onConflictDoUpdate({
              target: [dailyUsage.subjectKind, dailyUsage.subjectKey, dailyUsage.day],
              set: { count: sql`least(${limit}, ${dailyUsage.count} + excluded.count)`, updatedAt: sql`now()` },
            });
        }),
      );
    },
  };
}

export type UsageCounters = ReturnType<typeof createUsageCounters>;
