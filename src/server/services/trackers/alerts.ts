import { and, count, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { trackerAlerts, trackerMissedRuns, trackerRollups, trackerRunQueries, trackerRuns, trackers } from "#db/schema.ts";
import { definitionOf, runWithTracker } from "./runs.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import { AlertSide, type TrackerAlert } from "#src/contract/trend.ts";
import { INBOX_LIMIT, type AlertsInbox } from "#src/contract/alerts-inbox.ts";
import { ALERT_RULE_VERSION, decideAlerts, DEFAULT_ALERT_RULES, seriesId, type AlertDecision, type LastAlert, type RunCounts } from "#src/core/alerts.ts";

/** Alerts kept per tracker for reading (newest first). */
const LIST_LIMIT = 200;

type AlertRow = typeof trackerAlerts.$inferSelect;

/**
 * A tracker's alerts (ADR 050, after ADR 045): decided when a run ends, from the
 * rollups of the latest runs of its series segment (src/core/alerts.ts), and kept, so that each
 * is told once.
 */
export function createAlerts({ db, clock = () => new Date() }: { db: Db; clock?: () => Date }) {
  return {
    /** Decides and keeps the alerts of a run that has just ended (its rollups written); returns the new ones. */
    async evaluate(runId: string): Promise<TrackerAlert[]> {
      const found = await runWithTracker(db, runId);
      if (!found) return [];
      const { run, tracker } = found;
      const rules = { ...DEFAULT_ALERT_RULES, window: tracker.alertWindow };
      // The runs of its segment that answered, this one the newest, as many as a baseline and its windows read: an edit of what is counted starts afresh.
      const recent = await db
        .select({ id: trackerRuns.id })
        .from(trackerRuns)
        .where(
          and(
            eq(trackerRuns.trackerId, tracker.id),
            eq(trackerRuns.segment, run.segment),
            or(eq(trackerRuns.id, runId), inArray(trackerRuns.status, ["completed", "partial"])),
            // Compared in the database: a timestamp read into JavaScript loses its microseconds, and would leave the run itself out.
            lte(trackerRuns.createdAt, db.select({ at: trackerRuns.createdAt }).from(trackerRuns).where(eq(trackerRuns.id, runId))),
          ),
        )
        .orderBy(desc(trackerRuns.createdAt))
        .limit(rules.maxBaseline + rules.window + 1);
      if (!recent.some((row) => row.id === runId)) return [];
      const runs = recent.toReversed();

      const rollups = await db
        .select()
        .from(trackerRollups)
        .where(
          inArray(
            trackerRollups.runId,
            runs.map((row) => row.id),
          ),
        );
      const counts: RunCounts[] = runs.map(({ id }) => ({
        runId: id,
        rows: rollups.filter((row) => row.runId === id).map((row) => ({ ...row, provider: row.provider as ProviderId })),
      }));
      const { brand, competitors } = definitionOf(run, tracker);
      const cited = new Set([brand, ...competitors].filter((entry) => entry.domains.length > 0).map((entry) => entry.name.toLowerCase()));
      const decisions = decideAlerts(counts, { last: await lastAlerts(tracker.id, run.segment), cited, rules });
      if (decisions.length === 0) return [];

      const inserted = await db
        .insert(trackerAlerts)
        .values(decisions.map((decision) => rowOf(decision, { trackerId: tracker.id, runId, at: run.scheduledFor })))
        .onConflictDoNothing()
        .returning();
      return views(inserted, (row) => row.afterRuns ?? [row.runId]);
    },

    /** The tracker's alerts, newest first; `asOf`: none of a run scheduled after it (an alert's `at` is its run's). */
    async list(trackerId: string, asOf?: Date): Promise<TrackerAlert[]> {
      const rows = await db
        .select()
        .from(trackerAlerts)
        .where(and(eq(trackerAlerts.trackerId, trackerId), asOf ? lte(trackerAlerts.at, asOf) : undefined))
        .orderBy(desc(trackerAlerts.at), desc(trackerAlerts.createdAt))
        .limit(LIST_LIMIT);
      if (rows.length === 0) return [];
      return views(rows, await windowOf(trackerId));
    },

    /** The header's bell: the user's newest alerts across their trackers, and how many are unread. */
    async inbox(userId: string): Promise<AlertsInbox> {
      const [rows, unreadByTracker, missedRows] = await Promise.all([
        db
          .select({ alert: trackerAlerts, trackerName: trackers.name })
          .from(trackerAlerts)
          .innerJoin(trackers, eq(trackers.id, trackerAlerts.trackerId))
          .where(eq(trackers.userId, userId))
          .orderBy(desc(trackerAlerts.at), desc(trackerAlerts.createdAt))
          .limit(INBOX_LIMIT),
        unreadPerTracker(userId),
        db
          .select({ missed: trackerMissedRuns, trackerName: trackers.name, timezone: trackers.timezone })
          .from(trackerMissedRuns)
          .innerJoin(trackers, eq(trackers.id, trackerMissedRuns.trackerId))
          .where(eq(trackers.userId, userId))
          .orderBy(desc(trackerMissedRuns.dueAt))
          .limit(INBOX_LIMIT),
      ]);
      const missed = missedRows.map(({ missed: row, trackerName, timezone }) => ({
        id: row.id,
        trackerId: row.trackerId,
        trackerName,
        timezone,
        dueAt: row.dueAt.toISOString(),
        reason: row.reason,
        read: row.readAt !== null,
      }));
      const unread = Object.values(unreadByTracker).reduce((sum, n) => sum + n, 0);
      if (rows.length === 0) return { unread, unreadByTracker, alerts: [], missed };
      const windows = new Map<string, (row: AlertRow) => string[]>();
      for (const trackerId of new Set(rows.map(({ alert }) => alert.trackerId))) windows.set(trackerId, await windowOf(trackerId));
      const alerts = rows.map(({ alert }) => alert);
      const listed = await views(alerts, (row) => windows.get(row.trackerId)!(row));
      return {
        unread,
        unreadByTracker,
        missed,
        alerts: listed.map((alert, index) => ({
          ...alert,
          trackerId: alerts[index]!.trackerId,
          trackerName: rows[index]!.trackerName,
          read: alerts[index]!.readAt !== null,
        })),
      };
    },

    /** Marks `ids` (all, without) of the user's alerts read; another user's are left alone. Returns what is still unread. */
    async markRead(userId: string, ids?: string[]): Promise<{ unread: number }> {
      const unread = unreadWhere(userId);
      const unreadMissed = unreadMissedWhere(userId);
      if (ids === undefined || ids.length > 0) {
        await db
          .update(trackerAlerts)
          .set({ readAt: clock() })
          .where(ids === undefined ? unread : and(unread, inArray(trackerAlerts.id, ids)));
        await db
          .update(trackerMissedRuns)
          .set({ readAt: clock() })
          .where(ids === undefined ? unreadMissed : and(unreadMissed, inArray(trackerMissedRuns.id, ids)));
      }
      return { unread: await unreadOf(userId) };
    },
  };

  /** The user's unread alerts: of their trackers, not read yet. */
  function unreadWhere(userId: string) {
    const mine = db.select({ id: trackers.id }).from(trackers).where(eq(trackers.userId, userId));
    return and(inArray(trackerAlerts.trackerId, mine), isNull(trackerAlerts.readAt));
  }

  /** The user's unread missed runs (./missed.ts): the bell counts them with the alerts. */
  function unreadMissedWhere(userId: string) {
    const mine = db.select({ id: trackers.id }).from(trackers).where(eq(trackers.userId, userId));
    return and(inArray(trackerMissedRuns.trackerId, mine), isNull(trackerMissedRuns.readAt));
  }

  async function unreadOf(userId: string): Promise<number> {
    const [[alerts], [missed]] = await Promise.all([
      db.select({ n: count() }).from(trackerAlerts).where(unreadWhere(userId)),
      db.select({ n: count() }).from(trackerMissedRuns).where(unreadMissedWhere(userId)),
    ]);
    return (alerts?.n ?? 0) + (missed?.n ?? 0);
  }

  /** The overview's markers: each tracker's unread alerts and missed runs, two grouped counts (the bell's total is their sum). */
  async function unreadPerTracker(userId: string): Promise<Record<string, number>> {
    const [alerts, missed] = await Promise.all([
      db.select({ trackerId: trackerAlerts.trackerId, n: count() }).from(trackerAlerts).where(unreadWhere(userId)).groupBy(trackerAlerts.trackerId),
      db
        .select({ trackerId: trackerMissedRuns.trackerId, n: count() })
        .from(trackerMissedRuns)
        .where(unreadMissedWhere(userId))
        .groupBy(trackerMissedRuns.trackerId),
    ]);
    const byTracker: Record<string, number> = {};
    for (const { trackerId, n } of [...alerts, ...missed]) byTracker[trackerId] = (byTracker[trackerId] ?? 0) + Number(n);
    return byTracker;
  }

  /** The window after each of a tracker's changes: the alert's run and the runs of its window before it. */
  async function windowOf(trackerId: string): Promise<(row: AlertRow) => string[]> {
    const tracker = await db.select({ alertWindow: trackers.alertWindow }).from(trackers).where(eq(trackers.id, trackerId)).limit(1);
    const window = tracker[0]?.alertWindow ?? 1;
    const runs = await db
      .select({ id: trackerRuns.id })
      .from(trackerRuns)
      .where(and(eq(trackerRuns.trackerId, trackerId), inArray(trackerRuns.status, ["completed", "partial"])))
      .orderBy(desc(trackerRuns.createdAt));
    const order = runs.map((row) => row.id);
    return (row: AlertRow) => {
      if (row.afterRuns) return row.afterRuns;
      const at = order.indexOf(row.runId);
      return at === -1 ? [row.runId] : order.slice(at, at + window);
    };
  }

  /**
   * Each series' latest rise or fall in the segment, and the first run of the level it told: the
   * series' baseline starts there, so a change is told once and the next one from the new level in
   * turn. An alert of ADR 045's rule told the level of its own run.
   */
  async function lastAlerts(trackerId: string, segment: number): Promise<Map<string, LastAlert>> {
    const rows = await db
      .select({
        kind: trackerAlerts.kind,
        metric: trackerAlerts.metric,
        provider: trackerAlerts.provider,
        subject: trackerAlerts.subject,
        query: trackerAlerts.query,
        runId: trackerAlerts.runId,
        afterRuns: trackerAlerts.afterRuns,
      })
      .from(trackerAlerts)
      .innerJoin(trackerRuns, eq(trackerRuns.id, trackerAlerts.runId))
      .where(and(eq(trackerAlerts.trackerId, trackerId), eq(trackerRuns.segment, segment), inArray(trackerAlerts.kind, ["rose", "fell"])))
      .orderBy(desc(trackerAlerts.at), desc(trackerAlerts.createdAt));
    const last = new Map<string, LastAlert>();
    for (const row of rows) {
      const id = seriesId({ metric: row.metric as "mention" | "citation", provider: row.provider as ProviderId, subject: row.subject, query: row.query });
      if (!last.has(id) && (row.kind === "rose" || row.kind === "fell")) last.set(id, { kind: row.kind, since: row.afterRuns?.[0] ?? row.runId });
    }
    return last;
  }

  /** Alerts as the API gives them, with the saved searches of the window after the change. */
  async function views(rows: AlertRow[], windowOf: (row: AlertRow) => string[]): Promise<TrackerAlert[]> {
    const afterRuns = [...new Set(rows.flatMap(windowOf))];
    const searches = afterRuns.length
      ? await db
          .select({ runId: trackerRunQueries.runId, query: trackerRunQueries.query, searchId: trackerRunQueries.searchId })
          .from(trackerRunQueries)
          .where(inArray(trackerRunQueries.runId, afterRuns))
      : [];
    return rows.map((row): TrackerAlert => {
      const window = new Set(windowOf(row));
      const searchIds = searches.flatMap((item) =>
        item.searchId && window.has(item.runId) && (row.query === "" || item.query === row.query) ? [item.searchId] : [],
      );
      const base = { id: row.id, kind: row.kind, provider: row.provider as ProviderId, runId: row.runId, at: row.at.toISOString(), searchIds };
      if (row.kind === "model-changed") {
        const versions = (side: unknown) => (v.is(v.object({ modelVersion: v.string() }), side) ? side.modelVersion : "");
        return { ...base, rule: row.rule, modelVersions: { before: versions(row.before), after: versions(row.after) } };
      }
      return {
        ...base,
        metric: row.metric as "mention" | "citation",
        subject: row.subject,
        ...(row.query ? { query: row.query } : {}),
        before: v.parse(AlertSide, row.before),
        after: v.parse(AlertSide, row.after),
        ...(row.p === null ? {} : { p: row.p }),
        ...(row.q === null ? {} : { q: row.q }),
        rule: row.rule,
        ...(v.is(AlertDispersion, row.dispersion) ? { dispersion: row.dispersion } : {}),
        ...(row.baselineRuns ? { baselineRuns: row.baselineRuns } : {}),
      };
    });
  }
}

export type Alerts = ReturnType<typeof createAlerts>;

function rowOf(decision: AlertDecision, where: { trackerId: string; runId: string; at: Date }): typeof trackerAlerts.$inferInsert {
  if (decision.kind === "model-changed")
    return {
      ...where,
      kind: decision.kind,
      metric: "",
      provider: decision.provider,
      subject: "",
      query: "",
      before: { modelVersion: decision.before },
      after: { modelVersion: decision.after },
      rule: ALERT_RULE_VERSION,
    };
  const { kind, metric, provider, subject, query, before, after, p, q, dispersion, baselineRuns, afterRuns } = decision;
  return { ...where, kind, metric, provider, subject, query, before, after, p, q, rule: ALERT_RULE_VERSION, dispersion, baselineRuns, afterRuns };
}

const AlertDispersion = v.object({ phi: v.number(), df: v.number() });
