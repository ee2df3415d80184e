import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EXIT } from "#src/server/startup-errors.ts";
import { freshPostgresUrl, postgresAvailable } from "#tests/support/databases.ts";

/*
 * The real server entry (`bun web/entry.server.tsx`) started as a subprocess in a folder without a
 * .env, with only the variables given: every failure is one line on stderr, no stack, and its
 * exit code (README, "Exit codes").
 */
/** A start, or a failed one after its retries, takes seconds; a loaded machine more. */
const TIMEOUT_MS = 60_000;
const ENTRY = resolve(import.meta.dir, "../../web/entry.server.tsx");
const READY = /^AI Search Comparison on http:\/\/localhost:(\d+)/m;
const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "app-startup-test-"));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

type Run = { exitCode: number; stdout: string; stderr: string };

/**
 * Starts the server; resolves when it exits, or (with `stopWhenReady`) once it listens, after a
 * SIGTERM. `onOutput` sees stdout so far, as it grows.
 */
async function runServer(vars: Record<string, string>, opts: { stopWhenReady?: boolean; onOutput?: (stdout: string) => void } = {}): Promise<Run> {
  const proc = Bun.spawn(["bun", ENTRY], {
    cwd: tempDir(),
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TMPDIR: tmpdir(), NODE_ENV: "development", HOST: "127.0.0.1", PORT: "0", SIMULATE_PROVIDERS: "on", ...vars },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 45_000);
  let stdout = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      stdout += decoder.decode(chunk, { stream: true });
      opts.onOutput?.(stdout);
      if (opts.stopWhenReady && READY.test(stdout)) proc.kill("SIGTERM");
    }
  })();
  const [exitCode, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text(), reading]);
  clearTimeout(killer);
  return { exitCode, stdout, stderr };
}

/** The one stderr line of a failed start (asserting that it is one line, without a stack). */
function failureLine(run: Run, exitCode: number): string {
  const lines = run.stderr.trimEnd().split("\n");
  expect({ exitCode: run.exitCode, lines: lines.length }).toEqual({ exitCode, lines: 1 });
  expect(run.stderr).not.toContain("    at ");
  return lines[0]!;
}

const freePort = () =>
  new Promise<number>((done) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });

/**
 * A folder this process cannot write to: mode 0500, or, as root (whom modes do not stop), a
 * folder under /sys, where no one can make one (EPERM, or EROFS where /sys is mounted read-only).
 */
function unwritableDir(): string | undefined {
  const dir = join(tempDir(), "read-only");
  mkdirSync(dir, { mode: 0o500 });
  try {
    writeFileSync(join(dir, "probe"), "");
  } catch {
    return dir;
  }
  const sys = `/sys/ai-search-startup-test-${process.pid}`;
  try {
    mkdirSync(sys);
    rmdirSync(sys);
  } catch {
    return sys;
  }
  return undefined;
}

describe("start-up failures: one line naming the cause and the fix, exit code ≠ 0", () => {
  const unwritable = unwritableDir();
  test.skipIf(unwritable === undefined)("DATA_DIR that cannot be written", async () => {
    const line = failureLine(await runServer({ DATA_DIR: unwritable! }), EXIT.dataDir);
    expect(line).toMatch(new RegExp(`^DATA_DIR ${unwritable} (is not writable: permission denied|is on a read-only file system) \\((EACCES|EPERM|EROFS), `));
    expect(line).toContain("Fix: ");
  }, TIMEOUT_MS);

  test("DATA_DIR that is a file", async () => {
    const file = join(tempDir(), "data");
    writeFileSync(file, "");
    const line = failureLine(await runServer({ DATA_DIR: file }), EXIT.dataDir);
    expect(line).toStartWith(`DATA_DIR ${file} is not a folder (`);
  }, TIMEOUT_MS);

  test("a PGlite folder that does not open: names it and says moving it aside starts fresh", async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, "pglite"));
    writeFileSync(join(dataDir, "pglite", "PG_VERSION"), "15\n"); // a data folder with nothing else in it
    const line = failureLine(await runServer({ DATA_DIR: dataDir }), EXIT.pglite);
    expect(line).toStartWith(`The embedded database in ${dataDir}/pglite could not be opened (`);
    expect(line).toContain(`mv ${dataDir}/pglite ${dataDir}/pglite.broken`);
  }, TIMEOUT_MS);

  test("DATABASE_URL on a closed port: retried within DATABASE_CONNECT_TIMEOUT_SECONDS, one line per retry, then the failure", async () => {
    const port = await freePort();
    const run = await runServer({ DATA_DIR: tempDir(), DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/app`, DATABASE_CONNECT_TIMEOUT_SECONDS: "2" });
    const line = failureLine(run, EXIT.databaseUnreachable);
    expect(line).toMatch(new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${port}/app refused the connection \\(ECONNREFUSED, 5 attempts in 1\\.\\d s\\)\\. Fix: `));
    expect(line).not.toContain("secret");
    expect(run.stdout.match(/^Database not reachable yet \(attempt \d of 5: /gm)).toHaveLength(4);
  }, TIMEOUT_MS);

  test("the port in use", async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
    try {
      const line = failureLine(await runServer({ DATA_DIR: tempDir(), PORT: String(taken.port) }), EXIT.listen);
      expect(line).toBe(`Port ${taken.port} on 127.0.0.1 is already in use (EADDRINUSE). Fix: stop the process using it (lsof -i :${taken.port}), or set PORT to a free port.`);
    } finally {
      taken.stop(true);
    }
  }, TIMEOUT_MS);

  test("a bad variable keeps its message, with the configuration's code", async () => {
    const line = failureLine(await runServer({ DATA_DIR: tempDir(), DATABASE_CONNECT_TIMEOUT_SECONDS: "0" }), EXIT.config);
    expect(line).toStartWith("Invalid environment variable DATABASE_CONNECT_TIMEOUT_SECONDS: expected a number of seconds above 0 to 600, such as 10 or 0.5");
  }, TIMEOUT_MS);
});

describe("start-ups that recover", () => {
  test("a 0-byte session-secret (what a full disk used to leave) is regenerated and the server starts", async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, "session-secret"), "");
    const run = await runServer({ DATA_DIR: dataDir }, { stopWhenReady: true });
    expect(run.stdout).toMatch(READY);
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(dataDir, "session-secret"), "utf8").length).toBeGreaterThanOrEqual(32);
  }, TIMEOUT_MS);

  test.skipIf(!postgresAvailable)(
    "a database that comes up while the app starts (docker compose) is waited for",
    async () => {
      const url = new URL(await freshPostgresUrl());
      const port = await freePort();
      // The "database" (a TCP relay to the test cluster) opens its port once the app has been refused.
      let proxy: Server | undefined;
      const openDatabase = () =>
        (proxy ??= createServer((client) => {
          const upstream = connect(Number(url.port), "127.0.0.1");
          client.pipe(upstream).pipe(client);
          client.on("error", () => upstream.destroy());
          upstream.on("error", () => client.destroy());
        }).listen(port, "127.0.0.1"));
      try {
        const run = await runServer(
          { DATA_DIR: tempDir(), DATABASE_URL: url.href.replace(`:${url.port}/`, `:${port}/`), DATABASE_CONNECT_TIMEOUT_SECONDS: "20" },
          { stopWhenReady: true, onOutput: (stdout) => void (stdout.includes("Database not reachable yet") && openDatabase()) },
        );
        expect(run.stdout).toMatch(/^Database not reachable yet \(attempt 1 of 5: connect ECONNREFUSED 127\.0\.0\.1:\d+\); retrying in 1\.0 s$/m);
        expect(run.stdout).toMatch(READY);
        expect(run.stderr).toBe("");
        expect(run.exitCode).toBe(0);
      } finally {
        proxy?.close();
      }
    },
    TIMEOUT_MS,
  );
});
