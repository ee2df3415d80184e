/**
 * What the keyless demo answers to the queries of tests/support/demo-queries.ts: each runs
 * through the real search path (createApp + app.handle, the SDK adapters, the simulators on
 * loopback at the demo's noise and extractor error rates) and this prints, per provider, the
 * products and companies named most often over the iterations, and how many answers cited sources.
 *
 *   bun scripts/demo-queries.ts [--iterations 10] [--seed 13] [--noise 0.08] [--extractor-errors 0.2]
 */
import { providerIds } from "#src/contract/providers.ts";
import type { Frequency } from "#src/contract/search-result.ts";
import { DEMO_EXTRACTOR_ERRORS, DEMO_NOISE, startSimulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { openTestDatabase } from "#tests/support/databases.ts";
import { demoQueries } from "#tests/support/demo-queries.ts";

const option = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value)) throw new Error(`--${name} expects a number`);
  return value;
};
const iterations = option("iterations", 10);
const seed = option("seed", 13);
const noise = option("noise", DEMO_NOISE);
const extractorErrors = option("extractor-errors", DEMO_EXTRACTOR_ERRORS);

const database = await openTestDatabase("pglite");
const simulator = startSimulator({ latency: { kind: "fixed", ms: 1 }, seed, noise, extractorErrors });
try {
  const { app } = await createTestApp(database, { simulator });
  const { agent } = await createProAgent(app, database);
  console.log(
    `Keyless demo, ${iterations} iterations per query, simulator seed ${seed}, noise ${noise}, extractor errors ${extractorErrors}. Counts are answers out of ${iterations}.\n`,
  );
  for (const { query } of demoQueries) {
    const { result } = await agent.api.search({ query, iterations });
    console.log(`## ${query}`);
    for (const id of providerIds) {
      const stats = result.stats[id];
      const model = result.models[id];
      if (!stats || !model) {
        console.log(`  ${id.padEnd(9)} no answer`);
        continue;
      }
      const cited = model.sources.filter((s) => s.cited).length;
      const products = top(stats.productFrequencies, 5);
      const companies = top(stats.companyFrequencies, 4);
      console.log(`  ${id.padEnd(9)} products: ${products || "(none)"}`);
      console.log(
        `  ${"".padEnd(9)} companies: ${companies || "(none)"} · first answer cites ${cited} source${cited === 1 ? "" : "s"} · ${firstLine(model.rawResponse ?? "")}`,
      );
    }
    console.log();
  }
} finally {
  await simulator.stop();
  await database.close();
}
// The test harness's shared Stripe simulator and job queue would keep the process alive.
process.exit(0);

function top(frequencies: readonly Frequency[], count: number): string {
  return frequencies
    .slice(0, count)
    .map((f) => `${f.name} ${f.count}`)
    .join(", ");
}

/** The answer's opening words, so a plain or honest answer shows what it said. */
function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return `"${line.length > 90 ? `${line.slice(0, 87)}…` : line}"`;
}
