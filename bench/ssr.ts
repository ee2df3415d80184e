/**
 * SSR throughput: `GET /` through the real server (HTTP, routing, identity, the page's data,
 * streaming render) against a bare `renderToString` of the same tree with the same data, in the
 * same process, so the machine's speed cancels out. Prints requests/s, p50 and the ratio (goal ≥ 0.5)
 * for a returning visitor (their anonymous-id cookie from a first visit), and for first visits (no cookie).
 *
 *   NODE_ENV=production bun bench/ssr.ts [--seconds 5] [--concurrency 8] [--quick]
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { hydrate } from "@tanstack/react-query";
import { startSimulator } from "#dev/simulators/index.ts";
import { App } from "#web/app.tsx";
import { Document, type BootData } from "#web/document.tsx";
import { createQueryClient } from "#web/lib/query-client.ts";
import { loadPage } from "#web/routes.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { benchApp, flag, median, quick, report } from "./lib.ts";

const seconds = Number(flag("--seconds") ?? (quick ? 1 : 5));
const concurrency = Number(flag("--concurrency") ?? 8);
const warmup = quick ? 50 : 200;

await buildAssets({ quiet: true });
const simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
const bench = await benchApp({ baseUrls: simulator.baseUrls });
bench.app.listen({ port: 0, hostname: "127.0.0.1" });
const url = `http://127.0.0.1:${bench.app.server?.port}/`;
await loadPage("home");

// A returning visitor sends the cookie their first visit was given.
const first = await fetch(url);
const cookie = first.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
// The same tree the server streams: the document around <App>, with the same prefetched data.
const page = await (await fetch(url, { headers: { cookie } })).text();
const bootJson = /<script id="__BOOT__" type="application\/json">([^<]*)<\/script>/.exec(page)?.[1];
if (!bootJson) throw new Error("no boot data in GET /");
const boot = JSON.parse(bootJson) as BootData;
const get = (headers: Record<string, string>) => async () => {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET / answered ${response.status}`);
  await response.text();
};
const runs = {
  bare: async () => {
    const queryClient = createQueryClient();
    hydrate(queryClient, boot.queryState);
    renderToString(createElement(Document, { boot, bootJson, children: createElement(App, { queryClient, ssrPath: "/", ssrSearch: "" }) }));
  },
  server: get({ cookie }),
  firstVisits: get({}),
};
// Warm-up (JIT, caches), then the three take turns in slices of a fifth of a second, so a change
// in the machine's load (other processes) weighs on each alike.
for (const run of Object.values(runs)) for (let i = 0; i < warmup; i++) await run();
const totals = {
  bare: { count: 0, ms: 0, latencies: [] as number[] },
  server: { count: 0, ms: 0, latencies: [] as number[] },
  firstVisits: { count: 0, ms: 0, latencies: [] as number[] },
};
for (let slice = 0; slice < seconds * 5; slice++) {
  for (const [name, run] of Object.entries(runs) as Array<[keyof typeof runs, () => Promise<void>]>) {
    const total = totals[name];
    const workers = name === "bare" ? 1 : concurrency;
    const started = performance.now();
    const deadline = started + 200;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          await run();
          total.latencies.push(performance.now() - t);
          total.count++;
        }
      }),
    );
    total.ms += performance.now() - started;
  }
}
const rate = (name: keyof typeof totals) => ({ rps: (totals[name].count * 1000) / totals[name].ms, p50: median(totals[name].latencies) });
const bare = rate("bare");
const server = rate("server");
const firstVisits = rate("firstVisits");

console.log(`React ${process.env.NODE_ENV === "production" ? "production" : "development"} build, ${seconds} s each, ${concurrency} concurrent requests`);
console.log(`bare renderToString: ${bare.rps.toFixed(0)} renders/s, p50 ${bare.p50.toFixed(2)} ms`);
console.log(`GET / via server, returning visitor: ${server.rps.toFixed(0)} requests/s, p50 ${server.p50.toFixed(2)} ms`);
console.log(
  `GET / via server, first visits:     ${firstVisits.rps.toFixed(0)} requests/s, p50 ${firstVisits.p50.toFixed(2)} ms (ratio ${(firstVisits.rps / bare.rps).toFixed(2)})`,
);
report({
  figure: "GET / via server ÷ bare renderToString",
  value: server.rps / bare.rps,
  unit: "×",
  goal: 0.5,
  better: "higher",
  detail: `${server.rps.toFixed(0)} vs ${bare.rps.toFixed(0)} per s; first visits ${(firstVisits.rps / bare.rps).toFixed(2)}`,
});

await bench.close();
simulator.stop();
process.exit(0);
