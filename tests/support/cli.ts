import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import type { Database, DatabaseKind } from "#db/client.ts";
import { createApiClient } from "#src/client/api.ts";
import type { TrackerRun } from "#src/contract/trackers.ts";
import { hostOf } from "#src/core/urls.ts";
import type { App } from "#src/server/app.ts";
import type { ProviderStatus } from "#src/server/services/providers/status.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { Simulator } from "#dev/simulators/index.ts";
import { grantPro, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { DATABASE_SETUP_TIMEOUT_MS, openTestDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * The CLI as a person runs it: `bun cli/index.ts …` in a subprocess, against the real app
 * listening on a loopback port (simulated providers), with its own config folder and no colour.
 */

export const ROOT = resolve(import.meta.dir, "../..");
export const CLI_ENTRY = join(ROOT, "cli/index.ts");

export type CliServer = { baseUrl: string; app: App; database: Database; simulator: Simulator; providerStatus: ProviderStatus };

/** The app on a free loopback port for the suite (or describe block) that calls it; on PGlite unless told. */
export function useCliServer(
  options: { simulator?: () => Simulator; retry?: RetryPolicy; env?: Record<string, string>; database?: DatabaseKind } = {},
): () => CliServer {
  let server: CliServer | undefined;
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const database = await openTestDatabase(options.database ?? "pglite");
    const own = options.simulator?.();
    const { app, simulator, queue, providerStatus } = await createTestApp(database, { simulator: own, retry: options.retry, env: options.env });
    app.listen({ port: 0, hostname: "127.0.0.1" });
    server = { baseUrl: `http://127.0.0.1:${app.server?.port}`, app, database, simulator, providerStatus };
    stop = async () => {
      await app.stop(true);
      await queue.stop();
      await own?.stop();
      await database.close();
    };
  }, DATABASE_SETUP_TIMEOUT_MS);
  afterAll(async () => stop?.());
  return () => {
    if (!server) throw new Error("useCliServer: read it inside a test");
    return server;
  };
}

/** A user registered through the API, optionally Pro, with a personal API token; `browser` is their signed-in web session. */
export async function createUser(server: CliServer, { pro = false } = {}) {
  const browser = createAgent(server.app);
  const account = await signUp(browser, server.database);
  if (pro) await grantPro(server.database, account.id);
  const { token } = await browser.api.createToken("test");
  return { ...account, token, browser };
}

/**
 * A Pro user's 5-iteration search and a brand lens saved in their profile, as a person sets it
 * up on the web: their brand is a product the answers name, with the host of a cited source as
 * its own domain, against two other products the answers name.
 */
export async function savedSearchWithLens(server: CliServer) {
  const user = await createUser(server, { pro: true });
  const { result } = await user.browser.api.search({ query: "best crm for a small agency", iterations: 5 });
  const stats = result.stats.openai;
  const [brand, ...rivals] = (stats?.productFrequencies ?? []).map((item) => item.name);
  const domain = hostOf(stats?.sourceFrequencies[0]?.name ?? "");
  if (!brand || rivals.length < 2 || !domain) throw new Error("savedSearchWithLens: the simulated answers named too little");
  const competitors = rivals.slice(0, 2);
  await user.browser.api.saveBrandLens({
    brand: { name: brand, aliases: [], domains: [domain] },
    competitors: competitors.map((name) => ({ name, aliases: [], domains: [] })),
  });
  return { user, id: result.id, brand, competitors };
}

/**
 * A Pro user's tracker with one real alert, made as tests/integration/tracker-alerts.test.ts
 * makes it: runs of 10 iterations over two CRM questions, ChatGPT no longer searching the web
 * after a baseline of them, so that its citation rate of hubspot.com falls. Returns the tracker,
 * the run that told the fall, the runs of its after window, and the fall as the API lists it.
 */
export async function trackerWithAFall(server: CliServer, user: Awaited<ReturnType<typeof createUser>>) {
  const api = user.browser.api;
  const tracker = await api.createTracker({
    name: "CRM visibility",
    queries: ["best crm for startups", "best crm for small business"],
    brand: { name: "HubSpot", domains: ["hubspot.com"] },
    providers: ["openai"],
    iterations: 10,
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  });
  const run = async () => {
    const { run: started } = await api.runTracker(tracker.id);
    return waitFor(
      async () => {
        const read = await api.getTrackerRun(tracker.id, started.id);
        return read.status !== "queued" && read.status !== "running" && read;
      },
      { what: "the run to end", timeoutMs: 60_000 },
    );
  };
  try {
    // A baseline first (ADR 050), then two runs without the web: a fall of one provider's one brand
    // is told at its first run only when unmistakable, and confirmed at the second.
    const baseline: TrackerRun[] = [];
    for (let i = 0; i < 3; i++) baseline.push(await run());
    server.simulator.setFaults("openai", [{ kind: "no_search" }], { persistent: true, kinds: ["search"] });
    const fallen = [await run(), await run()];
    const { alerts } = await api.listTrackerAlerts(tracker.id);
    const fall = alerts.find((alert) => alert.kind === "fell" && alert.metric === "citation" && alert.subject === "HubSpot" && !alert.query);
    if (!fall) throw new Error("trackerWithAFall: no fall of ChatGPT's citations of hubspot.com was told");
    const second = fallen.find((r) => r.id === fall.runId)!;
    const after = [...baseline, ...fallen].filter((r) => fall.searchIds.some((id) => r.queries.some((query) => query.searchId === id)));
    return { tracker, second, after, fall };
  } finally {
    server.simulator.clearFaults();
  }
}

/** The typed client as the given token, straight at the listening server. */
export function clientAs(server: CliServer, token: string) {
  return createApiClient({ baseUrl: server.baseUrl, headers: { authorization: `Bearer ${token}` } });
}

export type CliRun = { code: number; stdout: string; stderr: string };
export type CliOptions = { server: CliServer; configHome?: string; env?: Record<string, string>; stdin?: string; cwd?: string };

/** A fresh config folder (XDG_CONFIG_HOME). */
export function tempConfigHome(): string {
  return mkdtempSync(join(tmpdir(), "aisc-config-"));
}

/** Only what the CLI should see: no AISC_TOKEN or colour settings of the machine running the tests. */
export function cliEnv({ server, configHome = tempConfigHome(), env = {} }: CliOptions): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: configHome, XDG_CONFIG_HOME: configHome, AISC_SERVER: server.baseUrl, NO_COLOR: "1", ...env };
}

/** Starts `aisc …` (for signals); stdout and stderr piped. */
export function spawnCli(args: string[], options: CliOptions) {
  return Bun.spawn(["bun", CLI_ENTRY, ...args], {
    cwd: options.cwd ?? ROOT,
    env: cliEnv(options),
    stdin: options.stdin === undefined ? "ignore" : new TextEncoder().encode(options.stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
}

/** Runs `aisc …` to its end. */
export async function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  const proc = spawnCli(args, options);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A row of a CLI table as its cells read, each cell's wrapped lines joined by a space. */
export function tableRow(text: string, label: string): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`│ ${label} `));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith("│"));
  const cells: string[][] = [];
  for (const line of lines.slice(start, end))
    line
      .split("│")
      .slice(1, -1)
      .forEach((cell, i) => (cells[i] ??= []).push(cell.trim()));
  return cells.map((parts) => parts.filter(Boolean).join(" "));
}
