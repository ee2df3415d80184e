// Opens the app's database: PostgreSQL (postgres.js) when a URL is given,
// otherwise embedded PGlite. Both are exposed as the same drizzle type `Db`.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres, { type Sql } from "postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema.ts";

export type Schema = typeof schema;

/** One drizzle type for both drivers (relational queries available via db.query.*). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DatabaseKind = "pglite" | "postgres";

export type Database = {
  db: Db;
  kind: DatabaseKind;
  close(): Promise<void>;
};

/**
 * Pass this as `dataDir` (and no databaseUrl) for a throwaway in-memory PGlite
 * database, e.g. in tests. Nothing is written to disk.
 */
export const MEMORY_DATA_DIR = "memory://";

export type CreateDatabaseOptions = {
  /** postgres://... — when set, PostgreSQL is used and dataDir is ignored. */
  databaseUrl?: string;
  /** App data directory; PGlite files go to `${dataDir}/pglite`. Use MEMORY_DATA_DIR for in-memory. */
  dataDir: string;
  /**
   * Folder holding PGlite's pglite.wasm, initdb.wasm and pglite.data. Only the single binary
   * needs it: PGlite finds them beside its own module otherwise.
   */
  pgliteAssetsDir?: string;
};

export async function createDatabase(opts: CreateDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    return postgresDatabase(postgres(opts.databaseUrl, { max: 10, onnotice: () => {} }));
  }
  let pgliteDir: string = MEMORY_DATA_DIR;
  if (opts.dataDir !== MEMORY_DATA_DIR) {
    pgliteDir = join(opts.dataDir, "pglite");
    mkdirSync(pgliteDir, { recursive: true });
  }
  return pgliteDatabase(await PGlite.create(pgliteDir, opts.pgliteAssetsDir ? await pgliteAssets(opts.pgliteAssetsDir) : {}));
}

/**
 * Opens one connection to `databaseUrl`, asks `select 1` and closes it; rejects with postgres.js's
 * error (ECONNREFUSED, 28P01, ...) or, after `timeoutMs` without an answer, CONNECT_TIMEOUT.
 */
export async function probePostgres(databaseUrl: string, timeoutMs: number): Promise<void> {
  const client = postgres(databaseUrl, { max: 1, connect_timeout: timeoutMs / 1000, onnotice: () => {} });
  let timer: Timer | undefined;
  // Our own timer too: a peer that accepts and then closes makes postgres.js reconnect without end.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: "CONNECT_TIMEOUT" })), timeoutMs);
  });
  try {
    await Promise.race([client`select 1`, timeout]);
  } finally {
    clearTimeout(timer);
    await client.end({ timeout: 0 }).catch(() => {});
  }
}

async function pgliteAssets(dir: string) {
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all(
    ["pglite.wasm", "initdb.wasm"].map(async (file) => WebAssembly.compile(await Bun.file(join(dir, file)).arrayBuffer())),
  );
  return { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(join(dir, "pglite.data")) };
}

/** The driver under the app's drizzle instance (drizzle keeps it as `$client`): PGlite or postgres.js's Sql. */
export function clientOf<T>(database: Database): T {
  return (database.db as unknown as { $client: T }).$client;
}

/** Wraps an open postgres.js pool; close() ends it. */
export function postgresDatabase(client: Sql): Database {
  const db: Db = drizzlePostgres({ client, schema });
  return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
}

/** Wraps an open PGlite (e.g. one made from a dumpDataDir() snapshot in tests); close() closes it. */
export function pgliteDatabase(client: PGlite): Database {
  const db: Db = drizzlePglite({ client, schema });
  let closed = false;
  return {
    db,
    kind: "pglite",
    async close() {
      if (closed) return;
      closed = true;
      await client.close();
    },
  };
}
