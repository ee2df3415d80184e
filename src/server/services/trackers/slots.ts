import { and, eq, sql } from "drizzle-orm";
import { type Db, selectRows } from "#db/client.ts";
import { instances, providerSlots } from "#db/schema.ts";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import { abortableSleep } from "#src/core/backoff.ts";
import { expiry } from "../search/instances.ts";
import { createLimiter, type Limiter } from "../search/limit.ts";
import { persist } from "./persist.ts";

/** How often a call waiting for a slot looks again (a freed slot is also taken at once here). */
const WAIT_MS = 100;

/**
 * PROVIDER_CONCURRENCY_TOTAL (ADR 043): per provider, at most `total` calls in flight across every
 * instance sharing the database. A call takes one of the provider's `total` numbered rows in
 * `provider_slots` and deletes it after. A row whose instance died (its lease lapsed) is taken
 * over, so a dead instance's share comes back within a lease; a row younger than a lease is
 * respected even without one (an instance that serves without a lease, as tests run it). A row
 * older than `staleAfterMs` (the call's time limit and a margin: no call holds a slot that long) is
 * taken over whoever holds it, so a slot a live instance failed to give back comes back too.
 */
export function createProviderSlots(
  db: Db,
  { instanceId, leaseMs, total, staleAfterMs }: { instanceId: string; leaseMs: number; total: number; staleAfterMs: number },
) {
  const free = new Set<() => void>();
  // This instance never holds more than the cap itself: its own extra calls wait here, without asking the database.
  const local = perProvider(() => createLimiter(total));

  /** One statement: a random free or stale slot of the provider's, taken; null when all are held (or another instance took it first). */
  async function tryTake(provider: ProviderId): Promise<number | null> {
    const live = sql`exists (select 1 from ${instances} where ${instances.id} = ${providerSlots.instanceId} and ${instances.heartbeatAt} > ${expiry(leaseMs)})`;
    const stale = sql`(${providerSlots.takenAt} < ${expiry(staleAfterMs)} or (${providerSlots.takenAt} < ${expiry(leaseMs)} and not ${live}))`;
    const [taken] = await selectRows<{ slot: number }>(
      db,
      sql`
      insert into ${providerSlots} (provider, slot, instance_id)
      select ${provider}, candidate, ${instanceId}::uuid from generate_series(0, ${total - 1}::int) as candidate
      where not exists (
        select 1 from ${providerSlots} where ${providerSlots.provider} = ${provider} and ${providerSlots.slot} = candidate and not (${stale})
      )
      order by random() limit 1
      on conflict (provider, slot) do update set instance_id = excluded.instance_id, taken_at = now() where ${stale}
      returning slot`,
    );
    return taken ? Number(taken.slot) : null;
  }

  return {
    /** Waits for one of the provider's slots; the returned function gives it back. */
    async take(provider: ProviderId, signal: AbortSignal): Promise<() => Promise<void>> {
      const leave = await enter(local[provider]);
      try {
        const slot = await takeInDatabase(provider, signal);
        return async () => {
          try {
            // Given back even across a database blip; failing that, the slot comes back by its age.
            await persist(() =>
              db.delete(providerSlots).where(and(eq(providerSlots.provider, provider), eq(providerSlots.slot, slot), eq(providerSlots.instanceId, instanceId))),
            ).catch(() => {});
          } finally {
            leave();
            for (const wake of free) wake();
          }
        };
      } catch (error) {
        leave();
        throw error;
      }
    },
  };

  async function takeInDatabase(provider: ProviderId, signal: AbortSignal): Promise<number> {
    for (;;) {
      signal.throwIfAborted();
      const slot = await tryTake(provider);
      if (slot !== null) return slot;
      // Woken early by a slot freed here; slots freed elsewhere are seen at the next look.
      const woken = new AbortController();
      const wake = () => woken.abort();
      free.add(wake);
      await abortableSleep(WAIT_MS, AbortSignal.any([signal, woken.signal]));
      free.delete(wake);
    }
  }
}

/** Holds a place of the limiter until the returned function is called. */
async function enter(limit: Limiter): Promise<() => void> {
  let leave!: () => void;
  const held = new Promise<void>((resolve) => (leave = resolve));
  await new Promise<void>((entered) => void limit(() => (entered(), held)));
  return leave;
}
