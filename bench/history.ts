/**
 * History at scale: one user with 10,000 saved searches (scripts/seed.ts), then the first page of
 * their history (GET /api/user/searches) and one saved search (GET /api/search/{id}) through the
 * app, in this process; p50 of each over --requests (goal ≤ 10 ms each). The in-process
 * GET /healthz is the baseline: what any request costs without touching the searches.
 *
 *   bun bench/history.ts [--searches 10000] [--requests 300] [--quick]
 */
import { buildAssets } from "../scripts/build-assets.ts";
import { seedSearches } from "../scripts/seed.ts";
import { benchApp, flag, median, quick, report, spawnSimulator } from "./lib.ts";

const count = Number(flag("--searches") ?? 10_000);
const requests = Number(flag("--requests") ?? (quick ? 60 : 300));

await buildAssets({ quiet: true });
const simulator = await spawnSimulator(0);
const bench = await benchApp({ baseUrls: simulator.baseUrls });
const started = performance.now();
const { originals, cookie } = await seedSearches(bench.database, bench.handle, { searches: count });
console.log(`seeded ${count} searches in ${((performance.now() - started) / 1000).toFixed(1)} s`);

async function p50(path: string) {
  const times: number[] = [];
  for (let i = 0; i < requests + 20; i++) {
    const t = performance.now();
    const response = await bench.handle(`http://localhost${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    await response.arrayBuffer();
    if (i >= 20) times.push(performance.now() - t); // the first 20 warm up
  }
  return median(times);
}

const baseline = await p50("/healthz");
const list = await p50("/api/user/searches");
const one = await p50(`/api/search/${originals[0]}`);
console.log(
  `p50 over ${requests} requests: /healthz ${baseline.toFixed(2)} ms (baseline), first history page ${list.toFixed(2)} ms, one saved search ${one.toFixed(2)} ms`,
);
report({
  figure: `history first page, ${count} searches (p50)`,
  value: list,
  unit: "ms",
  goal: 10,
  better: "lower",
  detail: `healthz ${baseline.toFixed(2)} ms`,
});
report({ figure: `GET /api/search/{id}, ${count} searches (p50)`, value: one, unit: "ms", goal: 10, better: "lower" });

simulator.stop();
await bench.close();
process.exit(0);
