import { randomUUID } from "node:crypto";
import type { Database } from "#db/client.ts";
import { listen, notify, type Listener } from "#db/listen.ts";
import { sweepAbandoned } from "#src/server/services/search/abandoned.ts";
import type { DrainReport } from "#src/server/services/search/drain.ts";
import {
  createLease,
  decodeNotice,
  encodeNotice,
  HEARTBEAT_MS,
  leaseOf,
  SEARCH_CANCEL_CHANNEL,
  type InstancePort,
} from "#src/server/services/search/instances.ts";

/** This process among the app instances sharing one database (docs/decisions/017-instances-leases-and-cancel.md). */
export type Instance = InstancePort & {
  /**
   * Takes the lease, marks the runs of dead instances interrupted, listens for cancels, and from
   * then on renews the lease and sweeps every heartbeat. Returns how many searches it marked.
   */
  start(): Promise<number>;
  /**
   * On a clean stop, before `stop`: takes no new search, lets those running finish for up to
   * `graceMs`, then interrupts the rest, saving what finished (ADR 018).
   */
  drain(graceMs: number): Promise<DrainReport>;
  /** Stops all that and gives the lease up. */
  stop(): Promise<void>;
  /** Renews the lease now: a one-row write, so /healthz can tell whether the database takes writes. */
  beat(): Promise<void>;
};

export type InstanceOptions = { heartbeatMs?: number };

/**
 * An instance is created with the app (the search service needs its id and channel) and started
 * by whoever runs it (src/server/index.ts). Unstarted (as most tests leave it), it still sends
 * cancels but receives none and holds no lease.
 */
export function createInstance(database: Database, { heartbeatMs = HEARTBEAT_MS }: InstanceOptions = {}): Instance {
  const id = randomUUID();
  const leaseMs = leaseOf(heartbeatMs);
  const lease = createLease(database.db, id);
  let onCancel: (slot: string) => void = () => {};
  let onDrain: (graceMs: number) => Promise<DrainReport> = async () => ({ inFlight: 0, interrupted: 0 });
  let listener: Listener | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let tick: Promise<void> | undefined;
  let healthy = true;
  let running = false;

  async function renew(): Promise<void> {
    try {
      await lease.beat();
      await sweepAbandoned(database.db, leaseMs);
      if (!healthy) console.log("instance lease renewed");
      healthy = true;
    } catch (error) {
      // Said once per outage, not every beat; the next beat tries again.
      if (healthy) console.error(`instance lease could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
      healthy = false;
    }
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(() => {
      tick = renew().finally(schedule);
    }, heartbeatMs);
    timer.unref?.();
  }

  return {
    id,
    leaseMs,
    beat: () => lease.beat(),
    async broadcast(slot) {
      await notify(database.db, SEARCH_CANCEL_CHANNEL, encodeNotice({ from: id, slot }));
    },
    onCancel(handler) {
      onCancel = handler;
    },
    onDrain(handler) {
      onDrain = handler;
    },
    drain: (graceMs) => onDrain(graceMs),
    async start() {
      await lease.beat();
      const marked = await sweepAbandoned(database.db, leaseMs);
      listener = await listen(database, SEARCH_CANCEL_CHANNEL, (payload) => {
        const notice = decodeNotice(payload);
        if (notice && notice.from !== id) onCancel(notice.slot);
      });
      running = true;
      schedule();
      return marked;
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await tick;
      await listener?.close();
      listener = undefined;
      await lease.retire();
    },
  };
}
