/**
 * SSR throughput: `GET /` through the real server (HTTP, routing, identity, prefetching the
 * page's data through the API, streaming render) against a bare `renderToString` of the same
 * tree with the same data, in the same process, so the machine's speed cancels out. Prints
 * requests/s, p50 and the ratio (goal ≥ 0.5).
 *
 *   NODE_ENV=production bun bench/ssr.ts [--seconds 5] [--concurrency 8]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createDatabase, MEMORY_DATA_DIR } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { createApp } from "#src/server/app.ts";
import { parseEnv } from "#src/server/env.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { billingConfig } from "#src/server/services/billing/config.ts";
import { startStripeSimulator } from "#src/simulators/stripe.ts";
import { loadPageRenderer } from "#web/render.tsx";
import { startSimulator } from "#src/simulators/index.ts";
import { hydrate } from "@tanstack/react-query";
import { App } from "#web/app.tsx";
import { Document, type BootData } from "#web/document.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { loadPage } from "#web/routes.ts";

const seconds = Number(flag("--seconds") ?? 5);
const concurrency = Number(flag("--concurrency") ?? 8);

const { manifest } = await buildAssets({ quiet: true });
const dist = resolve(import.meta.dir, "../dist");
const database = await createDatabase({ dataDir: MEMORY_DATA_DIR });
await migrate(database);
const env = parseEnv({ NODE_ENV: "test", DATA_DIR: mkdtempSync(join(tmpdir(), "bench-")), SESSION_SECRET: "bench-secret-bench-secret-bench-secret" });
const simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
const app = await createApp({ env, database, assetsDir: join(dist, "public"), renderPage: loadPageRenderer(dist), providers: createProviders({ ...env, SIMULATE_PROVIDERS: "on" }, simulator.baseUrls), billing: billingConfig(env, startStripeSimulator()), queue: createJobQueue(database) });
app.listen({ port: 0, hostname: "127.0.0.1" });
const url = `http://127.0.0.1:${app.server?.port}/`;
await loadPage("home");

// The same tree the server streams: the document around <App>, with the same prefetched data.
const page = await (await fetch(url)).text();
const bootJson = /<script id="__BOOT__" type="application\/json">([^<]*)<\/script>/.exec(page)?.[1];
if (!bootJson) throw new Error("no boot data in GET /");
const boot = JSON.parse(bootJson) as BootData;
const bare = await measure(async () => {
  const queryClient = createQueryClient();
  hydrate(queryClient, boot.queryState);
  renderToString(createElement(Document, { boot, bootJson, children: createElement(App, { queryClient, ssrPath: "/", ssrSearch: "" }) }));
}, 1);
const server = await measure(async () => {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
  await response.text();
}, concurrency);

console.log(`React ${process.env.NODE_ENV === "production" ? "production" : "development"} build, ${seconds} s each, ${concurrency} concurrent requests`);
console.log(`bare renderToString: ${bare.rps.toFixed(0)} renders/s, p50 ${bare.p50.toFixed(2)} ms`);
console.log(`GET / via server:    ${server.rps.toFixed(0)} requests/s, p50 ${server.p50.toFixed(2)} ms`);
console.log(`ratio server/bare: ${(server.rps / bare.rps).toFixed(2)} (goal ≥ 0.5)`);

await app.stop(true);
simulator.stop();
await database.close();

async function measure(run: () => Promise<void>, workers: number) {
  for (let i = 0; i < 200; i++) await run(); // warm-up: JIT, caches
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        await run();
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: latencies[Math.floor(latencies.length / 2)] ?? 0 };
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
