import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { createApp } from "#src/server/app.ts";
import { EnvError, parseEnv } from "#src/server/env.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";
import { createSearchStore } from "#src/server/services/search/store.ts";
import { startSimulator } from "#src/simulators/index.ts";
import type { AssetManifest } from "#web/render.tsx";

export type StartOptions = {
  /** Where the built client files are; the single binary passes the folder it unpacked them to. */
  distDir?: string;
  migrationsFolder?: string;
  /** PGlite's WebAssembly files, when they are not beside its module (the single binary). */
  pgliteDir?: string;
};

/** Parses config, opens and migrates the database, and listens. Exits non-zero on bad config. */
export async function start(options: StartOptions = {}) {
  let env;
  try {
    env = parseEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  const distDir = options.distDir ?? resolve(import.meta.dir, "../../dist");
  const manifest = readManifest(distDir);
  const database = await createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, pgliteAssetsDir: options.pgliteDir });
  const { applied } = await migrate(database, { migrationsFolder: options.migrationsFolder });
  const interrupted = await createSearchStore(database.db).markInterrupted();

  // Keyless providers outside production answer from the loopback simulator, labelled Simulated.
  const modes = providerModes(env);
  const simulator = Object.values(modes).includes("simulated") ? startSimulator() : undefined;
  const providers = createProviders(env, simulator?.baseUrls);

  const app = await createApp({ env, database, assets: { dir: join(distDir, "public"), manifest }, providers });
  app.listen({ port: env.PORT, hostname: env.HOST });

  const where = database.kind === "pglite" ? `pglite (${join(env.DATA_DIR, "pglite")})` : "postgres (DATABASE_URL)";
  console.log(
    `AI Search Comparison on http://localhost:${app.server?.port} · db ${where}, ${applied} migration(s) applied` +
      (interrupted ? `, ${interrupted} interrupted search(es) marked` : "") +
      " · " +
      `providers: openai ${modes.openai}, anthropic ${modes.anthropic}, gemini ${modes.gemini}`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing in-flight requests, then closing the database`);
    await app.server?.stop(false);
    simulator?.stop();
    await database.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  return app;
}

function readManifest(distDir: string): AssetManifest {
  try {
    return JSON.parse(readFileSync(join(distDir, "manifest.json"), "utf8")) as AssetManifest;
  } catch {
    console.error(`No client build in ${distDir}: run \`bun run scripts/build-assets.ts\` (or \`bun run start\`, which builds first)`);
    process.exit(1);
  }
}

if (import.meta.main) await start();
