/**
 * What the first visit to `/` downloads, by origin: builds the client as scripts/build-assets.ts
 * does, then sums the bundler's bytes per package (node_modules/<pkg>) or source file over the
 * entry and the landing page's chunks. For finding what to cut under the budget (ADR 006).
 *
 *   bun run scripts/analyze-bundle.ts
 */
import { relative, resolve } from "node:path";
import { builtFiles, buildAssets, firstLoad, servedSize } from "./build-assets.ts";

const root = resolve(import.meta.dir, "..");
const TOP = 30;

const built = await buildAssets({ quiet: true });
const files = firstLoad(built);
const outputs = builtFiles(built.metafile);
const bytesByOrigin = new Map<string, number>();
for (const file of files) {
  for (const [input, { bytesInOutput }] of Object.entries(outputs.get(file)?.inputs ?? {})) {
    const origin = originOf(input);
    bytesByOrigin.set(origin, (bytesByOrigin.get(origin) ?? 0) + bytesInOutput);
  }
}

const kb = (n: number) => (n / 1024).toFixed(1);
const { gzip, brotli } = await servedSize(files);
const total = [...bytesByOrigin.values()].reduce((sum, n) => sum + n, 0);
console.log(`first load of /: ${files.length} files, ${kb(gzip)} KB gzip / ${kb(brotli)} KB brotli, ${kb(total)} KB minified`);
console.log(`top ${TOP} of ${bytesByOrigin.size} by bytes in the output (minified, before compression):`);
for (const [origin, bytes] of [...bytesByOrigin].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
  console.log(`${kb(bytes).padStart(8)} KB  ${((bytes / total) * 100).toFixed(1).padStart(5)} %  ${origin}`);
}

/** A package's files count as the package (the innermost, if nested); a source file is named from the repository root. */
function originOf(input: string): string {
  const inPackage = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return inPackage ? `node_modules/${inPackage[1]}` : relative(root, resolve(input));
}
