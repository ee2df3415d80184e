/**
 * What the benches share: flags, the row format bench/index.ts collects, percentiles, the
 * in-process app on a fresh database, the simulator in its own process, and a server process
 * (from source or the single binary) whose memory is read from /proc.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Database } from "#db/client.ts";
import { perProvider, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { assemble } from "#src/server/assemble.ts";
import { startPostgres } from "#tests/support/databases.ts";
import { loadPageRenderer } from "#web/render.tsx";

export const root = resolve(import.meta.dir, "..");
export const dist = join(root, "dist");

/** `--quick`: a short smoke (CI), figures printed but noisier. */
export const quick = process.argv.includes("--quick");

export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/**
 * One row of the budget table. Printed as a `ROW {json}` line, which bench/index.ts collects;
 * `met` compares `value` with `goal` in the direction that is better.
 */
export type Row = { figure: string; value: number; unit: string; goal: number; better: "lower" | "higher"; detail?: string };

export function report(row: Row): void {
  console.log(`ROW ${JSON.stringify(row)}`);
}

export function met(row: Row): boolean {
  return row.better === "lower" ? row.value <= row.goal : row.value >= row.goal;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

export const median = (values: number[]) => percentile(values, 50);

/** The real app, in this process, on a fresh in-memory PGlite (or `database`), providers on the simulator at `baseUrls`. */
export async function benchApp(options: { baseUrls: Record<ProviderId, string>; database?: Database; env?: Record<string, string> }) {
  const { app, database, providers, queue, close } = await assemble({
    env: {
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(join(tmpdir(), "bench-")),
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
      SIMULATE_PROVIDERS: "on",
      ...options.env,
    },
    renderer: loadPageRenderer,
    distDir: dist,
    // In memory unless the bench names a PostgreSQL (DATABASE_URL).
    database: options.database ?? (options.env?.DATABASE_URL ? undefined : "memory"),
    simulator: { baseUrls: options.baseUrls },
  });
  const handle = ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch;
  return {
    app,
    database,
    /** The app's provider adapters, for timing their SDK calls alone. */
    providers,
    handle,
    /** Its job queue, started at the first job sent (or by `start()`). */
    queue,
    close,
  };
}

/**
 * Runs `measure` on PGlite, then on a throwaway PostgreSQL when its binaries are here (the app's
 * env for it: DATABASE_URL), or only on the one `--database pglite|postgres` names.
 */
export async function onEachDatabase(what: string, measure: (label: string, env: Record<string, string>) => Promise<void>): Promise<void> {
  const only = flag("--database");
  if (only !== "postgres") await measure("PGlite", {});
  if (only === "pglite") return;
  const cluster = await startPostgres();
  if (!cluster) return console.log(`no PostgreSQL binaries here: ${what} is measured on PGlite only`);
  await measure("PostgreSQL", { DATABASE_URL: cluster.url });
  await cluster.stop();
}

/** p50 of `GET path` through the in-process app over `requests`, after `warmup` more; and the size of its answer. */
export async function requestP50(handle: typeof fetch, path: string, { requests, warmup, cookie }: { requests: number; warmup: number; cookie: string }) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests + warmup; i++) {
    const t = performance.now();
    const response = await handle(`http://localhost${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`GET ${path} answered ${response.status}`);
    bytes = (await response.arrayBuffer()).byteLength;
    if (i >= warmup) times.push(performance.now() - t);
  }
  return { ms: median(times), bytes };
}

/** `bun dev/simulators/index.ts` in a child process, as remote providers would be: its work never shares our event loop; no demo noise, so runs compare. */
export async function spawnSimulator(latencyMs: number) {
  const child = Bun.spawn(["bun", join(root, "dev/simulators/index.ts"), "--latency-ms", String(latencyMs), "--noise", "0"], {
    stdout: "pipe",
    stderr: "inherit",
  });
  // A bench that throws must not leave it running (it would hold the caller's output open).
  process.on("exit", () => child.kill());
  const reader = child.stdout.getReader();
  let out = "";
  const printed = () => providerIds.every((id) => new RegExp(`${providerConfig[id].env.baseUrl}=\\S+\\n`).test(out));
  while (!printed()) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`simulator exited: ${out}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const url = (name: string) => new RegExp(`${name}=(\\S+)`).exec(out)?.[1] ?? "";
  return { baseUrls: perProvider((id) => url(providerConfig[id].env.baseUrl)), stop: () => child.kill() };
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? done(address.port) : fail(new Error("no port"))));
    });
  });
}

/** A process's resident memory now (VmRSS) and at its peak (VmHWM), in MB, from /proc. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/**
 * Starts a server process (`command`) on a free port and a new data folder; resolves when
 * /healthz first answers 200, with the time that took from spawning.
 */
export async function startServer(command: string[], env: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "bench-data-"));
  const started = performance.now();
  const child = Bun.spawn(command, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      SESSION_SECRET: "bench-secret-bench-secret-bench-secret",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command.join(" ")} exited with ${child.exitCode}: ${await new Response(child.stderr).text()}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (performance.now() - started > 60_000) throw new Error(`${command.join(" ")}: no /healthz 200 within 60 s`);
    await Bun.sleep(5);
  }
  const readyMs = performance.now() - started;
  return {
    url,
    pid: child.pid,
    readyMs,
    dataDir,
    async stop() {
      child.kill("SIGTERM");
      await Promise.race([child.exited, Bun.sleep(5000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** The single binary, built by `bun run build`. */
export const BINARY = join(dist, "ai-search-comparison");

/**
 * The tracker whose run bench/trackers.ts measures and bench/run-probe.ts takes apart: `queries`
 * questions × 10 iterations on the three providers the figure has always been measured on (a fourth
 * is a third more calls).
 */
export function benchRunTracker(name: string, queries: number) {
  return {
    name,
    queries: Array.from({ length: queries }, (_, i) => `best tool number ${i + 1} for small teams`),
    brand: { name: "Acme" },
    providers: ["openai", "anthropic", "gemini"] satisfies ProviderId[],
    iterations: 10,
    schedule: { cron: "0 9 * * 1", timezone: "UTC" },
  };
}
