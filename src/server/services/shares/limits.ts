import { createHmac } from "node:crypto";
import { and, lt, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { rateCounters } from "#db/schema.ts";
import { SHARE_READS_WINDOW_S } from "#src/contract/shares.ts";
import { tryAgainIn } from "../auth/throttle.ts";
import { DomainError } from "../errors.ts";
import { ipHashKey, networkOf } from "../quota/subjects.ts";

/** Every key these limits write begins so: the only rows of `rate_counters` their sweep deletes. */
const PREFIX = "share-";
/** Refusals remembered in this instance's memory at most (a window's worth; a flood of addresses cannot grow it further). */
const MAX_REMEMBERED = 10_000;

export type ShareReadLimits = {
  /** SHARE_READS_PER_MINUTE: reads of one link a window, whoever reads it. */
  perLink: number;
  /** SHARE_READS_PER_CLIENT_PER_MINUTE: reads of any link, made-up tokens included, from one client's network a window. */
  perClient: number;
};

/**
 * How often links are read (ADR 048), in fixed windows of SHARE_READS_WINDOW_S counted in
 * `rate_counters`, so every instance shares the counts and a restart keeps them. Two counts: per
 * client (the network of its address, keyed as the free quota keys it, with the window in the hash
 * so two windows' keys cannot be linked), taken before the link is looked up, so a flood of made-up
 * or revoked tokens costs a counter's write and, past the limit, nothing; and per link, once found,
 * so however many readers it has a link is read at most so often. One reader uses at most its own
 * count of a link's, and cannot lock the others out. A refusal is remembered here until its window
 * ends: a client refused costs no further write on this instance. Windows older than the last are
 * deleted as the windows turn.
 */
export function createShareReadLimits({ db, secret, clock, perLink, perClient }: { db: Db; secret: string; clock: () => Date } & ShareReadLimits) {
  const ipKey = ipHashKey(secret);
  const windowMs = SHARE_READS_WINDOW_S * 1000;
  /** Until when a key is refused, as this instance learnt it. */
  const refused = new Map<string, number>();
  let swept = 0;

  async function take(key: string, limit: number, windowStart: number, message: string): Promise<void> {
    const now = clock().getTime();
    const until = refused.get(key);
    if (until === undefined || until <= now) {
      const [counted] = await db
        .insert(rateCounters)
        .values({ key, windowStart: new Date(windowStart), count: 1 })
        .onConflictDoUpdate({
          target: [rateCounters.key, rateCounters.windowStart],
          set: { count: sql`${rateCounters.count} + 1` },
          setWhere: sql`${rateCounters.count} < ${limit}`,
        })
        .returning({ count: rateCounters.count });
      if (counted && counted.count <= limit) return;
      if (refused.size >= MAX_REMEMBERED) forget(now);
      refused.set(key, windowStart + windowMs);
    }
    const retryAfterS = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    throw new DomainError("RATE_LIMITED", `${message} ${tryAgainIn(retryAfterS)}`, { retryAfterS });
  }

  /** Drops the refusals whose window is over; still full, the oldest. */
  function forget(now: number): void {
    for (const [key, until] of refused) if (until <= now) refused.delete(key);
    for (const key of refused.keys()) {
      if (refused.size < MAX_REMEMBERED) break;
      refused.delete(key);
    }
  }

  /** The window `now` is in; when it is a new one, the windows before the last are deleted (these limits' rows only). */
  async function windowOf(): Promise<number> {
    const now = clock().getTime();
    const start = now - (now % windowMs);
    if (start > swept) {
      swept = start;
      forget(now);
      await db.delete(rateCounters).where(and(sql`${rateCounters.key} like ${`${PREFIX}%`}`, lt(rateCounters.windowStart, new Date(start - windowMs))));
    }
    return start;
  }

  return {
    /** Counts a read by this client (its address); RATE_LIMITED past SHARE_READS_PER_CLIENT_PER_MINUTE. */
    async client(ip: string): Promise<void> {
      const start = await windowOf();
      const key = `${PREFIX}client:${createHmac("sha256", ipKey)
        .update(`share-reads|${start}|${networkOf(ip)}`)
        .digest("base64url")}`;
      await take(key, perClient, start, "Share links have been read too often from your network in the last minute.");
    },

    /** Counts a read of this link (its id); RATE_LIMITED past SHARE_READS_PER_MINUTE. */
    async link(id: string): Promise<void> {
      const start = await windowOf();
      await take(`${PREFIX}link:${id}`, perLink, start, "This link has been read too often in the last minute.");
    },
  };
}

export type ShareReadLimiter = ReturnType<typeof createShareReadLimits>;
