import { join, resolve } from "node:path";
import { createDatabase, probePostgres } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { providerIds } from "#src/contract/providers.ts";
import { createApp } from "#src/server/app.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { connectWithRetry, retryPolicy } from "#src/server/connect-retry.ts";
import { DEFAULT_DATA_DIR, parseEnv } from "#src/server/env.ts";
import { EXIT, failStartup, isTransientConnectFailure, StartupError, type StartupContext } from "#src/server/startup-errors.ts";
import { createInstance } from "#src/server/instance.ts";
import { createOwnerOnly, describeTightened, tightenModes } from "#src/server/owner-only.ts";
import type { PageRenderer } from "#src/server/routes/pages.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";
import { billingConfig, billingMode } from "#src/server/services/billing/config.ts";
import { stripeSimulatorState } from "#src/server/stripe-simulator-state.ts";

export type StartOptions = {
  /**
   * The page renderer for the client build in `distDir` (web/render.tsx). The entry that starts
   * the server (web/entry.server.tsx, the single binary's) hands it in: the server never imports the web.
   */
  renderer: (distDir: string) => PageRenderer;
  /** Where the built client files are; the single binary passes the folder it unpacked them to. */
  distDir?: string;
  migrationsFolder?: string;
  /** PGlite's WebAssembly files, when they are not beside its module (the single binary). */
  pgliteDir?: string;
};

/**
 * Parses config, opens and migrates the database, and listens. A failure is one line on stderr
 * naming the cause and the fix, and an exit code per kind (startup-errors.ts).
 */
export async function start(options: StartOptions) {
  // First, so that everything this process writes under DATA_DIR is its user's only (ADR 024).
  createOwnerOnly();
  const context: StartupContext = { stage: "config", dataDir: resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR) };
  // What is open so far, closed (newest first) before exiting on a failure.
  const opened: Array<() => unknown> = [];
  try {
    return await boot(options, context, opened);
  } catch (error) {
    const closeAll = async () => {
      for (const close of opened.reverse()) await Promise.resolve().then(close).catch(() => {});
    };
    await Promise.race([closeAll(), Bun.sleep(5000)]);
    return failStartup(error, context);
  }
}

async function boot(options: StartOptions, context: StartupContext, opened: Array<() => unknown>) {
  const env = parseEnv();
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
  const { DATABASE_URL: databaseUrl } = env;
  if (databaseUrl) {
    const policy = retryPolicy(env.DATABASE_CONNECT_TIMEOUT_SECONDS);
    await connectWithRetry((timeoutMs) => probePostgres(databaseUrl, timeoutMs), policy, {
      isTransient: isTransientConnectFailure,
      onRetry: (error, attempt, delayMs) =>
        console.log(`Database not reachable yet (attempt ${attempt} of ${policy.attempts}: ${error instanceof Error ? error.message : String(error)}); retrying in ${(delayMs / 1000).toFixed(1)} s`),
    });
  }
  // On PGlite this takes DATA_DIR for this process (a second start is refused, exit 11), until close().
  const database = await createDatabase({ databaseUrl, dataDir: env.DATA_DIR, pgliteAssetsDir: options.pgliteDir });
  opened.push(() => database.close());
  // A folder an earlier version (or another umask) left readable by others is closed to them now.
  const tightened = describeTightened(env.DATA_DIR, tightenModes(env.DATA_DIR));
  if (tightened) console.log(tightened);
  context.stage = "migrate";
  const { applied } = await migrate(database, { migrationsFolder: options.migrationsFolder });
  context.stage = "serve";

  // Keyless providers outside production answer from the loopback simulator, labelled Simulated,
  // with the quirks of real models now and then so the demo runs the same paths as live answers.
  const modes = providerModes(env);
  // The simulators (their catalogue and English word lists) are loaded only when they run: with
  // real keys, or in production, they would be resident memory for nothing (ADR 022).
  const simulated = Object.values(modes).includes("simulated");
  const simulator = simulated ? await import("#src/simulators/index.ts").then(({ startSimulator, DEMO_NOISE }) => startSimulator({ noise: DEMO_NOISE })) : undefined;
  if (simulator) opened.push(() => simulator.stop());
  const providers = createProviders(env, simulator?.baseUrls);
  // Without Stripe keys outside production, payments run on the loopback Stripe simulator (test mode).
  // Its customers, subscriptions and clock are kept in DATA_DIR, beside the database that names them.
  const stripeSimulator = billingMode(env) === "simulated" ? (await import("#src/simulators/stripe.ts")).startStripeSimulator({ state: stripeSimulatorState(env.DATA_DIR) }) : undefined;
  if (stripeSimulator) opened.push(() => stripeSimulator.stop());
  const billing = billingConfig(env, stripeSimulator);

  const queue = createJobQueue(database);
  const instance = createInstance(database);
  const app = await createApp({ env, database, assetsDir: join(distDir, "public"), renderPage, providers, billing, queue, instance });
  // Only the runs of instances whose lease lapsed are marked interrupted, never a live one's.
  const interrupted = await instance.start();
  opened.push(() => instance.stop());
  // Jobs a restart left behind (a variant batch) resume now, not at the next one sent.
  await queue.start();
  opened.push(() => queue.stop());
  context.stage = "listen";
  // Bodies are bounded by the app (http/body-limit.ts), which answers 413 with a message before
  // reading; Bun's own cap would answer first, with an empty body, for declared sizes over it.
  // The port is this process's alone: with Elysia's default SO_REUSEPORT a second server on it
  // would start and share its connections instead of failing with EADDRINUSE (ADR 024).
  app.listen({ port: env.PORT, hostname: env.HOST, maxRequestBodySize: Number.MAX_SAFE_INTEGER, reusePort: false });
  // The simulator signs its webhooks and posts them to us, as Stripe would.
  stripeSimulator?.setWebhook({ url: `http://127.0.0.1:${app.server?.port}/api/stripe/webhook` });

  // A clean stop (ADR 018): no new requests; searches in flight get the grace, then are stopped and
  // saved with what finished; then the rest is closed, within a container's usual 10 s.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: taking no new requests; searches in flight get ${env.SHUTDOWN_GRACE_SECONDS} s, then are saved with what finished`);
    const closed = app.server?.stop(false); // resolves once the requests in flight have ended
    const [drained] = await Promise.all([instance.drain(env.SHUTDOWN_GRACE_SECONDS * 1000), queue.stop()]);
    if (drained.interrupted) console.log(`${drained.interrupted} of ${drained.inFlight} search(es) interrupted and saved with what had finished`);
    // Their streams have sent their last event; anything still open after a moment is cut.
    await Promise.race([closed, Bun.sleep(1_000)]);
    await app.server?.stop(true);
    await instance.stop();
    simulator?.stop();
    await stripeSimulator?.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  // Last, so that whoever waits for this line can stop the server at once.
  const where = database.kind === "pglite" ? `pglite (${join(env.DATA_DIR, "pglite")})` : "postgres (DATABASE_URL)";
  console.log(
    `AI Search Comparison on http://localhost:${app.server?.port} · db ${where}, ${applied} migration(s) applied` +
      (interrupted ? `, ${interrupted} interrupted search(es) marked` : "") +
      " · " +
      `providers: ${providerIds.map((id) => `${id} ${modes[id]}`).join(", ")} · billing ${billing.mode}${billing.mode === "off" ? ` (${billing.missing.join(", ")} not set)` : billing.testMode ? " (test mode)" : ""}` +
      (stripeSimulator ? ` · Stripe simulator ${stripeSimulator.apiBase} (move its clock: POST /v1/test_helpers/simulator/advance seconds=N)` : ""),
  );
  // Start-up leaves its garbage (modules evaluated, migrations read, routes compiled), and an idle
  // process allocates nothing that would make the collector run: one collection returns it (ADR 022).
  setTimeout(() => Bun.gc(true), 0);
  return app;
}

