// Opens the app's database: PostgreSQL (postgres.js) when a URL is given,
// otherwise embedded PGlite. Both are exposed as the same drizzle type `Db`.
import { existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite, types, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";
import postgres, { type Sql } from "postgres";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { SQL } from "drizzle-orm";
import { lockFolder } from "./lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;

/** One drizzle type for both drivers (relational queries available via db.query.*). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** The rows of a plain-SQL statement, whichever driver ran it: postgres.js answers an array, PGlite an object holding `rows`. */
export async function selectRows<T>(db: Pick<Db, "execute">, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

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
   * Folder holding PGlite's pglite.wasm, initdb.wasm and pglite.data, and optionally
   * DATA_IMAGE. Only the single binary needs it: PGlite finds them beside its own module otherwise.
   */
  pgliteAssetsDir?: string;
};

/**
 * A new, migrated PGlite data folder as a tarball: scripts/compile.ts makes it at build time and
 * the binary carries it. A new data folder starts as a copy of it, written natively, because
 * initdb in WebAssembly takes seconds and leaves a second PostgreSQL's memory resident (ADR 022).
 */
export const DATA_IMAGE = "pgdata.tar.gz";

export async function createDatabase(opts: CreateDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    return postgresDatabase(postgres(opts.databaseUrl, { max: 10, onnotice: () => {} }));
  }
  if (opts.dataDir === MEMORY_DATA_DIR) return pgliteDatabase(await PGlite.create(MEMORY_DATA_DIR, { startParams: PGLITE_START_PARAMS }));
  // One process per data folder (ADR 024), held until close(): before anything in it is touched.
  const lock = lockFolder(opts.dataDir);
  try {
    const pgliteDir = join(opts.dataDir, "pglite");
    if (opts.pgliteAssetsDir) await startFromImage(join(opts.pgliteAssetsDir, DATA_IMAGE), pgliteDir);
    mkdirSync(pgliteDir, { recursive: true, mode: 0o700 });
    const initialised = existsSync(join(pgliteDir, "PG_VERSION"));
    const assets = opts.pgliteAssetsDir ? await pgliteAssets(opts.pgliteAssetsDir, initialised) : {};
    const client = await PGlite.create({ fs: new OwnerOnlyNodeFS(pgliteDir), ...assets, startParams: PGLITE_START_PARAMS });
    return pgliteDatabase(client, () => lock.release());
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * PGlite's files in a folder, for its owner only (ADR 024). The process's umask does not reach
 * them: Emscripten's file system chmods each file it creates to the mode PostgreSQL asked for
 * (0666 for what initdb writes, 0644 for pg_internal.init). Its chmod keeps the owner's bits only.
 */
class OwnerOnlyNodeFS extends NodeFS {
  override async init(...args: Parameters<NodeFS["init"]>) {
    const { emscriptenOpts } = await super.init(...args);
    const ownerOnly = ({ FS }: { FS: { chmod(path: unknown, mode: number, dontFollow?: boolean): void } }) => {
      const chmod = FS.chmod.bind(FS);
      FS.chmod = (path, mode, dontFollow) => chmod(path, mode & ~0o077, dontFollow);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), ownerOnly] } };
  }
}

/**
 * PostgreSQL's default 128 MB of shared buffers are all resident in PGlite's WebAssembly memory;
 * one process and one connection need far less, and the OS caches the files below them (ADR 022).
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=8MB"];

/**
 * Writes DATA_IMAGE to `file`: a new PGlite data folder with every migration applied (a copy of
 * what a first start would make). `migrate` is db/migrate.ts's, passed in: it imports this module.
 */
export async function writeDataImage(file: string, migrate: (database: Database) => Promise<unknown>): Promise<void> {
  const client = await PGlite.create({ startParams: PGLITE_START_PARAMS });
  await migrate(pgliteDatabase(client));
  await Bun.write(file, await client.dumpDataDir("gzip"));
  await client.close();
}

/**
 * Unpacks `image` as the data folder `pgliteDir` when there is none yet (no folder, or an empty
 * one). It is unpacked beside it and renamed, so a start cut short never leaves half a database.
 */
async function startFromImage(image: string, pgliteDir: string): Promise<void> {
  if (existsSync(join(pgliteDir, "PG_VERSION")) || !existsSync(image)) return;
  try {
    rmdirSync(pgliteDir); // only when empty: anything else there is left to PGlite
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return;
  }
  const staging = `${pgliteDir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  await new Bun.Archive(await Bun.file(image).bytes()).extract(staging);
  renameSync(staging, pgliteDir);
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

/** PGlite's files from `dir`; initdb's only when it will run, for a data folder not `initialised` yet. */
async function pgliteAssets(dir: string, initialised: boolean) {
  const compile = async (file: string) => WebAssembly.compile(await Bun.file(join(dir, file)).arrayBuffer());
  const [pgliteWasmModule, initdbWasmModule] = await Promise.all([compile("pglite.wasm"), initialised ? undefined : compile("initdb.wasm")]);
  return { pgliteWasmModule, initdbWasmModule, fsBundle: Bun.file(join(dir, "pglite.data")) };
}

/** The driver under the app's drizzle instance (drizzle keeps it as `$client`, for PGlite a view of it): PGlite or postgres.js's Sql. */
export function clientOf<T>(database: Database): T {
  const client = (database.db as unknown as { $client: T & object }).$client;
  return (drizzleViews.get(client) as T | undefined) ?? client;
}

/**
 * The types drizzle asks PGlite to leave as PostgreSQL's text (its columns map them themselves):
 * timestamps, dates, intervals and their arrays, and numeric arrays. Drizzle hands them over with
 * every statement, and PGlite merges them into a copy of its whole table of 300-odd parsers each
 * time (about 5 % of a tracker run's CPU); set once on the instance, drizzle's statements go without.
 * pg-boss, the instance's other caller, asks for PGlite's usual Dates (PGLITE_DATES).
 */
const AS_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];
const AS_TEXT: Record<number, (value: string) => string> = Object.fromEntries(AS_TEXT_TYPES.map((oid) => [oid, (value: string) => value]));

/** Options for a statement that wants PGlite's own parsing of those types (Dates for timestamps), as before AS_TEXT. */
export const PGLITE_DATES: QueryOptions = {
  parsers: Object.fromEntries(AS_TEXT_TYPES.flatMap((oid) => (types.parsers[oid] ? [[oid, types.parsers[oid]]] : []))),
};

/** The client as drizzle sees it: its statements (in and out of transactions) without their own parsers. */
function withoutStatementParsers<T extends PGlite | Transaction>(client: T): T {
  const view = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === "query")
        return (text: string, params?: unknown[], options?: QueryOptions) => target.query(text, params, options?.parsers ? withoutParsers(options) : options);
      if (property === "transaction")
        return <R>(run: (tx: Transaction) => Promise<R>) => (target as PGlite).transaction((tx) => run(withoutStatementParsers(tx)));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  drizzleViews.set(view, client);
  return view;
}

/** Drizzle's view of a client → the client itself, which clientOf hands to everything else. */
const drizzleViews = new WeakMap<object, object>();

function withoutParsers({ parsers: _, ...options }: QueryOptions): QueryOptions {
  return options;
}

/** Wraps an open postgres.js pool; close() ends it. */
export function postgresDatabase(client: Sql): Database {
  const db: Db = drizzlePostgres({ client, schema });
  return { db, kind: "postgres", close: () => client.end({ timeout: 5 }) };
}

/** Wraps an open PGlite (e.g. one made from a dumpDataDir() snapshot in tests); close() closes it, then `onClosed`. */
export function pgliteDatabase(client: PGlite, onClosed?: () => void): Database {
  Object.assign(client.parsers, AS_TEXT);
  const db: Db = drizzlePglite({ client: withoutStatementParsers(client), schema });
  let closed = false;
  return {
    db,
    kind: "pglite",
    async close() {
      if (closed) return;
      closed = true;
      try {
        await client.close();
      } finally {
        onClosed?.();
      }
    },
  };
}
