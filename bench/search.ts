/**
 * Search orchestration overhead: with every simulator answering in a fixed L ms, a search should
 * take L for 1 iteration and ⌈N/C⌉·L for N iterations at C calls in flight per provider. Runs the
 * real app (SDK adapters, extraction, aggregation, saving) and prints wall ÷ ideal (goals ≤ 1.05
 * and ≤ 1.10). The simulator runs in its own process, as remote providers would: its work of
 * composing answers must not share the app's event loop. Each figure is the median of 5 runs.
 *
 *   bun bench/search.ts [--latency 200] [--concurrency 5]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createDatabase, MEMORY_DATA_DIR } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { subscriptions, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { createApp } from "#src/server/app.ts";
import { parseEnv } from "#src/server/env.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { billingConfig } from "#src/server/services/billing/config.ts";
import { startStripeSimulator } from "#src/simulators/stripe.ts";
import { loadPageRenderer } from "#web/render.tsx";
import { perProvider, providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { buildAssets } from "../scripts/build-assets.ts";

const latency = Number(flag("--latency") ?? 200);
const concurrency = Number(flag("--concurrency") ?? 5);

await buildAssets({ quiet: true });
const dist = resolve(import.meta.dir, "../dist");
const database = await createDatabase({ dataDir: MEMORY_DATA_DIR });
await migrate(database);
const env = parseEnv({
  NODE_ENV: "test",
  DATA_DIR: mkdtempSync(join(tmpdir(), "bench-")),
  SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
  SIMULATE_PROVIDERS: "on",
  SEARCH_CONCURRENCY: String(concurrency),
});
const simulator = await spawnSimulator(latency);
const app = await createApp({ env, database, assetsDir: join(dist, "public"), renderPage: loadPageRenderer(dist), providers: createProviders(env, simulator.baseUrls), billing: billingConfig(env, startStripeSimulator()), queue: createJobQueue(database) });
const handle = ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch;
// Iterations above 1 are Pro: the bench signs in as a user with an active subscription.
const signUp = await handle("http://localhost/api/register", {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ username: "bench", email: "bench@example.com", password: "bench-password" }),
});
const [user] = await database.db.select({ id: users.id }).from(users);
if (!signUp.ok || !user) throw new Error(`could not sign up the bench user: ${signUp.status} ${await signUp.text()}`);
await database.db.insert(subscriptions).values({ id: "sub_bench", userId: user.id, stripeCustomerId: "cus_bench", status: "active" });
const cookie = signUp.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie } });

await api.search({ query: "best running shoes", iterations: 1 }); // warm-up: SDK clients, JIT

for (const iterations of [1, 100]) {
  const ideal = Math.ceil(iterations / concurrency) * latency;
  const walls: number[] = [];
  let result!: Awaited<ReturnType<typeof api.search>>;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    result = await api.search({ query: "best running shoes", iterations });
    walls.push(performance.now() - started);
  }
  const wall = walls.sort((a, b) => a - b)[2] ?? 0;
  const failed = providerIds.filter((id) => result.result.models[id]?.status !== "ok");
  console.log(
    `${String(iterations).padStart(3)} iteration(s): wall ${wall.toFixed(0)} ms, ideal ${ideal} ms (⌈${iterations}/${concurrency}⌉·${latency}), ratio ${(wall / ideal).toFixed(3)} (goal ≤ ${iterations === 1 ? "1.05" : "1.10"})` +
      (failed.length ? `, failed: ${failed.join(", ")}` : ""),
  );
}

simulator.stop();

/** `bun src/simulators/index.ts` in a child process; resolves once it prints its base URLs. */
async function spawnSimulator(ms: number) {
  const child = Bun.spawn(["bun", join(import.meta.dir, "../src/simulators/index.ts"), "--latency-ms", String(ms), "--noise", "0"], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let out = "";
  const printed = () => providerIds.every((id) => new RegExp(`${providerCatalogue[id].env.baseUrl}=\\S+\\n`).test(out));
  while (!printed()) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`simulator exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  const url = (name: string) => new RegExp(`${name}=(\\S+)`).exec(out)?.[1] ?? "";
  return { baseUrls: perProvider((id) => url(providerCatalogue[id].env.baseUrl)), stop: () => child.kill() };
}
await database.close();

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
