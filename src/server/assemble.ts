import { join, resolve } from "node:path";
import { createDatabase, MEMORY_DATA_DIR, probePostgres, type Database } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { startStatistics } from "#db/statistics.ts";
import { createApp, type App } from "#src/server/app.ts";
import { connectRetryPolicy, connectWithRetry } from "#src/server/connect-retry.ts";
import { DEFAULT_DATA_DIR, loadEnv, type Env } from "#src/server/env.ts";
import { createInstance, type Instance } from "#src/server/instance.ts";
import type { StartJobsOptions } from "#src/server/jobs/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { describeTightened, tightenModes } from "#src/server/owner-only.ts";
import type { PageRenderer } from "#src/server/routes/pages.ts";
import { billingConfig, billingMode, type BillingConfig } from "#src/server/services/billing/config.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { createProviderStatus, type ProviderStatus } from "#src/server/services/providers/status.ts";
import type { JobQueue } from "#src/server/services/job-queue.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import { EXIT, failStartup, isTransientConnectFailure, StartupError, type StartupContext } from "#src/server/startup-errors.ts";
import type { Simulator, SimulatorOptions } from "#dev/simulators/index.ts";
import type { StripeSimulator } from "#dev/simulators/stripe.ts";

/** Where the providers' simulator listens: all the app needs of one (a caller's may be in another process). */
export type ProviderSimulator = Pick<Simulator, "baseUrls">;

export type AssembleOptions = {
  /** The variables to configure from (src/server/env.ts); process.env by default. */
  env?: Record<string, string | undefined>;
  /** The page renderer for the client build in `distDir` (web/render.tsx): the server never imports the web. */
  renderer: (distDir: string) => PageRenderer;
  /** Where the built client files are; dist/ of this tree by default. */
  distDir?: string;
  /**
   * The caller's database, already migrated, left open by `close()`. By default the one the
   * environment names (DATABASE_URL, or PGlite in DATA_DIR, which this process then holds), or
   * "memory" for a throwaway one; either is migrated here and closed by `close()`.
   */
  database?: Database | "memory";
  migrationsFolder?: string;
  /** PGlite's WebAssembly files, when they are not beside its module (the single binary). */
  pgliteDir?: string;
  /**
   * The caller's providers simulator, left running by `close()`. By default one is started when a
   * provider runs simulated, with `simulate`'s options (the demo's noise, extractor errors and run effects unless given).
   */
  simulator?: ProviderSimulator;
  simulate?: SimulatorOptions;
  /**
   * The caller's Stripe simulator, left running by `close()`. By default, when billing runs
   * simulated, one is started that keeps its state in DATA_DIR (ADR 027).
   */
  stripe?: StripeSimulator;
  /** This process among the instances (started and stopped by the caller). By default one that `listen` starts. */
  instance?: Instance;
  /** How often the job queue looks for work (src/server/jobs). */
  pollingIntervalSeconds?: number;
  /** How often due schedule ticks and jobs whose heartbeat lapsed are looked for (src/server/jobs; tests shorten them). */
  jobs?: Pick<StartJobsOptions, "cronMonitorIntervalSeconds" | "superviseIntervalSeconds">;
  retry?: RetryPolicy;
  /** The app's time (sessions, login throttle, quota day); real time unless given. */
  clock?: () => Date;
  /**
   * Serve on HOST:PORT: the instance then takes its lease (marking the searches of instances that
   * died interrupted) and the job queue starts, so that jobs a restart left behind resume now.
   * Without, the app answers `app.handle(request)`: its instance unstarted, its queue started at
   * the first job, and the Stripe simulator's webhooks delivered straight into it.
   */
  listen?: boolean;
  /** Close to other users what an earlier version (or umask) left open in DATA_DIR, once it is ours (owner-only.ts). */
  tightenDataDir?: boolean;
};

/** The parts of the app, and one `close()` that closes what was opened here, newest first. */
export type Assembly = {
  env: Env;
  database: Database;
  simulator?: ProviderSimulator;
  stripe?: StripeSimulator;
  providers: Providers;
  /** Each provider's connection as last checked: checked at start and every PROVIDER_CHECK_MINUTES when listening; `checkNow()` otherwise. */
  providerStatus: ProviderStatus;
  billing: BillingConfig;
  queue: JobQueue;
  instance: Instance;
  app: App;
  /** Migrations applied at this assembly (none on a caller's database). */
  migrations: number;
  /** Searches of dead instances marked interrupted when this one started. */
  interrupted: number;
  /** Closes every part this assembly opened (not the caller's), even when one fails; rejects with the first failure. */
  close(): Promise<void>;
};

/** Where Stripe's webhooks reach the app. */
const WEBHOOK_PATH = "/api/stripe/webhook";

/**
 * The one place the app is put together: configuration, database, providers (or their
 * simulator), billing (or the Stripe simulator), jobs, instance and the HTTP app, for the server,
 * the tests, the benches and the seed script alike. A failure part-way closes what was opened,
 * through the same `close()`, and is thrown; `context` then says how far it got and what it worked
 * with, for the message of a failed start (startup-errors.ts).
 */
export async function assemble(options: AssembleOptions, context: StartupContext = { stage: "config" }): Promise<Assembly> {
  const opened: Array<() => unknown> = [];
  const close = () => closeAll(opened);
  try {
    return { ...(await build(options, context, opened)), close };
  } catch (error) {
    // Bounded: a part that hangs on closing must not keep the failure from being reported.
    await Promise.race([close().catch(() => {}), Bun.sleep(5000)]);
    throw error;
  }
}

/**
 * `assemble` for a process that starts the app (the server, the seed script): a failure is one
 * line on stderr naming the cause and the fix, and the exit code of its kind (startup-errors.ts).
 */
export async function assembleOrExit(options: AssembleOptions): Promise<Assembly> {
  const context: StartupContext = { stage: "config", dataDir: resolve((options.env ?? process.env).DATA_DIR || DEFAULT_DATA_DIR) };
  try {
    return await assemble(options, context);
  } catch (error) {
    return failStartup(error, context);
  }
}

async function build(options: AssembleOptions, context: StartupContext, opened: Array<() => unknown>): Promise<Omit<Assembly, "close">> {
  context.stage = "config";
  const env = loadEnv(options.env);
  Object.assign(context, { dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL, host: env.HOST, port: env.PORT });

  context.stage = "client";
  const distDir = options.distDir ?? resolve(import.meta.dir, "../../dist");
  let renderPage: PageRenderer;
  try {
    renderPage = options.renderer(distDir);
  } catch (error) {
    throw new StartupError(error instanceof Error ? error.message : String(error), EXIT.clientBuild, { cause: error });
  }

  context.stage = "database";
  const database = options.database === undefined || options.database === "memory" ? await openDatabase(env, options) : options.database;
  if (database !== options.database) opened.push(() => database.close());
  if (options.tightenDataDir) {
    // A folder an earlier version (or another umask) left readable by others is closed to them now.
    const tightened = describeTightened(env.DATA_DIR, tightenModes(env.DATA_DIR));
    if (tightened) console.log(tightened);
  }
  context.stage = "migrate";
  const migrations = database === options.database ? 0 : (await migrate(database, { migrationsFolder: options.migrationsFolder })).applied;

  context.stage = "serve";
  // Keyless providers outside production answer from the loopback simulator, labelled Simulated,
  // with the quirks of real models now and then so the demo runs the same paths as live answers,
  // and answers that lean together within a run and from day to day, as live ones do (ADR 051).
  // The simulators (their catalogue and English word lists) are loaded only when they run: with
  // real keys, or in production, they would be resident memory for nothing (ADR 022).
  let simulator = options.simulator;
  if (!simulator && Object.values(providerModes(env)).includes("simulated")) {
    const { startSimulator, DEMO_NOISE, DEMO_EXTRACTOR_ERRORS, DEMO_RUN_EFFECTS } = await import("#dev/simulators/index.ts");
    const started = startSimulator(options.simulate ?? { noise: DEMO_NOISE, extractorErrors: DEMO_EXTRACTOR_ERRORS, ...DEMO_RUN_EFFECTS });
    opened.push(() => started.stop());
    simulator = started;
  }
  const providers = createProviders(env, simulator?.baseUrls);
  const providerStatus = createProviderStatus({ providers, configured: env.providers, intervalMs: env.PROVIDER_CHECK_MINUTES * 60_000, clock: options.clock });
  // Without Stripe keys outside production, payments run on the loopback Stripe simulator (test mode).
  // Its customers, subscriptions and clock are kept in DATA_DIR, beside the database that names them.
  let stripe = options.stripe;
  if (!stripe && billingMode(env) === "simulated") {
    const [{ startStripeSimulator }, { stripeSimulatorState }] = await Promise.all([
      import("#dev/simulators/stripe.ts"),
      import("#dev/simulators/stripe/state-file.ts"),
    ]);
    const started = startStripeSimulator({ state: stripeSimulatorState(env.DATA_DIR) });
    opened.push(() => started.stop());
    stripe = started;
  }
  const billing = billingConfig(env, stripe);

  const queue = createJobQueue(database, { pollingIntervalSeconds: options.pollingIntervalSeconds, ...options.jobs });
  const instance = options.instance ?? createInstance(database);
  const app = await createApp({
    env,
    database,
    assetsDir: join(distDir, "public"),
    renderPage,
    providers,
    providerStatus,
    billing,
    queue,
    instance,
    retry: options.retry,
    clock: options.clock,
  });
  let interrupted = 0;
  if (options.listen && !options.instance) {
    // Only the runs of instances whose lease lapsed are marked interrupted, never a live one's.
    interrupted = await instance.start();
    opened.push(() => instance.stop());
  }
  // Closed before the instance and the database, which its jobs use.
  opened.push(() => queue.stop());
  if (!options.listen) {
    stripe?.setWebhook({ deliver: (request) => app.handle(request), url: `http://localhost${WEBHOOK_PATH}` });
    return { env, database, simulator, stripe, providers, providerStatus, billing, queue, instance, app, migrations, interrupted };
  }

  // Jobs a restart left behind (a variant batch) resume now, not at the next one sent.
  await queue.start();
  // PGlite has no autovacuum: the planner's statistics are refreshed here as the tables grow.
  const statistics = startStatistics(database, (error) => console.error(`statistics: ${error instanceof Error ? error.message : String(error)}`));
  opened.push(() => statistics.stop());
  // Each provider's key and model checked now, in the background, and every PROVIDER_CHECK_MINUTES.
  providerStatus.start();
  opened.push(() => providerStatus.stop());
  context.stage = "listen";
  // Bodies are bounded by the app (http/body-limit.ts), which answers 413 with a message before
  // reading; Bun's own cap would answer first, with an empty body, for declared sizes over it.
  // The port is this process's alone: with Elysia's default SO_REUSEPORT a second server on it
  // would start and share its connections instead of failing with EADDRINUSE (ADR 024).
  app.listen({ port: env.PORT, hostname: env.HOST, maxRequestBodySize: Number.MAX_SAFE_INTEGER, reusePort: false });
  // Requests still open when it closes are cut (a clean stop lets them end first: src/server/index.ts).
  opened.push(() => app.server?.stop(true));
  // The simulator signs its webhooks and posts them to us, as Stripe would.
  stripe?.setWebhook({ url: `http://127.0.0.1:${app.server?.port}${WEBHOOK_PATH}` });
  return { env, database, simulator, stripe, providers, providerStatus, billing, queue, instance, app, migrations, interrupted };
}

/** The database the environment names; on PostgreSQL after waiting (bounded) for it to be reachable. */
async function openDatabase(env: Env, options: AssembleOptions): Promise<Database> {
  if (options.database === "memory") return createDatabase({ dataDir: MEMORY_DATA_DIR });
  const { DATABASE_URL: databaseUrl } = env;
  if (databaseUrl) {
    const policy = connectRetryPolicy(env.DATABASE_CONNECT_TIMEOUT_SECONDS);
    await connectWithRetry((timeoutMs) => probePostgres(databaseUrl, timeoutMs), policy, {
      isTransient: isTransientConnectFailure,
      onRetry: (error, attempt, delayMs) =>
        console.log(
          `Database not reachable yet (attempt ${attempt} of ${policy.attempts}: ${error instanceof Error ? error.message : String(error)}); retrying in ${(delayMs / 1000).toFixed(1)} s`,
        ),
    });
  }
  // On PGlite this takes DATA_DIR for this process (a second start is refused, exit 11), until close().
  return createDatabase({ databaseUrl, dataDir: env.DATA_DIR, pgliteAssetsDir: options.pgliteDir });
}

/** Runs the close steps newest first, each even when an earlier one failed; once. */
async function closeAll(steps: Array<() => unknown>): Promise<void> {
  const failures: unknown[] = [];
  for (const step of steps.splice(0).reverse()) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}
