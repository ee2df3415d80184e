/**
 * A tracker's trend at a year of data: a daily tracker of 50 queries × 3 providers × 10
 * iterations seeded for 365 days (scripts/seed.ts: one real run on the simulator, the other days
 * copied by SQL; about 550,000 answers), then through the app, in this process: p50 of
 * GET /api/trackers/{id}/trend over all queries (mention), for one query, and as share of voice;
 * goal ≤ 50 ms each, on PGlite and on a throwaway PostgreSQL (when its binaries are here). The
 * in-process GET /healthz is the baseline.
 *
 *   bun bench/trend.ts [--days 365] [--requests 200] [--database pglite|postgres] [--quick]
 */
import { refreshStatistics } from "#db/statistics.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { seedTracker } from "../scripts/seed.ts";
import { benchApp, flag, onEachDatabase, quick, report, requestP50, spawnSimulator } from "./lib.ts";

const days = Number(flag("--days") ?? 365);
const requests = Number(flag("--requests") ?? (quick ? 40 : 200));

await buildAssets({ quiet: true });
const simulator = await spawnSimulator(0);

await onEachDatabase("the trend", measure);

simulator.stop();
process.exit(0);

async function measure(label: string, env: Record<string, string>) {
  const bench = await benchApp({ baseUrls: simulator.baseUrls, env });
  const started = performance.now();
  const { trackerId, cookie, counts, seconds } = await seedTracker(bench.database, bench.handle, { days });
  // The statistics as the server keeps them: its own pass on PGlite (db/statistics.ts), autovacuum's within a minute on PostgreSQL.
  await refreshStatistics(bench.database);
  console.log(
    `${label}: seeded ${counts.runs} runs (${counts.searches} saved searches, ${counts.answers} answers, ${counts.rollups} rollup rows) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s (the real run ${seconds.run.toFixed(1)} s, the copies ${seconds.copies.toFixed(1)} s)`,
  );

  // The first 10 warm up.
  const p50 = async (path: string) => {
    const { ms, bytes } = await requestP50(bench.handle, path, { requests, warmup: 10, cookie });
    return { ms, kb: bytes / 1024 };
  };

  const trend = `/api/trackers/${trackerId}/trend`;
  const baseline = await p50("/healthz");
  const all = await p50(trend);
  const one = await p50(`${trend}?query=${encodeURIComponent("best crm for small teams, question 1")}`);
  const sov = await p50(`${trend}?metric=sov`);
  const line = (what: string, { ms, kb }: { ms: number; kb: number }) => `${what} ${ms.toFixed(2)} ms (${kb.toFixed(0)} KB)`;
  console.log(
    `${label}, p50 over ${requests} requests: /healthz ${baseline.ms.toFixed(2)} ms (baseline), ` +
      `${[line("trend, all queries", all), line("one query", one), line("share of voice", sov)].join(", ")}`,
  );
  const figure = (what: string) => `trend ${what}, ${counts.runs} daily runs, ${label} (p50)`;
  report({ figure: figure("all queries"), value: all.ms, unit: "ms", goal: 50, better: "lower", detail: `healthz ${baseline.ms.toFixed(2)} ms` });
  report({ figure: figure("one query"), value: one.ms, unit: "ms", goal: 50, better: "lower" });
  report({ figure: figure("share of voice"), value: sov.ms, unit: "ms", goal: 50, better: "lower" });
  await bench.close();
}
