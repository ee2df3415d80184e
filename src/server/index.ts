import { join, resolve } from "node:path";
import { createDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { providerIds } from "#src/contract/providers.ts";
import { createApp } from "#src/server/app.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { EnvError, parseEnv } from "#src/server/env.ts";
import { createInstance } from "#src/server/instance.ts";
import type { PageRenderer } from "#src/server/routes/pages.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";
import { startSimulator } from "#src/simulators/index.ts";
import { startStripeSimulator } from "#src/simulators/stripe.ts";
import { billingConfig, billingMode } from "#src/server/services/billing/config.ts";

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

/** Parses config, opens and migrates the database, and listens. Exits non-zero on bad config. */
export async function start(options: StartOptions) {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const distDir = options.distDir ?? resolve(import.meta.dir, "../../dist");
  let renderPage: PageRenderer;
  try {
    renderPage = options.renderer(distDir);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, pgliteAssetsDir: options.pgliteDir });
  const { applied } = await migrate(database, { migrationsFolder: options.migrationsFolder });

  // Keyless providers outside production answer from the loopback simulator, labelled Simulated.
  const modes = providerModes(env);
  const simulator = Object.values(modes).includes("simulated") ? startSimulator() : undefined;
  const providers = createProviders(env, simulator?.baseUrls);
  // Without Stripe keys outside production, payments run on the loopback Stripe simulator (test mode).
  const stripeSimulator = billingMode(env) === "simulated" ? startStripeSimulator() : undefined;
  const billing = billingConfig(env, stripeSimulator);

  const queue = createJobQueue(database);
  const instance = createInstance(database);
  const app = await createApp({ env, database, assetsDir: join(distDir, "public"), renderPage, providers, billing, queue, instance });
  // Only the runs of instances whose lease lapsed are marked interrupted, never a live one's.
  const interrupted = await instance.start();
  // Jobs a restart left behind (a variant batch) resume now, not at the next one sent.
  await queue.start();
  // Bodies are bounded by the app (http/body-limit.ts), which answers 413 with a message before
  // reading; Bun's own cap would answer first, with an empty body, for declared sizes over it.
  app.listen({ port: env.PORT, hostname: env.HOST, maxRequestBodySize: Number.MAX_SAFE_INTEGER });
  // The simulator signs its webhooks and posts them to us, as Stripe would.
  stripeSimulator?.setWebhook({ url: `http://127.0.0.1:${app.server?.port}/api/stripe/webhook` });

  const where = database.kind === "pglite" ? `pglite (${join(env.DATA_DIR, "pglite")})` : "postgres (DATABASE_URL)";
  console.log(
    `AI Search Comparison on http://localhost:${app.server?.port} · db ${where}, ${applied} migration(s) applied` +
      (interrupted ? `, ${interrupted} interrupted search(es) marked` : "") +
      " · " +
      `providers: ${providerIds.map((id) => `${id} ${modes[id]}`).join(", ")} · billing ${billing.mode}${billing.mode === "off" ? ` (${billing.missing.join(", ")} not set)` : billing.testMode ? " (test mode)" : ""}` +
      (stripeSimulator ? ` · Stripe simulator ${stripeSimulator.apiBase} (move its clock: POST /v1/test_helpers/simulator/advance seconds=N)` : ""),
  );

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
  return app;
}

