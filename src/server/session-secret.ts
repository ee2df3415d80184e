import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EXIT, StartupError } from "#src/server/startup-errors.ts";

/** What SESSION_SECRET must have too (env.ts): a shorter secret can be guessed, and with it any session forged. */
export const SESSION_SECRET_MIN_LENGTH = 32;

/**
 * The development session secret in DATA_DIR/session-secret: read when there, generated when
 * missing or blank (an empty file is what a write cut short, by a full disk for one, can leave). One
 * shorter than SESSION_SECRET_MIN_LENGTH is refused, never used: the product never writes one (its
 * own are 43 characters), so someone else did, and replacing it would hide that (ADR 024).
 */
export function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, "session-secret");
  const existing = readSecret(file);
  if (existing && existing.length < SESSION_SECRET_MIN_LENGTH) {
    throw new StartupError(
      `The session secret in ${file} is too short (${existing.length} characters, at least ${SESSION_SECRET_MIN_LENGTH} needed): whoever guesses it can sign in as anyone. Fix: remove the file to have a strong one generated (everyone is signed out), or put at least ${SESSION_SECRET_MIN_LENGTH} random characters in it (openssl rand -base64 32 > ${file}), or set SESSION_SECRET.`,
      EXIT.dataDir,
    );
  }
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileAtomic(file, secret, 0o600);
  return secret;
}

function readSecret(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Absent; ENOTDIR (DATA_DIR is a file) is reported when the folder is created.
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new StartupError(
      `Cannot read the session secret ${file} (${code ?? (error as Error).message}). Fix: make it readable by the app's user, or remove it to have a new one generated (everyone is signed out), or set SESSION_SECRET.`,
      EXIT.dataDir,
      { cause: error },
    );
  }
}

/**
 * Writes a temp file beside `file`, fsyncs it and renames it over `file`: a reader sees the old
 * content or all of the new, never a part. The folder is fsynced too, so the rename is durable.
 */
export function writeFileAtomic(file: string, content: string, mode: number): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, "w", mode);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, file);
  } catch (error) {
    try {
      rmSync(temp, { force: true });
    } catch {
      // The write's own error is the one to report.
    }
    throw error;
  }
  try {
    const folder = openSync(dirname(file), "r");
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  } catch {
    // Some file systems cannot fsync a folder; the file itself is already safe.
  }
}
