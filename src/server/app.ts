import { Elysia } from "elysia";
import type { Database } from "#db/client.ts";
import type { Env } from "#src/server/env.ts";
import { bodyLimit } from "#src/server/http/body-limit.ts";
import { csrf } from "#src/server/http/csrf.ts";
import { securityHeaders } from "#src/server/http/security-headers.ts";
import { onError } from "#src/server/http/errors.ts";
import { relayClientIp, type ConnectionInfo } from "#src/server/http/forwarded.ts";
import { guards } from "#src/server/http/guards.ts";
import { identity } from "#src/server/http/identity.ts";
import { tokenAccessGuard } from "#src/server/http/token-access.ts";
import { createInstance, type Instance } from "#src/server/instance.ts";
import { createSessions } from "#src/server/http/session-cookie.ts";
import { createSigner } from "#src/server/http/signed.ts";
import { authRoutes } from "#src/server/routes/api/auth.ts";
import { billingRoutes } from "#src/server/routes/api/billing.ts";
import { apiDocs } from "#src/server/routes/api/docs.ts";
import { healthRoutes } from "#src/server/routes/api/health.ts";
import { metricsRoutes } from "#src/server/routes/metrics.ts";
import { createMetrics, instrumentProviders } from "#src/server/metrics/index.ts";
import { quotaRoutes } from "#src/server/routes/api/quota.ts";
import { searchRoutes } from "#src/server/routes/api/search.ts";
import { spendRoutes } from "#src/server/routes/api/spend.ts";
import { statusRoutes } from "#src/server/routes/api/status.ts";
import { tokenRoutes } from "#src/server/routes/api/tokens.ts";
import { trackerRoutes } from "#src/server/routes/api/trackers.ts";
import { emailRoutes } from "#src/server/routes/api/email.ts";
import { shareRoutes } from "#src/server/routes/api/shares.ts";
import { workspaceRoutes } from "#src/server/routes/api/workspaces.ts";
import { reportRoutes } from "#src/server/routes/api/reports.ts";
import { unmatchedApiRoutes } from "#src/server/routes/api/unmatched.ts";
import { variantRoutes } from "#src/server/routes/api/variants.ts";
import { workbenchRoutes } from "#src/server/routes/api/workbench.ts";
import type { JobQueue } from "#src/server/services/job-queue.ts";
import { assetRoutes } from "#src/server/routes/assets.ts";
import { pageRoutes, type PageRenderer } from "#src/server/routes/pages.ts";
import type { BillingConfig } from "#src/server/services/billing/config.ts";
import { createServices } from "#src/server/services/index.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { ProviderStatus } from "#src/server/services/providers/status.ts";
import type { Providers } from "#src/server/services/search/run.ts";

export type AppDeps = {
  env: Env;
  database: Database;
  /** Folder with the hashed client files (scripts/build-assets.ts). */
  assetsDir: string;
  /** Renders a page; the web app's renderer (web/render.tsx), handed in so the server never imports the web. */
  renderPage: PageRenderer;
  /** One adapter per connected provider (src/server/services/providers). */
  providers: Providers;
  /** What the last check of each provider found (src/server/services/providers/status.ts). */
  providerStatus: ProviderStatus;
  /** How payments run: Stripe, the Stripe simulator, or off (src/server/services/billing/config.ts). */
  billing: BillingConfig;
  /** The job queue (src/server/jobs): started by the caller, or at the first job. */
  queue: JobQueue;
  /** This process among the instances sharing the database, started by the caller; an unstarted one by default. */
  instance?: Instance;
  retry?: RetryPolicy;
  /** The time sessions, login throttling and the daily quota go by; tests move it. */
  clock?: () => Date;
};

/** Builds the whole HTTP app without listening: tests drive it with `app.handle(request)`. */
export async function createApp(deps: AppDeps) {
  const secret = deps.env.SESSION_SECRET;
  const trustProxy = deps.env.TRUST_PROXY;
  const clock = deps.clock ?? (() => new Date());
  const instance = deps.instance ?? createInstance(deps.database);
  const metricsToken = deps.env.METRICS_TOKEN;
  // Only with METRICS_TOKEN: a registry per app (tests build many). Spend is read at scrape time, from the service below.
  const metrics = metricsToken ? createMetrics({ db: deps.database.db, spend: { today: () => services.spend.today() } }) : undefined;
  const deadline = { oneIterationMs: deps.env.SEARCH_DEADLINE_SECONDS * 1000, hundredIterationsMs: deps.env.SEARCH_DEADLINE_SECONDS_AT_100 * 1000 };
  const services = createServices({
    db: deps.database.db,
    secret,
    instance,
    providers: metrics ? instrumentProviders(deps.providers, metrics.providerCall) : deps.providers,
    concurrency: deps.env.SEARCH_CONCURRENCY,
    retry: deps.retry,
    deadline,
    billing: deps.billing,
    queue: deps.queue,
    freeTier: deps.env.freeTier,
    variantsProvider: deps.env.VARIANTS_PROVIDER,
    clock,
    prices: deps.env.prices,
    spendLimits: { account: deps.env.ACCOUNT_DAILY_SPEND_USD, deployment: deps.env.DAILY_SPEND_USD, trackerShare: deps.env.TRACKER_SPEND_SHARE },
    unpriced: deps.env.UNPRICED_MODELS,
    trackers: {
      minIntervalMinutes: deps.env.TRACKER_MIN_INTERVAL_MINUTES,
      concurrencyTotal: deps.env.PROVIDER_CONCURRENCY_TOTAL,
      webhooks: { allowPrivate: deps.env.WEBHOOK_ALLOW_PRIVATE, httpsOnly: deps.env.NODE_ENV === "production" },
      mail: {
        smtpUrl: deps.env.SMTP_URL,
        from: deps.env.MAIL_FROM,
        publicUrl: deps.env.PUBLIC_URL ?? `http://localhost:${deps.env.PORT}`,
        dailyCap: deps.env.MAIL_DAILY_CAP,
      },
      metrics,
      caps: {
        maxTrackers: deps.env.MAX_TRACKERS_PER_ACCOUNT,
        maxRunAnswers: deps.env.MAX_TRACKER_RUN_ANSWERS,
        manualRunsPerDay: deps.env.TRACKER_MANUAL_RUNS_PER_DAY,
      },
    },
    shareReadsPerMinute: deps.env.SHARE_READS_PER_MINUTE,
    shareReadsPerClientPerMinute: deps.env.SHARE_READS_PER_CLIENT_PER_MINUTE,
  });
  // Before serving: trackers whose schedule the rules in force now refuse are paused (services/trackers/schedules-check.ts).
  await services.startup();
  const sessions = createSessions({ accounts: services.accounts, secret, clock });
  const identityPlugin = identity(createSigner(secret), { sessions, trustProxy, tokens: services.tokens });
  // The `signedIn`, `pro` and `workspaceRole` declarations routes make (http/guards.ts).
  const guarded = guards(identityPlugin, services.billing, services.workspaces);
  // The relay to the Stripe simulator is a fake, kept out of the product (dev/, ADR 036): loaded
  // only when billing is simulated, as assemble() loads the simulators themselves.
  const stripeRelay =
    deps.billing.mode === "simulated" && deps.billing.apiBase ? (await import("#dev/stripe-relay.ts")).stripeRelayRoutes(deps.billing.apiBase) : new Elysia();
  const app = new Elysia()
    .onError(onError(trustProxy))
    .use(securityHeaders({ trustProxy }))
    .use(bodyLimit())
    .use(csrf({ trustProxy }))
    .use(assetRoutes(deps.assetsDir))
    .use(apiDocs())
    .use(healthRoutes({ db: deps.database.kind, write: () => instance.beat() }))
    .use(metrics && metricsToken ? metricsRoutes(metrics, metricsToken) : new Elysia())
    // Before every route that reads the caller: what a token may do is checked here, once.
    .use(tokenAccessGuard(identityPlugin, routeTable))
    .use(authRoutes({ accounts: services.accounts, sessions, trustProxy }, guarded))
    .use(billingRoutes(services.billing, guarded))
    .use(quotaRoutes(services.quota, identityPlugin, { trustProxy }))
    .use(spendRoutes(services, guarded))
    .use(searchRoutes(services.search, identityPlugin, { trustProxy, heartbeatMs: deps.env.SSE_HEARTBEAT_SECONDS * 1000 }))
    .use(statusRoutes({ modes: services.search.modes, health: deps.providerStatus.current, billing: deps.billing.mode }))
    .use(variantRoutes(services.variants, guarded))
    .use(workbenchRoutes(services, guarded))
    .use(tokenRoutes(services.tokens, guarded))
    .use(trackerRoutes(services, guarded))
    .use(emailRoutes(services.notifications, guarded))
    .use(reportRoutes(services.reports, guarded))
    .use(shareRoutes(services.shares, guarded, { trustProxy }))
    .use(workspaceRoutes(services.workspaces, guarded, { trustProxy }))
    .use(stripeRelay)
    .use(unmatchedApiRoutes(routeTable))
    .use(pageRoutes(deps.renderPage, handle, { liveStripe: deps.billing.mode === "live", trustProxy }));
  // The routes as registered, read at the first unmatched request; declared with its type to break the cycle.
  function routeTable(): ReadonlyArray<{ method: string; path: string; handler?: unknown; hooks?: { detail?: unknown } }> {
    return app.routes;
  }
  // Pages fetch their data through the app itself; declared with its type to break the cycle.
  function handle(request: Request, from: ConnectionInfo): Promise<Response> {
    return app.handle(relayClientIp(request, from, trustProxy));
  }
  return app;
}

export type App = Awaited<ReturnType<typeof createApp>>;
