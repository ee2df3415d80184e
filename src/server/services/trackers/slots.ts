import { and, eq, gt, ne, sql } from "drizzle-orm";
import { type Db, selectRows } from "#db/client.ts";
import { instances, providerSlots, providerSlotWaits } from "#db/schema.ts";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import { expiry } from "../search/instances.ts";
import { persist } from "./persist.ts";

/** How often an instance with calls waiting looks at the database again (for a slot another instance gave back). */
const WAIT_MS = 100;
/** How often an instance with calls waiting says so; a word older than WAITED_MS no longer claims a share. */
const SAY_WAITING_MS = 500;
const WAITED_MS = 1_500;
/** How long a holder trusts what it last read of the other instances' waits. */
const DEMAND_READ_MS = 250;

type Waiter = { grant: (slot: number) => void; fail: (error: unknown) => void };

/**
 * PROVIDER_CONCURRENCY_TOTAL (ADR 043, ADR 060): per provider, at most `total` calls in flight
 * across every instance sharing the database. An instance holds some of the provider's `total`
 * numbered rows in `provider_slots`; a call ending here hands its slot straight to the next call
 * waiting here, without the database, so the slots stay full without a statement per call. A slot
 * no call here wants is given back (its row deleted).
 *
 * Shared fairly: an instance whose calls wait says so in `provider_slot_waits`; while others wait,
 * each waiting instance holds at most its share of `total` (the cap divided among them), and a
 * holder over its share gives slots back instead of handing them on, for the others to take.
 *
 * A row whose instance died (its lease lapsed) is taken over, so a dead instance's share comes back
 * within a lease; a row younger than a lease is respected even without one (an instance that serves
 * without a lease, as tests run it). A row older than `staleAfterMs` (the call's time limit and a
 * margin) is taken over whoever holds it, so a slot a live instance failed to give back comes back
 * too; a slot handed on is renewed before it gets that old.
 */
export function createProviderSlots(
  db: Db,
  { instanceId, leaseMs, total, staleAfterMs }: { instanceId: string; leaseMs: number; total: number; staleAfterMs: number },
) {
  const state = perProvider(() => ({
    /** Calls here waiting for a slot, first come first served. */
    waiting: [] as Waiter[],
    /** The slots this instance holds (its rows), with when each was taken or last renewed. */
    held: new Map<number, number>(),
    /** A pass at the database in progress; another asked for while it ran. */
    pumping: false,
    again: false,
    retry: undefined as ReturnType<typeof setTimeout> | undefined,
    saidAt: Number.NEGATIVE_INFINITY,
    others: { count: 0, readAt: Number.NEGATIVE_INFINITY },
  }));

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

  /** This instance's share of the provider's slots: all of them unless other instances wait too. */
  async function share(provider: ProviderId): Promise<number> {
    const { others } = state[provider];
    if (performance.now() - others.readAt > DEMAND_READ_MS) {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(providerSlotWaits)
        .where(and(eq(providerSlotWaits.provider, provider), ne(providerSlotWaits.instanceId, instanceId), gt(providerSlotWaits.at, expiry(WAITED_MS))));
      others.count = Number(row?.count ?? 0);
      others.readAt = performance.now();
    }
    return Math.max(1, Math.ceil(total / (others.count + 1)));
  }

  /** Says (again) that calls wait here, or that none does any more. */
  async function sayWaiting(provider: ProviderId): Promise<void> {
    const s = state[provider];
    if (s.waiting.length > 0) {
      if (performance.now() - s.saidAt < SAY_WAITING_MS) return;
      s.saidAt = performance.now();
      await db
        .insert(providerSlotWaits)
        .values({ provider, instanceId })
        .onConflictDoUpdate({ target: [providerSlotWaits.provider, providerSlotWaits.instanceId], set: { at: sql`now()` } });
    } else if (Number.isFinite(s.saidAt)) {
      s.saidAt = Number.NEGATIVE_INFINITY;
      await db.delete(providerSlotWaits).where(and(eq(providerSlotWaits.provider, provider), eq(providerSlotWaits.instanceId, instanceId)));
    }
  }

  /**
   * Takes slots from the database for the calls waiting here, up to this instance's share; when
   * none is free, or the share is held, looks again in WAIT_MS (slots freed here are handed on at once).
   */
  async function pump(provider: ProviderId): Promise<void> {
    const s = state[provider];
    if (s.pumping) {
      s.again = true;
      return;
    }
    s.pumping = true;
    s.again = false;
    clearTimeout(s.retry);
    s.retry = undefined;
    let again = false;
    try {
      while (s.waiting.length > 0 && s.held.size < (await share(provider))) {
        const slot = await tryTake(provider);
        if (slot === null) break;
        s.held.set(slot, performance.now());
        const next = s.waiting.shift();
        if (next) next.grant(slot);
        else await giveBack(provider, slot);
      }
      await sayWaiting(provider);
      again = s.waiting.length > 0;
    } catch (error) {
      // The database failed this pass: the longest waiter fails with it (its call is retried as any
      // call the database failed), the others are tried again.
      s.waiting.shift()?.fail(error);
      again = s.waiting.length > 0;
    } finally {
      s.pumping = false;
      if (s.again) void pump(provider);
      else if (again && !s.retry) s.retry = setTimeout(() => void pump(provider), WAIT_MS);
    }
  }

  async function giveBack(provider: ProviderId, slot: number): Promise<void> {
    state[provider].held.delete(slot);
    // Given back even across a database blip; failing that, the slot comes back by its age.
    await persist(() =>
      db.delete(providerSlots).where(and(eq(providerSlots.provider, provider), eq(providerSlots.slot, slot), eq(providerSlots.instanceId, instanceId))),
    ).catch(() => {});
  }

  /** Renews a slot about to be handed on, once it has been held a quarter of the time after which it counts as stale. Whether it is still this instance's. */
  async function renew(provider: ProviderId, slot: number): Promise<boolean> {
    const held = state[provider].held;
    if (performance.now() - (held.get(slot) ?? 0) < staleAfterMs / 4) return true;
    const renewed = await db
      .update(providerSlots)
      .set({ takenAt: sql`now()` })
      .where(and(eq(providerSlots.provider, provider), eq(providerSlots.slot, slot), eq(providerSlots.instanceId, instanceId)))
      .returning({ slot: providerSlots.slot });
    if (renewed.length === 0) {
      held.delete(slot);
      return false;
    }
    held.set(slot, performance.now());
    return true;
  }

  /** The function a call calls when it ends: its slot goes to the next call waiting here, or back. */
  function releaseOf(provider: ProviderId, slot: number): () => Promise<void> {
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      const s = state[provider];
      try {
        if (s.waiting.length > 0 && s.held.size <= (await share(provider)) && (await renew(provider, slot))) {
          const next = s.waiting.shift();
          if (next) return next.grant(slot);
        }
        if (s.held.has(slot)) await giveBack(provider, slot);
      } catch {
        // Not renewed or shared for a database error: given back, or failing that back by its age.
        if (s.held.has(slot)) await giveBack(provider, slot);
      }
      void pump(provider);
    };
  }

  return {
    /** Waits for one of the provider's slots; the returned function gives it on (or back). */
    take(provider: ProviderId, signal: AbortSignal): Promise<() => Promise<void>> {
      signal.throwIfAborted();
      const s = state[provider];
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          const at = s.waiting.indexOf(waiter);
          if (at >= 0) s.waiting.splice(at, 1);
          reject(signal.reason);
        };
        const waiter: Waiter = {
          grant: (slot) => {
            signal.removeEventListener("abort", onAbort);
            resolve(releaseOf(provider, slot));
          },
          fail: (error) => {
            signal.removeEventListener("abort", onAbort);
            reject(error);
          },
        };
        signal.addEventListener("abort", onAbort, { once: true });
        s.waiting.push(waiter);
        void pump(provider);
      });
    },
  };
}
