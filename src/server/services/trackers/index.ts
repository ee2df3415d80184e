import { and, desc, eq, inArray, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { rateCounters, trackers, workspaceMembers } from "#db/schema.ts";
import type { WorkspaceRole } from "#src/contract/workspaces.ts";
import { historyRange } from "#src/contract/history.ts";
import { BrandEntry } from "#src/contract/lens.ts";
import { Location } from "#src/contract/location.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type {
  CreateTracker,
  Detectability,
  RunDefinition,
  Tracker,
  TrackerRun,
  TrackerRunList,
  UpdateTracker,
  WebhookTestResult,
} from "#src/contract/trackers.ts";
import { questionsTagged, untaggableQuestion } from "#src/contract/trackers.ts";
import type { TrackerShape } from "#src/core/detectability.ts";
import { createThrottle, tryAgainIn } from "../auth/throttle.ts";
import { DomainError } from "../errors.ts";
import type { Providers } from "../search/run.ts";
import type { SearchStore } from "../search/store.ts";
import type { TrackerEngine } from "./engine.ts";
import type { Alerts } from "./alerts.ts";
import type { Changes } from "./changes.ts";
import type { DetectabilityService } from "./detectability.ts";
import type { TrackerEmails } from "./emails.ts";
import type { Rollups } from "./rollups.ts";
import { checkWebhookUrl, type WebhookPolicy } from "./webhook-url.ts";
import { newWebhookSecret, type Webhooks } from "./webhooks.ts";
import type { ChangesQuery, TrackerChanges } from "#src/contract/changes.ts";
import type { SourcesQuery, SourcesReport, TrackerAlertList, Trend, TrendQuery } from "#src/contract/trend.ts";
import type { SummaryQuery, TrackerSummary } from "#src/contract/summary.ts";
import { summarySubject, trackerSummary } from "./summary.ts";
import { createRunViews, currentDefinition } from "./runs.ts";
import { checkSchedule, describeSchedule, runsPerMonth } from "./schedule.ts";
import { SCHEDULE_PAUSE } from "./schedules-check.ts";
import type { MissedRuns } from "./missed.ts";
import { stallOf } from "./overdue.ts";
import { checkRole, ensurePersonal, proWorkspaces, requireRole, workspacePro, type IsPro } from "../workspaces/access.ts";
import { PRO_REQUIRED } from "#src/contract/constants.ts";
import type { Actor, Audit } from "../workspaces/audit.ts";
import { auditEdit } from "./audited.ts";

export type TrackerRow = typeof trackers.$inferSelect;

export const TRACKER_NOT_FOUND = "Tracker not found";

/** What one account may have and do (ADR 052): MAX_TRACKERS_PER_ACCOUNT, MAX_TRACKER_RUN_ANSWERS, TRACKER_MANUAL_RUNS_PER_DAY. */
export type TrackerCaps = { maxTrackers: number; maxRunAnswers: number; manualRunsPerDay: number };
export const DEFAULT_TRACKER_CAPS: TrackerCaps = { maxTrackers: 20, maxRunAnswers: 1500, manualRunsPerDay: 30 };

/**
 * Send test posts at once from this server to an address its owner chose: a few a minute per
 * account is plenty to try a webhook, and too few to use the server to hammer an address. Counted
 * in memory (auth/throttle.ts): N instances allow N times as many, which is still a handful.
 */
export const WEBHOOK_TESTS_PER_MINUTE = 10;

/** Creating a tracker takes this advisory lock (with the account's hash) while it counts the account's trackers. */
const TRACKER_COUNT_LOCK_KEY = 727_411_903;

/**
 * How the reads below are seen: as of now (the owner, a living share link), or with the clock
 * stopped at `asOf` (a frozen link, ADR 048): runs scheduled after it are not there, and neither
 * is anything they wrote (trend and sources points, alerts, changes).
 */
export type AsOf = { asOf?: Date };

/**
 * Who reads a tracker: a user (a member of its workspace), or a share link, which reads as its
 * workspace's rather than its maker's, so it keeps working when its maker leaves (ADR 071).
 */
export type Reader = string | { link: { workspaceId: string } };

export type TrackersDeps = {
  db: Db;
  providers: Providers;
  /** What one run of the tracker costs at today's prices (null: unknown). */
  estimate: (row: TrackerRow) => { usd: number | null; simulated: boolean };
  engine: TrackerEngine;
  /** The saved searches its runs made: counted, and kept or deleted with it. */
  searches: Pick<SearchStore, "countByTracker" | "releaseTrackerSearches">;
  rollups: Pick<Rollups, "trend" | "sources" | "read">;
  /** WEBHOOK_ALLOW_PRIVATE, and https only in production. */
  webhookPolicy: WebhookPolicy;
  /** Where Send test posts. */
  webhooks: Pick<Webhooks, "test">;
  alerts: Pick<Alerts, "list">;
  changes: Pick<Changes, "latest">;
  detectability: DetectabilityService;
  emails: Pick<TrackerEmails, "ensureDigest">;
  /** The look for due runs that did not happen (./missed.ts), put in place once a tracker is saved. */
  missed: Pick<MissedRuns, "schedule">;
  /** TRACKER_MIN_INTERVAL_MINUTES. */
  minIntervalMinutes: number;
  /** The caps on trackers, a run's size and Run now (ADR 052); the defaults when not given. */
  caps?: TrackerCaps;
  /** Where creating, editing, running and deleting are written, in the tracker's workspace's log (ADR 071). */
  audit: Pick<Audit, "record">;
  /** Billing's: a tracker is used by a Pro account, or in a workspace with Pro (ADR 071). */
  isPro: IsPro;
  clock?: () => Date;
};

/**
 * Trackers: a Pro user's questions asked on a schedule. This is their definition and
 * what their runs read as; the runs themselves are the engine's (./engine.ts). A `userId` given
 * here is Pro, or a member of a workspace with Pro (the routes declare it). A tracker belongs to a
 * workspace (ADR 071): its members read it (viewer), editors change, run and delete it, provided
 * they are Pro or the workspace has Pro (its owners'); to anyone else it reads exactly like a missing one.
 */
export function createTrackers({
  db,
  providers,
  estimate,
  engine,
  searches,
  rollups,
  alerts,
  changes,
  detectability,
  emails,
  missed,
  webhookPolicy,
  webhooks,
  minIntervalMinutes,
  caps = DEFAULT_TRACKER_CAPS,
  audit,
  isPro,
  clock = () => new Date(),
}: TrackersDeps) {
  const runViews = createRunViews(db);
  const webhookTests = createThrottle({ limit: WEBHOOK_TESTS_PER_MINUTE, windowMs: 60_000, clock });
  let missedCheckScheduled = false;
  /** The missed-run check's schedule, once per process (the same key replaces it). */
  async function ensureMissedCheck(): Promise<void> {
    if (missedCheckScheduled) return;
    await missed.schedule();
    missedCheckScheduled = true;
  }
  const connected = () => providerIds.filter((id) => providers[id] !== null);

  /** The tracker, if the user is a member of its workspace with `needed` or above: NOT_FOUND for a non-member, ROLE_REQUIRED below it. */
  async function reach(userId: string, id: string, needed: WorkspaceRole): Promise<TrackerRow> {
    const [found] = UUID.test(id)
      ? await db
          .select({ row: trackers, role: workspaceMembers.role })
          .from(trackers)
          .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, trackers.workspaceId), eq(workspaceMembers.userId, userId)))
          .where(eq(trackers.id, id))
          .limit(1)
      : [];
    if (!found) throw new DomainError("NOT_FOUND", TRACKER_NOT_FOUND);
    checkRole(found.role, needed);
    await requirePro(userId, found.row.workspaceId);
    return found.row;
  }

  /** PRO_REQUIRED unless the user is Pro or the workspace has Pro through an owner (a free viewer of a team's). */
  async function requirePro(userId: string, workspaceId: string): Promise<void> {
    if (!(await isPro(userId)) && !(await workspacePro(db, isPro, workspaceId))) throw new DomainError("PRO_REQUIRED", PRO_REQUIRED);
  }
  /** A read: a member's (viewer or above), or a share link's, which reads its tracker while both are in the link's workspace. */
  async function own(reader: Reader, id: string): Promise<TrackerRow> {
    if (typeof reader === "string") return reach(reader, id, "viewer");
    const [row] = UUID.test(id)
      ? await db
          .select()
          .from(trackers)
          .where(and(eq(trackers.id, id), eq(trackers.workspaceId, reader.link.workspaceId)))
          .limit(1)
      : [];
    if (!row) throw new DomainError("NOT_FOUND", TRACKER_NOT_FOUND);
    return row;
  }

  /** The providers asked: the given ones, each connected here; every connected one by default. */
  function chooseProviders(given: ProviderId[] | undefined): ProviderId[] {
    if (!given) {
      const all = connected();
      if (all.length === 0) throw new DomainError("INVALID_INPUT", "providers: no provider is connected here to ask");
      return all;
    }
    const off = given.filter((id) => providers[id] === null);
    if (off.length) throw new DomainError("INVALID_INPUT", `providers: ${off.join(", ")} ${off.length === 1 ? "is" : "are"} not connected here`);
    return given;
  }

  /** Refuses (INVALID_INPUT) a tracker whose run would ask for more answers than MAX_TRACKER_RUN_ANSWERS. */
  function checkRunSize(queries: number, asked: number, iterations: number): void {
    const answers = queries * asked * iterations;
    if (answers > caps.maxRunAnswers)
      throw new DomainError(
        "INVALID_INPUT",
        `A run of this tracker would ask for ${answers} answers (${queries} questions × ${asked} providers × ${iterations} iterations), more than the ${caps.maxRunAnswers} a run may ask for here (MAX_TRACKER_RUN_ANSWERS): ask fewer questions, providers or iterations`,
      );
  }

  /**
   * Counts a Run now against TRACKER_MANUAL_RUNS_PER_DAY (per UTC day, in the shared counters so that
   * every instance and a deleted tracker count): the account's, across its personal workspace's
   * trackers as before workspaces; another workspace's own, across its trackers. RATE_LIMITED past it.
   */
  async function takeManualRun(userId: string, row: TrackerRow): Promise<() => Promise<void>> {
    const now = clock();
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const key = (await isPersonal(userId, row.workspaceId)) ? `tracker-run-now:${userId}` : `tracker-run-now:workspace:${row.workspaceId}`;
    const [counted] = await db
      .insert(rateCounters)
      .values({ key, windowStart: day, count: 1 })
      .onConflictDoUpdate({
        target: [rateCounters.key, rateCounters.windowStart],
        set: { count: sql`${rateCounters.count} + 1` },
        setWhere: sql`${rateCounters.count} < ${caps.manualRunsPerDay}`,
      })
      .returning({ count: rateCounters.count });
    if (!counted || counted.count > caps.manualRunsPerDay) {
      const retryAfterS = Math.max(1, Math.ceil((day.getTime() + 86_400_000 - now.getTime()) / 1000));
      throw new DomainError(
        "RATE_LIMITED",
        `Your trackers have been run by hand ${caps.manualRunsPerDay} times today, the most an account may here (TRACKER_MANUAL_RUNS_PER_DAY): their schedules go on, and Run now works again tomorrow (UTC)`,
        { retryAfterS },
      );
    }
    // A Run now that did not queue a run (one already queued or running) is given back.
    return async () => {
      await db
        .update(rateCounters)
        .set({ count: sql`${rateCounters.count} - 1` })
        .where(and(eq(rateCounters.key, key), eq(rateCounters.windowStart, day), sql`${rateCounters.count} > 0`));
    };
  }

  async function isPersonal(userId: string, workspaceId: string): Promise<boolean> {
    return (await ensurePersonal(db, userId)) === workspaceId;
  }

  /** A tracker's shape, for what change it can tell (ADR 050). */
  function shapeOf(row: TrackerRow): TrackerShape {
    return { questions: row.queries.length, iterations: row.iterations, providers: row.providers.length, competitors: competitorsOf(row) };
  }

  /**
   * `seeing`: with what change it can tell — "wait" works it out (the answer to saving it), "known"
   * gives it when already worked out (a page's read never waits for a simulation).
   */
  async function view(
    row: TrackerRow,
    lastRun?: TrackerRun | null,
    { seeing, savedSearches }: { seeing?: "wait" | "known"; savedSearches?: number } = {},
  ): Promise<Tracker> {
    const schedule = { cron: row.cron, timezone: row.timezone };
    const { usd: perRunUsd, simulated } = estimate(row);
    const paused = row.paused || row.pausedReason !== null;
    const now = clock();
    // The run the dispatcher will make: what the table holds is the schedule (ADR 055).
    const next = paused ? null : row.nextRunAt;
    const last = lastRun === undefined ? await latestRun(row.id) : lastRun;
    const longestRunMs = engine.longestRunMs({ queries: last?.queries.map((item) => item.query) ?? row.queries, iterations: row.iterations });
    const stall = stallOf({ paused, nextRunAt: next }, last, { now, longestRunMs });
    const location = v.safeParse(Location, row.location);
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      name: row.name,
      queries: row.queries,
      questionTags: row.questionTags,
      brand: v.parse(BrandEntry, row.brand),
      competitors: v.parse(v.array(BrandEntry), row.competitors),
      providers: row.providers as ProviderId[],
      iterations: row.iterations,
      ...(location.success ? { location: location.output } : {}),
      schedule,
      scheduleText: describeSchedule(schedule),
      ...(row.monthlyBudgetUsd === null ? {} : { monthlyBudgetUsd: row.monthlyBudgetUsd }),
      alertWindow: row.alertWindow,
      ...(row.webhookUrl && row.webhookFormat ? { webhook: { url: row.webhookUrl, format: row.webhookFormat } } : {}),
      paused,
      ...(row.pausedReason ? { pausedReason: row.pausedReason } : {}),
      segment: row.segment,
      nextRunAt: next?.toISOString() ?? null,
      lastRun: last,
      stall,
      estimate: { perRunUsd, perMonthUsd: perRunUsd === null ? null : perRunUsd * runsPerMonth(schedule, clock()), simulated },
      ...withDetectability(seeing === "wait" ? await detectability.of(shapeOf(row)) : seeing === "known" ? detectability.known(shapeOf(row)) : undefined),
      savedSearches: savedSearches ?? (await searches.countByTracker([row.id])).get(row.id) ?? 0,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  function checkResumed(schedule: { cron: string; timezone: string }): void {
    try {
      checkSchedule(schedule, minIntervalMinutes);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      throw new DomainError("INVALID_INPUT", `To resume this tracker, give it a schedule allowed here: ${error.message}`);
    }
  }

  async function latestRun(trackerId: string): Promise<TrackerRun | null> {
    const [run] = await runViews.page(trackerId, { limit: 1 });
    return run ?? null;
  }

  return {
    /** One workspace's trackers (a viewer's read), or without `workspaceId` those of every workspace the user is a member of. */
    async list(userId: string, { workspaceId }: { workspaceId?: string } = {}): Promise<{ trackers: Tracker[] }> {
      if (workspaceId) {
        await requireRole(db, userId, workspaceId, "viewer");
        await requirePro(userId, workspaceId);
      }
      // A Pro user reads all their workspaces'; a free one those with Pro.
      const theirs = (await isPro(userId))
        ? db.select({ id: workspaceMembers.workspaceId }).from(workspaceMembers).where(eq(workspaceMembers.userId, userId))
        : await proWorkspaces(db, isPro, userId);
      const rows = await db
        .select()
        .from(trackers)
        .where(workspaceId ? eq(trackers.workspaceId, workspaceId) : inArray(trackers.workspaceId, theirs))
        .orderBy(desc(trackers.createdAt));
      // One count for the whole list, not one per tracker.
      const counts = await searches.countByTracker(rows.map((row) => row.id));
      return { trackers: await Promise.all(rows.map((row) => view(row, undefined, { savedSearches: counts.get(row.id) ?? 0 }))) };
    },

    get: async (reader: Reader, id: string): Promise<Tracker> => view(await own(reader, id), undefined, { seeing: "known" }),

    /** What change a tracker of this shape could tell, before it is saved (ADR 050); by default on every provider connected here, without competitors. */
    estimate: (shape: Pick<TrackerShape, "questions" | "iterations"> & Partial<TrackerShape>): Promise<Detectability> =>
      detectability.of({
        questions: shape.questions,
        iterations: shape.iterations,
        providers: shape.providers ?? Math.max(1, connected().length),
        competitors: shape.competitors ?? 0,
      }),

    async create(actor: Actor, input: CreateTracker): Promise<Tracker> {
      const { userId } = actor;
      const personal = await ensurePersonal(db, userId);
      const workspaceId = input.workspaceId ?? personal;
      if (workspaceId !== personal) await requireRole(db, userId, workspaceId, "editor");
      await requirePro(userId, workspaceId);
      const schedule = checkSchedule(input.schedule, minIntervalMinutes);
      const asked = chooseProviders(input.providers);
      checkRunSize(input.queries.length, asked.length, input.iterations);
      if (input.webhook) await checkWebhookUrl(input.webhook.url, webhookPolicy);
      const webhook = input.webhook ? { webhookUrl: input.webhook.url, webhookFormat: input.webhook.format, webhookSecret: newWebhookSecret() } : {};
      // Counted and saved under the workspace's lock: two creates at once cannot both take the last place.
      // The personal workspace is the account's (MAX_TRACKERS_PER_ACCOUNT as before); another workspace has as many of its own.
      const row = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${sql.raw(String(TRACKER_COUNT_LOCK_KEY))}, hashtext(${workspaceId}))`);
        const [counted] = await tx.select({ n: sql<number>`count(*)` }).from(trackers).where(eq(trackers.workspaceId, workspaceId));
        const have = Number(counted?.n ?? 0);
        if (have >= caps.maxTrackers)
          throw new DomainError(
            "CONFLICT",
            workspaceId === personal
              ? `You have ${have} trackers, the most an account may have here (MAX_TRACKERS_PER_ACCOUNT is ${caps.maxTrackers}): delete one to make another`
              : `This workspace has ${have} trackers, the most a workspace may have here (MAX_TRACKERS_PER_ACCOUNT is ${caps.maxTrackers}): delete one to make another`,
          );
        const [saved] = await tx
          .insert(trackers)
          .values({
            userId,
            workspaceId,
            name: input.name,
            queries: input.queries,
            questionTags: input.questionTags,
            brand: input.brand,
            competitors: input.competitors,
            providers: asked,
            iterations: input.iterations,
            location: input.location ?? null,
            cron: schedule.cron,
            timezone: schedule.timezone,
            monthlyBudgetUsd: input.monthlyBudgetUsd ?? null,
            alertWindow: input.alertWindow,
            ...webhook,
          })
          .returning();
        if (saved) await audit.record(actor, { workspaceId, action: "tracker.created", target: saved.name, details: { trackerId: saved.id } }, tx);
        if (saved && input.webhook)
          await audit.record(
            actor,
            {
              workspaceId,
              action: "tracker.webhook-set",
              target: saved.name,
              details: { trackerId: saved.id, url: input.webhook.url, format: input.webhook.format },
            },
            tx,
          );
        return saved;
      });
      if (!row) throw new Error("could not save the tracker");
      const scheduled = { ...row, nextRunAt: await engine.schedule(row) };
      await emails.ensureDigest();
      await ensureMissedCheck();
      return withSecret(await view(scheduled, null, { seeing: "wait" }), scheduled, Boolean(input.webhook));
    },

    async update(actor: Actor, id: string, change: UpdateTracker): Promise<Tracker> {
      const row = await reach(actor.userId, id, "editor");
      const schedule = change.schedule && checkSchedule(change.schedule, minIntervalMinutes);
      // Resuming takes a schedule allowed now: one kept before the rules tightened (paused at start, ./schedules-check.ts) is refused until changed.
      if (!schedule && change.paused === false) checkResumed({ cron: row.cron, timezone: row.timezone });
      const providersNow = change.providers ? chooseProviders(change.providers) : undefined;
      // A change of what is asked or counted starts a new series segment: the trend shows where, and alerts compare within it (ADR 050).
      const before = currentDefinition(row);
      const after: RunDefinition = {
        queries: change.queries ?? before.queries,
        providers: providersNow ?? before.providers,
        iterations: change.iterations ?? before.iterations,
        ...(change.location === null ? {} : change.location ? { location: change.location } : before.location ? { location: before.location } : {}),
        brand: change.brand ?? before.brand,
        competitors: change.competitors ?? before.competitors,
      };
      const newSegment = !sameDefinition(before, after);
      if (change.queries || providersNow || change.iterations) checkRunSize(after.queries.length, after.providers.length, after.iterations);
      if (change.webhook) await checkWebhookUrl(change.webhook.url, webhookPolicy);
      const questionTags = tagsAfter(row, change);
      // A webhook keeps its secret when only its address or format changes; a first one, or a rotation, gets a new one.
      const freshSecret = Boolean(change.webhook && (change.webhook.rotateSecret || !row.webhookSecret));
      const webhook =
        change.webhook === undefined
          ? {}
          : change.webhook === null
            ? { webhookUrl: null, webhookFormat: null, webhookSecret: null }
            : { webhookUrl: change.webhook.url, webhookFormat: change.webhook.format, ...(freshSecret ? { webhookSecret: newWebhookSecret() } : {}) };
      const [updated] = await db
        .update(trackers)
        .set({
          ...(change.name === undefined ? {} : { name: change.name }),
          ...(change.queries === undefined ? {} : { queries: change.queries }),
          ...(questionTags === undefined ? {} : { questionTags }),
          ...(change.brand === undefined ? {} : { brand: change.brand }),
          ...(change.competitors === undefined ? {} : { competitors: change.competitors }),
          ...(providersNow === undefined ? {} : { providers: providersNow }),
          ...(change.iterations === undefined ? {} : { iterations: change.iterations }),
          ...(change.location === undefined ? {} : { location: change.location }),
          ...(schedule ? { cron: schedule.cron, timezone: schedule.timezone } : {}),
          // The schedule the check at start paused it for is gone, and the reason with it (resuming is still the owner's).
          ...(schedule && row.pausedReason?.startsWith(SCHEDULE_PAUSE) ? { pausedReason: null } : {}),
          ...(change.monthlyBudgetUsd === undefined ? {} : { monthlyBudgetUsd: change.monthlyBudgetUsd }),
          ...(change.alertWindow === undefined ? {} : { alertWindow: change.alertWindow }),
          ...webhook,
          // Resuming also clears a pause the owner did not make: a run checks the subscription again.
          ...(change.paused === undefined ? {} : { paused: change.paused, ...(change.paused ? {} : { pausedReason: null }) }),
          ...(newSegment ? { segment: sql`${trackers.segment} + 1` } : {}),
          updatedAt: new Date(),
        })
        .where(eq(trackers.id, row.id))
        .returning();
      if (!updated) throw new DomainError("NOT_FOUND", "Tracker not found");
      await auditEdit(audit, actor, row, change);
      const scheduled = { ...updated, nextRunAt: await engine.schedule(updated) };
      await ensureMissedCheck();
      return withSecret(await view(scheduled, undefined, { seeing: "wait" }), scheduled, freshSecret);
    },

    /** Deletes the tracker with its runs; its saved searches stay in the history as the owner's own (`keepSearches`) or go with it. */
    async remove(actor: Actor, id: string, { keepSearches }: { keepSearches: boolean }): Promise<void> {
      const row = await reach(actor.userId, id, "editor");
      await engine.unschedule(row.id);
      await db.delete(trackers).where(eq(trackers.id, row.id));
      await searches.releaseTrackerSearches(row.id, { keep: keepSearches });
      await audit.record(actor, { workspaceId: row.workspaceId, action: "tracker.deleted", target: row.name, details: { trackerId: row.id, keepSearches } });
    },

    /** A workspace's trackers, ended and deleted as the workspace goes; their saved searches stay their makers' own. */
    async removeInWorkspace(workspaceId: string): Promise<void> {
      const rows = await db.select({ id: trackers.id }).from(trackers).where(eq(trackers.workspaceId, workspaceId));
      for (const { id } of rows) {
        await engine.unschedule(id);
        await db.delete(trackers).where(eq(trackers.id, id));
        await searches.releaseTrackerSearches(id, { keep: true });
      }
    },

    /** The tracker's row, for a service that acts on it (its report): with the check and answers of every call here. */
    access: (userId: string, id: string, needed: WorkspaceRole): Promise<TrackerRow> => reach(userId, id, needed),

    /** Run now: 202 with the run queued, or CONFLICT naming the run already queued or running. */
    async runNow(actor: Actor, id: string): Promise<{ run: TrackerRun }> {
      const row = await reach(actor.userId, id, "editor");
      const giveBack = await takeManualRun(actor.userId, row);
      let runId: string;
      try {
        runId = await engine.start(row, "manual");
      } catch (error) {
        await giveBack();
        throw error;
      }
      const run = await runViews.one(row.id, runId);
      if (!run) throw new Error("the run just queued is missing");
      await audit.record(actor, { workspaceId: row.workspaceId, action: "tracker.run", target: row.name, details: { trackerId: row.id, runId } });
      return { run };
    },

    /** Send test: a `test` event posted to the tracker's webhook now, and what came of it; CONFLICT without a webhook, RATE_LIMITED past WEBHOOK_TESTS_PER_MINUTE. */
    async testWebhook(userId: string, id: string): Promise<WebhookTestResult> {
      const row = await reach(userId, id, "editor");
      if (!row.webhookUrl || !row.webhookSecret) throw new DomainError("CONFLICT", "This tracker has no webhook: set one, then send a test");
      const taken = webhookTests.attempt([`webhook-test:${userId}`]);
      if (!taken.allowed)
        throw new DomainError("RATE_LIMITED", `Test messages are sent at most ${WEBHOOK_TESTS_PER_MINUTE} a minute. ${tryAgainIn(taken.retryAfterS)}`, {
          retryAfterS: taken.retryAfterS,
        });
      return webhooks.test(row, { url: row.webhookUrl, format: row.webhookFormat ?? "json", secret: row.webhookSecret });
    },

    async runs(reader: Reader, id: string, page: { before?: string; limit: number }, { asOf }: AsOf = {}): Promise<TrackerRunList> {
      const row = await own(reader, id);
      const runs = await runViews.page(row.id, { ...page, limit: page.limit + 1, asOf });
      const shown = runs.slice(0, page.limit);
      return { runs: shown, ...(runs.length > page.limit && shown.length ? { nextBefore: shown.at(-1)!.id } : {}) };
    },

    /** The tracker's trend: per run and provider, for the brand and each competitor, from the runs' rollups. */
    async trend(reader: Reader, id: string, query: v.InferOutput<typeof TrendQuery>, { asOf }: AsOf = {}): Promise<Trend> {
      const row = await own(reader, id);
      const { tag, ...filters } = query;
      const pooled = tag === undefined ? undefined : questionsTagged(row.questionTags, row.queries, tag);
      if (pooled?.length === 0) throw new DomainError("INVALID_INPUT", `tag ${JSON.stringify(tag)} is not one of this tracker's tags`);
      return { metric: query.metric, ...(await rollups.trend(row.id, { ...filters, ...(pooled ? { queries: pooled } : {}), to: clampTo(query.to, asOf) })) };
    },

    /** The cited domains by type and the citation gap. */
    async sources(reader: Reader, id: string, query: v.InferOutput<typeof SourcesQuery>, { asOf }: AsOf = {}): Promise<SourcesReport> {
      const row = await own(reader, id);
      const tracker = { id: row.id, brand: v.parse(BrandEntry, row.brand), competitors: v.parse(v.array(BrandEntry), row.competitors) };
      return rollups.sources(tracker, { ...query, to: clampTo(query.to, asOf) });
    },

    /** What moved, newest first. */
    async alerts(reader: Reader, id: string, { asOf }: AsOf = {}): Promise<TrackerAlertList> {
      const row = await own(reader, id);
      return { alerts: await alerts.list(row.id, asOf) };
    },

    /** The brand's headline for a period: its mention rate, rank, share of voice and change, across providers and per provider. */
    async summary(reader: Reader, id: string, query: v.InferOutput<typeof SummaryQuery>, { asOf }: AsOf = {}): Promise<TrackerSummary> {
      const row = await own(reader, id);
      // A frozen link's "now" is just after its snapshot's run (a period ends before its "now", and that run is in it); a `to` after it reads up to it.
      const now = asOf ? new Date(asOf.getTime() + 1) : clock();
      return trackerSummary(rollups, summarySubject(row), query.to ? { ...query, to: clampTo(query.to, asOf) } : query, now);
    },

    /** What entered and left the top lists between the last two windows of runs. */
    async changes(reader: Reader, id: string, query: v.InferOutput<typeof ChangesQuery>, { asOf }: AsOf = {}): Promise<TrackerChanges> {
      return changes.latest(await own(reader, id), query, asOf);
    },

    async run(reader: Reader, id: string, runId: string, { asOf }: AsOf = {}): Promise<TrackerRun> {
      const row = await own(reader, id);
      const lens = { brand: v.parse(BrandEntry, row.brand), competitors: v.parse(v.array(BrandEntry), row.competitors) };
      const dispersion = UUID.test(runId)
        ? (await rollups.trend(row.id, { metric: "mention", perQuery: true, ...(asOf ? { to: asOf.toISOString() } : {}) })).dispersion
        : [];
      const run = UUID.test(runId) ? await runViews.one(row.id, runId, lens, asOf, new Map(dispersion.map((d) => [d.provider, d]))) : null;
      if (!run) throw new DomainError("NOT_FOUND", "Run not found");
      return run;
    },
  };
}

function withDetectability(found: Detectability | undefined): { detectability?: Detectability } {
  return found ? { detectability: found } : {};
}

function competitorsOf(row: TrackerRow): number {
  return Array.isArray(row.competitors) ? row.competitors.length : 0;
}

/** Whether two definitions ask and count alike: the same questions, providers, iterations and place, and the same brand and competitors with their aliases and domains. */
function sameDefinition(a: RunDefinition, b: RunDefinition): boolean {
  const canonical = (definition: RunDefinition) =>
    JSON.stringify([
      definition.queries,
      definition.providers,
      definition.iterations,
      definition.location ?? null,
      [definition.brand, ...definition.competitors].map((entry) => [entry.name, entry.aliases, entry.domains]),
    ]);
  return canonical(a) === canonical(b);
}

/** A range's `to` (a day or an instant, both included) no later than `asOf`. */
function clampTo(to: string | undefined, asOf: Date | undefined): string | undefined {
  if (!asOf) return to;
  const until = historyRange({ to }).until;
  return until && until.getTime() <= asOf.getTime() + 1 ? to : asOf.toISOString();
}

/** The webhook's secret, in the one answer that made it. */
function withSecret(tracker: Tracker, row: TrackerRow, shown: boolean): Tracker {
  return shown && tracker.webhook && row.webhookSecret ? { ...tracker, webhook: { ...tracker.webhook, secret: row.webhookSecret } } : tracker;
}

export type Trackers = ReturnType<typeof createTrackers>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tags an edit leaves (undefined: unchanged). Tags given are checked against the queries the
 * tracker will have; new queries without tags keep the tags of the questions still asked.
 */
function tagsAfter(row: { queries: string[]; questionTags: Record<string, string> }, change: UpdateTracker): Record<string, string> | undefined {
  const queries = change.queries ?? row.queries;
  if (change.questionTags) {
    const stray = untaggableQuestion(change.questionTags, queries);
    if (stray !== undefined) throw new DomainError("INVALID_INPUT", `questionTags names ${JSON.stringify(stray)}, which is not one of the queries`);
    return change.questionTags;
  }
  if (!change.queries) return undefined;
  return Object.fromEntries(Object.entries(row.questionTags).filter(([question]) => queries.includes(question)));
}
