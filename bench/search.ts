/**
 * Search orchestration overhead: with every simulator answering in a fixed L ms, an iteration is
 * a search call and then the call that reads its answer (ADR 039), each L. Reading overlaps the
 * next search, so a search should take 2L for 1 iteration and ⌈N/C⌉·L + L for N iterations at C
 * searches in flight per provider. Runs the real app (SDK adapters, both calls, aggregation,
 * saving) and prints wall ÷ ideal (goals ≤ 1.05 and ≤ 1.10), what reading adds (wall ÷ the search
 * calls' ideal alone), and the calls made. The ideal leaves out what the SDK calls and the
 * simulator's answers take beyond L, so the same calls are also timed bare (the adapters' SDK
 * calls alone, in the same pattern, in this process) and wall ÷ bare is printed: what our own
 * pipeline adds. The simulator runs in its
 * own process, as remote providers would: its work of composing answers must not share the app's
 * event loop. Bare and full runs take turns; each figure is the median of 5 runs (3 with --quick).
 *
 *   bun bench/search.ts [--latency 200] [--concurrency 5] [--quick]
 */
import { subscriptions, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { perProvider, providerIds } from "#src/contract/providers.ts";
import { extractionRequest } from "#src/core/extraction/extract.ts";
import { createLimiter } from "#src/server/services/search/limit.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { benchApp, flag, median, quick, report, spawnSimulator } from "./lib.ts";

const latency = Number(flag("--latency") ?? 200);
const concurrency = Number(flag("--concurrency") ?? 5);
const runs = quick ? 3 : 5;

await buildAssets({ quiet: true });
const simulator = await spawnSimulator(latency);
const bench = await benchApp({ baseUrls: simulator.baseUrls, env: { SEARCH_CONCURRENCY: String(concurrency) } });
const { database, handle, providers: adapters } = bench;
// Iterations above 1 are Pro: the bench signs in as a user with an active subscription.
const signUp = await handle("http://localhost/api/register", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "bench-password" }),
});
const [user] = await database.db.select({ id: users.id }).from(users);
if (!signUp.ok || !user) throw new Error(`could not sign up the bench user: ${signUp.status} ${await signUp.text()}`);
await database.db.insert(subscriptions).values({ id: "sub_bench", userId: user.id, stripeCustomerId: "cus_bench", status: "active" });
const cookie = signUp.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie } });

// The app's own SDK adapters, on the same simulator: the baseline's calls, a search and the
// reading of its answer, the search alone holding a place.
const bare = perProvider((id) => adapters[id]!);
async function bareCalls(iterations: number): Promise<void> {
  await Promise.all(
    providerIds.map((id) => {
      const limit = createLimiter(concurrency);
      const adapter = bare[id];
      const reader = adapter.extractor ?? adapter;
      const call = async () => {
        const answer = await limit(() => adapter.search({ query: "best running shoes", options: {}, signal: AbortSignal.timeout(60_000) }));
        await reader.structured(extractionRequest(answer.text), AbortSignal.timeout(60_000));
      };
      return Promise.all(Array.from({ length: iterations }, call));
    }),
  );
}

// The calls the app makes, counted where it makes them.
const calls = { searches: 0, readings: 0 };
for (const id of providerIds) {
  const adapter = bare[id];
  const reader = adapter.extractor ?? adapter;
  adapters[id] = {
    ...adapter,
    search: (call) => (calls.searches++, adapter.search(call)),
    extractor: { ...reader, structured: (request, signal) => (calls.readings++, reader.structured(request, signal)) },
  };
}

await api.search({ query: "best running shoes", iterations: 1 }); // warm-up: SDK clients, JIT
await bareCalls(1);

for (const iterations of quick ? [1] : [1, 100]) {
  const searching = Math.ceil(iterations / concurrency) * latency;
  const ideal = searching + latency;
  const walls: number[] = [];
  const bares: number[] = [];
  let result!: Awaited<ReturnType<typeof api.search>>;
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    await bareCalls(iterations);
    bares.push(performance.now() - started);
    started = performance.now();
    calls.searches = calls.readings = 0;
    result = await api.search({ query: "best running shoes", iterations });
    walls.push(performance.now() - started);
  }
  const wall = median(walls);
  const bareWall = median(bares);
  const failed = providerIds.filter((id) => result.result.models[id]?.status !== "ok");
  if (failed.length) throw new Error(`${iterations} iteration(s): failed: ${failed.join(", ")}`);
  console.log(
    `${String(iterations).padStart(3)} iteration(s): wall ${wall.toFixed(0)} ms, ideal ${ideal} ms (⌈${iterations}/${concurrency}⌉·${latency} + ${latency}), the same SDK calls bare ${bareWall.toFixed(0)} ms, median of ${runs}; ` +
      `calls made: ${calls.searches} searches and ${calls.readings} readings of their answers (${providerIds.length} providers); reading adds ${(wall - searching).toFixed(0)} ms to the searches' ${searching} ms`,
  );
  const plural = iterations > 1 ? "s" : "";
  const goal = iterations === 1 ? 1.05 : 1.1;
  report({
    figure: `search wall ÷ ideal, ${iterations} iteration${plural}, latency ${latency} ms`,
    value: wall / ideal,
    unit: "×",
    goal,
    better: "lower",
    detail: `${wall.toFixed(0)} vs ${ideal} ms`,
  });
  report({
    figure: `search wall ÷ its SDK calls bare, ${iterations} iteration${plural}`,
    value: wall / bareWall,
    unit: "×",
    goal,
    better: "lower",
    detail: `${wall.toFixed(0)} vs ${bareWall.toFixed(0)} ms`,
  });
}

simulator.stop();
await bench.close();
process.exit(0);
