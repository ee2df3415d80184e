/**
 * Builds the browser side into dist/: code-split, minified, content-hashed JS per page, the
 * Tailwind CSS compiled ahead of time, and dist/manifest.json for the server. Prints the gzip
 * size of what a first visit to `/` downloads. `--watch` rebuilds when web/ changes.
 */
import { createHash } from "node:crypto";
import { watch } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import type { AssetManifest } from "#web/render.tsx";
import { pages, type PageId } from "#web/routes.ts";

const root = resolve(import.meta.dir, "..");
const dist = join(root, "dist");
const publicDir = join(dist, "public");
const PUBLIC_PREFIX = "/assets/";

/**
 * `clean` empties dist/public first (release builds). Without it, files of earlier builds stay:
 * names are content-hashed, so a test process still serving them is never broken by another.
 */
export async function buildAssets({ quiet = false, clean = false } = {}): Promise<AssetManifest> {
  const started = performance.now();
  if (clean) await rm(publicDir, { recursive: true, force: true });
  await mkdir(publicDir, { recursive: true });

  const pageFiles = await pageSourceFiles();
  const result = await Bun.build({
    entrypoints: [join(root, "web/entry.client.tsx"), ...new Set(Object.values(pageFiles))],
    outdir: publicDir,
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    sourcemap: "none",
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("client build failed");
  }

  const outputs = result.outputs.map((o) => ({ path: o.path, kind: o.kind, name: basename(o.path) }));
  const entry = outputs.find((o) => o.kind === "entry-point" && o.name.startsWith("entry.client-"));
  if (!entry) throw new Error("client build produced no entry file");
  const css = await buildCss();

  const manifest: AssetManifest = {
    entry: PUBLIC_PREFIX + entry.name,
    css: PUBLIC_PREFIX + css,
    pages: {},
  };
  for (const [id, file] of Object.entries(pageFiles) as [PageId, string][]) {
    const stem = basename(file).replace(/\.tsx?$/, "");
    const output = outputs.find((o) => o.kind === "entry-point" && o.name.startsWith(`${stem}-`));
    if (!output) throw new Error(`no output for page ${id}`);
    // The entry's static imports load anyway; preload the page and what it imports beyond them.
    const needed = await staticClosure(output.name);
    const already = await staticClosure(entry.name);
    manifest.pages[id] = [...needed].filter((f) => !already.has(f) || f === output.name).map((f) => PUBLIC_PREFIX + f);
  }
  await precompress([...outputs.map((o) => o.name), css]);
  const manifestTmp = join(dist, `manifest.${process.pid}.json`);
  await writeFile(manifestTmp, JSON.stringify(manifest, null, 2));
  await rename(manifestTmp, join(dist, "manifest.json"));

  if (!quiet) await report(manifest, entry.name, css, performance.now() - started);
  return manifest;
}

/**
 * Each code-split page's module path, read from the route table's `import("./pages/x.tsx")`
 * loaders. A page without one is bundled with the entry (the landing page) and needs no preload.
 */
async function pageSourceFiles(): Promise<Partial<Record<PageId, string>>> {
  const source = await readFile(join(root, "web/routes.ts"), "utf8");
  const files: Partial<Record<PageId, string>> = {};
  for (const id of Object.keys(pages) as PageId[]) {
    const found = new RegExp(`\\b${id}: \\{[^}]*import\\("(\\./pages/[^"]+)"\\)`).exec(source);
    if (found?.[1]) files[id] = join(root, "web", found[1]);
    else if (!new RegExp(`\\b${id}: \\{[^}]*Promise\\.resolve\\(`).test(source)) throw new Error(`page ${id}: no loader found in web/routes.ts`);
  }
  return files;
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
  await Promise.all(
    files.map(async (file) => {
      const bytes = await readFile(join(publicDir, file));
      await writeFile(join(publicDir, `${file}.gz`), gzipSync(bytes, { level: 9 }));
      await writeFile(join(publicDir, `${file}.br`), brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
    }),
  );
}

/** A file plus every chunk it imports statically, transitively (what the browser must fetch). */
async function staticClosure(file: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = await readFile(join(publicDir, file), "utf8");
  for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["']\.\/([\w.-]+\.js)["']/g)) {
    if (m[1]) await staticClosure(m[1], seen);
  }
  return seen;
}

async function report(manifest: AssetManifest, entry: string, css: string, ms: number) {
  const gz = async (file: string) => (await readFile(join(publicDir, `${file}.gz`))).length;
  const br = async (file: string) => (await readFile(join(publicDir, `${file}.br`))).length;
  const homeFiles = new Set([...(await staticClosure(entry)), ...(manifest.pages.home ?? []).map((f) => f.slice(PUBLIC_PREFIX.length))]);
  let js = 0;
  let jsBr = 0;
  for (const f of homeFiles) {
    js += await gz(f);
    jsBr += await br(f);
  }
  const kb = (n: number) => (n / 1024).toFixed(1);
  // The figures are the bytes served: the precompressed copies the server sends.
  console.log(
    `client built in ${ms.toFixed(0)} ms → ${relative(root, publicDir)}: first-load JS ${kb(js)} KB gzip / ${kb(jsBr)} KB brotli (${homeFiles.size} files), ` +
      `CSS ${kb(await gz(css))} KB gzip / ${kb(await br(css))} KB brotli`,
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
