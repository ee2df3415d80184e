/**
 * How fast a cancelled search lets go of the providers: from POST /api/cancel-search (or the
 * client closing its connection) until the simulator has seen every provider connection close,
 * against the same delay for one bare fetch aborted straight at the simulator, in the same
 * process. Prints medians over --runs and their ratios to the baseline. The integration tests
 * only check these happen; the figures live here, because CI machines are too noisy to assert them.
 *
 *   bun bench/cancel.ts [--runs 20]
 */
import { providerIds } from "#src/contract/providers.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { buildAssets } from "../scripts/build-assets.ts";
import { benchApp, flag } from "./lib.ts";

const runs = Number(flag("--runs") ?? 20);

await buildAssets({ quiet: true });
// Answers never come: every request ends only when its client lets go.
const simulator = startSimulator({ latency: { kind: "fixed", ms: 600_000 } });
const bench = await benchApp({ baseUrls: simulator.baseUrls });
const call = (path: string, init: RequestInit = {}) =>
  bench.handle(`http://localhost${path}`, { ...init, headers: { "content-type": "application/json", cookie, ...init.headers } });
let cookie = "";
cookie = (await call("/api/status")).headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
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
console.log(
  `POST /api/cancel-search → all ${providerIds.length} connections closed: ${cancelCall.toFixed(2)} ms (${(cancelCall / baseline).toFixed(1)}× baseline)`,
);
console.log(`client closes POST /api/search → all closed:      ${clientGone.toFixed(2)} ms (${(clientGone / baseline).toFixed(1)}× baseline)`);

await simulator.stop();
await bench.close();

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
