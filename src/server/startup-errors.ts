import { tmpdir } from "node:os";
import { FolderInUseError } from "#db/lock.ts";
import { MigrationError } from "#db/migrate.ts";
import { ConnectError } from "#src/server/connect-retry.ts";

/*
 * A failed start-up is one line on stderr that names the cause and the fix, and an exit code
 * per kind (README, "Exit codes"). Read from the errors the drivers throw: Node's errno errors
 * (code, syscall, path), PGlite's (ErrnoError with a WASI errno, "failed to initialize",
 * WebAssembly aborts, DatabaseError with a SQLSTATE), postgres.js's (network codes,
 * CONNECT_TIMEOUT, PostgresError with a SQLSTATE) and Bun.serve's (EADDRINUSE).
 */

export const EXIT = {
  unexpected: 1,
  config: 2,
  clientBuild: 3,
  dataDir: 4,
  diskFull: 5,
  pglite: 6,
  databaseUnreachable: 7,
  databaseRefused: 8,
  migration: 9,
  listen: 10,
  dataDirInUse: 11,
} as const;

/** A failure whose one-line message is already written (bad config, no client build, ...). */
export class StartupError extends Error {
  override name = "StartupError";
  constructor(
    message: string,
    readonly exitCode: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** How far start-up got, and what it was working with. */
export type StartupContext = {
  stage: "config" | "unpack" | "client" | "database" | "migrate" | "serve" | "listen";
  /** Absolute DATA_DIR. */
  dataDir?: string;
  databaseUrl?: string;
  host?: string;
  port?: number;
};

export type Failure = { exitCode: number; message: string; expected: boolean };

type Fields = { code?: unknown; errno?: unknown; syscall?: unknown; path?: unknown; name?: unknown; message?: unknown; cause?: unknown };

// Emscripten's (WASI) errno numbers, as PGlite's ErrnoError carries them.
const WASI_ERRNO: Record<number, string> = {
  2: "EACCES",
  19: "EDQUOT",
  20: "EEXIST",
  29: "EIO",
  44: "ENOENT",
  51: "ENOSPC",
  54: "ENOTDIR",
  63: "EPERM",
  69: "EROFS",
};
const FS_CODES = new Set(["EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT", "ENOTDIR", "EEXIST", "EISDIR", "ENOENT", "EIO"]);
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "CONNECT_TIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
]);
/** SQLSTATEs a server answers while it cannot take connections yet: starting up, too many clients. */
const NOT_READY = new Set(["57P03", "53300"]);
const TIMEOUTS = new Set(["ETIMEDOUT", "CONNECT_TIMEOUT"]);

/** The error and its causes, outermost first. */
function chain(error: unknown): Fields[] {
  const out: Fields[] = [];
  for (let e = error; e !== null && typeof e === "object" && out.length < 8; e = (e as Fields).cause) out.push(e as Fields);
  return out;
}

const oneLine = (text: unknown) =>
  String(text ?? "")
    .split("\n")[0]!
    .trim();
const codeOf = (e: Fields) => (typeof e.code === "string" ? e.code : undefined);
const sqlStateOf = (e: Fields) => (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined);

/** The file-system code of a Node errno error or of PGlite's ErrnoError. */
function fsCode(e: Fields): string | undefined {
  if (e.name === "ErrnoError" && typeof e.errno === "number") return WASI_ERRNO[e.errno];
  const code = codeOf(e);
  const network = e.syscall === "listen" || e.syscall === "connect" || e.syscall === "getaddrinfo";
  return code && FS_CODES.has(code) && !network ? code : undefined;
}

/** True for failures worth another attempt at start: the server is not up (yet) or not reachable. */
export function isTransientConnectFailure(error: unknown): boolean {
  return chain(error).some((e) => UNREACHABLE.has(codeOf(e) ?? "") || NOT_READY.has(sqlStateOf(e) ?? "") || e.syscall === "connect");
}

/** "db.internal:5432/app" and the user, never the password. */
function target(databaseUrl: string | undefined) {
  try {
    const url = new URL(databaseUrl ?? "");
    const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username);
    return { where: `${url.hostname}:${url.port || 5432}/${database}`, host: url.hostname, user: decodeURIComponent(url.username), database };
  } catch {
    return { where: "DATABASE_URL", host: "?", user: "?", database: "?" };
  }
}

/** Whether a file error is about DATA_DIR (a file in it, it, or a folder above it), or the temp folder when unpacking. */
function concerns(e: Fields, context: StartupContext): boolean {
  if (context.stage === "unpack" || typeof e.path !== "string" || context.dataDir === undefined) return true;
  const [path, dir] = [e.path, context.dataDir];
  return path === dir || path.startsWith(`${dir}/`) || dir.startsWith(`${path}/`);
}

function fileSystemFailure(code: string, e: Fields, context: StartupContext): Failure {
  const temp = context.stage === "unpack";
  const dir = temp ? tmpdir() : (context.dataDir ?? "DATA_DIR");
  const place = temp ? `the temp folder ${dir}` : `DATA_DIR ${dir}`;
  const Place = place[0]!.toUpperCase() + place.slice(1);
  const variable = temp ? "TMPDIR" : "DATA_DIR";
  // Node's errors name the file; a failed write() and PGlite's ErrnoError do not.
  const what = typeof e.path === "string" ? e.path : e.name === "ErrnoError" ? `${dir}/pglite` : dir;
  const op = `${code}, ${typeof e.syscall === "string" ? e.syscall : "writing"} ${what}`;
  const fail = (message: string, exitCode: number = EXIT.dataDir): Failure => ({ exitCode, message, expected: true });
  switch (code) {
    case "ENOSPC":
    case "EDQUOT":
      return fail(`The disk holding ${place} is full (${op}). Fix: free some space on it, or set ${variable} to a folder on another disk.`, EXIT.diskFull);
    case "EROFS":
      return fail(`${Place} is on a read-only file system (${op}). Fix: mount a writable volume there, or set ${variable} to a writable folder.`);
    case "ENOTDIR":
    case "EEXIST":
      return fail(`${Place} is not a folder (${op}): a file is in the way. Fix: move that file, or set ${variable} to a folder.`);
    case "ENOENT":
      return fail(`${Place} cannot be created (${op}). Fix: set ${variable} to a folder on a writable disk.`);
    case "EIO":
      return fail(`${Place} could not be read or written: I/O error (${op}). Fix: check the disk (dmesg), or set ${variable} to a folder on another disk.`);
    default:
      return fail(
        `${Place} is not writable: permission denied (${op}). Fix: let the app's user write there (chown or chmod), or set ${variable} to a writable folder.`,
      );
  }
}

function postgresFailure(e: Fields, context: StartupContext, tries: string): Failure | undefined {
  const { where, host, user, database } = target(context.databaseUrl);
  const code = codeOf(e) ?? "";
  const reason = oneLine(e.message);
  const unreachable = (message: string): Failure => ({ exitCode: EXIT.databaseUnreachable, message, expected: true });
  const refused = (message: string): Failure => ({ exitCode: EXIT.databaseRefused, message, expected: true });
  if (code === "ECONNREFUSED")
    return unreachable(
      `PostgreSQL at ${where} refused the connection (ECONNREFUSED${tries}). Fix: start the database, or correct the host and port in DATABASE_URL.`,
    );
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return unreachable(
      `The PostgreSQL host "${host}" in DATABASE_URL could not be resolved (${code}${tries}). Fix: correct the host name, or check DNS and the network.`,
    );
  if (TIMEOUTS.has(code))
    return unreachable(
      `PostgreSQL at ${where} did not answer (${code}${tries}). Fix: check that the database is up and reachable from here (host, port, firewall), or raise DATABASE_CONNECT_TIMEOUT_SECONDS.`,
    );
  if (code === "57P03")
    return unreachable(
      `PostgreSQL at ${where} is still starting up (57P03${tries}). Fix: start the app once the database is ready, or raise DATABASE_CONNECT_TIMEOUT_SECONDS.`,
    );
  if (UNREACHABLE.has(code) || code === "53300" || e.syscall === "connect")
    return unreachable(
      `PostgreSQL at ${where} could not be reached (${code}: ${reason}${tries}). Fix: check that the database is up and accepts connections, and DATABASE_URL.`,
    );
  if (code === "28P01")
    return refused(`PostgreSQL at ${where} refused the password for user "${user}" (28P01). Fix: correct the user name and password in DATABASE_URL.`);
  if (code === "28000")
    return refused(
      `PostgreSQL at ${where} refused user "${user}": ${reason} (28000). Fix: correct the user in DATABASE_URL, or allow it in the server's pg_hba.conf.`,
    );
  if (code === "3D000")
    return refused(
      `PostgreSQL at ${where} has no database "${database}" (3D000). Fix: create it (createdb ${database}), or correct the database name in DATABASE_URL.`,
    );
  if (code === "53100")
    return {
      exitCode: EXIT.diskFull,
      message: `The PostgreSQL server at ${where} is out of disk space (53100: ${reason}). Fix: free space on the database server's disk.`,
      expected: true,
    };
  if (context.stage === "database" && sqlStateOf(e))
    return refused(`PostgreSQL at ${where} refused the connection: ${reason} (${code}). Fix: check DATABASE_URL and the server's log.`);
  return undefined;
}

/** The one line (and exit code) for a failed start-up; `expected: false` means print the stack too. */
export function describeStartupFailure(error: unknown, context: StartupContext): Failure {
  const errors = chain(error);
  const known = errors.find((e): e is StartupError => e instanceof StartupError);
  if (known) return { exitCode: known.exitCode, message: known.message, expected: true };
  const inUse = errors.find((e): e is FolderInUseError => e instanceof FolderInUseError);
  if (inUse) return { exitCode: EXIT.dataDirInUse, message: folderInUseMessage(inUse), expected: true };

  const listen = errors.find((e) => e.syscall === "listen") ?? (context.stage === "listen" ? errors.find(codeOf) : undefined);
  if (listen) {
    const code = codeOf(listen);
    const at = `${context.host ?? "0.0.0.0"}:${context.port ?? "?"}`;
    const message =
      code === "EADDRINUSE"
        ? `Port ${context.port} on ${context.host} is already in use (EADDRINUSE). Fix: stop the process using it (lsof -i :${context.port}), or set PORT to a free port.`
        : code === "EACCES" || code === "EPERM"
          ? `Not allowed to listen on ${at} (${code}): ports below 1024 need privileges. Fix: set PORT to 1024 or above.`
          : `Cannot listen on ${at} (${code}: ${oneLine(listen.message)}). Fix: set HOST to one of this machine's addresses (0.0.0.0 for all) and PORT to a free port.`;
    return { exitCode: EXIT.listen, message, expected: true };
  }

  for (const e of errors) {
    const code = fsCode(e);
    if (code && concerns(e, context)) return fileSystemFailure(code, e, context);
  }

  const usingPostgres = context.databaseUrl !== undefined;
  if (!usingPostgres && errors.some((e) => sqlStateOf(e) === "53100")) return fileSystemFailure("ENOSPC", {}, context);
  if (usingPostgres) {
    const connect = errors.find((e): e is ConnectError => e instanceof ConnectError);
    const tries = connect ? `, ${connect.attempts === 1 ? "1 attempt" : `${connect.attempts} attempts`} in ${(connect.elapsedMs / 1000).toFixed(1)} s` : "";
    for (const e of errors) {
      const failure = postgresFailure(e, context, tries);
      if (failure) return failure;
    }
  }

  const migration = errors.find((e): e is MigrationError => e instanceof MigrationError);
  if (migration) {
    const cause = chain(migration.cause).at(-1) ?? {};
    const state = sqlStateOf(cause) ? ` (${sqlStateOf(cause)})` : "";
    return {
      exitCode: EXIT.migration,
      message: `${migration.migration ? `Migration ${migration.migration}` : "Migrating the database"} failed: ${oneLine(cause.message)}${state}. Nothing was applied: the migrations run in one transaction. Fix: repair what the error names in the database (or restore a backup), then start again.`,
      expected: true,
    };
  }

  // Anything else PGlite throws while opening its folder (a Node file error is not PGlite's).
  if (context.stage === "database" && !usingPostgres && !errors.some((e) => typeof e.syscall === "string")) {
    const dir = `${context.dataDir}/pglite`;
    const reason = oneLine(errors[0]?.message).replace(/\. Build with -sASSERTIONS.*$/, "");
    return {
      exitCode: EXIT.pglite,
      message: `The embedded database in ${dir} could not be opened (${reason}): its files are damaged, incomplete or from another version. Fix: move the folder aside (mv ${dir} ${dir}.broken) to start with an empty database, or restore it from a backup.`,
      expected: true,
    };
  }

  return {
    exitCode: EXIT.unexpected,
    message: `Start-up failed while ${STAGE_NAMES[context.stage]}: ${oneLine(errors[0]?.message ?? error)}. This was not expected; details follow.`,
    expected: false,
  };
}

/** Names the process that has the folder, so that it can be found and stopped. */
function folderInUseMessage({ folder, holder }: FolderInUseError): string {
  const who = holder
    ? `process ${holder.pid} (${holder.command}, since ${holder.since.replace(/\.\d+Z$/, "Z")})`
    : "another process whose pid is not known here (it is just starting, or runs in another container)";
  const stop = holder ? `stop that process (kill ${holder.pid})` : "stop the other server or seed using it";
  return `DATA_DIR ${folder} is in use by ${who}: its embedded database belongs to one process at a time. Fix: ${stop}, or set DATA_DIR to another folder.`;
}

const STAGE_NAMES: Record<StartupContext["stage"], string> = {
  config: "reading the configuration",
  unpack: "unpacking the app's files",
  client: "loading the client build",
  database: "opening the database",
  migrate: "migrating the database",
  serve: "setting up the app",
  listen: "starting to listen",
};

/** Prints the failure (one line; the stack too when unexpected) to stderr and exits with its code. */
export function failStartup(error: unknown, context: StartupContext): never {
  const failure = describeStartupFailure(error, context);
  console.error(failure.message);
  if (!failure.expected && error instanceof Error && error.stack) console.error(error.stack);
  process.exit(failure.exitCode);
}
