import { eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { instances, searches } from "#db/schema.ts";
import type { DrainReport } from "./drain.ts";

/** How often an instance renews its lease; three missed beats and its runs count as abandoned. */
export const HEARTBEAT_MS = 5_000;
export const leaseOf = (heartbeatMs: number) => 3 * heartbeatMs;

/** The channel instances ask each other on to cancel a slot's search (NOTIFY search_cancel). */
export const SEARCH_CANCEL_CHANNEL = "search_cancel";

/**
 * The app instance a search runs on, as the search service sees it. Several instances share one
 * database (behind a load balancer), so a search's row names its instance, and a cancel is
 * broadcast: the instance holding that slot's run aborts it.
 */
export type InstancePort = {
  id: string;
  /** A lease older than this means the instance is gone. */
  leaseMs: number;
  /** Asks every other instance to cancel its search in `slot`. */
  broadcast(slot: string): Promise<void>;
  /** What to do when another instance asks (the search service's local cancel). */
  onCancel(handler: (slot: string) => void): void;
  /** What to do when this instance stops cleanly (the search service's drain, ./drain.ts). */
  onDrain(handler: (graceMs: number) => Promise<DrainReport>): void;
};

/** A cancel notice: the sender, which ignores its own, and the slot. */
export type CancelNotice = { from: string; slot: string };

export function encodeNotice(notice: CancelNotice): string {
  return JSON.stringify(notice);
}

/** Null for anything that is not a notice (NOTIFY takes any text from any session). */
export function decodeNotice(payload: string): CancelNotice | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== "object" || value === null) return null;
    const { from, slot } = value as Record<string, unknown>;
    return typeof from === "string" && typeof slot === "string" ? { from, slot } : null;
  } catch {
    return null;
  }
}

/** An instance's row in `instances`. Times are the database's now(), so app clocks need not agree. */
export function createLease(db: Db, id: string) {
  return {
    /** Takes or renews the lease (again, after a lapse: a late run may still complete its row). */
    async beat(): Promise<void> {
      await db
        .insert(instances)
        .values({ id })
        .onConflictDoUpdate({ target: instances.id, set: { heartbeatAt: sql`now()` } });
    },
    /** Gives it up on a clean stop, so the others sweep at once whatever this one leaves running. */
    async retire(): Promise<void> {
      await db.delete(instances).where(eq(instances.id, id));
    },
  };
}

/** The search's instance holds a lease younger than `leaseMs` (a row without one never does). */
export function onLiveInstance(leaseMs: number): SQL {
  return sql`exists (select 1 from ${instances} where ${instances.id} = ${searches.instanceId} and ${instances.heartbeatAt} > ${expiry(leaseMs)})`;
}

/** The time before which a heartbeat is stale. */
export function expiry(leaseMs: number): SQL {
  return sql`now() - ${Math.round(leaseMs)}::int * interval '1 millisecond'`;
}
