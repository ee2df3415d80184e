import { expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeTightened, tightenModes } from "#src/server/owner-only.ts";

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

test("tightenModes closes what is loose under the folder, and nothing a link there points to", () => {
  const root = mkdtempSync(join(tmpdir(), "owner-only-test-"));
  const dataDir = join(root, "data");
  const elsewhere = join(root, "elsewhere"); // someone else's files, linked from the data folder
  mkdirSync(join(dataDir, "pglite"), { recursive: true });
  mkdirSync(elsewhere);
  writeFileSync(join(dataDir, "pglite", "wal"), "");
  writeFileSync(join(dataDir, "session-secret"), "");
  writeFileSync(join(elsewhere, "shared"), "");
  symlinkSync(elsewhere, join(dataDir, "link"));
  for (const path of [dataDir, join(dataDir, "pglite"), elsewhere]) chmodSync(path, 0o755);
  for (const path of [join(dataDir, "pglite", "wal"), join(elsewhere, "shared")]) chmodSync(path, 0o644);
  chmodSync(join(dataDir, "session-secret"), 0o600);

  const result = tightenModes(dataDir);
  expect(result).toEqual({ changed: 3, failed: 0 });
  expect([dataDir, join(dataDir, "pglite"), join(dataDir, "pglite", "wal"), join(dataDir, "session-secret")].map(modeOf)).toEqual([0o700, 0o700, 0o600, 0o600]);
  expect([elsewhere, join(elsewhere, "shared")].map((path) => statSync(path).mode & 0o777)).toEqual([0o755, 0o644]);
  expect(describeTightened(dataDir, result)).toBe(
    `Tightened modes of 3 file(s) and folder(s) under DATA_DIR ${dataDir} to owner-only (files 0600, folders 0700).`,
  );
  // Once tight, a start has nothing to say.
  expect(describeTightened(dataDir, tightenModes(dataDir))).toBeUndefined();
  expect(tightenModes(join(root, "not-yet"))).toEqual({ changed: 0, failed: 0 });
});
