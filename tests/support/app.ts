import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Database } from "#db/client.ts";
import { createApp, type App } from "#src/server/app.ts";
import { parseEnv, type Env } from "#src/server/env.ts";
import type { AssetManifest } from "#web/render.tsx";

const dist = resolve(import.meta.dir, "../../dist");

/** The real app on a given database, with a test environment (overridable per test). */
export async function createTestApp(database: Database, overrides: Record<string, string> = {}): Promise<{ app: App; env: Env }> {
  const env = parseEnv({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(join(tmpdir(), "ai-search-test-")),
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    ...overrides,
  });
  const manifest = JSON.parse(readFileSync(join(dist, "manifest.json"), "utf8")) as AssetManifest;
  const app = await createApp({ env, database, assets: { dir: join(dist, "public"), manifest } });
  return { app, env };
}

export const BASE = "http://localhost";

export function get(app: App, path: string, init?: RequestInit) {
  return app.handle(new Request(BASE + path, init));
}
