/**
 * How fast a cancelled search lets go of the providers: from POST /api/cancel-search (or the
 * client closing its connection) until the simulator has seen every provider connection close,
 * against the same delay for one bare fetch aborted straight at the simulator, in the same
 * process. Prints medians over --runs and their ratios to the baseline. The integration tests
 * only check these happen; the figures live here, because CI machines are too noisy to assert them.
 *
 *   bun bench/cancel.ts [--runs 20]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createDatabase, MEMORY_DATA_DIR } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { providerIds } from "#src/contract/providers.ts";
import { createApp } from "#src/server/app.ts";
import { parseEnv } from "#src/server/env.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { startSimulator } from "#src/simulators/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { billingConfig } from "#src/server/services/billing/config.ts";
import { startStripeSimulator } from "#src/simulators/stripe.ts";
import { loadPageRenderer } from "#web/render.tsx";
import { buildAssets } from "../scripts/build-assets.ts";

const runs = Number(flag("--runs") ?? 20);

await buildAssets({ quiet: true });
const dist = resolve(import.meta.dir, "../dist");
const database = await createDatabase({ dataDir: MEMORY_DATA_DIR });
await migrate(database);
const env = parseEnv({ NODE_ENV: "test", DATA_DIR: mkdtempSync(join(tmpdir(), "bench-")), SESSION_SECRET: "bench-secret-bench-secret-bench-secret", SIMULATE_PROVIDERS: "on" });
// Answers never come: every request ends only when its client lets go.
const simulator = startSimulator({ latency: { kind: "fixed", ms: 600_000 } });
const app = await createApp({ env, database, assetsDir: join(dist, "public"), renderPage: loadPageRenderer(dist), providers: createProviders(env, simulator.baseUrls), billing: billingConfig(env, startStripeSimulator()), queue: createJobQueue(database) });
const call = (path: string, init: RequestInit = {}) => app.handle(new Request(`http://localhost${path}`, { ...init, headers: { "content-type": "application/json", cookie, ...init.headers } }));
let cookie = "";
cookie = (await call("/api/status")).headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
const searchBody = JSON.stringify({ query: "best running shoes" });

const baseline = await median(async () => {
  const controller = new AbortController();
  const pending = fetch(`${simulator.baseUrls.openai}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer simulated-key" },
    body: JSON.stringify({ model: "gpt-5-mini", input: "best running shoes", tools: [{ type: "web_search" }] }),
    signal: controller.signal,
  }).catch(() => undefined);
  await until(() => simulator.requests.length === 1);
  return closedAfter(1, () => controller.abort(), pending);
});

const cancelCall = await median(async () => {
  const pending = call("/api/search", { method: "POST", body: searchBody }).then((r) => r.text());
  await until(() => simulator.requests.length === providerIds.length);
  return closedAfter(providerIds.length, () => void call("/api/cancel-search", { method: "POST" }), pending);
});

const clientGone = await median(async () => {
  const controller = new AbortController();
  const pending = call("/api/search", { method: "POST", body: searchBody, signal: controller.signal }).catch(() => undefined);
  await until(() => simulator.requests.length === providerIds.length);
  return closedAfter(providerIds.length, () => controller.abort(), pending);
});

console.log(`cancel latency, median of ${runs} runs (same process)`);
console.log(`bare fetch aborted → simulator sees it:            ${baseline.toFixed(2)} ms (baseline)`);
console.log(`POST /api/cancel-search → all ${providerIds.length} connections closed: ${cancelCall.toFixed(2)} ms (${(cancelCall / baseline).toFixed(1)}× baseline)`);
console.log(`client closes POST /api/search → all closed:      ${clientGone.toFixed(2)} ms (${(clientGone / baseline).toFixed(1)}× baseline)`);

await simulator.stop();
await database.close();

/** Milliseconds from `act` until the simulator has recorded `count` aborted requests. */
async function closedAfter(count: number, act: () => void, pending: Promise<unknown>): Promise<number> {
  const started = performance.now();
  act();
  await until(() => simulator.aborts.length >= count);
  const elapsed = performance.now() - started;
  await pending;
  simulator.clearLog();
  return elapsed;
}

async function median(measure: () => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await measure());
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error("timed out waiting for the simulator");
    await Bun.sleep(0);
  }
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
process.exit(0); // the Stripe simulator and the app keep the event loop alive
