import type { Db } from "#db/client.ts";
import { createThrottle } from "../auth/throttle.ts";
import { createLinks, type LinksDeps } from "./links.ts";
import { createSharedReads, type ReadsDeps } from "./reads.ts";

/** A link's rate limit counts reads in windows of a minute. */
const READ_WINDOW_MS = 60_000;

/**
 * Share links (issue 27, ADR 048): read-only links to a saved search, a comparison or a tracker.
 * `links` is the owner's side (make, list, revoke), `reads` what anyone holding a link may read.
 */
export function createShares(deps: Omit<LinksDeps & ReadsDeps, "throttle" | "db"> & { db: Db; readsPerMinute: number }) {
  const throttle = createThrottle({ limit: deps.readsPerMinute, windowMs: READ_WINDOW_MS, clock: deps.clock });
  return { ...createLinks(deps), ...createSharedReads({ ...deps, throttle }) };
}

export type Shares = ReturnType<typeof createShares>;
