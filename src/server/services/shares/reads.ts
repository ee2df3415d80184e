import { and, eq, isNull, lt, or } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { shares } from "#db/schema.ts";
import type { ChangesQuery, TrackerChanges } from "#src/contract/changes.ts";
import type { SummaryQuery, TrackerSummary } from "#src/contract/summary.ts";
import { SHARE_TOKEN_PATTERN, SharedTracker, type SharedTrackerRun, type SharedTrackerRunList, type SharedView } from "#src/contract/shares.ts";
import { toSavedWire } from "#src/contract/search-wire.ts";
import type { SourcesQuery, SourcesReport, TrackerAlertList, Trend, TrendQuery } from "#src/contract/trend.ts";
import { compareSearches } from "#src/core/compare.ts";
import { DomainError } from "../errors.ts";
import type { SearchService } from "../search/index.ts";
import { TRACKER_NOT_FOUND, type Trackers } from "../trackers/index.ts";
import type { ShareReadLimiter } from "./limits.ts";
import { asOfOf, readerOf, type ShareRow } from "./row.ts";
import { sharedAlerts, sharedRun, sharedRuns, sharedTracker } from "./strip.ts";

/** What a visitor is told of a link that does not open, whatever the reason: nothing about which. */
export const LINK_GONE = "This link does not exist, has expired or was revoked.";

/** A link's last opening is written at most this often: a page's reloads are not a write each. */
const OPENED_PRECISION_MS = 60_000;

export type ReadsDeps = {
  db: Db;
  search: Pick<SearchService, "get">;
  trackers: Pick<Trackers, "get" | "runs" | "run" | "trend" | "sources" | "alerts" | "changes" | "summary">;
  /** Reads per client and per link (SHARE_READS_PER_CLIENT_PER_MINUTE, SHARE_READS_PER_MINUTE), counted for every instance (./limits.ts). */
  limits: ShareReadLimiter;
  clock: () => Date;
};

/**
 * The visitor's side of share links (ADR 048): anyone holding the token reads what it
 * shows, with no session, as its owner would, minus what is the owner's alone (./strip.ts). A
 * tracker's reads are the trackers service's own, as of the link's clock (a frozen link's stops).
 */
export function createSharedReads({ db, search, trackers, limits, clock }: ReadsDeps) {
  /**
   * The live link of a token read by a client (its address), counted against both rate limits;
   * LINK_GONE for anything else. The client is counted before the look-up: made-up and revoked
   * tokens cost a look-up each, and are limited with the rest of what the client reads.
   */
  async function linkOf(token: string, ip: string): Promise<ShareRow> {
    // Checked before any query: a malformed token costs no database read.
    if (!SHARE_TOKEN_PATTERN.test(token)) throw gone();
    await limits.client(ip);
    const [row] = await db.select().from(shares).where(eq(shares.token, token)).limit(1);
    if (!row || (row.expiresAt && row.expiresAt <= clock())) throw gone();
    await limits.link(row.id);
    return row;
  }

  /** A tracker's link: the link as its reader (its workspace's), which tracker, and its clock. */
  async function trackerLink(token: string, ip: string) {
    const row = await linkOf(token, ip);
    if (row.kind !== "tracker") throw gone();
    return { reader: { link: { workspaceId: row.workspaceId } }, id: row.targetId, at: { asOf: asOfOf(row) } };
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
    const living = sharedTracker(await orGone(trackers.get({ link: { workspaceId: row.workspaceId } }, row.targetId)));
    // A frozen definition kept before a field was stripped is stripped now: its estimate (dropped by the schema) and its last run's skip reason.
    const frozen = row.frozen ? v.parse(SharedTracker, { ...living, ...(row.frozenTracker as object) }) : undefined;
    const tracker = frozen ? { ...frozen, lastRun: frozen.lastRun && sharedRun(frozen.lastRun) } : living;
    return { kind: "tracker", ...common, frozen: row.frozen, ...(row.frozenAt ? { frozenAt: row.frozenAt.toISOString() } : {}), tracker };
  }

  return {
    /** What the link shows; notes that it was opened. `ip`: the reader's address, for the limits. */
    async open(token: string, ip: string): Promise<SharedView> {
      const row = await linkOf(token, ip);
      const shown = await view(row);
      const now = clock();
      await db
        .update(shares)
        .set({ lastOpenedAt: now })
        .where(and(eq(shares.id, row.id), or(isNull(shares.lastOpenedAt), lt(shares.lastOpenedAt, new Date(now.getTime() - OPENED_PRECISION_MS)))));
      return shown;
    },

    async runs(token: string, page: { before?: string; limit: number }, ip: string): Promise<SharedTrackerRunList> {
      const link = await trackerLink(token, ip);
      return sharedRuns(await orGone(trackers.runs(link.reader, link.id, page, link.at)));
    },

    async run(token: string, runId: string, ip: string): Promise<SharedTrackerRun> {
      const link = await trackerLink(token, ip);
      return sharedRun(await orGone(trackers.run(link.reader, link.id, runId, link.at)));
    },

    async trend(token: string, query: v.InferOutput<typeof TrendQuery>, ip: string): Promise<Trend> {
      const link = await trackerLink(token, ip);
      return orGone(trackers.trend(link.reader, link.id, query, link.at));
    },

    async summary(token: string, query: v.InferOutput<typeof SummaryQuery>, ip: string): Promise<TrackerSummary> {
      const link = await trackerLink(token, ip);
      return orGone(trackers.summary(link.reader, link.id, query, link.at));
    },

    async sources(token: string, query: v.InferOutput<typeof SourcesQuery>, ip: string): Promise<SourcesReport> {
      const link = await trackerLink(token, ip);
      return orGone(trackers.sources(link.reader, link.id, query, link.at));
    },

    async alerts(token: string, ip: string): Promise<TrackerAlertList> {
      const link = await trackerLink(token, ip);
      return sharedAlerts(await orGone(trackers.alerts(link.reader, link.id, link.at)));
    },

    async changes(token: string, query: v.InferOutput<typeof ChangesQuery>, ip: string): Promise<TrackerChanges> {
      const link = await trackerLink(token, ip);
      return orGone(trackers.changes(link.reader, link.id, query, link.at));
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
