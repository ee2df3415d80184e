import { join } from "node:path";
import { providerIds } from "#src/contract/providers.ts";
import { assembleOrExit } from "#src/server/assemble.ts";
import { createOwnerOnly } from "#src/server/owner-only.ts";
import type { PageRenderer } from "#src/server/routes/pages.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";

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
 * Assembles the app from the process environment (assemble.ts) and listens. A failure is one line
 * on stderr naming the cause and the fix, and an exit code per kind (startup-errors.ts).
 */
export async function start(options: StartOptions) {
  // First, so that everything this process writes under DATA_DIR is its user's only (ADR 024).
  createOwnerOnly();
  // A failed start has closed what it had opened (newest first) before it exits.
  const assembly = await assembleOrExit({ ...options, listen: true, tightenDataDir: true });
  const { env, app, instance, queue, billing, stripe, database } = assembly;

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
    // Their streams have sent their last event; anything still open after a moment is cut by close().
    await Promise.race([closed, Bun.sleep(1_000)]);
    const failed = await assembly.close().then(
      () => false,
      (error: unknown) => {
        console.error(`${signal}: closing failed: ${error instanceof Error ? error.message : String(error)}`);
        return true;
      },
    );
    process.exit(failed ? 1 : 0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  // Last, so that whoever waits for this line can stop the server at once.
  const modes = providerModes(env);
  const where = database.kind === "pglite" ? `pglite (${join(env.DATA_DIR, "pglite")})` : "postgres (DATABASE_URL)";
  console.log(
    `AI Search Comparison on http://localhost:${app.server?.port} · db ${where}, ${assembly.migrations} migration(s) applied` +
      (assembly.interrupted ? `, ${assembly.interrupted} interrupted search(es) marked` : "") +
      " · " +
      `providers: ${providerIds.map((id) => `${id} ${modes[id]}`).join(", ")} · billing ${billing.mode}${billing.mode === "off" ? ` (${billing.missing.join(", ")} not set)` : billing.testMode ? " (test mode)" : ""}` +
      (stripe ? ` · Stripe simulator ${stripe.apiBase} (move its clock: POST /v1/test_helpers/simulator/advance seconds=N)` : ""),
  );
  // Start-up leaves its garbage (modules evaluated, migrations read, routes compiled), and an idle
  // process allocates nothing that would make the collector run: one collection returns it (ADR 022).
  setTimeout(() => Bun.gc(true), 0);
  return app;
}
