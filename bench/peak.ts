/**
 * Peak memory under load: the single binary (NODE_ENV=production) on PGlite, its providers pointed
 * at the simulator in another process (latency 200 ms); 50 Pro users each run a 5-iteration search
 * at once, in --bursts one after the other (3; 1 with --quick). Prints the server's peak resident
 * memory (VmHWM, reset before each burst) until the burst's last answer, and their median (goal
 * ≤ 400 MB): one burst's peak depends on when the collector happens to run.
 *
 *   bun bench/peak.ts [--users 50] [--iterations 5] [--bursts 3] [--quick]
 */
import { mkdtempSync } from "node:fs";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDatabase } from "#db/client.ts";
import { migrate } from "#db/migrate.ts";
import { subscriptions, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { BINARY, flag, median, memoryOf, quick, report, spawnSimulator, startServer } from "./lib.ts";

const count = Number(flag("--users") ?? 50);
const iterations = Number(flag("--iterations") ?? 5);
const bursts = Number(flag("--bursts") ?? (quick ? 1 : 3));
const PASSWORD = "peak-password";

// The users and their subscriptions, written before the server opens the folder (one process owns a PGlite folder).
const dataDir = mkdtempSync(join(tmpdir(), "bench-peak-"));
const database = await createDatabase({ dataDir });
await migrate(database);
const passwordHash = await Bun.password.hash(PASSWORD);
const rows = await database.db
  .insert(users)
  .values(Array.from({ length: count }, (_, i) => ({ username: `peak${i}`, email: `peak${i}@example.com`, passwordHash, firstName: "", lastName: "" })))
  .returning({ id: users.id });
await database.db
  .insert(subscriptions)
  .values(rows.map(({ id }) => ({ id: `sub_${id}`, userId: id, stripeCustomerId: `cus_${id}`, status: "active" as const })));
await database.close();

const simulator = await spawnSimulator(200);
const keys = Object.fromEntries(
  providerIds.flatMap((id) => [
    [providerConfig[id].env.apiKey, "bench-key"],
    [providerConfig[id].env.baseUrl, simulator.baseUrls[id]],
  ]),
);
const server = await startServer([BINARY], { ...keys, DATA_DIR: dataDir, TRUST_PROXY: "1" });
const clients = [];
for (let i = 0; i < count; i++) {
  const ip = `10.0.${i >> 8}.${i & 255}`;
  const response = await fetch(`${server.url}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ username: `peak${i}`, password: PASSWORD }),
  });
  if (!response.ok) throw new Error(`login ${i}: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  clients.push(createApiClient({ baseUrl: server.url, headers: { cookie, "x-forwarded-for": ip } }));
}
await clients[0]?.search({ query: "best running shoes", iterations: 1 }); // warm-up: SDK clients
const peaks: number[] = [];
const idle = memoryOf(server.pid).rss;
for (let burst = 1; burst <= bursts; burst++) {
  writeFileSync(`/proc/${server.pid}/clear_refs`, "5"); // resets VmHWM: the peak from here on
  const before = memoryOf(server.pid).rss;
  const started = performance.now();
  const results = await Promise.all(clients.map((api) => api.search({ query: "best running shoes", iterations })));
  const wall = performance.now() - started;
  const { peak } = memoryOf(server.pid);
  peaks.push(peak);
  const failed = results.filter((r) => Object.values(r.result.models).some((m) => m?.status !== "ok")).length;
  console.log(
    `burst ${burst}: ${count} concurrent ${iterations}-iteration searches in ${wall.toFixed(0)} ms${failed ? ` (${failed} with a failed provider)` : ""}; server RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
  );
}
report({
  figure: `peak RSS, ${count} concurrent ${iterations}-iteration searches`,
  value: median(peaks),
  unit: "MB",
  goal: 400,
  better: "lower",
  detail: `median of ${peaks.map((peak) => peak.toFixed(0)).join(", ")}; ${idle.toFixed(0)} MB before`,
});

await server.stop();
simulator.stop();
process.exit(0);
