import { and, eq, isNull, lt, or } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { shares } from "#db/schema.ts";
import type { ChangesQuery, TrackerChanges } from "#src/contract/changes.ts";
import { SHARE_TOKEN_PATTERN, SharedTracker, type SharedView } from "#src/contract/shares.ts";
import { toSavedWire } from "#src/contract/search-wire.ts";
import type { TrackerRun, TrackerRunList } from "#src/contract/trackers.ts";
import type { SourcesQuery, SourcesReport, TrackerAlertList, Trend, TrendQuery } from "#src/contract/trend.ts";
import { compareSearches } from "#src/core/compare.ts";
import { tryAgainIn, type Throttle } from "../auth/throttle.ts";
import { DomainError } from "../errors.ts";
import type { SearchService } from "../search/index.ts";
import { TRACKER_NOT_FOUND, type Trackers } from "../trackers/index.ts";
import { asOfOf, readerOf, type ShareRow } from "./row.ts";
import { sharedAlerts, sharedRun, sharedRuns, sharedTracker } from "./strip.ts";

/** What a visitor is told of a link that does not open, whatever the reason: nothing about which. */
export const LINK_GONE = "This link does not exist, has expired or was revoked.";

/** A link's last opening is written at most this often: a page's reloads are not a write each. */
const OPENED_PRECISION_MS = 60_000;

export type ReadsDeps = {
  db: Db;
  search: Pick<SearchService, "get">;
  trackers: Pick<Trackers, "get" | "runs" | "run" | "trend" | "sources" | "alerts" | "changes">;
  /** Reads per link per window (SHARE_READS_PER_MINUTE), in this instance's memory. */
  throttle: Throttle;
  clock: () => Date;
};

/**
 * The visitor's side of share links (issue 27, ADR 048): anyone holding the token reads what it
 * shows, with no session, as its owner would, minus what is the owner's alone (./strip.ts). A
 * tracker's reads are the trackers service's own, as of the link's clock (a frozen link's stops).
 */
export function createSharedReads({ db, search, trackers, throttle, clock }: ReadsDeps) {
  /** The live link of a token, counted against its rate limit; LINK_GONE for anything else. */
  async function linkOf(token: string): Promise<ShareRow> {
    // Checked before any query: a made-up token costs no database read.
    if (!SHARE_TOKEN_PATTERN.test(token)) throw gone();
    const [row] = await db.select().from(shares).where(eq(shares.token, token)).limit(1);
    if (!row || (row.expiresAt && row.expiresAt <= clock())) throw gone();
    const verdict = throttle.attempt([row.id]);
    if (!verdict.allowed)
      throw new DomainError("RATE_LIMITED", `This link has been read too often in the last minute. ${tryAgainIn(verdict.retryAfterS)}`, {
        retryAfterS: verdict.retryAfterS,
      });
    return row;
  }

  /** A tracker's link: who owns it, which tracker, and its clock. */
  async function trackerLink(token: string) {
    const row = await linkOf(token);
    if (row.kind !== "tracker") throw gone();
    return { userId: row.userId, id: row.targetId, at: { asOf: asOfOf(row) } };
  }

  async function view(row: ShareRow): Promise<SharedView> {
    const common = { sharedAt: row.createdAt.toISOString(), ...(row.expiresAt ? { expiresAt: row.expiresAt.toISOString() } : {}) };
    const reader = readerOf(row.userId);
    if (row.kind === "search") {
      const found = await search.get(reader, row.targetId);
      if (!found) throw gone();
      return { kind: "search", ...common, search: toSavedWire(found) };
    }
    if (row.kind === "compare") {
      const original = await search.get(reader, row.targetId);
      if (!original) throw gone();
      // The searches pinned when shared; one deleted since is left out.
      const variants = (await Promise.all((row.searchIds ?? []).map((id) => search.get(reader, id)))).flatMap((found) => (found ? [found] : []));
      return {
        kind: "compare",
        ...common,
        report: compareSearches(original, variants, { query: original.query, variants: variants.map((found) => found.query) }),
      };
    }
    // Read for a frozen link too: the tracker deleted since ends it; and a field trackers gained since it was frozen is today's.
    const living = sharedTracker(await orGone(trackers.get(row.userId, row.targetId)));
    const tracker = row.frozen ? v.parse(SharedTracker, { ...living, ...(row.frozenTracker as object) }) : living;
    return { kind: "tracker", ...common, frozen: row.frozen, ...(row.frozenAt ? { frozenAt: row.frozenAt.toISOString() } : {}), tracker };
  }

  return {
    /** What the link shows; notes that it was opened. */
    async open(token: string): Promise<SharedView> {
      const row = await linkOf(token);
      const shown = await view(row);
      const now = clock();
      await db
        .update(shares)
        .set({ lastOpenedAt: now })
        .where(and(eq(shares.id, row.id), or(isNull(shares.lastOpenedAt), lt(shares.lastOpenedAt, new Date(now.getTime() - OPENED_PRECISION_MS)))));
      return shown;
    },

    async runs(token: string, page: { before?: string; limit: number }): Promise<TrackerRunList> {
      const link = await trackerLink(token);
      return sharedRuns(await orGone(trackers.runs(link.userId, link.id, page, link.at)));
    },

    async run(token: string, runId: string): Promise<TrackerRun> {
      const link = await trackerLink(token);
      return sharedRun(await orGone(trackers.run(link.userId, link.id, runId, link.at)));
    },

    async trend(token: string, query: v.InferOutput<typeof TrendQuery>): Promise<Trend> {
      const link = await trackerLink(token);
      return orGone(trackers.trend(link.userId, link.id, query, link.at));
    },

    async sources(token: string, query: v.InferOutput<typeof SourcesQuery>): Promise<SourcesReport> {
      const link = await trackerLink(token);
      return orGone(trackers.sources(link.userId, link.id, query, link.at));
    },

    async alerts(token: string): Promise<TrackerAlertList> {
      const link = await trackerLink(token);
      return sharedAlerts(await orGone(trackers.alerts(link.userId, link.id, link.at)));
    },

    async changes(token: string, query: v.InferOutput<typeof ChangesQuery>): Promise<TrackerChanges> {
      const link = await trackerLink(token);
      return orGone(trackers.changes(link.userId, link.id, query, link.at));
    },
  };
}

export type SharedReads = ReturnType<typeof createSharedReads>;

function gone(): DomainError {
  return new DomainError("NOT_FOUND", LINK_GONE);
}

/** A tracker deleted since it was shared: the link is gone with it (a run not found stays what it is). */
async function orGone<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof DomainError && error.code === "NOT_FOUND" && error.message === TRACKER_NOT_FOUND) throw gone();
    throw error;
  }
}
