import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { instances, providerSlots } from "#db/schema.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import { abortableSleep } from "#src/core/backoff.ts";
import { expiry } from "../search/instances.ts";

/** How often a call waiting for a slot looks again (a freed slot is also taken at once here). */
const WAIT_MS = 100;

/**
 * PROVIDER_CONCURRENCY_TOTAL (ADR 043): per provider, at most `total` calls in flight across every
 * instance sharing the database. A call takes one of the provider's `total` numbered rows in
 * `provider_slots` and deletes it after. A row whose instance died (its lease lapsed) is taken
 * over, so a dead instance's share comes back within a lease; a row younger than a lease is
 * respected even without one (an instance that serves without a lease, as tests run it).
 */
export function createProviderSlots(db: Db, { instanceId, leaseMs, total }: { instanceId: string; leaseMs: number; total: number }) {
  const free = new Set<() => void>();

  async function tryTake(provider: ProviderId): Promise<number | null> {
    const start = Math.floor(Math.random() * total);
    for (let i = 0; i < total; i++) {
      const slot = (start + i) % total;
      const [taken] = await db
        .insert(providerSlots)
        .values({ provider, slot, instanceId })
        .onConflictDoUpdate({
          target: [providerSlots.provider, providerSlots.slot],
          set: { instanceId, takenAt: sql`now()` },
          setWhere: sql`${providerSlots.takenAt} < ${expiry(leaseMs)} and not exists (select 1 from ${instances} where ${instances.id} = ${providerSlots.instanceId} and ${instances.heartbeatAt} > ${expiry(leaseMs)})`,
        })
        .returning({ slot: providerSlots.slot });
      if (taken) return taken.slot;
    }
    return null;
  }

  return {
    /** Waits for one of the provider's slots; the returned function gives it back. */
    async take(provider: ProviderId, signal: AbortSignal): Promise<() => Promise<void>> {
      for (;;) {
        signal.throwIfAborted();
        const slot = await tryTake(provider);
        if (slot !== null)
          return async () => {
            await db
              .delete(providerSlots)
              .where(and(eq(providerSlots.provider, provider), eq(providerSlots.slot, slot), eq(providerSlots.instanceId, instanceId)));
            for (const wake of free) wake();
          };
        // Woken early by a slot freed here; slots freed elsewhere are seen at the next look.
        const woken = new AbortController();
        const wake = () => woken.abort();
        free.add(wake);
        await abortableSleep(WAIT_MS, AbortSignal.any([signal, woken.signal]));
        free.delete(wake);
      }
    },
  };
}
