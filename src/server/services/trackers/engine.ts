import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "#db/client.ts";
import { instances, trackerCalls, trackerRunQueries, trackerRuns, trackers } from "#db/schema.ts";
import { currentDefinition, definitionOf, runWithTracker } from "./runs.ts";
import type { RunDefinition } from "#src/contract/trackers.ts";
import type { PriceTable } from "#src/contract/prices.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
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
/** Added to a run's worst case for its hold: retries, 429 waits, a queue that is behind. */
const RUN_HOLD_MARGIN_MS = 3600_000;
/** One query of a run: its search, call by call, on the ledger. */
const QUERY = "tracker-query";

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
 * ledger: each call is written `started` before it is made and `done` with its answer after, and
 * the saved search is checkpointed as answers land. A retried job asks only for what is not done;
 * a call left `started` by a dead instance is asked again once, then given up as `lost`.
 */
export function createTrackerEngine(deps: TrackerEngineDeps) {
  const { db, queue, providers, billing, spend, store, instance, prices, retry, deadline, clock = () => new Date() } = deps;
  const slots = createProviderSlots(db, { instanceId: instance.id, leaseMs: instance.leaseMs, total: deps.concurrencyTotal });
  /** Calls this process has in flight, by ledger key: a `started` row not here is not in flight here. */
  const inFlight = new Set<string>();
  /** Until when a provider that keeps answering 429 is left alone by every instance's calls. */
  const pauses = createRateLimitPauses(db);

  // Ticks and starts take milliseconds, and come in bursts: every tracker due at 09:00 ticks at once.
  queue.work<TickJob>(TICK, { concurrency: 8, quick: true }, tick);
  queue.work<{ runId: string }>(START, { concurrency: 8, quick: true }, ({ runId }) => startRun(runId));
  // Query jobs in flight per instance: enough for their calls to fill the cross-instance cap. A call
  // holds its provider's slot for the search only, then reads the answer (a second call as long),
  // so twice the cap's worth of lanes keep every slot busy; one job more starts while another reads its last answers.
  const queryConcurrency = Math.ceil((2 * deps.concurrencyTotal) / deps.concurrency) + 1;
  queue.work<QueryJob>(QUERY, { concurrency: queryConcurrency, heartbeatSeconds: QUERY_HEARTBEAT_SECONDS }, runQuery);
  queue.work<Record<string, never>>(RENEWALS, { concurrency: 1, quick: true }, () => renewals());

  // Schedules: the trackers table's next_run_at, run by one dispatcher (./dispatcher.ts, ADR 055).
  const dispatcher = createDispatcher({ db, queue, clock, tickQueue: TICK, missed: deps.missed });

  const engine = {
    /** How long a run of this definition can last at most (what its spend hold is kept for). */
    longestRunMs: runWorstCaseMs,

    /** The tracker's next run as its row now stands (none while it is paused, by its owner or by a lapsed subscription): kept, and given back. */
    schedule: dispatcher.schedule,
    unschedule: dispatcher.unschedule,
    /** Whether the row's next run needs `schedule` (the check at start). */
    needsSchedule: dispatcher.needsRepair,

    /**
     * Queues a run of the tracker's current queries, now or for a schedule's occurrence; CONFLICT
     * names the run already queued or running. An occurrence that already has its run is not run
     * again: a tick sent twice, or retried, makes one run (a run its first attempt left queued is started).
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
        if (made && made.status !== "queued") return made.id;
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
    if (!found || found.run.status !== "queued") return;
    const { tracker, run } = found;
    const definition = definitionOf(run, tracker);
    const reason = await refusal(tracker, definition, runId);
    if (reason) {
      await db.update(trackerRuns).set({ status: "skipped", reason, finishedAt: clock() }).where(eq(trackerRuns.id, runId));
      // A scheduled run a limit refused is a hole in the trend (ADR 057); a lapse pauses the tracker, which its page says.
      if (run.trigger === "schedule" && !reason.startsWith(SUBSCRIPTION_LAPSED)) await deps.missed?.report(tracker.id, run.scheduledFor, reason);
      return;
    }
    const queries = await db.select().from(trackerRunQueries).where(eq(trackerRunQueries.runId, runId));
    const expected = queries.length * definition.providers.length * definition.iterations;
    const [started] = await db
      .update(trackerRuns)
      .set({ status: "running", startedAt: clock(), expected })
      .where(and(eq(trackerRuns.id, runId), eq(trackerRuns.status, "queued")))
      .returning({ id: trackerRuns.id });
    // Another start got there first (its hold is this run's too: one row, by the run's id).
    if (!started) return;
    for (const { position } of queries)
      await queue.send<QueryJob>(QUERY, { runId, position }, { singletonKey: `${runId}/${position}`, retryLimit: QUERY_RETRIES, retryDelaySeconds: 2 });
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

  /**
   * How long a run can last, for when its hold lapses if it never ends: its queries' calls one
   * batch after another (SEARCH_CONCURRENCY a batch, query jobs side by side), each a search and
   * its reading at the call's time limit, plus an hour for retries and queues; a day at most.
   */
  function runWorstCaseMs(definition: Pick<RunDefinition, "queries" | "iterations">): number {
    const callMs = deadlineFor(1, deadline).ms;
    const rounds = Math.ceil(definition.queries.length / queryConcurrency) * Math.ceil(definition.iterations / deps.concurrency);
    return Math.min(rounds * 2 * callMs + RUN_HOLD_MARGIN_MS, RUN_HOLD_MAX_MS);
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
    if (!found || found.item.finishedAt || found.run.status !== "running") return;
    const { tracker, item, run } = found;
    // What the run was made to ask: an edit of the tracker since changes nothing it buys.
    const definition = definitionOf(run, tracker);
    try {
      await askQuery(tracker, definition, item, job.signal);
    } catch (error) {
      // The last attempt: what is not done is given up, so the run still ends (partial).
      if (job.retryCount < QUERY_RETRIES || job.signal.aborted) throw error;
      await giveUp(definition, item, error instanceof Error ? error.message : String(error));
    }
    await finishIfDone(runId);
  }

  async function askQuery(tracker: TrackerRow, definition: RunDefinition, item: typeof trackerRunQueries.$inferSelect, signal: AbortSignal): Promise<void> {
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

    const ledger = await reconcile(runId, position);
    const started = performance.now();
    const checkpoint = createCheckpoint((partial) => store.checkpoint(id, instance.id, partial), { query, iterations });
    for (const row of ledger) if (row.status !== "started" && row.result) checkpoint.add(row.provider as ProviderId, parseResult(row.result));
    // The run's hold is its id (refusal); its monthly budget is checked before each call, as the daily limits are.
    const budget = await spend.budget({
      userId: tracker.userId,
      source: "tracker",
      hold: { id: runId },
      searchId: async () => id,
      tracker: { id: tracker.id, monthlyBudgetUsd: tracker.monthlyBudgetUsd },
    });
    const lapsed = subscriptionWatch(tracker);
    const call: ProviderRun = { query, options, signal, retry, deadline: deadlineFor(1, deadline) };
    const asked = definition.providers;
    try {
      await Promise.all(
        asked.map(async (provider) => {
          const limit = createLimiter(deps.concurrency);
          const missing = Array.from({ length: iterations }, (_, iteration) => iteration).filter((iteration) => {
            const row = ledger.find((r) => r.provider === provider && r.iteration === iteration);
            return !row || row.status === "started";
          });
          await Promise.all(
            missing.map((iteration) =>
              limit(async () => {
                const result = await askOnce(provider, iteration, { runId, position, call, budget, lapsed });
                checkpoint.add(provider, result);
                // A model without a price is charged at the table's highest rates (ADR 052); its cost still reads unknown.
                await budget.spend(answerCharge(result, prices));
              }),
            ),
          );
        }),
      );
    } finally {
      await checkpoint.close();
    }

    const rows = await db
      .select()
      .from(trackerCalls)
      .where(and(eq(trackerCalls.runId, runId), eq(trackerCalls.position, position)))
      .orderBy(asc(trackerCalls.iteration));
    const runs: Partial<Record<ProviderId, ModelResult[]>> = {};
    for (const row of rows) if (row.result) (runs[row.provider as ProviderId] ??= []).push(parseResult(row.result));
    const result = buildSearchResult({ query, executionTimeMs: Math.round(performance.now() - started), iterations, runs });
    const answered = providerIds.some((provider) => runs[provider]?.some((run) => run.status === "ok"));
    if (answered) await store.complete(id, instance.id, { ...result, id, options, createdAt: new Date().toISOString() });
    else await store.fail(id, instance.id, "failed", "No provider answered this query", result);
    await markFinished(runId, position);
  }

  /**
   * One call on the ledger: `started` before it is made, `done` or `failed` with the answer after.
   * The provider's slot (PROVIDER_CONCURRENCY_TOTAL) is held for the search call only, as the
   * search's own limiter does; a provider still answering 429 after its waits pauses and is asked again.
   */
  async function askOnce(
    provider: ProviderId,
    iteration: number,
    { runId, position, call, budget, lapsed }: { runId: string; position: number; call: ProviderRun; budget: SpendBudget; lapsed: () => Promise<boolean> },
  ): Promise<ModelResult> {
    // A stopped job starts nothing more: what it had queued is the retry's.
    call.signal.throwIfAborted();
    const adapter = providers[provider];
    const key = { runId, position, provider, iteration };
    if (!adapter) return record(key, "failed", { ...offModelResult(provider), modelName: "not connected", modelVersion: "not connected", ...noKey(provider) });
    const reached = budget.exhausted();
    if (reached) return record(key, "failed", { ...failedCard(adapter, performance.now()), stopped: "spend-limit", error: `Stopped: ${reached}.` });
    if (await lapsed())
      return record(key, "failed", { ...failedCard(adapter, performance.now()), error: `Stopped: ${SUBSCRIPTION_LAPSED}, so no more is asked.` });
    const ledgerKey = `${runId}/${position}/${provider}/${iteration}`;
    inFlight.add(ledgerKey);
    try {
      let asked: Asked | undefined;
      for (let waits = 0; ; waits++) {
        await waitWhilePaused(provider, call.signal);
        const release = await slots.take(provider, call.signal);
        try {
          // Recorded once it holds its slot, right before the call: a `started` row is a call made or about to be.
          if (waits === 0)
            await db
              .insert(trackerCalls)
              .values({ ...key, status: "started", instanceId: instance.id })
              .onConflictDoUpdate({
                target: [trackerCalls.runId, trackerCalls.position, trackerCalls.provider, trackerCalls.iteration],
                set: { status: "started", instanceId: instance.id, attempts: sql`${trackerCalls.attempts} + 1`, updatedAt: new Date() },
              });
          asked = await askProvider(adapter, { ...call, deadline: deadlineFor(1, deadline) });
        } finally {
          await release();
        }
        if (!("failed" in asked) || asked.failed.failure !== "rate_limited" || waits >= RATE_LIMIT_WAITS) break;
        // Refused with a 429, not bought: the call waits with the provider's other calls here, and asks again.
        await pauses.pause(provider, Date.now() + (retry ?? defaultRetryPolicy).maxDelayMs);
      }
      const read = "failed" in asked ? asked.failed : await readAnswer(adapter, asked, call);
      return await record(key, read.status === "ok" ? "done" : "failed", read);
    } finally {
      inFlight.delete(ledgerKey);
    }
  }

  async function waitWhilePaused(provider: ProviderId, signal: AbortSignal): Promise<void> {
    const until = await pauses.until(provider);
    if (until > Date.now() && !(await abortableSleep(until - Date.now(), signal))) throw signal.reason;
  }

  async function record(
    key: { runId: string; position: number; provider: ProviderId; iteration: number },
    status: "done" | "failed",
    read: ModelResult,
  ): Promise<ModelResult> {
    const result = { ...read, cost: answerCost(read, prices) };
    await db
      .insert(trackerCalls)
      .values({ ...key, status, instanceId: instance.id, result, costUsd: result.cost.usd, simulated: result.simulated })
      .onConflictDoUpdate({
        target: [trackerCalls.runId, trackerCalls.position, trackerCalls.provider, trackerCalls.iteration],
        set: { status, instanceId: instance.id, result, costUsd: result.cost.usd, simulated: result.simulated, updatedAt: new Date() },
      });
    return result;
  }

  /**
   * The query's ledger as a retry finds it. A call left `started` by an attempt that is over (its
   * instance's lease lapsed, or this instance no longer has it in flight) may have been bought and
   * its answer lost: it is asked again once; one lost a second time is given up as `lost`. A call
   * still in flight on a live instance means that attempt runs on: this one waits for a retry.
   */
  async function reconcile(runId: string, position: number): Promise<CallRow[]> {
    const rows = await db
      .select({
        call: trackerCalls,
        live: sql<boolean>`exists (select 1 from ${instances} where ${instances.id} = ${trackerCalls.instanceId} and ${instances.heartbeatAt} > ${expiry(instance.leaseMs)})`,
      })
      .from(trackerCalls)
      .where(and(eq(trackerCalls.runId, runId), eq(trackerCalls.position, position)));
    const ledger: CallRow[] = [];
    for (const { call, live } of rows) {
      if (call.status !== "started") {
        ledger.push(call);
        continue;
      }
      const ours = call.instanceId === instance.id;
      if (ours ? inFlight.has(`${runId}/${position}/${call.provider}/${call.iteration}`) : live)
        throw new Error(`calls of this query are still in flight on instance ${call.instanceId}`);
      if (call.attempts < 2) {
        ledger.push(call);
        continue;
      }
      const lost = { ...offModelResult(call.provider as ProviderId), status: "error" as const, error: LOST_MESSAGE };
      ledger.push(await recordLost(call, lost));
    }
    return ledger;
  }

  async function recordLost(call: CallRow, result: ModelResult): Promise<CallRow> {
    const [row] = await db
      .update(trackerCalls)
      .set({ status: "lost", result, updatedAt: new Date() })
      .where(
        and(
          eq(trackerCalls.runId, call.runId),
          eq(trackerCalls.position, call.position),
          eq(trackerCalls.provider, call.provider),
          eq(trackerCalls.iteration, call.iteration),
        ),
      )
      .returning();
    return row ?? call;
  }

  /** The last attempt failed: the query's search keeps what it has, and its missing calls count as failed. */
  async function giveUp(definition: RunDefinition, item: typeof trackerRunQueries.$inferSelect, message: string): Promise<void> {
    for (const provider of definition.providers)
      for (let iteration = 0; iteration < definition.iterations; iteration++)
        await db
          .insert(trackerCalls)
          .values({
            runId: item.runId,
            position: item.position,
            provider,
            iteration,
            status: "failed",
            instanceId: instance.id,
            result: { ...offModelResult(provider), status: "error", error: message.slice(0, 500) },
          })
          .onConflictDoNothing();
    await db
      .update(trackerCalls)
      .set({ status: "lost", updatedAt: new Date() })
      .where(and(eq(trackerCalls.runId, item.runId), eq(trackerCalls.position, item.position), eq(trackerCalls.status, "started")));
    await markFinished(item.runId, item.position);
  }

  async function markFinished(runId: string, position: number): Promise<void> {
    await db
      .update(trackerRunQueries)
      .set({ finishedAt: clock() })
      .where(and(eq(trackerRunQueries.runId, runId), eq(trackerRunQueries.position, position), isNull(trackerRunQueries.finishedAt)));
  }

  /** Once every query has finished: completed, partial (some answers failed) or failed (none came). */
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
    // Its counts and alerts before its status: a run that reads as ended has its trend and alerts written.
    await deps.rollups.write(runId);
    const alerts = status === "failed" ? [] : await deps.alerts.evaluate(runId);
    const [ended] = await db
      .update(trackerRuns)
      .set({ status, finishedAt: clock(), ...(status === "failed" ? { reason: "No provider answered any query" } : {}) })
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
}

export type TrackerEngine = ReturnType<typeof createTrackerEngine>;

export const LOST_MESSAGE = "Lost twice with the instance asking it: not asked a third time, so as not to pay for it again";

function parseResult(value: unknown): ModelResult {
  return v.parse(ModelResult, value);
}

function noKey(provider: ProviderId): Pick<ModelResult, "error" | "failure"> {
  const { failure, message } = noKeyFailure(provider);
  return { error: message, failure };
}
