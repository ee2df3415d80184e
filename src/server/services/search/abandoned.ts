import { and, eq, inArray, lte, not } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { instances, searches } from "#db/schema.ts";
import { createUsageCounters } from "../quota/usage.ts";
import { expiry, onLiveInstance } from "./instances.ts";
import { ANSWERED } from "./store.ts";

export const INTERRUPTED_MESSAGE = "The server stopped while this search was running";

/**
 * Marks interrupted the searches whose instance is gone (its lease older than `leaseMs`, or no
 * lease: rows from before leases), never a live instance's. A free search that had shown nothing
 * is given back. Rows are locked SKIP LOCKED, so two instances sweeping at once take each row once,
 * and the run's own end (which waits for the lock, then finds the row no longer running) does not
 * refund it a second time. Returns how many it marked.
 */
export async function sweepAbandoned(db: Db, leaseMs: number): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({
        id: searches.id,
        charge: searches.charge,
        // What the caller saw: a checkpoint holds every provider card sent, and an answer is "ok".
        shown: ANSWERED,
      })
      .from(searches)
      .where(and(eq(searches.status, "running"), not(onLiveInstance(leaseMs))))
      .for("update", { skipLocked: true });
    if (rows.length) {
      await tx
        .update(searches)
        .set({ status: "interrupted", error: INTERRUPTED_MESSAGE, charge: null, completedAt: new Date() })
        .where(
          inArray(
            searches.id,
            rows.map((row) => row.id),
          ),
        );
      const counters = createUsageCounters(tx, db);
      for (const { charge, shown } of rows) if (charge && !shown) await counters.release(charge.subjects, charge.day);
    }
    await tx.delete(instances).where(lte(instances.heartbeatAt, expiry(leaseMs)));
    return rows.length;
  });
}
