/**
 * Compiles the CLI (cli/index.ts) into one executable, dist/aisc: no Bun, no node_modules and no
 * source tree needed where it runs. `bun run build` runs it after the server's binary;
 * `bun scripts/compile-cli.ts [outfile]` alone builds only the CLI.
 */
import { relative, resolve } from "node:path";

const root = resolve(import.meta.dir, "..");
export const CLI_BINARY = resolve(root, "dist", "aisc");

/** Builds the CLI binary at `outfile`; returns its size in bytes. */
export async function compileCli(outfile = CLI_BINARY, { quiet = false } = {}): Promise<number> {
  const proc = Bun.spawn(["bun", "build", "--compile", "--minify", "--sourcemap", resolve(root, "cli/index.ts"), "--outfile", outfile], {
    cwd: root,
    stdout: quiet ? "ignore" : "inherit",
    stderr: "inherit",
  });
  if ((await proc.exited) !== 0) throw new Error("bun build --compile of cli/index.ts failed");
  return Bun.file(outfile).size;
}

if (import.meta.main) {
  const started = performance.now();
  const outfile = process.argv[2] ? resolve(process.argv[2]) : CLI_BINARY;
  const size = await compileCli(outfile);
  console.log(`CLI binary: ${relative(root, outfile)} (${(size / 1024 / 1024).toFixed(1)} MB, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
