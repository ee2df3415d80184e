import { and, desc, eq, gte, ilike, inArray, isNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { searches, trackerRunQueries, trackerRuns, trackers, workspaceMembers, type UsageCharge } from "#db/schema.ts";
import * as v from "valibot";
import type { ProviderId } from "#src/contract/providers.ts";
import { historyRange, type SavedSearchList } from "#src/contract/history.ts";
import type { SearchOptions } from "#src/contract/search-request.ts";
import { StoppedStatus, type SavedSearchResult, type SearchOrigin, type SearchResult } from "#src/contract/search-result.ts";
import { StoredSearchResult } from "#src/contract/search-wire.ts";
import { withListedTotals } from "#src/core/aggregate.ts";
import { DomainError } from "../errors.ts";
import type { DomainEvents } from "../events.ts";
import type { Owner } from "../owner.ts";
import { onLiveInstance } from "./instances.ts";
import { stoppedResult } from "./stopped.ts";

/** What the history can be narrowed to (GET /api/user/searches); each is optional. */
export type HistoryFilters = { query?: string; q?: string; provider?: ProviderId; iterations?: number; from?: string; to?: string; trackers?: "show" | "hide" };

/** What a new row records besides the search itself: who runs it, in which slot, charged what, for which tracker's run. */
export type RunRecordOptions = { instanceId: string; slot: string; charge: UsageCharge | null; tracker?: { trackerId: string; runId: string } };

/** Whether the row's result holds a provider's answer: what the caller saw (a checkpoint holds every card sent). */
export const ANSWERED = sql<boolean>`coalesce(jsonb_path_exists(${searches.result}, '$.models.* ? (@.status == "ok")'), false)`;

/**
 * The history shows finished searches, the ones a dead server cut off (with what finished), and
 * the cancelled ones that had an answer (ADR 030): one cancelled before any answer kept nothing,
 * and was given back.
 */
const SHOWN = or(inArray(searches.status, ["completed", "interrupted"]), and(eq(searches.status, "cancelled"), ANSWERED));

/**
 * Searches are rows owned by a user, or by an anonymous visitor until they sign in. While one runs
 * its row is written only by the instance running it (`instance_id`), and only while `running`:
 * the sweep of a dead instance's runs and the run's own end cannot overwrite each other.
 */
export function createSearchStore(db: Db) {
  const ownRun = (id: string, instanceId: string) => and(eq(searches.id, id), eq(searches.instanceId, instanceId));

  /**
   * A saved result's totals and overlaps by today's rule for what a result lists (ADR 028). A row
   * whose totals count only the shown answers (an older rule) has its history counts corrected as well.
   */
  const restate = async (id: string, saved: Totals, result: SearchResult): Promise<SearchResult> => {
    const now = withListedTotals(result);
    const totals = { totalProducts: now.totalProducts, totalCompanies: now.totalCompanies, totalLinks: now.totalLinks };
    if (Object.entries(totals).some(([key, value]) => saved[key as keyof Totals] !== value)) await db.update(searches).set(totals).where(eq(searches.id, id));
    return now;
  };

  const store = {
    /** A row in `running` state, so a crash mid-search leaves a trace that the sweep marks interrupted. */
    async begin(
      owner: Owner,
      query: string,
      iterations: number,
      options: SearchOptions,
      { instanceId, slot, charge, tracker }: RunRecordOptions,
    ): Promise<string> {
      const [row] = await db
        .insert(searches)
        .values({
          userId: owner.userId ?? null,
          anonymousId: owner.userId ? null : owner.anonymousId,
          query,
          iterations,
          iterationCount: iterations,
          options,
          instanceId,
          slot,
          charge,
          trackerId: tracker?.trackerId ?? null,
          runId: tracker?.runId ?? null,
        })
        .returning({ id: searches.id });
      if (!row) throw new Error("could not record the search");
      return row.id;
    },

    /**
     * A tracker's search taken over by the instance retrying its job (ADR 043): running again, as
     * this instance's, whether its old instance's row was still running or already marked interrupted.
     */
    async claim(id: string, instanceId: string): Promise<void> {
      await db
        .update(searches)
        .set({ instanceId, status: "running", error: null, completedAt: null })
        .where(and(eq(searches.id, id), inArray(searches.status, ["running", "interrupted"])));
    },

    /** What has finished so far (./checkpoint.ts), while the row is still this instance's running search. */
    async checkpoint(id: string, instanceId: string, partial: SearchResult): Promise<void> {
      await db
        .update(searches)
        .set({ result: partial, ...summaryOf(partial) })
        .where(and(ownRun(id, instanceId), eq(searches.status, "running")));
    },

    /**
     * The finished result and its summary columns, in one statement. A finished result also
     * replaces an `interrupted` mark: the sweep took this instance for dead (its lease lapsed while
     * it was cut off from the database), and the real result beats that guess.
     */
    async complete(id: string, instanceId: string, result: SearchResult): Promise<void> {
      await db
        .update(searches)
        .set({ status: "completed", result, ...summaryOf(result), error: null, charge: null, completedAt: new Date() })
        .where(and(ownRun(id, instanceId), inArray(searches.status, ["running", "interrupted"])));
    },

    /**
     * Ends a run that failed, was cancelled, or was interrupted by its server stopping (keeping what
     * had finished, `partial`); false when the sweep had already marked it interrupted (and settled its charge).
     */
    async fail(id: string, instanceId: string, status: "failed" | "cancelled" | "interrupted", error: string, partial?: SearchResult): Promise<boolean> {
      const rows = await db
        .update(searches)
        .set({ status, error, charge: null, completedAt: new Date(), ...(partial ? { result: partial, ...summaryOf(partial) } : {}) })
        .where(and(ownRun(id, instanceId), eq(searches.status, "running")))
        .returning({ id: searches.id });
      return rows.length > 0;
    },

    /**
     * Ends the trackers' searches still running for a run that no longer exists (its tracker was
     * deleted mid-run), whichever instance had them: nothing will finish them. Kept as cancelled
     * with what they had (shown when they had an answer, ADR 030).
     */
    async endOrphanedTrackerSearches(error: string): Promise<void> {
      const orphaned = and(sql`${searches.runId} is not null`, sql`not exists (select 1 from ${trackerRuns} where ${trackerRuns.id} = ${searches.runId})`);
      await db
        .update(searches)
        .set({ status: "cancelled", error, charge: null, completedAt: new Date() })
        .where(and(eq(searches.status, "running"), orphaned));
      // Ended, they stay in the history as their owner's own, like the searches kept when the tracker went.
      await db
        .update(searches)
        .set({ trackerId: null, runId: null })
        .where(and(ne(searches.status, "running"), orphaned));
    },

    /** An ended search of a deleted tracker's run: no longer a run's, so nothing points at the gone run. */
    async letGoOfRun(id: string): Promise<void> {
      await db
        .update(searches)
        .set({ trackerId: null, runId: null })
        .where(and(eq(searches.id, id), ne(searches.status, "running")));
    },

    /**
     * A deleted tracker's ended searches: kept in the history as its owner's own searches (no
     * longer a run's, so nothing points at the gone tracker), or deleted. One still running is
     * left for the sweep to end and let go (endOrphanedTrackerSearches): its run writes the row.
     */
    async releaseTrackerSearches(trackerId: string, { keep }: { keep: boolean }): Promise<void> {
      const ended = and(eq(searches.trackerId, trackerId), ne(searches.status, "running"));
      if (keep) await db.update(searches).set({ trackerId: null, runId: null }).where(ended);
      else await db.delete(searches).where(ended);
    },

    /** How many saved searches of the history each of these trackers' runs made (a tracker with none is absent). */
    async countByTracker(trackerIds: string[]): Promise<Map<string, number>> {
      if (trackerIds.length === 0) return new Map();
      const rows = await db
        .select({ trackerId: searches.trackerId, count: sql<number>`count(*)::int` })
        .from(searches)
        .where(and(inArray(searches.trackerId, trackerIds), SHOWN))
        .groupBy(searches.trackerId);
      return new Map(rows.flatMap(({ trackerId, count }) => (trackerId ? [[trackerId, Number(count)] as const] : [])));
    },

    /** Whether another live instance runs a search in `slot` (what a cancel sent there would stop). */
    async runningElsewhere(slot: string, instanceId: string, leaseMs: number): Promise<boolean> {
      const [row] = await db
        .select({ id: searches.id })
        .from(searches)
        .where(and(eq(searches.slot, slot), eq(searches.status, "running"), ne(searches.instanceId, instanceId), onLiveInstance(leaseMs)))
        .limit(1);
      return row !== undefined;
    },

    /**
     * The owner's search as the history shows it (SHOWN), or null: someone else's id reads exactly
     * like a missing one. Rows written by older versions are upgraded as they are read (StoredSearchResult).
     */
    async get(owner: Owner, id: string): Promise<SavedSearchResult | null> {
      if (!UUID.test(id)) return null;
      const [row] = await db
        .select({
          status: searches.status,
          result: searches.result,
          query: searches.query,
          iterations: searches.iterations,
          options: searches.options,
          createdAt: searches.createdAt,
          ...SUMMARY,
        })
        .from(searches)
        .where(and(eq(searches.id, id), SHOWN, ownedBy(owner)))
        .limit(1);
      if (!row) return null;
      const createdAt = row.createdAt.toISOString();
      if (isStopped(row.status)) return { ...(await restate(id, row, stoppedResult(row, row.status))), id, createdAt, status: row.status };
      if (!row.result) return null;
      return { ...(await restate(id, row, v.parse(StoredSearchResult, row.result))), id, createdAt };
    },

    /**
     * Whom a member of a tracker's workspace reads a search as, when that tracker's run asked it:
     * its maker (a team reads its runs' answers, whoever set the tracker up); null otherwise.
     */
    async askedForTeamOf(userId: string, id: string): Promise<Owner | null> {
      if (!UUID.test(id)) return null;
      const [row] = await db
        .select({ userId: searches.userId, anonymousId: searches.anonymousId })
        .from(trackerRunQueries)
        .innerJoin(trackerRuns, eq(trackerRuns.id, trackerRunQueries.runId))
        .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
        .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, trackers.workspaceId), eq(workspaceMembers.userId, userId)))
        .innerJoin(searches, eq(searches.id, trackerRunQueries.searchId))
        .where(eq(trackerRunQueries.searchId, id))
        .limit(1);
      return row?.userId ? { userId: row.userId, anonymousId: row.anonymousId ?? "" } : null;
    },

    /** The tracker and run that asked the owner's saved search (by the run's link to it), or null. */
    async origin(owner: Owner, id: string): Promise<SearchOrigin | null> {
      if (!UUID.test(id)) return null;
      const [row] = await db
        .select({ id: trackers.id, name: trackers.name, runId: trackerRuns.id, scheduledFor: trackerRuns.scheduledFor })
        .from(trackerRunQueries)
        .innerJoin(trackerRuns, eq(trackerRuns.id, trackerRunQueries.runId))
        .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
        .innerJoin(searches, eq(searches.id, trackerRunQueries.searchId))
        .where(and(eq(trackerRunQueries.searchId, id), ownedBy(owner)))
        .limit(1);
      return row ? { ...row, scheduledFor: row.scheduledFor.toISOString() } : null;
    },

    /**
     * A page of the history, newest first, summary columns only; `before` is the previous page's
     * last timestamp, and the filters narrow every page alike, so paging goes on through the
     * filtered list. A search of the page saved before costs were kept, with one iteration, comes
     * with its answers (`savedModels`) for its cost to be worked out from their usage (ADR 041):
     * read for the page's rows only, by id, so the page never reads the results of the rest.
     */
    async list(
      owner: Owner,
      { limit = 20, before, ...filters }: { limit?: number; before?: string } & HistoryFilters = {},
    ): Promise<{ searches: Array<SavedSearchList["searches"][number] & { savedModels?: unknown }>; nextCursor?: string }> {
      const rows = await db
        .select({
          id: searches.id,
          query: searches.query,
          title: searches.title,
          createdAt: searches.createdAt,
          totalProducts: searches.totalProducts,
          totalCompanies: searches.totalCompanies,
          totalLinks: searches.totalLinks,
          iterationCount: searches.iterationCount,
          status: searches.status,
          simulated: searches.simulated,
          costUsd: searches.costUsd,
          trackerId: trackers.id,
          trackerName: trackers.name,
        })
        .from(searches)
        // The tracker's name, by its primary key, for the page's rows only (a tracker's searches are marked in the history).
        .leftJoin(trackers, eq(trackers.id, searches.trackerId))
        .where(and(ownedBy(owner), SHOWN, before ? lt(searches.createdAt, new Date(before)) : undefined, ...historyFilter(filters)))
        .orderBy(desc(searches.createdAt))
        .limit(limit + 1);
      const shown = rows.slice(0, limit);
      const uncosted = shown.filter((row) => row.costUsd === null && row.iterationCount <= 1).map((row) => row.id);
      const saved =
        uncosted.length === 0
          ? new Map<string, unknown>()
          : new Map(
              (
                await db
                  .select({ id: searches.id, models: sql<unknown>`${searches.result}->'models'` })
                  .from(searches)
                  .where(inArray(searches.id, uncosted))
              ).map((row) => [row.id, row.models]),
            );
      const page = shown.map(({ createdAt, title, status, trackerId, trackerName, ...row }) => {
        const savedModels = saved.get(row.id);
        return {
          ...row,
          ...(trackerId && trackerName ? { tracker: { id: trackerId, name: trackerName } } : {}),
          ...(savedModels ? { savedModels } : {}),
          ...(title ? { title } : {}),
          status: isStopped(status) ? status : ("completed" as const),
          timestamp: createdAt.toISOString(),
        };
      });
      return { searches: page, nextCursor: rows.length > limit ? page.at(-1)?.timestamp : undefined };
    },

    /** Names a saved search (null or "" gives its query back); someone else's, or a missing one, is NOT_FOUND. */
    async rename(owner: Owner, id: string, title: string | null): Promise<{ id: string; title: string | null }> {
      const [row] = UUID.test(id)
        ? await db
            .update(searches)
            .set({ title: title || null })
            .where(and(eq(searches.id, id), SHOWN, ownedBy(owner)))
            .returning({ id: searches.id, title: searches.title })
        : [];
      if (!row) throw new DomainError("NOT_FOUND", "Search not found");
      return row;
    },

    /**
     * Deletes a saved search of the owner's. One still running cannot be (its run writes the row):
     * CONFLICT. The free search it took stays taken: deleting is not a refund.
     */
    async remove(owner: Owner, id: string): Promise<void> {
      if (!UUID.test(id)) throw new DomainError("NOT_FOUND", "Search not found");
      const deleted = await db
        .delete(searches)
        .where(and(eq(searches.id, id), ne(searches.status, "running"), ownedBy(owner)))
        .returning({ id: searches.id });
      if (deleted.length > 0) return;
      const [running] = await db
        .select({ id: searches.id })
        .from(searches)
        .where(and(eq(searches.id, id), ownedBy(owner)))
        .limit(1);
      if (running) throw new DomainError("CONFLICT", "This search is still running: cancel it or wait for it to finish, then delete it");
      throw new DomainError("NOT_FOUND", "Search not found");
    },

    /** The owner's latest completed search of a query (any letter case), or null. */
    async latestFor(owner: Owner, query: string): Promise<SavedSearchResult | null> {
      const [row] = await db
        .select({ id: searches.id })
        .from(searches)
        .where(and(ownedBy(owner), eq(searches.status, "completed"), eq(sql`lower(${searches.query})`, query.trim().toLowerCase())))
        .orderBy(desc(searches.createdAt))
        .limit(1);
      return row ? store.get(owner, row.id) : null;
    },

    /** Subscribes to sign-in: the searches this browser made anonymously join the account's history. */
    async adopt({ anonymousId, userId }: DomainEvents["signedIn"]): Promise<void> {
      await db
        .update(searches)
        .set({ userId })
        .where(and(isNull(searches.userId), eq(searches.anonymousId, anonymousId)));
    },
  };
  return store;
}

export type SearchStore = ReturnType<typeof createSearchStore>;

/** The history's counts of a saved search. */
const SUMMARY = { totalProducts: searches.totalProducts, totalCompanies: searches.totalCompanies, totalLinks: searches.totalLinks };
type Totals = { totalProducts: number; totalCompanies: number; totalLinks: number };

function isStopped(status: string): status is StoppedStatus {
  return v.is(StoppedStatus, status);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The summary columns the history lists. */
function summaryOf(result: SearchResult) {
  return {
    totalProducts: result.totalProducts,
    totalCompanies: result.totalCompanies,
    totalLinks: result.totalLinks,
    iterationCount: result.iterationCount,
    simulated: Object.values(result.models).some((model) => model.simulated),
    costUsd: result.cost?.total.usd ?? null,
  };
}

/** The history's filters as conditions (spec §5: text matches in any letter case). */
function historyFilter({ query, q, provider, iterations, from, to, trackers: tracked }: HistoryFilters): Array<SQL | undefined> {
  const range = historyRange({ from, to });
  const contains = q ? `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
  return [
    query ? eq(sql`lower(${searches.query})`, query.toLowerCase()) : undefined,
    contains ? or(ilike(searches.query, contains), ilike(searches.title, contains)) : undefined,
    // The provider answered: a version 2 result keeps it under models, a version 1 one at the top.
    provider ? sql`coalesce(${searches.result}->'models'->${provider}::text->>'status', ${searches.result}->${provider}::text->>'status') = 'ok'` : undefined,
    iterations ? eq(searches.iterationCount, iterations) : undefined,
    range.from ? gte(searches.createdAt, range.from) : undefined,
    range.until ? lt(searches.createdAt, range.until) : undefined,
    tracked === "hide" ? isNull(searches.runId) : undefined,
  ];
}

function ownedBy(owner: Owner): SQL | undefined {
  return owner.userId ? eq(searches.userId, owner.userId) : and(isNull(searches.userId), eq(searches.anonymousId, owner.anonymousId));
}
