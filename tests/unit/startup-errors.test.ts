import { describe, expect, test } from "bun:test";
import { tmpdir } from "node:os";
import { messages } from "@electric-sql/pglite";
import { DrizzleQueryError } from "drizzle-orm";
import postgres from "postgres";
import { FolderInUseError } from "#db/lock.ts";
import { MigrationError } from "#db/migrate.ts";
import { ConnectError } from "#src/server/connect-retry.ts";
import { EnvError } from "#src/server/env.ts";
import { describeStartupFailure, EXIT, isTransientConnectFailure, StartupError, type StartupContext } from "#src/server/startup-errors.ts";

/*
 * Each driver's errors built as the driver builds them: Node's uv errors (code, errno, syscall,
 * path), postgres.js's connection errors (errors.js `connection()`) and PostgresError, Bun's DNS
 * and Bun.serve errors, PGlite's Emscripten ErrnoError (a plain class with a WASI errno), its
 * start-up failure and WebAssembly abort, its DatabaseError, and drizzle's DrizzleQueryError.
 */
const uvError = (code: string, errno: number, syscall: string, path: string) =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { errno, code, syscall, path });
const pgConnectionError = (code: string, host: string, port: number) =>
  Object.assign(new Error(`write ${code} ${host}:${port}`), { code, errno: code, address: host, port });
const netError = (code: string, errno: number, host: string, port: number) =>
  Object.assign(new Error(`connect ${code} ${host}:${port}`), { errno, code, syscall: "connect", address: host, port });
const postgresError = (code: string, message: string) =>
  new postgres.PostgresError({ name: "PostgresError", severity_local: "FATAL", severity: "FATAL", code, message } as never);
class ErrnoError {
  name = "ErrnoError";
  constructor(readonly errno: number) {}
}
const pgliteDatabaseError = (code: string, message: string) => Object.assign(new messages.DatabaseError(message, 138, "error"), { code });

const dataDir = "/srv/app/data";
const pgUrl = "postgres://app:s3cret@db.internal:5433/search";
const at = (stage: StartupContext["stage"], extra: Partial<StartupContext> = {}): StartupContext => ({ stage, dataDir, host: "0.0.0.0", port: 3000, ...extra });

function describe1(error: unknown, context: StartupContext) {
  const failure = describeStartupFailure(error, context);
  expect(failure.message).not.toContain("\n");
  expect(failure.message).not.toContain("s3cret");
  expect(failure.message).toContain("Fix:");
  return failure;
}

describe("DATA_DIR that cannot be written", () => {
  test("permission denied creating it (Node EACCES) names DATA_DIR, the file and the fix", () => {
    const failure = describe1(uvError("EACCES", -13, "mkdir", `${dataDir}/pglite`), at("database"));
    expect(failure).toMatchObject({ exitCode: EXIT.dataDir, expected: true });
    expect(failure.message).toBe(
      `DATA_DIR ${dataDir} is not writable: permission denied (EACCES, mkdir ${dataDir}/pglite). Fix: let the app's user write there (chown or chmod), or set DATA_DIR to a writable folder.`,
    );
  });

  test("a read-only file system while writing the secret (EROFS)", () => {
    const failure = describe1(uvError("EROFS", -30, "open", `${dataDir}/session-secret.7.tmp`), at("config"));
    expect(failure.exitCode).toBe(EXIT.dataDir);
    expect(failure.message).toStartWith(`DATA_DIR ${dataDir} is on a read-only file system (EROFS, open ${dataDir}/session-secret.7.tmp)`);
  });

  test("a full disk (ENOSPC from write(), which names no file) has its own code", () => {
    const error = Object.assign(new Error("ENOSPC: no space left on device, write"), { errno: -28, code: "ENOSPC", syscall: "write" });
    const failure = describe1(error, at("config"));
    expect(failure.exitCode).toBe(EXIT.diskFull);
    expect(failure.message).toBe(
      `The disk holding DATA_DIR ${dataDir} is full (ENOSPC, write ${dataDir}). Fix: free some space on it, or set DATA_DIR to a folder on another disk.`,
    );
  });

  test("DATA_DIR is a file (EEXIST from mkdir -p)", () => {
    const failure = describe1(uvError("EEXIST", -17, "mkdir", dataDir), at("config"));
    expect(failure.exitCode).toBe(EXIT.dataDir);
    expect(failure.message).toContain("is not a folder (EEXIST, mkdir");
  });

  test("PGlite's own file errors (ErrnoError, WASI numbers): no space, read-only, permission", () => {
    expect(describe1(new ErrnoError(51), at("database"))).toMatchObject({ exitCode: EXIT.diskFull });
    expect(describe1(new ErrnoError(51), at("database")).message).toContain(`(ENOSPC, writing ${dataDir}/pglite)`);
    expect(describe1(new ErrnoError(69), at("database")).message).toContain("read-only file system (EROFS");
    expect(describe1(new ErrnoError(2), at("migrate")).message).toContain("is not writable: permission denied (EACCES");
  });

  test("PGlite running out of space in a query (53100 disk_full) is the same full disk, not a failed migration", () => {
    const cause = pgliteDatabaseError("53100", 'could not extend file "base/5/16385": No space left on device');
    const error = new MigrationError(undefined, new DrizzleQueryError("CREATE TABLE x ()", [], cause));
    expect(describe1(error, at("migrate"))).toMatchObject({ exitCode: EXIT.diskFull });
  });

  test("a file error elsewhere (the binary's unpacked PGlite files gone) is not blamed on DATA_DIR", () => {
    const failure = describeStartupFailure(uvError("ENOENT", -2, "open", "/tmp/ai-search-comparison-1/pglite/pglite.wasm"), at("database"));
    expect(failure).toMatchObject({ exitCode: EXIT.unexpected, expected: false });
    expect(failure.message).toStartWith("Start-up failed while opening the database: ENOENT: open '/tmp/ai-search-comparison-1/pglite/pglite.wasm'.");
    // A folder above DATA_DIR that mkdir -p could not make is DATA_DIR's problem.
    expect(describe1(uvError("EACCES", -13, "mkdir", "/srv/app"), at("config")).exitCode).toBe(EXIT.dataDir);
  });

  test("the single binary's temp folder points at TMPDIR", () => {
    const failure = describe1(uvError("ENOSPC", -28, "open", `${tmpdir()}/ai-search-comparison-1.2.tmp/x`), { stage: "unpack" });
    expect(failure.exitCode).toBe(EXIT.diskFull);
    expect(failure.message).toContain(`the temp folder ${tmpdir()} is full`);
    expect(failure.message).toContain("set TMPDIR");
  });
});

describe("PGlite that cannot open its folder", () => {
  test("'failed to initialize' and a WebAssembly abort name the folder and say moving it aside starts fresh", () => {
    for (const error of [
      new Error("PGlite failed to initialize properly"),
      new WebAssembly.RuntimeError("Aborted(). Build with -sASSERTIONS for more info."),
    ]) {
      const failure = describe1(error, at("database"));
      expect(failure.exitCode).toBe(EXIT.pglite);
      expect(failure.message).toContain(`The embedded database in ${dataDir}/pglite could not be opened`);
      expect(failure.message).toContain(`mv ${dataDir}/pglite ${dataDir}/pglite.broken`);
      expect(failure.message).not.toContain("ASSERTIONS");
    }
  });
});

describe("DATABASE_URL", () => {
  const pg = (extra: Partial<StartupContext> = {}) => at("database", { databaseUrl: pgUrl, ...extra });
  const gaveUp = (cause: unknown, attempts = 5) => new ConnectError(attempts, 7512, cause);

  test("refused (ECONNREFUSED) after the retries: host, port, database, the attempts; never the password", () => {
    const failure = describe1(gaveUp(netError("ECONNREFUSED", -111, "db.internal", 5433)), pg());
    expect(failure).toMatchObject({ exitCode: EXIT.databaseUnreachable, expected: true });
    expect(failure.message).toBe(
      "PostgreSQL at db.internal:5433/search refused the connection (ECONNREFUSED, 5 attempts in 7.5 s). Fix: start the database, or correct the host and port in DATABASE_URL.",
    );
  });

  test("unknown host (Bun's DNSException, ENOTFOUND)", () => {
    const dns = Object.assign(new Error("getaddrinfo ENOTFOUND db.internal"), {
      name: "DNSException",
      code: "ENOTFOUND",
      syscall: "getaddrinfo",
      errno: 4,
      hostname: "db.internal",
    });
    const failure = describe1(gaveUp(dns), pg());
    expect(failure.exitCode).toBe(EXIT.databaseUnreachable);
    expect(failure.message).toStartWith('The PostgreSQL host "db.internal" in DATABASE_URL could not be resolved (ENOTFOUND, 5 attempts');
  });

  test("timing out (postgres.js CONNECT_TIMEOUT) suggests DATABASE_CONNECT_TIMEOUT_SECONDS", () => {
    const failure = describe1(gaveUp(pgConnectionError("CONNECT_TIMEOUT", "db.internal", 5433), 1), pg());
    expect(failure.exitCode).toBe(EXIT.databaseUnreachable);
    expect(failure.message).toContain("did not answer (CONNECT_TIMEOUT, 1 attempt in 7.5 s)");
    expect(failure.message).toContain("DATABASE_CONNECT_TIMEOUT_SECONDS");
  });

  test("bad credentials (28P01) and a missing database (3D000) say what to correct", () => {
    const password = describe1(gaveUp(postgresError("28P01", 'password authentication failed for user "app"'), 1), pg());
    expect(password).toMatchObject({ exitCode: EXIT.databaseRefused });
    expect(password.message).toBe(
      'PostgreSQL at db.internal:5433/search refused the password for user "app" (28P01). Fix: correct the user name and password in DATABASE_URL.',
    );
    const missing = describe1(gaveUp(postgresError("3D000", 'database "search" does not exist'), 1), pg());
    expect(missing).toMatchObject({ exitCode: EXIT.databaseRefused });
    expect(missing.message).toContain('has no database "search" (3D000). Fix: create it (createdb search)');
    expect(describe1(postgresError("28000", 'role "app" does not exist'), pg()).message).toContain('refused user "app": role "app" does not exist (28000)');
  });

  test("which failures are worth another attempt", () => {
    expect(isTransientConnectFailure(netError("ECONNREFUSED", -111, "h", 1))).toBe(true);
    expect(isTransientConnectFailure(pgConnectionError("CONNECT_TIMEOUT", "h", 1))).toBe(true);
    expect(isTransientConnectFailure(postgresError("57P03", "the database system is starting up"))).toBe(true);
    expect(isTransientConnectFailure(postgresError("28P01", "password authentication failed"))).toBe(false);
    expect(isTransientConnectFailure(postgresError("3D000", "database does not exist"))).toBe(false);
  });
});

describe("migrations", () => {
  test("a failed migration is named, with the database's reason (postgres.js error under drizzle's)", () => {
    const cause = new DrizzleQueryError('CREATE TABLE "users" ()', [], postgresError("42P07", 'relation "users" already exists'));
    const failure = describe1(new MigrationError("0000_init", cause), at("migrate", { databaseUrl: pgUrl }));
    expect(failure).toMatchObject({ exitCode: EXIT.migration, expected: true });
    expect(failure.message).toStartWith('Migration 0000_init failed: relation "users" already exists (42P07). Nothing was applied');
  });

  test("the database going away during the migrations is reported as unreachable", () => {
    const error = new MigrationError(undefined, netError("ECONNREFUSED", -111, "db.internal", 5433));
    expect(describe1(error, at("migrate", { databaseUrl: pgUrl })).exitCode).toBe(EXIT.databaseUnreachable);
  });
});

describe("listening", () => {
  test("the port in use (Bun.serve's EADDRINUSE)", () => {
    const error = Object.assign(new Error("Failed to start server. Is port 3000 in use?"), { code: "EADDRINUSE", syscall: "listen", errno: 0 });
    const failure = describe1(error, at("listen"));
    expect(failure).toMatchObject({ exitCode: EXIT.listen, expected: true });
    expect(failure.message).toBe(
      "Port 3000 on 0.0.0.0 is already in use (EADDRINUSE). Fix: stop the process using it (lsof -i :3000), or set PORT to a free port.",
    );
  });

  test("an address that is not this machine's (EADDRNOTAVAIL)", () => {
    const error = Object.assign(new Error("EADDRNOTAVAIL: address not available, listen"), { code: "EADDRNOTAVAIL", syscall: "listen", errno: -99 });
    expect(describe1(error, at("listen", { host: "203.0.113.5" })).message).toContain("Cannot listen on 203.0.113.5:3000 (EADDRNOTAVAIL");
  });
});

describe("a data folder in use", () => {
  test("names the folder and the process that has it, with how to stop it; or says its pid is not known here", () => {
    const held = describe1(new FolderInUseError(dataDir, { pid: 4242, since: "2026-11-26T09:12:03.456Z", command: "ai-search-comparison" }), at("database"));
    expect(held).toEqual({
      exitCode: EXIT.dataDirInUse,
      expected: true,
      message: `DATA_DIR ${dataDir} is in use by process 4242 (ai-search-comparison, since 2026-11-26T09:12:03Z): its embedded database belongs to one process at a time. Fix: stop that process (kill 4242), or set DATA_DIR to another folder.`,
    });
    expect(describe1(new FolderInUseError(dataDir, undefined), at("database")).message).toStartWith(
      `DATA_DIR ${dataDir} is in use by another process whose pid is not known here`,
    );
  });
});

describe("written failures and the unknown", () => {
  test("a configuration error keeps its message and exits 2; a StartupError its own code", () => {
    expect(describeStartupFailure(new EnvError("Invalid environment variable PORT: expected a whole number"), at("config"))).toEqual({
      exitCode: EXIT.config,
      message: "Invalid environment variable PORT: expected a whole number",
      expected: true,
    });
    expect(describeStartupFailure(new StartupError("No client build in /x/dist: run it", EXIT.clientBuild), at("client")).exitCode).toBe(3);
  });

  test("an unknown error says where start-up was and asks for the details (the stack) to follow", () => {
    const failure = describeStartupFailure(new TypeError("undefined is not a function\nmore"), at("serve"));
    expect(failure).toEqual({
      exitCode: EXIT.unexpected,
      message: "Start-up failed while setting up the app: undefined is not a function. This was not expected; details follow.",
      expected: false,
    });
  });

  test("every exit code is distinct and not 0", () => {
    const codes = Object.values(EXIT);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain(0);
  });
});
