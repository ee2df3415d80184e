import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { dailyUsage } from "#db/schema.ts";
import type { Subject } from "./subjects.ts";

/** A reservation that found one of its counters full; the whole reservation is rolled back. */
class CounterFull extends Error {}

/** The `daily_usage` counters: one row per subject per UTC day. */
export function createUsageCounters(db: Db) {
  const row = (subject: Pick<Subject, "kind" | "key">, day: string) => and(eq(dailyUsage.subjectKind, subject.kind), eq(dailyUsage.subjectKey, subject.key), eq(dailyUsage.day, day));

  return {
    /**
     * Adds one search to every subject, or to none if any is already at its limit: each counter
     * is bumped by one INSERT … ON CONFLICT DO UPDATE … WHERE count < limit, which PostgreSQL runs
     * atomically per row, and all of them in one transaction. Returns the new counts in the
     * subjects' order, or null when refused. Concurrent requests cannot both take the last search.
     */
    async reserve(subjects: Subject[], day: string): Promise<number[] | null> {
      try {
        return await db.transaction(async (tx) => {
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
        });
      } catch (error) {
        if (error instanceof CounterFull) return null;
        throw error;
      }
    },

    /** Takes back one reserved search from every subject (never below zero). */
    async release(subjects: Array<Pick<Subject, "kind" | "key">>, day: string): Promise<void> {
      await db.transaction(async (tx) => {
        for (const subject of subjects) {
          await tx
            .update(dailyUsage)
            .set({ count: sql`${dailyUsage.count} - 1` })
            .where(and(row(subject, day), sql`${dailyUsage.count} > 0`));
        }
      });
    },

    /** Each subject's count on `day`, in the subjects' order. */
    async counts(subjects: Subject[], day: string): Promise<number[]> {
      const rows = await db
        .select({ kind: dailyUsage.subjectKind, key: dailyUsage.subjectKey, count: dailyUsage.count })
        .from(dailyUsage)
        .where(or(...subjects.map((subject) => row(subject, day))));
      return subjects.map((s) => rows.find((r) => r.kind === s.kind && r.key === s.key)?.count ?? 0);
    },

    /**
     * Moves `from`'s count for the day onto `to`, capped at `limit`: when a visitor signs in, the
     * searches they made anonymously (now adopted by the account) count against the account, so
     * registering is not a way to start the day over.
     */
    async transfer(from: Omit<Subject, "limit">, to: Subject, day: string): Promise<void> {
      const { limit } = to;
      await db.transaction(async (tx) => {
        const [moved] = await tx.delete(dailyUsage).where(row(from, day)).returning({ count: dailyUsage.count });
        if (!moved?.count) return;
        await tx
          .insert(dailyUsage)
          .values({ subjectKind: to.kind, subjectKey: to.key, day, count: Math.min(limit, moved.count) })
          .onConflictDoUpdate({
            target: [dailyUsage.subjectKind, dailyUsage.subjectKey, dailyUsage.day],
            set: { count: sql`least(${limit}, ${dailyUsage.count} + excluded.count)`, updatedAt: sql`now()` },
          });
      });
    },
  };
}

export type UsageCounters = ReturnType<typeof createUsageCounters>;
