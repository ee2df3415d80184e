// One process per data folder (ADR 024): PGlite is one process's database, and a second process
// on the same files sees only its own writes until one of them loses them.
import { Database as SQLite } from "bun:sqlite";
import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import * as v from "valibot";

/** Who holds a folder: written beside the lock by its holder, read by whoever is refused. */
const HolderSchema = v.pipe(
  v.string(),
  v.parseJson(),
  v.object({ pid: v.pipe(v.number(), v.integer(), v.minValue(1)), since: v.string(), command: v.string() }),
);
export type FolderHolder = v.InferOutput<typeof HolderSchema>;

export class FolderInUseError extends Error {
  override name = "FolderInUseError";
  constructor(
    readonly folder: string,
    /** Undefined while the holder has not written it yet (it took the lock a moment ago). */
    readonly holder: FolderHolder | undefined,
  ) {
    super(`${folder} is in use by ${holder ? `process ${holder.pid}` : "another process"}`);
  }
}

export type FolderLock = { release(): void };

/** The file whose lock is held, and the one naming the holder; both in the folder. */
export const LOCK_FILE = "lock";
export const HOLDER_FILE = "lock-holder";

/**
 * Takes `folder` for this process until release() or the process's end, or throws
 * FolderInUseError naming the process that has it. The lock is the kernel's: a POSIX lock that
 * SQLite takes on `folder/lock` (Bun has no flock of its own). The kernel drops it when its
 * process ends, kill -9 included, so no stale lock is left to judge and no recycled pid mistaken
 * for its holder; two starts at once cannot both get it. The lock file stays: deleting it while
 * held would let a second process lock a new file of the same name.
 */
export function lockFolder(folder: string): FolderLock {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // SQLite's own failure to create a file names neither file nor cause: asked first, an unwritable
  // folder fails with the errno and path every other start-up error is read from.
  accessSync(folder, constants.W_OK);
  const file = join(folder, LOCK_FILE);
  const lock = new SQLite(file);
  try {
    // In exclusive locking mode a connection keeps the lock its first write took until it closes;
    // the file holds no data, so no journal beside it.
    lock.exec("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE; COMMIT");
  } catch (error) {
    lock.close();
    const code = (error as { code?: unknown }).code;
    if (code === "SQLITE_BUSY") throw new FolderInUseError(folder, readHolder(folder));
    // That first write is one page: on a full disk, say so as a write() would.
    if (code === "SQLITE_FULL")
      throw Object.assign(new Error(`ENOSPC: no space left on device, write '${file}'`, { cause: error }), { code: "ENOSPC", syscall: "write", path: file });
    throw error;
  }
  const holderFile = join(folder, HOLDER_FILE);
  const holder: FolderHolder = { pid: process.pid, since: new Date().toISOString(), command: commandName() };
  writeFileSync(holderFile, JSON.stringify(holder), { mode: 0o600 });
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // The name goes first: once the lock is free, the next holder writes its own.
      rmSync(holderFile, { force: true });
      lock.close();
    },
  };
}

/** The holder the file names, if that process is alive (the file of one killed may still be there). */
function readHolder(folder: string): FolderHolder | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, HOLDER_FILE), "utf8");
  } catch {
    return undefined;
  }
  const parsed = v.safeParse(HolderSchema, text);
  return parsed.success && isAlive(parsed.output.pid) ? parsed.output : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // alive, another user's
  }
}

/** "bun entry.server.tsx", "bun seed.ts": the program and its script, never its arguments (one may be a password). */
function commandName(): string {
  const [program, script] = [process.argv0, process.argv[1] ?? ""].map((arg) => basename(arg));
  return script && script !== program ? `${program} ${script}` : program!;
}
