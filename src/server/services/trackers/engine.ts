import { and, asc, eq, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import * as v from "valibot";
import { type Db, selectRows } from "#db/client.ts";
import { instances, trackerCalls, trackerRunQueries, trackerRuns, trackers } from "#db/schema.ts";
import { currentDefinition, definitionOf, runWithTracker } from "./runs.ts";
import type { RunDefinition } from "#src/contract/trackers.ts";
import type { PriceTable } from "#src/contract/prices.ts";
import { perProvider, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { SearchOptions } from "#src/contract/search-request.ts";
import { ModelResult, offModelResult } from "#src/contract/search-result.ts";
import { buildSearchResult } from "#src/core/aggregate.ts";
import { abortableSleep } from "#src/core/backoff.ts";
import { answerCharge, answerCost, formatUsd } from "#src/core/cost.ts";
import type { Billing } from "../billing/index.ts";
import { DomainError } from "../errors.ts";
import type { JobQueue } from "../job-queue.ts";
import { noKeyFailure } from "../providers/failure.ts";
import { defaultRetryPolicy, type RetryPolicy } from "../providers/retry.ts";
import { createCheckpoint } from "../search/checkpoint.ts";
import { deadlineFor, type DeadlinePolicy } from "../search/deadline.ts";
import { expiry, type InstancePort } from "../search/instances.ts";
import type { ProviderAdapter } from "../providers/types.ts";
import { createLimiter } from "../search/limit.ts";
import { askProvider, failedCard, readAnswer, type Asked, type ProviderRun } from "../search/run-provider.ts";
import type { Providers } from "../search/run.ts";
import type { SearchStore } from "../search/store.ts";
import type { SpendBudget, SpendService } from "../spend/index.ts";
import { occurrenceAt } from "./schedule.ts";
import { createDispatcher, type TickJob } from "./dispatcher.ts";
import type { Alerts } from "./alerts.ts";
import type { Rollups } from "./rollups.ts";
import type { Webhooks } from "./webhooks.ts";
import type { TrackerEmails } from "./emails.ts";
import { createProviderSlots } from "./slots.ts";
import { createRateLimitPauses } from "./rate-limit-pauses.ts";
import type { MissedRuns } from "./missed.ts";
import { persist } from "./persist.ts";
import { groupWrites } from "#src/core/group-writes.ts";

/** A schedule's tick: makes the tracker's run. */
const TICK = "tracker-tick";
/** A run's start: the limits are checked, then one job per query is sent. */
const START = "tracker-run";
/** While a tracker is paused by a lapsed subscription, this looks for renewals and schedules it again (ADR 052). */
const RENEWALS = "tracker-renewals";
/** How often the renewals are looked for, while any tracker is paused by a lapse. */
export const RENEWALS_CRON = "*/5 * * * *";
const RENEWALS_KEY = "renewals";
/** A run's query jobs ask the owner's subscription again at most this often (before each call): a lapse stops the run's calls. */
const SUBSCRIPTION_RECHECK_MS = 1_000;
/** How long a run's spend hold may last at most, if the run never ends (every instance gone): a day. */
const RUN_HOLD_MAX_MS = 24 * 3600_000;
/** Added to a run's deadline for its hold: the sweep that ends a run past its deadline is itself a minute apart. */
const RUN_HOLD_MARGIN_MS = 3600_000;
/** One query of a run: its search, call by call, on the ledger. */
const QUERY = "tracker-query";
/** Query jobs an instance runs at once at most, however large PROVIDER_CONCURRENCY_TOTAL is. */
const MAX_QUERY_JOBS = 64;
/** Ledger rows written in one statement at most; how long an answer waits for others to be written with. */
const GROUP_MAX = 64;
const ANSWER_WRITE_WAIT_MS = 20;
/**
 * Every minute, on whichever instance takes it: runs whose jobs are gone are resumed, runs past
 * their deadline are ended, runs whose end failed are ended again.
 */
const SWEEP = "tracker-sweep";
const SWEEP_CRON = "* * * * *";
const SWEEP_KEY = "sweep";
/** A run still `queued` this long after it was made has lost its start (a tick that failed on every attempt): the sweep starts it. */
const QUEUED_LOST_MS = 60_000;
/** The longest a run's deadline may be (pg-boss's longest expiry of a job is a day; the hold outlasts it by its margin). */
const RUN_DEADLINE_MAX_MS = RUN_HOLD_MAX_MS - RUN_HOLD_MARGIN_MS;
/** Added to a slot's and a `started` call's age limit past the call's own time limit: a write retried across a blip. */
const CALL_AGE_MARGIN_MS = 60_000;
/** The holder of a `started` call whose attempt stopped before its answer came: no instance, so any retry may take it at once. */
const NO_HOLDER = "00000000-0000-0000-0000-000000000000";
/**
 * How often one call may be started: a call cut off (its instance killed, its attempt aborted) may
 * have been bought, and is asked again; cut off this often, it is given up as `lost`. Three: every
 * instance can die twice during a run and the run still completes.
 */
const MAX_CALL_STARTS = 3;
/** How often an attempt looks again at calls of its query that another attempt is making. */
const PENDING_LOOK_MS = 1_000;

/** A query job's instance is taken for dead when it has not refreshed its heartbeat for this long (pg-boss's minimum is 10). */
export const QUERY_HEARTBEAT_SECONDS = 30;
/** Attempts of a query job after the first (an instance dying, the database away). */
const QUERY_RETRIES = 5;
/**
 * A provider that still answers 429 after the retry path's waits: its calls here wait the policy's
 * longest backoff and ask again, up to this often, instead of failing.
 */
const RATE_LIMIT_WAITS = 10;

export const SUBSCRIPTION_LAPSED = "subscription lapsed";

type TrackerRow = typeof trackers.$inferSelect;
type CallRow = typeof trackerCalls.$inferSelect;
type QueryJob = { runId: string; position: number };

export type TrackerEngineDeps = {
  db: Db;
  queue: JobQueue;
  providers: Providers;
  billing: Pick<Billing, "isPro">;
  spend: SpendService;
  store: SearchStore;
  instance: InstancePort;
  prices: PriceTable;
  /**
   * What a run of this definition is held at (its estimate, a model without a price at the price
   * table's highest rates), with the words a refusal names it by; throws SPEND_LIMIT under
   * UNPRICED_MODELS=refuse when a model has no price.
   */
  charge: (definition: Pick<RunDefinition, "queries" | "providers" | "iterations">) => { usd: number; unpriced: string[]; describe: string };
  /** MAX_TRACKER_RUN_ANSWERS: a run asking more (a tracker saved before the cap, or under a higher one) is skipped. */
  maxRunAnswers: number;
  /** Where a run's counts are written when it ends. */
  rollups: Pick<Rollups, "write">;
  /** Where a run's end decides what moved. */
  alerts: Pick<Alerts, "evaluate">;
  /** Where a run's end and its alerts are posted. */
  webhooks: Pick<Webhooks, "runEnded">;
  /** Who is e-mailed its alerts. */
  emails: Pick<TrackerEmails, "alerted">;
  /** Where a scheduled run that does not happen is told (./missed.ts). */
  missed?: Pick<MissedRuns, "report">;
  /** SEARCH_CONCURRENCY: calls in flight per provider in one query job. */
  concurrency: number;
  /** PROVIDER_CONCURRENCY_TOTAL. */
  concurrencyTotal: number;
  retry?: RetryPolicy;
  deadline: DeadlinePolicy;
  clock?: () => Date;
  /** Observes how late each scheduled run is made (src/server/metrics), when metrics are on. */
  metrics?: { tickLateness(seconds: number): void };
};

/**
 * Trackers' runs on pg-boss (ADR 043). A schedule tick (or Run now) queues a run; its start checks
 * the subscription and the spend limits, then sends one job per query. A query job asks each
 * provider its iterations through the search's own steps (askProvider, readAnswer, costs), on a
 * ledger: each call is claimed `started` before it is made and written `done` with its answer after,
 * and the saved search is checkpointed as answers land. A retried job asks only for what is not done;
 * a call left `started` by an attempt that is over is asked again (at most MAX_CALL_STARTS in all),
 * then given up as `lost`. A run has a deadline, and a sweep ends or resumes runs whose jobs are
 * gone (ADR 054).
 */
export function createTrackerEngine(deps: TrackerEngineDeps) {
  const { db, queue, providers, billing, spend, store, instance, prices, retry, deadline, clock = () => new Date() } = deps;
  /** One call's time limit (SEARCH_DEADLINE_SECONDS): a search, and then reading its answer, each end by it. */
  const callMs = deadlineFor(1, deadline).ms;
  const slots = createProviderSlots(db, {
    instanceId: instance.id,
    leaseMs: instance.leaseMs,
    total: deps.concurrencyTotal,
    staleAfterMs: callMs + CALL_AGE_MARGIN_MS,
  });
  // Every query job's claims and answers here, a group to a statement (ledger writes are most of a run's statements).
  const claimNew = groupWrites<CallKey, boolean>(
    async (keys) => {
      const taken = await db
        .insert(trackerCalls)
        .values(keys.map((key) => ({ ...key, status: "started" as const, instanceId: instance.id })))
        .onConflictDoNothing()
        .returning({ runId: trackerCalls.runId, position: trackerCalls.position, provider: trackerCalls.provider, iteration: trackerCalls.iteration });
      const won = new Set(taken.map((row) => ledgerKeyOf({ ...row, provider: row.provider as ProviderId })));
      return keys.map((key) => won.has(ledgerKeyOf(key)));
    },
    { max: GROUP_MAX },
  );
  const writeAnswer = groupWrites<typeof trackerCalls.$inferInsert, void>(
    async (rows) => {
      await db
        .insert(trackerCalls)
        .values(rows)
        .onConflictDoUpdate({
          target: [trackerCalls.runId, trackerCalls.position, trackerCalls.provider, trackerCalls.iteration],
          set: {
            status: sql`excluded.status`,
            instanceId: sql`excluded.instance_id`,
            result: sql`excluded.result`,
            costUsd: sql`excluded.cost_usd`,
            simulated: sql`excluded.simulated`,
            updatedAt: new Date(),
          },
          setWhere: ne(trackerCalls.status, "done"),
        });
      return rows.map(() => undefined);
    },
    // Written after the call's slot is given back: waiting a moment costs the run nothing.
    { max: GROUP_MAX, waitMs: ANSWER_WRITE_WAIT_MS },
  );
  /** A `started` call older than this is no longer being made, whoever holds it: its search and its reading are each cut at callMs. */
  const callStaleMs = 2 * callMs + CALL_AGE_MARGIN_MS;
  /** Calls this process has in flight, by ledger key: a `started` row not here is not in flight here. */
  const inFlight = new Set<string>();
  /** Until when a provider that keeps answering 429 is left alone by every instance's calls. */
  const pauses = createRateLimitPauses(db);

  // Ticks and starts take milliseconds, and come in bursts: every tracker due at 09:00 ticks at once.
  queue.work<TickJob>(TICK, { concurrency: 8, quick: true }, tick);
  queue.work<{ runId: string }>(START, { concurrency: 8, quick: true }, ({ runId }) => startRun(runId));
  // Query jobs in flight per instance: enough for their calls to keep the cross-instance cap full
  // whatever a run's iterations. A call holds its provider's slot for the search only, then reads
  // the answer (a second call as long), so a query of one iteration keeps a slot busy half the time:
  // twice the cap in jobs, and one more that starts while another reads its last answers. Calls
  // beyond what the cap serves wait in its queue, and are checked (spend, subscription) when their turn comes.
  const queryConcurrency = Math.min(2 * deps.concurrencyTotal + 1, MAX_QUERY_JOBS);
  queue.work<QueryJob>(QUERY, { concurrency: queryConcurrency, heartbeatSeconds: QUERY_HEARTBEAT_SECONDS }, runQuery);
  queue.work<Record<string, never>>(RENEWALS, { concurrency: 1, quick: true }, () => renewals());
  queue.work<Record<string, never>>(SWEEP, { concurrency: 1 }, () => sweep());
  /** The sweep's schedule, put in place (once per process) by the first run this instance starts: an app that never runs a tracker never starts the queue for it. */
  let sweepScheduled: Promise<void> | undefined;
  const scheduleSweep = () =>
    (sweepScheduled ??= queue.schedule(SWEEP, SWEEP_CRON, {}, { timezone: "UTC", key: SWEEP_KEY }).catch((error) => {
      sweepScheduled = undefined;
      throw error;
    }));

  // Schedules: the trackers table's next_run_at, run by one dispatcher (./dispatcher.ts, ADR 055).
  const dispatcher = createDispatcher({ db, queue, clock, tickQueue: TICK, missed: deps.missed });

  const engine = {
    /** How long a run of this definition may last: its deadline, past which the sweep ends it. */
    longestRunMs: runDeadlineMs,

    /** The tracker's next run as its row now stands (none while it is paused, by its owner or by a lapsed subscription): kept, and given back. */
    schedule: dispatcher.schedule,
    unschedule: dispatcher.unschedule,
    /** Whether the row's next run needs `schedule` (the check at start). */
    needsSchedule: dispatcher.needsRepair,

    /**
     * Queues a run of the tracker's current queries, now or for a schedule's occurrence; CONFLICT
     * names the run already queued or running. An occurrence that already has its run is not run
     * again: a tick sent twice, or retried, makes one run (a run its first attempt left queued is
     * started, one it left running without all its query jobs gets them).
     */
    async start(row: TrackerRow, trigger: "schedule" | "manual", occurrence?: Date): Promise<string> {
      const [run] = await db
        .insert(trackerRuns)
        .values({ trackerId: row.id, trigger, segment: row.segment, scheduledFor: occurrence ?? clock(), definition: currentDefinition(row) })
        .onConflictDoNothing()
        .returning({ id: trackerRuns.id });
      if (run && occurrence) deps.metrics?.tickLateness((clock().getTime() - occurrence.getTime()) / 1000);
      let runId = run?.id;
      if (!runId && occurrence) {
        const [made] = await db
          .select({ id: trackerRuns.id, status: trackerRuns.status })
          .from(trackerRuns)
          .where(and(eq(trackerRuns.trackerId, row.id), eq(trackerRuns.trigger, "schedule"), eq(trackerRuns.scheduledFor, occurrence)))
          .limit(1);
        if (made && made.status !== "queued" && made.status !== "running") return made.id;
        runId = made?.id;
      }
      if (!runId) {
        const [active] = await db
          .select({ id: trackerRuns.id, status: trackerRuns.status })
          .from(trackerRuns)
          .where(and(eq(trackerRuns.trackerId, row.id), inArray(trackerRuns.status, ["queued", "running"])))
          .limit(1);
        throw new DomainError("CONFLICT", `This tracker already has a run ${active?.status ?? "queued"}: ${active?.id ?? "(just finished)"}`);
      }
      await db
        .insert(trackerRunQueries)
        .values(row.queries.map((query, position) => ({ runId, position, query })))
        .onConflictDoNothing();
      // Run now answers at once, and its start is a job. A tick is a job already (retried until its
      // run has started), so it starts the run itself: half the jobs when a thousand trackers tick at 09:00.
      if (occurrence) await startRun(runId);
      else await queue.send(START, { runId }, { singletonKey: runId });
      return runId;
    },
  };
  return engine;

  async function tick({ trackerId, scheduledFor }: Partial<TickJob> & Pick<TickJob, "trackerId">): Promise<void> {
    const [found] = await db.select().from(trackers).where(eq(trackers.id, trackerId)).limit(1);
    if (!found) return;
    if (found.paused) return;
    let row = found;
    if (row.pausedReason === SUBSCRIPTION_LAPSED) {
      // Paused by a lapse (a schedule left from before it was removed, or a tick sent by hand): still
      // lapsed, no run and no skipped row, and the schedule goes; renewed, the pause is lifted here.
      if (!(await billing.isPro(row.userId))) return lapse(row.id);
      row = await renewed(row);
    }
    // The dispatcher names the occurrence; a tick without one (sent by hand) stands for the schedule's latest.
    const occurrence = scheduledFor ? new Date(scheduledFor) : occurrenceAt({ cron: row.cron, timezone: row.timezone }, clock());
    try {
      await engine.start(row, "schedule", occurrence);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === "CONFLICT")) throw error;
      // A run past its deadline does not hold the schedule up until the sweep comes: it ends here, and this tick makes its run.
      if (await endOverdue(trackerId)) return tick({ trackerId, scheduledFor: occurrence.toISOString() });
      // The previous run is still going: this tick is recorded as skipped, not queued behind it (once, however often it is sent).
      await db
        .insert(trackerRuns)
        .values({
          trackerId,
          trigger: "schedule",
          segment: row.segment,
          scheduledFor: occurrence,
          status: "skipped",
          reason: "the previous run was still going",
          finishedAt: clock(),
        })
        .onConflictDoNothing();
      await deps.missed?.report(trackerId, occurrence, "the previous run was still going");
    }
  }

  /**
   * Checks the subscription and the limits (holding the run's estimate, ADR 052), then sends the
   * run's query jobs; or marks it skipped with why.
   */
  async function startRun(runId: string): Promise<void> {
    const found = await runWithTracker(db, runId);
    if (!found || (found.run.status !== "queued" && found.run.status !== "running")) return;
    const { tracker } = found;
    let run = found.run;
    const definition = definitionOf(run, tracker);
    await scheduleSweep();
    if (run.status === "queued") {
      const reason = await refusal(tracker, definition, runId);
      if (reason) {
        await db
          .update(trackerRuns)
          .set({ status: "skipped", reason, finishedAt: clock() })
          .where(and(eq(trackerRuns.id, runId), eq(trackerRuns.status, "queued")));
        // A scheduled run a limit refused is a hole in the trend (ADR 057); a lapse pauses the tracker, which its page says.
        if (run.trigger === "schedule" && !reason.startsWith(SUBSCRIPTION_LAPSED)) await deps.missed?.report(tracker.id, run.scheduledFor, reason);
        return;
      }
      const [{ count } = { count: 0 }] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(trackerRunQueries)
        .where(eq(trackerRunQueries.runId, runId));
      const expected = Number(count) * definition.providers.length * definition.iterations;
      const [started] = await db
        .update(trackerRuns)
        .set({ status: "running", startedAt: clock(), expected })
        .where(and(eq(trackerRuns.id, runId), eq(trackerRuns.status, "queued")))
        .returning();
      // Another start got there first (its hold is this run's too: one row, by the run's id); it or this one sends the jobs.
      if (started) run = started;
      else {
        const [now] = await db.select().from(trackerRuns).where(eq(trackerRuns.id, runId));
        if (now?.status !== "running") return;
        run = now;
      }
    }
    await sendQueries(run, definition);
  }

  /**
   * The jobs of the run's queries that have not finished: sent again whenever its start is
   * repeated (a retried tick or start, the sweep). A query whose job is queued or running keeps
   * it (its singleton key), so this sends only what a crash, an expiry or a last failed attempt lost.
   */
  async function sendQueries(run: typeof trackerRuns.$inferSelect, definition: RunDefinition): Promise<void> {
    const open = await db
      .select({ position: trackerRunQueries.position })
      .from(trackerRunQueries)
      .where(and(eq(trackerRunQueries.runId, run.id), isNull(trackerRunQueries.finishedAt)));
    // An attempt lasts no longer than what is left of the run's deadline (and never pg-boss's 15 minutes when the run may take longer).
    const left = deadlineOf(run, definition).getTime() - clock().getTime();
    const expireInSeconds = Math.min(Math.max(Math.ceil(left / 1000) + 60, 60), RUN_DEADLINE_MAX_MS / 1000);
    await queue.sendMany<QueryJob>(
      QUERY,
      open.map(({ position }) => ({
        data: { runId: run.id, position },
        options: { singletonKey: `${run.id}/${position}`, retryLimit: QUERY_RETRIES, retryDelaySeconds: 2, expireInSeconds },
      })),
    );
    if (open.length === 0) await finishIfDone(run.id);
  }

  /**
   * Why the run may not start, or null: a lapsed subscription (which pauses and unschedules the
   * tracker), a run over MAX_TRACKER_RUN_ANSWERS, a model without a price under
   * UNPRICED_MODELS=refuse, its monthly budget, the spend limits. Admitted, the run's estimate is
   * held (by the run's id) until it ends.
   */
  async function refusal(tracker: TrackerRow, definition: RunDefinition, runId: string): Promise<string | null> {
    if (!(await billing.isPro(tracker.userId))) {
      await lapse(tracker.id);
      return `${SUBSCRIPTION_LAPSED}: the tracker runs again once the subscription is renewed`;
    }
    // Renewed: the pause the lapse made is lifted by the first run after it.
    if (tracker.pausedReason === SUBSCRIPTION_LAPSED) await renewed(tracker);
    const answers = definition.queries.length * definition.providers.length * definition.iterations;
    if (answers > deps.maxRunAnswers)
      return `This run would ask for ${answers} answers, more than the ${deps.maxRunAnswers} a run may ask for here (MAX_TRACKER_RUN_ANSWERS): ask fewer questions, providers or iterations`;
    try {
      const charge = deps.charge(definition);
      if (tracker.monthlyBudgetUsd !== null) {
        const spent = await spend.trackerMonth(tracker.userId, tracker.id);
        if (spent + charge.usd > tracker.monthlyBudgetUsd)
          return `The tracker's monthly budget of ${formatUsd(tracker.monthlyBudgetUsd)} would be passed: ${formatUsd(spent)} charged this month, and ${charge.describe.replace(/^this run, /, "this run costs ")}`;
      }
      await spend.admit({
        userId: tracker.userId,
        source: "tracker",
        usd: charge.usd,
        holdForMs: runWorstCaseMs(definition),
        holdId: runId,
        describe: charge.describe,
        advice: "The next run tries again.",
      });
    } catch (error) {
      if (error instanceof DomainError && error.code === "SPEND_LIMIT") return error.message;
      throw error;
    }
    return null;
  }

  /** How long a run's hold lasts if nobody releases it: past its deadline by the hold's margin (the sweep ends it at its deadline and releases it). */
  function runWorstCaseMs(definition: Pick<RunDefinition, "queries" | "iterations">): number {
    return Math.min(runDeadlineMs(definition) + RUN_HOLD_MARGIN_MS, RUN_HOLD_MAX_MS);
  }

  /**
   * A run's deadline, from when it starts: each provider's calls back to back at the shared cap
   * (PROVIDER_CONCURRENCY_TOTAL) or in this instance's query jobs (SEARCH_CONCURRENCY calls each),
   * whichever is slower, two rounds at least, each at the call's time limit, then the last
   * reading; twice over (calls waiting behind other runs' at the cap, 429 waits, retries), plus four
   * calls' time and two heartbeat lapses for instances that die mid-run; a day less the hold's margin at most.
   */
  function runDeadlineMs(definition: Pick<RunDefinition, "queries" | "iterations">): number {
    const atTheCap = Math.ceil((definition.queries.length * definition.iterations) / deps.concurrencyTotal);
    const byJobs = Math.ceil(definition.queries.length / queryConcurrency) * Math.ceil(definition.iterations / deps.concurrency);
    const rounds = Math.max(2, atTheCap, byJobs);
    const work = (rounds + 1) * callMs;
    return Math.min(2 * work + 4 * callMs + 2 * QUERY_HEARTBEAT_SECONDS * 1000, RUN_DEADLINE_MAX_MS);
  }

  function deadlineOf(run: Pick<typeof trackerRuns.$inferSelect, "startedAt" | "createdAt">, definition: RunDefinition): Date {
    return new Date((run.startedAt ?? run.createdAt).getTime() + runDeadlineMs(definition));
  }

  function deadlineReason(definition: RunDefinition): string {
    const minutes = Math.max(1, Math.round(runDeadlineMs(definition) / 60_000));
    return `The run's time limit of ${minutes} min (from its size and each call's ${Math.round(callMs / 1000)} s limit) passed: it ended with the answers that had come, and asked no more`;
  }

  /** The owner's subscription lapsed: the tracker is paused saying so (unless paused for another reason already), and unscheduled until the renewal is seen. */
  async function lapse(trackerId: string): Promise<void> {
    await db
      .update(trackers)
      .set({ pausedReason: SUBSCRIPTION_LAPSED })
      .where(and(eq(trackers.id, trackerId), isNull(trackers.pausedReason)));
    await engine.unschedule(trackerId);
    // After the reason is written: a sweep that found no lapse and removes itself looks again (renewals).
    await queue.schedule(RENEWALS, RENEWALS_CRON, {}, { timezone: "UTC", key: RENEWALS_KEY });
  }

  /** The subscription is Pro again: the pause the lapse made is lifted and the schedule put back (unless its owner paused it too). */
  async function renewed(row: TrackerRow): Promise<TrackerRow> {
    const [lifted] = await db
      .update(trackers)
      .set({ pausedReason: null })
      .where(and(eq(trackers.id, row.id), eq(trackers.pausedReason, SUBSCRIPTION_LAPSED)))
      .returning();
    if (lifted) await engine.schedule(lifted);
    return lifted ?? { ...row, pausedReason: null };
  }

  /**
   * The renewals sweep (every 5 minutes while any tracker is paused by a lapse): each tracker paused
   * by a lapse whose owner is Pro again is resumed and scheduled. Resuming it by hand does the same
   * at once, and so does a tick sent while it was paused. With no lapse left, the sweep removes its
   * own schedule, then looks once more: a lapse written meanwhile has scheduled it again, or is seen here.
   */
  async function renewals(): Promise<void> {
    const lapsed = () => db.select().from(trackers).where(eq(trackers.pausedReason, SUBSCRIPTION_LAPSED));
    const rows = await lapsed();
    const pro = new Map<string, boolean>();
    for (const row of rows) {
      if (!pro.has(row.userId)) pro.set(row.userId, await billing.isPro(row.userId));
      if (pro.get(row.userId)) await renewed(row);
    }
    if (rows.length > 0) return;
    await queue.unschedule(RENEWALS, RENEWALS_KEY);
    if ((await lapsed()).length > 0) await queue.schedule(RENEWALS, RENEWALS_CRON, {}, { timezone: "UTC", key: RENEWALS_KEY });
  }

  /**
   * Whether the owner's subscription has lapsed, asked again at most once a second while a query
   * job runs (before each call): a lapse pauses the tracker and stops the run's calls.
   */
  function subscriptionWatch(tracker: TrackerRow): () => Promise<boolean> {
    let checkedAt = Number.NEGATIVE_INFINITY;
    let lapsed = false;
    let pending: Promise<boolean> | undefined;
    return async () => {
      if (lapsed || performance.now() - checkedAt < SUBSCRIPTION_RECHECK_MS) return lapsed;
      pending ??= (async () => {
        try {
          const pro = await billing.isPro(tracker.userId);
          checkedAt = performance.now();
          if (!pro && !lapsed) {
            lapsed = true;
            await lapse(tracker.id);
          }
          return lapsed;
        } finally {
          pending = undefined;
        }
      })();
      return pending;
    };
  }

  /** One query of a run: its saved search, filled call by call; on a retry, only what is missing. */
  async function runQuery({ runId, position }: QueryJob, job: { signal: AbortSignal; retryCount: number }): Promise<void> {
    const [found] = await db
      .select({ run: trackerRuns, tracker: trackers, item: trackerRunQueries })
      .from(trackerRunQueries)
      .innerJoin(trackerRuns, eq(trackerRuns.id, trackerRunQueries.runId))
      .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
      .where(and(eq(trackerRunQueries.runId, runId), eq(trackerRunQueries.position, position)))
      .limit(1);
    if (!found || found.run.status !== "running") return;
    const { tracker, item, run } = found;
    // What the run was made to ask: an edit of the tracker since changes nothing it buys.
    const definition = definitionOf(run, tracker);
    // A finished query whose job is here again: the run's end failed (a blip, a rollup or an alert), and is done again.
    if (!item.finishedAt) {
      const stop = new AbortController();
      const timer = setTimeout(() => stop.abort(new RunStop("deadline")), Math.max(0, deadlineOf(run, definition).getTime() - clock().getTime()));
      try {
        await askQuery(tracker, definition, item, AbortSignal.any([job.signal, stop.signal]), stop);
      } catch (error) {
        const stopped = stop.signal.reason instanceof RunStop ? stop.signal.reason.why : null;
        // Its tracker (and with it the run) was deleted: nothing more is wanted, and nothing is left to write.
        if (stopped === "gone") return;
        // Past the run's deadline, or the last attempt (also one cut short: an expiry, a shutdown): what is not done is given up, so the run still ends.
        if (stopped !== "deadline" && job.retryCount < QUERY_RETRIES) throw error;
        await giveUp(definition, item, stopped === "deadline" ? deadlineReason(definition) : error instanceof Error ? error.message : String(error));
      } finally {
        clearTimeout(timer);
      }
    }
    await finishIfDone(runId);
  }

  async function askQuery(
    tracker: TrackerRow,
    definition: RunDefinition,
    item: typeof trackerRunQueries.$inferSelect,
    signal: AbortSignal,
    stop: AbortController,
  ): Promise<void> {
    const { runId, position, query } = item;
    const { iterations } = definition;
    const options: SearchOptions = definition.location ? { location: definition.location } : {};
    const owner = { userId: tracker.userId, anonymousId: `tracker:${tracker.id}` };
    let searchId = item.searchId;
    if (searchId) await store.claim(searchId, instance.id);
    else {
      searchId = await store.begin(owner, query, iterations, options, {
        instanceId: instance.id,
        slot: `tracker:${runId}:${position}`,
        charge: null,
        tracker: { trackerId: tracker.id, runId },
      });
      await db
        .update(trackerRunQueries)
        .set({ searchId })
        .where(and(eq(trackerRunQueries.runId, runId), eq(trackerRunQueries.position, position)));
    }
    const id = searchId;

    let ledger = await reconcile(runId, position, definition);
    const started = performance.now();
    const checkpoint = createCheckpoint((partial) => store.checkpoint(id, instance.id, partial), { query, iterations });
    for (const row of ledger.rows) if (row.status !== "started" && row.result) checkpoint.add(row.provider as ProviderId, parseResult(row.result));
    // The run's hold is its id (refusal); its monthly budget is checked before each call, as the daily limits are.
    const budget = await spend.budget({
      userId: tracker.userId,
      source: "tracker",
      hold: { id: runId },
      searchId: async () => id,
      tracker: { id: tracker.id, monthlyBudgetUsd: tracker.monthlyBudgetUsd },
    });
    const lapsed = subscriptionWatch(tracker);
    const gone = runWatch(runId, stop);
    const call: ProviderRun = { query, options, signal, retry, deadline: deadlineFor(1, deadline) };
    try {
      for (;;) {
        const claimable = ledger.claimable;
        // SEARCH_CONCURRENCY calls of the query per provider at once, each waiting for its provider's
        // slot in turn (first come, first served on this instance, ADR 060).
        const limits = perProvider(() => createLimiter(deps.concurrency));
        await Promise.all(
          claimable.map(({ provider, iteration, seen }) =>
            limits[provider](async () => {
              const result = await askOnce(provider, iteration, seen, { runId, position, call, budget, lapsed, gone });
              // Another attempt of this query took the call first: its answer is that attempt's to record.
              if (!result) return;
              checkpoint.add(provider, result);
              // A model without a price is charged at the table's highest rates (ADR 052); its cost still reads unknown.
              await budget.spend(answerCharge(result, prices));
            }),
          ),
        );
        // Done when no call is left to make here nor being made elsewhere (another attempt of this query, still alive).
        ledger = await reconcile(runId, position, definition);
        if (ledger.claimable.length === 0 && ledger.pending === 0) break;
        if (ledger.claimable.length === 0 && !(await abortableSleep(PENDING_LOOK_MS, signal))) throw signal.reason;
      }
    } catch (error) {
      // A call's answer refused by the ledger (its run deleted with its tracker) says so before the watch does.
      if (!stop.signal.aborted && (await runExists(runId).catch(() => true)) === false) stop.abort(new RunStop("gone"));
      if (stop.signal.reason instanceof RunStop && stop.signal.reason.why === "gone") {
        await store.fail(id, instance.id, "cancelled", "Its tracker was deleted while this search ran: no more was asked").catch(() => false);
        // Ended, it stays in the history as its owner's own (the sweep lets go of any this misses).
        await store.letGoOfRun(id).catch(() => undefined);
      }
      throw error;
    } finally {
      await checkpoint.close();
    }
    await closeQuery(item, definition, Math.round(performance.now() - started));
  }

  /**
   * The query's saved search ends with what its ledger holds (completed when any provider answered,
   * failed otherwise), taken over first when another instance had it; then the query is finished.
   */
  async function closeQuery(item: typeof trackerRunQueries.$inferSelect, definition: RunDefinition, executionTimeMs: number): Promise<void> {
    const { runId, position, query } = item;
    const [fresh] = await db
      .select({ searchId: trackerRunQueries.searchId })
      .from(trackerRunQueries)
      .where(and(eq(trackerRunQueries.runId, runId), eq(trackerRunQueries.position, position)));
    const searchId = fresh?.searchId ?? item.searchId;
    if (searchId) {
      const rows = await db
        .select()
        .from(trackerCalls)
        .where(and(eq(trackerCalls.runId, runId), eq(trackerCalls.position, position)))
        .orderBy(asc(trackerCalls.iteration));
      const runs: Partial<Record<ProviderId, ModelResult[]>> = {};
      for (const row of rows) if (row.result) (runs[row.provider as ProviderId] ??= []).push(parseResult(row.result));
      const result = buildSearchResult({ query, executionTimeMs, iterations: definition.iterations, runs });
      const answered = providerIds.some((provider) => runs[provider]?.some((run) => run.status === "ok"));
      const options: SearchOptions = definition.location ? { location: definition.location } : {};
      await store.claim(searchId, instance.id);
      if (answered) await store.complete(searchId, instance.id, { ...result, id: searchId, options, createdAt: new Date().toISOString() });
      else await store.fail(searchId, instance.id, "failed", "No provider answered this query", result);
    }
    await markFinished(runId, position);
  }

  /**
   * One call on the ledger: `started` before it is made, `done` or `failed` with the answer after;
   * null when another attempt of the query took it first (`seen`: the call's attempts when this
   * attempt read the ledger, null when it had no row). The provider's slot (PROVIDER_CONCURRENCY_TOTAL)
   * is held for the search call only, as the search's own limiter does; a provider still answering
   * 429 after its waits pauses and is asked again.
   */
  async function askOnce(
    provider: ProviderId,
    iteration: number,
    seen: number | null,
    {
      runId,
      position,
      call,
      budget,
      lapsed,
      gone,
    }: { runId: string; position: number; call: ProviderRun; budget: SpendBudget; lapsed: () => Promise<boolean>; gone: () => Promise<void> },
  ): Promise<ModelResult | null> {
    const adapter = providers[provider];
    const key = { runId, position, provider, iteration };
    if (!adapter) return record(key, "failed", { ...offModelResult(provider), modelName: "not connected", modelVersion: "not connected", ...noKey(provider) });
    const ledgerKey = ledgerKeyOf(key);
    // In flight here before it is claimed: this instance's other attempts of the query wait for it rather than take it.
    inFlight.add(ledgerKey);
    let claimed = false;
    try {
      let asked: Asked | undefined;
      for (let waits = 0; ; waits++) {
        await waitWhilePaused(provider, call.signal);
        const release = await slots.take(provider, call.signal);
        let attempt: { refused: ModelResult } | { asked: Asked };
        try {
          let refused: ModelResult | null = null;
          if (waits === 0) {
            // Checked once it holds its slot, right before the call, however long it waited for it. A
            // stopped job starts nothing more: what it had queued is the retry's. A deleted tracker's run asks nothing more.
            await gone();
            call.signal.throwIfAborted();
            refused = await callRefused(adapter, budget, lapsed);
            // Claimed right before the call: a `started` row is a call made or about to be.
            if (!refused) {
              if (!(await claim(key, seen))) return null;
              claimed = true;
            }
          } else await touch(key);
          attempt = refused ? { refused } : { asked: await askProvider(adapter, { ...call, deadline: deadlineFor(1, deadline) }) };
        } finally {
          await release();
        }
        if ("refused" in attempt) return record(key, "failed", attempt.refused);
        asked = attempt.asked;
        if (!("failed" in asked) || asked.failed.failure !== "rate_limited" || waits >= RATE_LIMIT_WAITS) break;
        // Refused with a 429, not bought: the call waits with the provider's other calls here, and asks again.
        await pauses.pause(provider, Date.now() + (retry ?? defaultRetryPolicy).maxDelayMs);
      }
      // Its reading has a time limit of its own: the search's was counted from the call.
      const read = "failed" in asked ? asked.failed : await readAnswer(adapter, asked, { ...call, deadline: deadlineFor(1, deadline) });
      // Paid for: written even across a database blip (the write is tried again, never the call).
      return await persist(() => record(key, read.status === "ok" ? "done" : "failed", read));
    } catch (error) {
      // Stopped before its answer came (it may have been bought): left `started`, held by no instance, so a retry anywhere takes it at once.
      if (claimed && call.signal.aborted) await unhold(key).catch(() => {});
      throw error;
    } finally {
      inFlight.delete(ledgerKey);
    }
  }

  /** Why a call is not made: the spend limits or the tracker's budget reached, or its owner's subscription lapsed. */
  async function callRefused(adapter: ProviderAdapter, budget: SpendBudget, lapsed: () => Promise<boolean>): Promise<ModelResult | null> {
    const reached = budget.exhausted();
    if (reached) return { ...failedCard(adapter, performance.now()), stopped: "spend-limit", error: `Stopped: ${reached}.` };
    if (await lapsed()) return { ...failedCard(adapter, performance.now()), error: `Stopped: ${SUBSCRIPTION_LAPSED}, so no more is asked.` };
    return null;
  }

  type CallKey = { runId: string; position: number; provider: ProviderId; iteration: number };

  function ledgerKeyOf({ runId, position, provider, iteration }: CallKey): string {
    return `${runId}/${position}/${provider}/${iteration}`;
  }

  function callIs(key: CallKey) {
    return and(
      eq(trackerCalls.runId, key.runId),
      eq(trackerCalls.position, key.position),
      eq(trackerCalls.provider, key.provider),
      eq(trackerCalls.iteration, key.iteration),
    );
  }

  /**
   * Takes the call for this attempt: a new `started` row, or a stale one whose attempts are still
   * what this attempt read. Two attempts of one query never both take it, and a call already
   * answered is never taken again.
   */
  async function claim(key: CallKey, seen: number | null): Promise<boolean> {
    if (seen === null) return claimNew(key);
    const taken = await db
      .update(trackerCalls)
      .set({ status: "started", instanceId: instance.id, attempts: sql`${trackerCalls.attempts} + 1`, updatedAt: new Date() })
      .where(and(callIs(key), eq(trackerCalls.status, "started"), eq(trackerCalls.attempts, seen)))
      .returning({ attempts: trackerCalls.attempts });
    return taken.length > 0;
  }

  /** A call asked again after a 429: still this attempt's, and young. */
  async function touch(key: CallKey): Promise<void> {
    await db
      .update(trackerCalls)
      .set({ updatedAt: new Date() })
      .where(and(callIs(key), eq(trackerCalls.status, "started"), eq(trackerCalls.instanceId, instance.id)));
  }

  async function unhold(key: CallKey): Promise<void> {
    await db
      .update(trackerCalls)
      .set({ instanceId: NO_HOLDER })
      .where(and(callIs(key), eq(trackerCalls.status, "started"), eq(trackerCalls.instanceId, instance.id)));
  }

  /**
   * A run's ledger key is gone with its tracker: at most once a second (before each call) the run
   * is looked for, and when it is gone the query's calls are stopped.
   */
  function runWatch(runId: string, stop: AbortController): () => Promise<void> {
    let checkedAt = Number.NEGATIVE_INFINITY;
    return async () => {
      if (stop.signal.aborted || performance.now() - checkedAt < SUBSCRIPTION_RECHECK_MS) return;
      checkedAt = performance.now();
      if (!(await runExists(runId))) stop.abort(new RunStop("gone"));
    };
  }

  async function runExists(runId: string): Promise<boolean> {
    const [row] = await db.select({ id: trackerRuns.id }).from(trackerRuns).where(eq(trackerRuns.id, runId));
    return row !== undefined;
  }

  async function waitWhilePaused(provider: ProviderId, signal: AbortSignal): Promise<void> {
    const until = await pauses.until(provider);
    if (until > Date.now() && !(await abortableSleep(until - Date.now(), signal))) throw signal.reason;
  }

  /** The answer, over a `started` (or given-up `lost`) row, never over a `done` one. */
  async function record(key: CallKey, status: "done" | "failed", read: ModelResult): Promise<ModelResult> {
    const result = { ...read, cost: answerCost(read, prices) };
    await writeAnswer({ ...key, status, instanceId: instance.id, result, costUsd: result.cost.usd, simulated: result.simulated });
    return result;
  }

  /**
   * The query's ledger as an attempt finds it: the calls kept; those it may take (`claimable`:
   * never asked, or left `started` by an attempt that is over); and how many another attempt is
   * making (`pending`). A `started` call is being made while its holder is this process with it in
   * flight, or a live instance whose row is younger than a call can last; otherwise it may have
   * been bought and its answer lost: it is asked again, up to MAX_CALL_STARTS in all, then given up as `lost`.
   */
  async function reconcile(
    runId: string,
    position: number,
    definition: RunDefinition,
  ): Promise<{ rows: CallRow[]; claimable: { provider: ProviderId; iteration: number; seen: number | null }[]; pending: number }> {
    const rows = await db
      .select({
        call: trackerCalls,
        live: sql<boolean>`exists (select 1 from ${instances} where ${instances.id} = ${trackerCalls.instanceId} and ${instances.heartbeatAt} > ${expiry(instance.leaseMs)})`,
        old: sql<boolean>`${trackerCalls.updatedAt} < ${expiry(callStaleMs)}`,
      })
      .from(trackerCalls)
      .where(and(eq(trackerCalls.runId, runId), eq(trackerCalls.position, position)));
    const byKey = new Map(rows.map((row) => [`${row.call.provider}/${row.call.iteration}`, row]));
    const kept: CallRow[] = [];
    const claimable: { provider: ProviderId; iteration: number; seen: number | null }[] = [];
    let pending = 0;
    for (const provider of definition.providers)
      for (let iteration = 0; iteration < definition.iterations; iteration++) {
        const found = byKey.get(`${provider}/${iteration}`);
        if (!found) {
          claimable.push({ provider, iteration, seen: null });
          continue;
        }
        const { call, live, old } = found;
        if (call.status !== "started") {
          kept.push(call);
          continue;
        }
        const ours = call.instanceId === instance.id;
        if (ours ? inFlight.has(ledgerKeyOf({ runId, position, provider, iteration })) : live && !old) pending++;
        else if (call.attempts < MAX_CALL_STARTS) claimable.push({ provider, iteration, seen: call.attempts });
        else {
          const lost = { ...offModelResult(provider), status: "error" as const, error: LOST_MESSAGE };
          kept.push(await recordLost(call, lost));
        }
      }
    return { rows: kept, claimable, pending };
  }

  async function recordLost(call: CallRow, result: ModelResult): Promise<CallRow> {
    const key = { runId: call.runId, position: call.position, provider: call.provider as ProviderId, iteration: call.iteration };
    const [row] = await db
      .update(trackerCalls)
      .set({ status: "lost", result, updatedAt: new Date() })
      .where(and(callIs(key), eq(trackerCalls.status, "started"), eq(trackerCalls.attempts, call.attempts)))
      .returning();
    return row ?? call;
  }

  /**
   * The last attempt failed, or the run's deadline passed: the query's missing calls count as
   * failed (those left `started` as lost), its saved search ends with what it has, and it is finished.
   */
  async function giveUp(definition: RunDefinition, item: typeof trackerRunQueries.$inferSelect, message: string): Promise<void> {
    const missing = definition.providers.flatMap((provider) =>
      Array.from({ length: definition.iterations }, (_, iteration) => ({
        runId: item.runId,
        position: item.position,
        provider,
        iteration,
        status: "failed" as const,
        instanceId: instance.id,
        result: { ...offModelResult(provider), status: "error", error: message.slice(0, 500) },
      })),
    );
    for (let i = 0; i < missing.length; i += 500)
      await db
        .insert(trackerCalls)
        .values(missing.slice(i, i + 500))
        .onConflictDoNothing();
    await db
      .update(trackerCalls)
      .set({ status: "lost", updatedAt: new Date() })
      .where(and(eq(trackerCalls.runId, item.runId), eq(trackerCalls.position, item.position), eq(trackerCalls.status, "started")));
    await closeQuery(item, definition, 0);
  }

  async function markFinished(runId: string, position: number): Promise<void> {
    await db
      .update(trackerRunQueries)
      .set({ finishedAt: clock() })
      .where(and(eq(trackerRunQueries.runId, runId), eq(trackerRunQueries.position, position), isNull(trackerRunQueries.finishedAt)));
  }

  /**
   * The sweep (every minute, one instance at a time): a run whose start was lost is started; a
   * running run past its deadline is ended; one whose query jobs are gone (an instance that died on
   * their last attempt, a crash before they were sent) gets them again, and one whose every query
   * finished but whose end failed is ended. A tracker search left running by a deleted tracker's run is ended.
   */
  async function sweep(): Promise<void> {
    const failures: unknown[] = [];
    const each = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } catch (error) {
        failures.push(error);
      }
    };
    const queued = await db
      .select({ id: trackerRuns.id })
      .from(trackerRuns)
      .where(and(eq(trackerRuns.status, "queued"), lt(trackerRuns.createdAt, new Date(clock().getTime() - QUEUED_LOST_MS))));
    for (const { id } of queued) await each(() => startRun(id));
    const running = await db
      .select({ run: trackerRuns, tracker: trackers })
      .from(trackerRuns)
      .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
      .where(eq(trackerRuns.status, "running"));
    for (const { run, tracker } of running) {
      const definition = definitionOf(run, tracker);
      await each(() => (clock() >= deadlineOf(run, definition) ? endRun(run.id, definition) : sendQueries(run, definition)));
    }
    await each(() => store.endOrphanedTrackerSearches("Its tracker was deleted while this search ran: no more was asked"));
    if (failures.length > 0) throw failures[0];
  }

  /** A run past its deadline: each query not finished is given up, and the run ends with what came. */
  async function endRun(runId: string, definition: RunDefinition): Promise<void> {
    const open = await db
      .select()
      .from(trackerRunQueries)
      .where(and(eq(trackerRunQueries.runId, runId), isNull(trackerRunQueries.finishedAt)));
    for (const item of open) await giveUp(definition, item, deadlineReason(definition));
    await finishIfDone(runId);
  }

  /** The tracker's active run, when it is running past its deadline, is ended: true once it has. */
  async function endOverdue(trackerId: string): Promise<boolean> {
    const [active] = await db
      .select({ run: trackerRuns, tracker: trackers })
      .from(trackerRuns)
      .innerJoin(trackers, eq(trackers.id, trackerRuns.trackerId))
      .where(and(eq(trackerRuns.trackerId, trackerId), eq(trackerRuns.status, "running")))
      .limit(1);
    if (!active) return false;
    const definition = definitionOf(active.run, active.tracker);
    if (clock() < deadlineOf(active.run, definition)) return false;
    await endRun(active.run.id, definition);
    const [after] = await db.select({ status: trackerRuns.status }).from(trackerRuns).where(eq(trackerRuns.id, active.run.id));
    return after?.status !== "running";
  }

  /**
   * Once every query has finished: completed, partial (some answers failed) or failed (none came),
   * with why when it is not completed. Done again until it is done: a retried query job, the sweep.
   */
  async function finishIfDone(runId: string): Promise<void> {
    const [open] = await db
      .select({ position: trackerRunQueries.position })
      .from(trackerRunQueries)
      .where(and(eq(trackerRunQueries.runId, runId), isNull(trackerRunQueries.finishedAt)))
      .limit(1);
    if (open) return;
    // Every query has finished, whichever way: nothing more is asked, and what the run did not spend of its hold is given back.
    await spend.release(runId);
    const [tally] = await db
      .select({
        done: sql<number>`count(*) filter (where ${trackerCalls.status} = 'done')`,
        failed: sql<number>`count(*) filter (where ${trackerCalls.status} <> 'done')`,
      })
      .from(trackerCalls)
      .where(eq(trackerCalls.runId, runId));
    const done = Number(tally?.done ?? 0);
    const failed = Number(tally?.failed ?? 0);
    const status = failed === 0 ? "completed" : done > 0 ? "partial" : "failed";
    const reason = status === "completed" ? null : await whyMissing(runId, status, failed, done + failed);
    // Its counts and alerts before its status: a run that reads as ended has its trend and alerts written.
    await deps.rollups.write(runId);
    const alerts = status === "failed" ? [] : await deps.alerts.evaluate(runId);
    const [ended] = await db
      .update(trackerRuns)
      .set({ status, finishedAt: clock(), ...(reason ? { reason } : {}) })
      .where(and(eq(trackerRuns.id, runId), eq(trackerRuns.status, "running")))
      .returning({ trackerId: trackerRuns.trackerId });
    // The run's end is told by the instance whose update ended it; each alert by the one that kept it.
    if (!ended && alerts.length === 0) return;
    const trackerId =
      ended?.trackerId ?? (await db.select({ trackerId: trackerRuns.trackerId }).from(trackerRuns).where(eq(trackerRuns.id, runId)))[0]?.trackerId;
    if (!trackerId) return;
    await deps.webhooks.runEnded(runId, trackerId, alerts, { ended: Boolean(ended) });
    await deps.emails.alerted(trackerId, alerts);
  }

  /** Why a run did not complete, in its owner's words: its deadline when it passed, else the commonest failure among the missing answers. */
  async function whyMissing(runId: string, status: "partial" | "failed", failed: number, total: number): Promise<string> {
    const found = await runWithTracker(db, runId);
    if (found?.run.status === "running") {
      const definition = definitionOf(found.run, found.tracker);
      if (clock() >= deadlineOf(found.run, definition)) return deadlineReason(definition);
    }
    const [commonest] = await selectRows<{ error: string | null }>(
      db,
      sql`select ${trackerCalls.result}->>'error' as error from ${trackerCalls}
          where ${trackerCalls.runId} = ${runId} and ${trackerCalls.status} <> 'done'
          group by 1 order by count(*) desc limit 1`,
    );
    const lead = status === "failed" ? "No provider answered any query" : `${failed} of ${total} answers did not come`;
    return commonest?.error ? `${lead}: ${commonest.error.slice(0, 300)}` : lead;
  }
}

/** Why a query's calls were stopped from inside the engine: the run's deadline passed, or its tracker was deleted. */
class RunStop extends Error {
  constructor(readonly why: "deadline" | "gone") {
    super(why === "deadline" ? "the run's deadline passed" : "the tracker was deleted");
  }
}

export type TrackerEngine = ReturnType<typeof createTrackerEngine>;

export const LOST_MESSAGE = `Lost ${MAX_CALL_STARTS} times with the instance asking it: not asked again, so as not to pay for it again`;

function parseResult(value: unknown): ModelResult {
  return v.parse(ModelResult, value);
}

function noKey(provider: ProviderId): Pick<ModelResult, "error" | "failure"> {
  const { failure, message } = noKeyFailure(provider);
  return { error: message, failure };
}
