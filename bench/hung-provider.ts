/**
 * A provider that never answers, against the server as it runs in production (its own process,
 * `bun web/entry.server.tsx`, default config unless given): the time from POST /api/search, and
 * from opening the event stream, to the saved result (the hung provider's card cut at the search's
 * time limit, the search in the history); then SIGTERM with such a search in flight, to the exit.
 * The integration tests check that these happen with limits of a second; the figures at the
 * defaults live here, because they take minutes.
 *
 *   bun bench/hung-provider.ts [--deadline 90] [--grace 8]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SearchStreamEvent } from "#src/client/api.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { browserAt, startServer } from "#tests/support/server.ts";
import { buildAssets } from "../scripts/build-assets.ts";

const env: Record<string, string> = {};
const deadline = flag("--deadline");
const grace = flag("--grace");
if (deadline) env.SEARCH_DEADLINE_SECONDS = deadline;
if (grace) env.SHUTDOWN_GRACE_SECONDS = grace;

await buildAssets({ quiet: true });
const simulator = startSimulator();
simulator.setFaults("gemini", [{ kind: "timeout" }], { persistent: true });
const server = await startServer(simulator, mkdtempSync(join(tmpdir(), "bench-hung-")), env);
console.log(`server: ${server.baseUrl}, SEARCH_DEADLINE_SECONDS=${deadline ?? "default"}, SHUTDOWN_GRACE_SECONDS=${grace ?? "default"}; gemini never answers`);

// Two visitors at once (one search each: a newer search of the same visitor cancels the older).
const plain = browserAt(server.baseUrl);
const streaming = browserAt(server.baseUrl);
await Promise.all([plain.api.status(), streaming.api.status()]);
const [plainMs, streamMs] = await Promise.all([
  timed(async () => {
    const { result } = await plain.api.search({ query: "best robot vacuum" });
    return check(plain, result.id);
  }),
  timed(async () => {
    let last: SearchStreamEvent | undefined;
    for await (const event of streaming.api.searchStream({ query: "best standing desk" })) last = event;
    if (last?.type !== "done") throw new Error(`the stream ended with ${JSON.stringify(last)}`);
    return check(streaming, last.result.id);
  }),
]);
console.log(
  `time to a saved result, one provider hung: POST /api/search ${(plainMs / 1000).toFixed(2)} s; event stream to 'done' ${(streamMs / 1000).toFixed(2)} s`,
);

// SIGTERM with a search in flight that only the drain can end.
const late = browserAt(server.baseUrl);
const events: SearchStreamEvent[] = [];
const reading = (async () => {
  for await (const event of late.api.searchStream({ query: "best vpn" })) events.push(event);
})().catch((error: unknown) => error);
while (events.filter((e) => e.type === "result").length < 2) await Bun.sleep(20);
const signalled = performance.now();
server.process.kill("SIGTERM");
const code = await server.process.exited;
console.log(
  `SIGTERM with the search in flight: exit ${code} after ${((performance.now() - signalled) / 1000).toFixed(2)} s; its stream ended with ${String(await reading)}`,
);
await simulator.stop();

/** That the search is in its visitor's history, and the hung provider's card says the limit cut it. */
async function check(visitor: ReturnType<typeof browserAt>, id: string): Promise<void> {
  const saved = await visitor.api.getSearch(id);
  if (saved.models.gemini?.stopped !== "deadline") throw new Error(`gemini's card: ${JSON.stringify(saved.models.gemini)}`);
  const listed = await visitor.api.listSearches();
  if (!listed.searches.some((s) => s.id === id)) throw new Error("the search is not in the history");
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
