import type { Db } from "#db/client.ts";
import { createLinks, type LinksDeps } from "./links.ts";
import { createShareReadLimits, type ShareReadLimits } from "./limits.ts";
import { createSharedReads, type ReadsDeps } from "./reads.ts";

/**
 * Share links (ADR 048): read-only links to a saved search, a comparison or a tracker.
 * `links` is the owner's side (make, list, revoke), `reads` what anyone holding a link may read,
 * within the read limits (./limits.ts; `secret` keys the hashes of readers' addresses).
 */
export function createShares(deps: Omit<LinksDeps & ReadsDeps, "limits" | "db"> & { db: Db; secret: string; reads: ShareReadLimits }) {
  const limits = createShareReadLimits({ db: deps.db, secret: deps.secret, clock: deps.clock, ...deps.reads });
  return { ...createLinks(deps), ...createSharedReads({ ...deps, limits }) };
}

export type Shares = ReturnType<typeof createShares>;
