import type { Db } from "#db/client.ts";
import { trackers as trackerRows } from "#db/schema.ts";
import { createAccounts } from "./auth/accounts.ts";
import { createLoginGuard } from "./auth/login-guard.ts";
import { createThrottle } from "./auth/throttle.ts";
import { createStripeClient, type BillingConfig } from "./billing/config.ts";
import { createBilling } from "./billing/index.ts";
import { createCompare } from "./compare/index.ts";
import { createLens } from "./lens/index.ts";
import type { JobQueue } from "./job-queue.ts";
import { createTokens } from "./tokens/index.ts";
import { createTrackerEngine, type TrackerEngineDeps } from "./trackers/engine.ts";
import { createTrackers, DEFAULT_TRACKER_CAPS, type TrackerCaps } from "./trackers/index.ts";
import { createRollups } from "./trackers/rollups.ts";
import { createAlerts } from "./trackers/alerts.ts";
import { createDetectability } from "./trackers/detectability.ts";
import { createChanges } from "./trackers/changes.ts";
import { createWebhooks } from "./trackers/webhooks.ts";
import { createRunHeadline } from "./trackers/summary.ts";
import type { WebhookPolicy } from "./trackers/webhook-url.ts";
import { createTrackerEmails } from "./trackers/emails.ts";
import { createMailer } from "./mail/index.ts";
import { createMailLinks } from "./mail/links.ts";
import { createOutbox } from "./mail/outbox.ts";
import { createNotifications } from "./notifications/index.ts";
import { createVariants } from "./variants/index.ts";
import { createWorkspaces } from "./workspaces/index.ts";
import { createAudit } from "./workspaces/audit.ts";
import { createShares } from "./shares/index.ts";
import { createReports } from "./reports/index.ts";
import { createSchedulesCheck } from "./trackers/schedules-check.ts";
import { createMissedRuns } from "./trackers/missed.ts";
import type { PriceTable } from "#src/contract/prices.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import { createSpend, describeCharge, type SpendLimits } from "./spend/index.ts";
import { createEvents } from "./events.ts";
import type { RetryPolicy } from "./providers/retry.ts";
import { createQuotaService } from "./quota/index.ts";
import { createRegistrationGate } from "./quota/registrations.ts";
import { defaultFreeTierPolicy, REGISTRATION_ATTEMPT_WINDOW_MS, type FreeTierPolicy } from "./quota/subjects.ts";
import type { DeadlinePolicy } from "./search/deadline.ts";
import { createSearchService, type UnpricedPolicy } from "./search/index.ts";
import type { InstancePort } from "./search/instances.ts";
import type { Providers } from "./search/run.ts";
import { createSearchStore } from "./search/store.ts";

export type ServicesDeps = {
  db: Db;
  /** Keys the hashes of client addresses the quota keeps. */
  secret: string;
  /** The app instance searches run on (src/server/instance.ts). */
  instance: InstancePort;
  /** One adapter per connected provider (./providers). */
  providers: Providers;
  /** Provider calls in flight at once, per provider. */
  concurrency: number;
  retry?: RetryPolicy;
  /** How long a search may take (./search/deadline.ts). */
  deadline: DeadlinePolicy;
  /** How payments run (./billing/config.ts). */
  billing: BillingConfig;
  /** Work that outlives its request (variant batches). */
  queue: JobQueue;
  /** How far the free tier stretches per network (ADR 015); the defaults when not given. */
  freeTier?: FreeTierPolicy;
  /** Which provider writes query variants (VARIANTS_PROVIDER). */
  variantsProvider?: ProviderId;
  /** The time the quota day, Pro grace and login throttling go by; tests move it. */
  clock?: () => Date;
  /** What answers cost (ADR 041). */
  prices: PriceTable;
  /** The daily spend limits, in USD, and trackers' share of the deployment's (ADR 052). */
  spendLimits: SpendLimits;
  /** UNPRICED_MODELS: a model without a price is charged at the table's highest rates (the default), or refused. */
  unpriced?: UnpricedPolicy;
  /**
   * Trackers' settings (ADR 043, ADR 052): TRACKER_MIN_INTERVAL_MINUTES, PROVIDER_CONCURRENCY_TOTAL,
   * and the caps (MAX_TRACKERS_PER_ACCOUNT, MAX_TRACKER_RUN_ANSWERS, TRACKER_MANUAL_RUNS_PER_DAY).
   */
  trackers?: {
    minIntervalMinutes: number;
    concurrencyTotal: number;
    webhooks: WebhookPolicy;
    /** SMTP_URL, MAIL_FROM; PUBLIC_URL, which e-mails link to, and MAIL_DAILY_CAP (ADR 053). */
    mail: { smtpUrl: string | undefined; from: string; publicUrl?: string; dailyCap?: number };
    caps?: TrackerCaps;
    /** Where each scheduled run's lateness is observed (src/server/metrics), when metrics are on. */
    metrics?: TrackerEngineDeps["metrics"];
  };
  /** Reads of one share link a minute (SHARE_READS_PER_MINUTE, ADR 048), counted for every instance. */
  shareReadsPerMinute?: number;
  /** Reads of share links a minute from one client's network, unknown links included (SHARE_READS_PER_CLIENT_PER_MINUTE). */
  shareReadsPerClientPerMinute?: number;
};

/**
 * Every service, wired to the others. Plain values in, data out: the HTTP routes call these, and
 * so can a CLI or a scheduler. Sign-in is one event that search history and quota both follow.
 */
export function createServices({
  db,
  secret,
  instance,
  providers,
  concurrency,
  retry,
  deadline,
  billing: billingConfig,
  queue,
  freeTier = defaultFreeTierPolicy,
  variantsProvider,
  clock,
  prices,
  spendLimits,
  unpriced,
  trackers: trackerSettings = {
    minIntervalMinutes: 60,
    concurrencyTotal: 16,
    webhooks: { allowPrivate: false, httpsOnly: false },
    mail: { smtpUrl: undefined, from: "AI Search Comparison <no-reply@localhost>" },
  },
  shareReadsPerMinute = 300,
  shareReadsPerClientPerMinute = 120,
}: ServicesDeps) {
  const events = createEvents();
  const billing = createBilling({ db, config: billingConfig, stripe: createStripeClient(billingConfig), clock });
  const quota = createQuotaService({ db, secret, billing, policy: freeTier, clock });
  const registrations = createRegistrationGate({ db, secret, policy: freeTier, clock });
  const registrationAttempts = createThrottle({ limit: freeTier.registrationAttempts, windowMs: REGISTRATION_ATTEMPT_WINDOW_MS, clock });
  const accounts = createAccounts({ db, events, registrations, registrationAttempts, loginGuard: createLoginGuard({ clock }) });
  const spend = createSpend({ db, limits: spendLimits, clock });
  const store = createSearchStore(db);
  const search = createSearchService({ store, quota, instance, providers, concurrency, retry, deadline, prices, spend, unpriced });
  events.on("signedIn", search.adopt);
  events.on("signedIn", quota.adopt);
  const variants = createVariants({ db, providers, billing, search, queue, generator: variantsProvider, retry });
  const lens = createLens({ db, billing, search });
  const compare = createCompare({ billing, search });
  const tokens = createTokens({ db, clock });
  const estimate = (row: { iterations: number; providers: string[]; queries: string[] }) => {
    const { usd, simulated } = search.estimate(row.iterations, row.providers as ProviderId[]);
    return { usd: usd === null ? null : usd * row.queries.length, simulated };
  };
  /** What a run of this definition is held at, models without a price at the price table's highest rates (ADR 052). */
  const charge = (definition: { iterations: number; providers: string[]; queries: string[] }) => {
    const one = search.charge(definition.iterations, definition.providers as ProviderId[], "this run");
    const usd = one.usd * definition.queries.length;
    return { usd, unpriced: one.unpriced, describe: describeCharge("this run", usd, one.unpriced) };
  };
  const caps = trackerSettings.caps ?? DEFAULT_TRACKER_CAPS;
  const rollups = createRollups({ db, store });
  const alerts = createAlerts({ db, clock });
  const audit = createAudit(db);
  const mailer = createMailer(trackerSettings.mail);
  const mailLinks = createMailLinks({ secret, publicUrl: trackerSettings.mail.publicUrl ?? "http://localhost:3000", clock });
  const webhooks = createWebhooks({
    db,
    queue,
    policy: trackerSettings.webhooks,
    publicUrl: mailLinks.publicUrl,
    headline: createRunHeadline({ db, rollups, clock: clock ?? (() => new Date()) }),
    clock,
  });
  const outbox = createOutbox({ db, queue, mailer, links: mailLinks, dailyCap: trackerSettings.mail.dailyCap ?? 10, clock });
  const emails = createTrackerEmails({ db, queue, outbox, alerts, rollups, clock });
  const notifications = createNotifications({ db, outbox, links: mailLinks, clock });
  const missed = createMissedRuns({ db, queue, emails, webhooks, clock });
  const engine = createTrackerEngine({
    db,
    queue,
    providers,
    billing,
    spend,
    store,
    instance,
    prices,
    charge,
    maxRunAnswers: caps.maxRunAnswers,
    rollups,
    alerts,
    webhooks,
    emails,
    missed,
    concurrency,
    concurrencyTotal: trackerSettings.concurrencyTotal,
    retry,
    deadline,
    clock,
    metrics: trackerSettings.metrics,
  });
  const trackers = createTrackers({
    db,
    providers,
    estimate,
    engine,
    searches: store,
    rollups,
    alerts,
    changes: createChanges({ db, store }),
    detectability: createDetectability(),
    emails,
    missed,
    webhookPolicy: trackerSettings.webhooks,
    webhooks,
    minIntervalMinutes: trackerSettings.minIntervalMinutes,
    caps,
    audit,
    isPro: billing.isPro,
    clock,
  });
  const workspaces = createWorkspaces({ db, outbox, removeTrackers: trackers.removeInWorkspace, isPro: billing.isPro, clock });
  const shares = createShares({
    db,
    secret,
    search,
    compare,
    trackers,
    variants,
    billing,
    audit,
    clock: clock ?? (() => new Date()),
    reads: { perLink: shareReadsPerMinute, perClient: shareReadsPerClientPerMinute },
  });
  const reports = createReports({ db, queue, outbox, links: mailLinks, trackers, shares, rollups, alerts, clock });
  const anyTracker = async () => (await db.select({ id: trackerRows.id }).from(trackerRows).limit(1)).length > 0;
  const checkSchedules = createSchedulesCheck({ db, engine, minIntervalMinutes: trackerSettings.minIntervalMinutes, clock });
  /**
   * What is done once as the app starts, before it serves: every tracker's schedule checked against
   * the rules in force now (./trackers/schedules-check.ts). A failure is told, not fatal: the next start checks again.
   */
  async function startup(): Promise<void> {
    try {
      // Put in place by every instance that has trackers to look at (the same key replaces it): one check a tick whichever are up.
      if (await anyTracker()) await missed.schedule();
    } catch (error) {
      console.error(
        `The look for missed tracker runs could not be scheduled (the next start tries again): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    try {
      const { paused } = await checkSchedules();
      if (paused.length)
        console.log(
          `${paused.length} tracker${paused.length === 1 ? "" : "s"} paused at start: their schedule runs more often than TRACKER_MIN_INTERVAL_MINUTES=${trackerSettings.minIntervalMinutes} allows, or holds a cron token no longer accepted`,
        );
    } catch (error) {
      console.error(
        `The check of trackers' schedules at start failed (it runs again at the next start): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  return {
    accounts,
    billing,
    quota,
    search,
    variants,
    lens,
    compare,
    tokens,
    spend,
    trackers,
    notifications,
    alerts,
    shares,
    reports,
    missed,
    workspaces,
    startup,
  };
}

export type Services = ReturnType<typeof createServices>;
