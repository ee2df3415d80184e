// Test harness: runs database-backed suites against BOTH an in-memory PGlite
// and a real PostgreSQL 15 (a throwaway cluster started once per test process).
//
//   describeEachDatabase("searches", (getDb, kind) => {
//     test("...", async () => { const { db } = getDb(); ... });
//   });
//
// Every suite gets its own freshly migrated database: a new in-memory PGlite,
// or a new `CREATE DATABASE` on the shared cluster, so suites never interfere.
// When /usr/lib/postgresql/15/bin is missing, only the PGlite variant runs.
import { afterAll, beforeAll, describe } from "bun:test";
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { createDatabase, MEMORY_DATA_DIR, pgliteDatabase, type Database, type DatabaseKind } from "#db/client.ts";
import { DEFAULT_MIGRATIONS_FOLDER, migrate } from "#db/migrate.ts";

/** PostgreSQL 15 binaries (Debian layout); TEST_PG_BIN overrides, e.g. for another version. */
export const PG_BIN = process.env.TEST_PG_BIN || "/usr/lib/postgresql/15/bin";
const TEMP_PREFIX = "app-pgtest-";
const SUPERUSER = "postgres";

export const postgresAvailable: boolean = existsSync(join(PG_BIN, "initdb"));

/** The database kinds every `describeEachDatabase` suite runs against. */
export const databaseKinds: readonly DatabaseKind[] = postgresAvailable ? ["pglite", "postgres"] : ["pglite"];

let skipNoticePrinted = false;
function printSkipNotice(): void {
  if (skipNoticePrinted) return;
  skipNoticePrinted = true;
  console.log(`real PostgreSQL tests skipped: ${PG_BIN} not found`);
}
if (!postgresAvailable) printSkipNotice();

// ---------------------------------------------------------------------------
// Running the PostgreSQL binaries (as the `postgres` user when we are root)
// ---------------------------------------------------------------------------

type RunAs = { uid: number; gid: number } | null;

/** initdb/postgres refuse to run as root: use the `postgres` system user then. */
function resolveRunAs(): RunAs {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => {
    const r = Bun.spawnSync(["id", flag, SUPERUSER], { stdout: "pipe", stderr: "pipe" });
    const n = Number(r.stdout.toString().trim());
    if (r.exitCode !== 0 || !Number.isInteger(n)) {
      throw new Error(`running as root but there is no '${SUPERUSER}' system user to run PostgreSQL as`);
    }
    return n;
  };
  return { uid: id("-u"), gid: id("-g") };
}

const RUNUSER = ["/usr/sbin/runuser", "/sbin/runuser", "/usr/bin/runuser"].find((p) => existsSync(p));

/** argv (and uid/gid) to run `program` as the PostgreSQL user; bare names are looked up in PG_BIN. */
function command(runAs: RunAs, program: string, args: string[]): { cmd: string[]; uid?: number; gid?: number } {
  const cmd = [program.startsWith("/") ? program : join(PG_BIN, program), ...args];
  if (!runAs) return { cmd };
  // runuser also sets the supplementary groups properly; Bun's uid/gid is the fallback.
  if (RUNUSER) return { cmd: [RUNUSER, "-u", SUPERUSER, "--", ...cmd] };
  return { cmd, uid: runAs.uid, gid: runAs.gid };
}

async function run(runAs: RunAs, cwd: string, bin: string, args: string[]): Promise<void> {
  const { cmd, uid, gid } = command(runAs, bin, args);
  const proc = Bun.spawn(cmd, { cwd, uid, gid, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${bin} ${args.join(" ")} exited with ${code}\n${out}${err}`);
}

function runSync(runAs: RunAs, cwd: string, bin: string, args: string[]): void {
  const { cmd, uid, gid } = command(runAs, bin, args);
  Bun.spawnSync(cmd, { cwd, uid, gid, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
}

/**
 * bun test fires no process "exit" event, and a killed test process runs no
 * cleanup at all: so a detached watchdog (as the PostgreSQL user) waits for this
 * process to end, then stops the cluster and removes its temp dir.
 */
function startWatchdog(runAs: RunAs, dir: string): void {
  const script = [
    'pid="$1"; dir="$2"; pg_ctl="$3"',
    'while [ -d "/proc/$pid" ]; do sleep 0.2; done',
    // A `pg_ctl start` orphaned mid-way may still bring a server up: look a few times.
    "for i in 1 2 3; do",
    '  if [ -f "$dir/data/postmaster.pid" ]; then "$pg_ctl" stop -D "$dir/data" -m immediate -w -t 10 >/dev/null 2>&1; fi',
    "  sleep 0.5",
    "done",
    'rm -rf "$dir"',
  ].join("\n");
  const { cmd, uid, gid } = command(runAs, "/bin/sh", ["-c", script, "pg-watchdog", String(process.pid), dir, join(PG_BIN, "pg_ctl")]);
  const proc = Bun.spawn(cmd, { cwd: dir, uid, gid, detached: true, stdio: ["ignore", "ignore", "ignore"] });
  proc.unref();
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error("could not get a free port"))));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Stop clusters left behind by test processes that were killed before they could clean up. */
function sweepStaleClusters(runAs: RunAs): void {
  let entries: string[];
  try {
    entries = readdirSync(tmpdir()).filter((name) => name.startsWith(TEMP_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const dir = join(tmpdir(), name);
    try {
      const owner = Number(readFileSync(join(dir, "owner.pid"), "utf8"));
      if (!Number.isInteger(owner) || isAlive(owner)) continue;
      if (existsSync(join(dir, "data", "postmaster.pid"))) {
        runSync(runAs, dir, "pg_ctl", ["stop", "-D", join(dir, "data"), "-m", "immediate", "-w", "-t", "10"]);
      }
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // not ours, or already gone
    }
  }
}

// ---------------------------------------------------------------------------
// startPostgres: one throwaway cluster
// ---------------------------------------------------------------------------

export type PostgresCluster = {
  /** URL of a database created on the cluster right after start. */
  url: string;
  /** Superuser URL of the cluster's `postgres` maintenance database. */
  adminUrl: string;
  port: number;
  /** Milliseconds from initdb to accepting connections. */
  startupMs: number;
  /** CREATE DATABASE on this cluster; returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** pg_ctl stop -m immediate, then remove the temp dir. Idempotent. */
  stop(): Promise<void>;
  /** The server stopped as a crash would (pg_ctl stop -m immediate) for `ms`, then started again on its port, its data kept. */
  outage(ms: number): Promise<void>;
  /** Same as stop(), synchronous (for process exit handlers). */
  stopSync(): void;
};

let databaseCounter = 0;

/**
 * Creates a throwaway PostgreSQL 15 cluster in a fresh temp dir (initdb + pg_ctl
 * on a free loopback port, socket dir inside the temp dir, durability off for
 * speed). Returns null (after one notice line) when the binaries are absent.
 */
export async function startPostgres(): Promise<PostgresCluster | null> {
  if (!postgresAvailable) {
    printSkipNotice();
    return null;
  }
  const started = performance.now();
  const runAs = resolveRunAs();
  sweepStaleClusters(runAs);

  const dir = mkdtempSync(join(tmpdir(), TEMP_PREFIX));
  const dataDir = join(dir, "data");
  const logFile = join(dir, "postgres.log");

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    if (existsSync(join(dataDir, "postmaster.pid"))) {
      runSync(runAs, dir, "pg_ctl", ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "10"]);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    writeFileSync(join(dir, "owner.pid"), String(process.pid));
    if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    startWatchdog(runAs, dir);
    await run(runAs, dir, "initdb", ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions"]);

    let port = 0;
    let serverOptions = "";
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      serverOptions = [
        `-p ${port}`,
        "-c listen_addresses=127.0.0.1",
        `-c unix_socket_directories=${dir}`,
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
        "-c max_connections=200",
      ].join(" ");
      try {
        // -w: wait until the server accepts connections.
        await run(runAs, dir, "pg_ctl", ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions]);
        break;
      } catch (error) {
        // Most likely someone grabbed the port between freePort() and the bind: retry.
        if (attempt >= 3) {
          const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-4000) : "";
          throw new Error(`${(error as Error).message}\n--- postgres.log ---\n${log}`);
        }
      }
    }

    const adminUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
    const createDatabase = async (name = `test_${process.pid}_${++databaseCounter}`): Promise<string> => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid database name: ${name}`);
      const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE "${name}"`);
      } finally {
        await admin.end({ timeout: 5 });
      }
      return `postgres://${SUPERUSER}@127.0.0.1:${port}/${name}`;
    };

    const url = await createDatabase();
    return {
      url,
      adminUrl,
      port,
      startupMs: Math.round(performance.now() - started),
      createDatabase,
      stop: async () => stopSync(),
      stopSync,
      async outage(ms) {
        await run(runAs, dir, "pg_ctl", ["stop", "-D", dataDir, "-m", "immediate", "-w", "-t", "10"]);
        await Bun.sleep(ms);
        await run(runAs, dir, "pg_ctl", ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions]);
      },
    };
  } catch (error) {
    stopSync();
    throw error;
  }
}

// ---------------------------------------------------------------------------
// The shared cluster (one per test process, started lazily, stopped at exit)
// ---------------------------------------------------------------------------

let sharedCluster: Promise<PostgresCluster | null> | undefined;

/** The process-wide throwaway cluster; null when PostgreSQL is not installed. */
export function sharedPostgres(): Promise<PostgresCluster | null> {
  sharedCluster ??= startPostgres().then((cluster) => {
    if (cluster) {
      // Under bun test, the watchdog started by startPostgres() does the cleanup.
      process.once("exit", () => cluster.stopSync());
      console.log(`throwaway PostgreSQL 15 cluster on 127.0.0.1:${cluster.port} started in ${cluster.startupMs} ms`);
    }
    return cluster;
  });
  return sharedCluster;
}

/** URL of a brand-new, empty (unmigrated) database on the shared cluster. */
export async function freshPostgresUrl(): Promise<string> {
  const cluster = await sharedPostgres();
  if (!cluster) throw new Error(`PostgreSQL is not available (${PG_BIN} not found)`);
  return cluster.createDatabase();
}

// A fresh in-memory PGlite runs initdb inside WASM (~1.6 s); loading a
// dumpDataDir() snapshot takes ~0.3 s. So each process makes the empty and the
// migrated snapshot once and every test database starts from a copy.
let emptyPgliteSnapshot: Promise<File | Blob> | undefined;
let migratedPgliteSnapshot: Promise<File | Blob> | undefined;

async function snapshotOf(database: Database): Promise<File | Blob> {
  try {
    return await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  } finally {
    await database.close();
  }
}

function pgliteSnapshot(migrated: boolean): Promise<File | Blob> {
  emptyPgliteSnapshot ??= createDatabase({ dataDir: MEMORY_DATA_DIR }).then(snapshotOf);
  if (!migrated) return emptyPgliteSnapshot;
  migratedPgliteSnapshot ??= emptyPgliteSnapshot.then(async (empty) => {
    const database = pgliteDatabase(await PGlite.create({ loadDataDir: empty }));
    await migrate(database).catch(async (error: unknown) => {
      await database.close();
      throw error;
    });
    return snapshotOf(database);
  });
  return migratedPgliteSnapshot;
}

/** A brand-new database of the given kind; migrated unless `migrated: false`. */
export async function openTestDatabase(kind: DatabaseKind, opts: { migrated?: boolean } = {}): Promise<Database> {
  const migrated = opts.migrated !== false;
  if (kind === "pglite") {
    return pgliteDatabase(await PGlite.create({ loadDataDir: await pgliteSnapshot(migrated) }));
  }
  const database = await createDatabase({ databaseUrl: await freshPostgresUrl(), dataDir: MEMORY_DATA_DIR });
  if (migrated) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/**
 * Applies the migrations before the one tagged `tag` (e.g. "0019_workspaces"), as a database of the
 * version before it has them, for a test of what that migration does to existing rows. Answers how
 * many migrations are left to apply.
 */
export async function migrateUpTo(database: Database, tag: string): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), "app-migrations-"));
  try {
    cpSync(DEFAULT_MIGRATIONS_FOLDER, folder, { recursive: true });
    const journalPath = join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    const at = journal.entries.findIndex((entry) => entry.tag === tag);
    if (at < 0) throw new Error(`no migration ${tag} in the journal`);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    await migrate(database, { migrationsFolder: folder });
    return journal.entries.length - at;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Cluster start (initdb + start) plus a migration can take a few seconds on a slow machine. */
export const DATABASE_SETUP_TIMEOUT_MS = 60_000;

/**
 * Declares `describe("<title> [pglite]")` and `describe("<title> [postgres]")`,
 * each with its own freshly migrated database available through `getDb()`
 * inside tests (not at declaration time).
 */
export function describeEachDatabase(title: string, fn: (getDb: () => Database, kind: DatabaseKind) => void, opts: { migrated?: boolean } = {}): void {
  for (const kind of databaseKinds) {
    describe(`${title} [${kind}]`, () => {
      let database: Database | undefined;
      beforeAll(async () => {
        database = await openTestDatabase(kind, opts);
      }, DATABASE_SETUP_TIMEOUT_MS);
      afterAll(async () => {
        await database?.close();
        database = undefined;
      });
      fn(() => {
        if (!database) throw new Error(`${kind} test database is not open (use getDb() inside tests/hooks)`);
        return database;
      }, kind);
    });
  }
}
