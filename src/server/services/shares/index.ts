import type { Db } from "#db/client.ts";
import { SHARE_READS_WINDOW_S } from "#src/contract/shares.ts";
import { createThrottle } from "../auth/throttle.ts";
import { createLinks, type LinksDeps } from "./links.ts";
import { createSharedReads, type ReadsDeps } from "./reads.ts";

/**
 * Share links (issue 27, ADR 048): read-only links to a saved search, a comparison or a tracker.
 * `links` is the owner's side (make, list, revoke), `reads` what anyone holding a link may read.
 */
export function createShares(deps: Omit<LinksDeps & ReadsDeps, "throttle" | "db"> & { db: Db; readsPerMinute: number }) {
  const throttle = createThrottle({ limit: deps.readsPerMinute, windowMs: SHARE_READS_WINDOW_S * 1000, clock: deps.clock });
  return { ...createLinks(deps), ...createSharedReads({ ...deps, throttle }) };
}

export type Shares = ReturnType<typeof createShares>;
