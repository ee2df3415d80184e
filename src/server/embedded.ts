import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * The single binary carries its client files, migrations and PGlite's WebAssembly inside itself.
 * They are written once to a folder named after their content hash, so the server reads them
 * from disk exactly as it does when run from source; later starts of the same build reuse it.
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
  const dir = join(tmpdir(), `ai-search-comparison-${hash.digest("hex").slice(0, 16)}`);
  if (existsSync(join(dir, ".complete"))) return dir;

  // Unpack beside the final folder and rename, so a concurrent start never sees half the files.
  const staging = `${dir}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  for (const [rel, bytes] of blobs) {
    await mkdir(dirname(join(staging, rel)), { recursive: true });
    await writeFile(join(staging, rel), bytes);
  }
  await writeFile(join(staging, ".complete"), "");
  try {
    await rename(staging, dir);
  } catch {
    await rm(staging, { recursive: true, force: true }); // another process won the race
  }
  return dir;
}
