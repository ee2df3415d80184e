import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * The single binary carries its client files, migrations and PGlite's WebAssembly inside itself.
 * They are written once to a folder named after their content hash, so the server reads them
 * from disk exactly as it does when run from source; later starts of the same build reuse it.
 * The folder is its user's only (0700, files 0600; ADR 024): it holds the database image, and the
 * server runs what is in it, so a folder of that name that another user made is never used.
 */
export async function unpackEmbedded(files: Array<[relativePath: string, embeddedPath: string]>): Promise<string> {
  const hash = createHash("sha256");
  const blobs = await Promise.all(
    files.map(async ([rel, path]) => {
      const bytes = new Uint8Array(await Bun.file(path).arrayBuffer());
      hash.update(rel).update(bytes);
      return [rel, bytes] as const;
    }),
  );
  const dir = join(tmpdir(), `ai-search-comparison-${process.getuid?.() ?? "user"}-${hash.digest("hex").slice(0, 16)}`);
  if (await unpackedByUs(dir)) return dir;

  // Unpack beside the final folder and rename, so a concurrent start never sees half the files.
  const staging = `${dir}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { mode: 0o700 });
  for (const [rel, bytes] of blobs) {
    await mkdir(dirname(join(staging, rel)), { recursive: true, mode: 0o700 });
    await writeFile(join(staging, rel), bytes, { mode: 0o600 });
  }
  await writeFile(join(staging, ".complete"), "", { mode: 0o600 });
  try {
    await rename(staging, dir);
  } catch {
    // Another start of ours won the race: use its copy. Or the name is taken by someone else's
    // folder: keep this private copy for this process.
    if (await unpackedByUs(dir)) await rm(staging, { recursive: true, force: true });
    else return staging;
  }
  return dir;
}

/** A complete unpacked folder of this user's (not a link); an older build's looser mode is closed. */
async function unpackedByUs(dir: string): Promise<boolean> {
  try {
    const [folder, complete] = await Promise.all([lstat(dir), lstat(join(dir, ".complete"))]);
    const uid = process.getuid?.(); // none on Windows
    if (!folder.isDirectory() || (uid !== undefined && folder.uid !== uid) || !complete.isFile()) return false;
    if (folder.mode & 0o077) await chmod(dir, 0o700);
    return true;
  } catch {
    return false;
  }
}
