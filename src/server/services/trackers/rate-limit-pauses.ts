import { sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { providerPauses } from "#db/schema.ts";
import type { ProviderId } from "#src/contract/providers.ts";

/** How stale this instance's copy of the pauses may be: a pause another instance wrote is seen within this. */
export const PAUSES_REFRESH_MS = 2_000;

/**
 * A provider that keeps answering 429 is paused for every instance, not only the one that met it:
 * the pause (provider, until) is kept in `provider_pauses`, and each instance reads it at most every
 * PAUSES_REFRESH_MS (one query for every provider, shared by the calls waiting meanwhile), so a call
 * does not read the database each time. A pause only grows: two instances pausing together keep the later end.
 */
export function createRateLimitPauses(db: Db, { refreshMs = PAUSES_REFRESH_MS }: { refreshMs?: number } = {}) {
  let known = new Map<string, number>();
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;

  async function refresh(): Promise<void> {
    if (performance.now() - readAt < refreshMs) return;
    reading ??= (async () => {
      try {
        const rows = await db.select().from(providerPauses);
        const read = new Map(rows.map((row) => [row.provider, row.until.getTime()]));
        // A pause this instance wrote meanwhile is kept until the table shows it.
        for (const [provider, until] of known) if (until > (read.get(provider) ?? 0)) read.set(provider, until);
        known = read;
        readAt = performance.now();
      } finally {
        reading = undefined;
      }
    })();
    await reading;
  }

  return {
    /** Until when (ms since the epoch) the provider is paused; 0 or a past time when it is not. */
    async until(provider: ProviderId): Promise<number> {
      await refresh();
      return known.get(provider) ?? 0;
    },

    /** Pauses the provider until `until` (ms since the epoch) for every instance. */
    async pause(provider: ProviderId, until: number): Promise<void> {
      if (until > (known.get(provider) ?? 0)) known.set(provider, until);
      const at = new Date(until);
      await db
        .insert(providerPauses)
        .values({ provider, until: at })
        .onConflictDoUpdate({ target: providerPauses.provider, set: { until: sql`greatest(${providerPauses.until}, excluded.until)` } });
    },
  };
}

export type RateLimitPauses = ReturnType<typeof createRateLimitPauses>;
