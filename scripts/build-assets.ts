/**
 * Builds the browser side into dist/: code-split, minified, content-hashed JS per page, the
 * Tailwind CSS compiled ahead of time, and dist/manifest.json for the server. Prints the gzip
 * size of what a first visit to `/` downloads. `--watch` rebuilds when web/ changes.
 */
import type { BuildMetafile } from "bun";
import { createHash } from "node:crypto";
import { existsSync, watch } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { DOCS_UI_FILES } from "#src/server/routes/api/docs-ui-files.ts";
import type { AssetManifest } from "#web/render.tsx";
import { pageModules, type PageId } from "#web/routes.ts";

const root = resolve(import.meta.dir, "..");
const dist = join(root, "dist");
const publicDir = join(dist, "public");
const PUBLIC_PREFIX = "/assets/";
const ENTRY_SOURCE = join(root, "web/entry.client.tsx");

/** The manifest the server reads, and the bundler's account of every output (for analysis). */
export type BuiltAssets = { manifest: AssetManifest; metafile: BuildMetafile };
type Output = BuildMetafile["outputs"][string];

/**
 * `clean` empties dist/public first (release builds). Without it, files of earlier builds stay:
 * names are content-hashed, so a test process still serving them is never broken by another.
 */
export async function buildAssets({ quiet = false, clean = false } = {}): Promise<BuiltAssets> {
  const started = performance.now();
  if (clean) await rm(publicDir, { recursive: true, force: true });
  await mkdir(publicDir, { recursive: true });

  // The entry alone: the route table's import()s split the pages off, and the metafile says
  // which output each page module became.
  const result = await Bun.build({
    entrypoints: [ENTRY_SOURCE],
    outdir: publicDir,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    metafile: true,
  });
  if (!result.success || !result.metafile) {
    for (const log of result.logs) console.error(log);
    throw new Error("client build failed");
  }
  const { metafile } = result;
  const outputs = builtFiles(metafile);
  const entry = builtFrom(outputs, ENTRY_SOURCE);
  if (!entry) throw new Error("client build produced no entry file");
  const css = await buildCss();

  const manifest: AssetManifest = {
    entry: PUBLIC_PREFIX + entry,
    css: PUBLIC_PREFIX + css,
    pages: pagePreloads(outputs, entry),
  };
  await precompress([...outputs.keys(), css]);
  await copyDocsUi();
  const manifestTmp = join(dist, `manifest.${process.pid}.json`);
  await writeFile(manifestTmp, JSON.stringify(manifest, null, 2));
  await rename(manifestTmp, join(dist, "manifest.json"));

  const built = { manifest, metafile };
  if (!quiet) await report(built, css, performance.now() - started);
  return built;
}

/** The build's outputs by file name in dist/public (the metafile names them by path from there). */
export function builtFiles(metafile: BuildMetafile): Map<string, Output> {
  return new Map(Object.entries(metafile.outputs).map(([path, output]) => [publicFile(path), output]));
}

function publicFile(outputPath: string): string {
  return relative(publicDir, resolve(publicDir, outputPath));
}

/** The output built from a source file, by file name. The metafile's source paths are relative to the working directory. */
function builtFrom(outputs: Map<string, Output>, source: string): string | undefined {
  for (const [file, output] of outputs) if (output.entryPoint && resolve(output.entryPoint) === source) return file;
  return undefined;
}

/**
 * Per page module, the public URLs to modulepreload: its chunk (the output built from
 * web/pages/<id>.tsx, as web/routes.ts keys the modules) and the chunks it imports statically
 * beyond the entry's, which load anyway. A page bundled with the entry needs none.
 */
function pagePreloads(outputs: Map<string, Output>, entry: string): AssetManifest["pages"] {
  const withEntry = staticClosure(outputs, entry);
  const inEntry = new Set([...withEntry].flatMap((file) => Object.keys(outputs.get(file)?.inputs ?? {}).map((input) => resolve(input))));
  const pages: AssetManifest["pages"] = {};
  for (const id of Object.keys(pageModules) as PageId[]) {
    const source = join(root, "web/pages", `${id}.tsx`);
    const chunk = builtFrom(outputs, source);
    if (chunk) {
      const needed = [...staticClosure(outputs, chunk)].filter((file) => file === chunk || !withEntry.has(file));
      pages[id] = needed.map((file) => PUBLIC_PREFIX + file);
    } else if (!inEntry.has(source)) {
      throw new Error(
        `page "${id}": the build has no output from ${relative(root, source)}; web/routes.ts must key each page module by its file's name in web/pages/`,
      );
    }
  }
  return pages;
}

/** A file plus every chunk it imports statically, transitively (what the browser must fetch). */
function staticClosure(outputs: Map<string, Output>, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imported of outputs.get(file)?.imports ?? []) {
    if (imported.kind === "import-statement") staticClosure(outputs, publicFile(imported.path), seen);
  }
  return seen;
}

/** The files a first visit to `/` downloads: the entry, the landing page, and their static imports. */
export function firstLoad({ manifest, metafile }: BuiltAssets): string[] {
  const outputs = builtFiles(metafile);
  const fromUrl = (url: string) => url.slice(PUBLIC_PREFIX.length);
  return [...new Set([...staticClosure(outputs, fromUrl(manifest.entry)), ...(manifest.pages.home ?? []).map(fromUrl)])];
}

async function buildCss(): Promise<string> {
  const tmp = join(dist, `app.${process.pid}.css`);
  const proc = Bun.spawn([join(root, "node_modules/.bin/tailwindcss"), "-i", join(root, "web/styles/app.css"), "-o", tmp, "--minify"], {
    cwd: root,
    stdout: "ignore",
    stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(`tailwindcss failed: ${await new Response(proc.stderr).text()}`);
  const content = await readFile(tmp);
  await rm(tmp);
  const name = `app-${createHash("sha256").update(content).digest("hex").slice(0, 10)}.css`;
  await writeFile(join(publicDir, name), content);
  return name;
}

/** Brotli and gzip copies at their highest levels: compressed once here, never per request. */
async function precompress(files: string[]) {
  await Promise.all(files.map(async (file) => writeCompressed(file, await readFile(join(publicDir, file)))));
}

async function writeCompressed(file: string, bytes: Uint8Array) {
  await writeFile(join(publicDir, `${file}.gz`), gzipSync(bytes, { level: 9 }));
  await writeFile(join(publicDir, `${file}.br`), brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
}

/**
 * The API reference's files (Swagger UI, src/server/routes/api/docs-ui-files.ts), copied from the
 * pinned package with their compressed copies. Their names carry the package's version, so one
 * already there is current: compressing them again at every build would be time spent for nothing.
 */
async function copyDocsUi() {
  await Promise.all(
    Object.values(DOCS_UI_FILES).map(async ({ from, name }) => {
      if (existsSync(join(publicDir, name))) return;
      const bytes = await readFile(Bun.resolveSync(from, root));
      await writeCompressed(name, bytes);
      // The file itself last, by a rename: once it is there, so are its compressed copies.
      const temp = join(dist, `${name}.${process.pid}.tmp`);
      await writeFile(temp, bytes);
      await rename(temp, join(publicDir, name));
    }),
  );
}

/** The bytes served for files in dist/public: their precompressed copies, as the server sends them. */
export async function servedSize(files: Iterable<string>): Promise<{ gzip: number; brotli: number }> {
  let gzip = 0;
  let brotli = 0;
  for (const file of files) {
    gzip += (await readFile(join(publicDir, `${file}.gz`))).length;
    brotli += (await readFile(join(publicDir, `${file}.br`))).length;
  }
  return { gzip, brotli };
}

async function report(built: BuiltAssets, css: string, ms: number) {
  const files = firstLoad(built);
  const js = await servedSize(files);
  const styles = await servedSize([css]);
  const kb = (n: number) => (n / 1024).toFixed(1);
  console.log(
    `client built in ${ms.toFixed(0)} ms → ${relative(root, publicDir)}: first-load JS ${kb(js.gzip)} KB gzip / ${kb(js.brotli)} KB brotli (${files.length} files), ` +
      `CSS ${kb(styles.gzip)} KB gzip / ${kb(styles.brotli)} KB brotli`,
  );
}

if (import.meta.main) {
  await buildAssets({ clean: process.argv.includes("--clean") });
  if (process.argv.includes("--watch")) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    watch(join(root, "web"), { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => buildAssets().catch((error) => console.error(error)), 100);
    });
  }
}
