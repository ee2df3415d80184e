import { gzipSync } from "node:zlib";
import { readFileSync, rmSync } from "node:fs";
rmSync("/tmp/an", { recursive: true, force: true });
const entries = ["web/entry.client.tsx", ...["home","search","profile","subscription","auth","checkout","variants","compare","upgrade","not-found"].map(p=>`web/pages/${p}.tsx`)].map(f=>"/work/main/"+f);
const r = await Bun.build({ entrypoints: entries, outdir: "/tmp/an", target: "browser", minify: true, splitting: true, define: { "process.env.NODE_ENV": '"production"' }, metafile: true, naming: { entry: "[name].[ext]", chunk: "chunk-[hash].[ext]" } } as any);
const outs = (r as any).metafile.outputs as Record<string, any>;
const keyOf = (p: string) => Object.keys(outs).find(k => k.endsWith(p.replace(/^\.\//,"")))!;
const seen = new Set<string>();
const walk = (k: string) => { if (seen.has(k)) return; seen.add(k); for (const imp of outs[k].imports ?? []) if (imp.kind === "import-statement") walk(keyOf(imp.path)); };
walk(keyOf("entry.client.js")); walk(keyOf("home.js"));
const byPkg = new Map<string, number>(); let total = 0;
for (const k of seen) { total += gzipSync(readFileSync("/tmp/an/" + k.replace(/^.*\//,""))).length; for (const [file, info] of Object.entries(outs[k].inputs as Record<string, any>)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file); const key = m ? m[1] : file.replace("/work/main/","");
  byPkg.set(key, (byPkg.get(key) ?? 0) + info.bytesInOutput); } }
console.log("gzip total KB", (total/1024).toFixed(1));
for (const [k, v] of [...byPkg].sort((a,b)=>b[1]-a[1]).slice(0,30)) console.log((v/1024).toFixed(1).padStart(7), k);
