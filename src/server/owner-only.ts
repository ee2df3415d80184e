import { chmodSync, type Dirent, lstatSync, readdirSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

/*
 * What the product writes under DATA_DIR is its own user's only: files 0600, folders 0700
 * (ADR 024). The database's WAL and catalogs hold password hashes and e-mail addresses.
 */

/** Group and other bits: none of them are granted. */
const NOT_OWNER = 0o077;

/** From now on, what this process creates is owner-only unless a mode says less (the umask). */
export function createOwnerOnly(): void {
  process.umask(NOT_OWNER);
}

export type Tightened = { changed: number; failed: number };

/**
 * Takes group and other access away from everything under `dir` (and `dir` itself) that has
 * any, as a folder written by an earlier version or another umask has: files 0600, folders 0700.
 * Symbolic links are not followed. A file that is not ours (EPERM) is counted, not fatal.
 */
export function tightenModes(dir: string): Tightened {
  const result: Tightened = { changed: 0, failed: 0 };
  try {
    // DATA_DIR itself may be a link to the real folder; below it, links are left alone.
    const top = realpathSync(dir);
    tighten(top, statSync(top).isDirectory(), result);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error; // ENOENT: nothing written yet
  }
  return result;
}

// By hand rather than readdirSync's `recursive`, which follows links to folders elsewhere.
function tighten(path: string, folder: boolean, result: Tightened): void {
  try {
    if ((lstatSync(path).mode & NOT_OWNER) !== 0) {
      chmodSync(path, folder ? 0o700 : 0o600);
      result.changed++;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // gone since it was listed
    result.failed++;
  }
  if (!folder) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    result.failed++; // a folder not ours that we cannot list
    return;
  }
  for (const entry of entries) {
    if (entry.isDirectory() || entry.isFile()) tighten(join(path, entry.name), entry.isDirectory(), result);
  }
}

/** The one log line for `tightenModes`' result, or undefined when nothing was loose. */
export function describeTightened(dir: string, { changed, failed }: Tightened): string | undefined {
  if (changed + failed === 0) return undefined;
  const some = changed
    ? `Tightened modes of ${changed} file(s) and folder(s) under DATA_DIR ${dir} to owner-only (files 0600, folders 0700)`
    : `Found files under DATA_DIR ${dir} readable by other users`;
  return failed ? `${some}; ${failed} could not be changed (not owned by this user): chown them to the app's user.` : `${some}.`;
}
