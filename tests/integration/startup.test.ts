import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { EXIT } from "#src/server/startup-errors.ts";
import { freshPostgresUrl, postgresAvailable } from "#tests/support/databases.ts";
import { browserAt } from "#tests/support/server.ts";

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
}, TIMEOUT_MS);

type Run = { exitCode: number; stdout: string; stderr: string };

/**
 * Starts the server; resolves when it exits, or (with `stopWhenReady`) once it listens, after a
 * SIGTERM. `onOutput` sees stdout so far, as it grows.
 */
async function runServer(vars: Record<string, string>, opts: { stopWhenReady?: boolean; onOutput?: (stdout: string) => void } = {}): Promise<Run> {
  return spawnServer(vars, opts).exited;
}

/** The server's process: `listening` resolves with its port once it listens, `exited` when it ends. */
function spawnServer(vars: Record<string, string>, opts: { stopWhenReady?: boolean; onOutput?: (stdout: string) => void; command?: string[] } = {}) {
  const proc = Bun.spawn(opts.command ?? ["bun", ENTRY], {
    cwd: tempDir(),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      TMPDIR: tmpdir(),
      NODE_ENV: "development",
      HOST: "127.0.0.1",
      PORT: "0",
      SIMULATE_PROVIDERS: "on",
      ...vars,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 45_000);
  let stdout = "";
  let listen!: (port: number) => void;
  const listening = new Promise<number>((resolve) => (listen = resolve));
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      stdout += decoder.decode(chunk, { stream: true });
      opts.onOutput?.(stdout);
      const port = READY.exec(stdout)?.[1];
      if (port) listen(Number(port));
      if (opts.stopWhenReady && port) proc.kill("SIGTERM");
    }
  })();
  const exited = (async (): Promise<Run> => {
    const [exitCode, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text(), reading]);
    clearTimeout(killer);
    return { exitCode, stdout, stderr };
  })();
  return { proc, listening, exited };
}

/** A server that keeps running (until the test stops it): its process, port and end. */
async function runningServer(vars: Record<string, string>) {
  const server = spawnServer(vars);
  const port = await Promise.race([
    server.listening,
    server.exited.then((run) => Promise.reject(new Error(`the server exited (${run.exitCode}): ${run.stderr}`))),
  ]);
  return { ...server, port, baseUrl: `http://127.0.0.1:${port}` };
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
  test.skipIf(unwritable === undefined)(
    "DATA_DIR that cannot be written",
    async () => {
      const line = failureLine(await runServer({ DATA_DIR: unwritable! }), EXIT.dataDir);
      expect(line).toMatch(new RegExp(`^DATA_DIR ${unwritable} (is not writable: permission denied|is on a read-only file system) \\((EACCES|EPERM|EROFS), `));
      expect(line).toContain("Fix: ");
    },
    TIMEOUT_MS,
  );

  test(
    "DATA_DIR that is a file",
    async () => {
      const file = join(tempDir(), "data");
      writeFileSync(file, "");
      const line = failureLine(await runServer({ DATA_DIR: file }), EXIT.dataDir);
      expect(line).toStartWith(`DATA_DIR ${file} is not a folder (`);
    },
    TIMEOUT_MS,
  );

  test(
    "a PGlite folder that does not open: names it and says moving it aside starts fresh",
    async () => {
      const dataDir = tempDir();
      mkdirSync(join(dataDir, "pglite"));
      writeFileSync(join(dataDir, "pglite", "PG_VERSION"), "15\n"); // a data folder with nothing else in it
      const line = failureLine(await runServer({ DATA_DIR: dataDir }), EXIT.pglite);
      expect(line).toStartWith(`The embedded database in ${dataDir}/pglite could not be opened (`);
      expect(line).toContain(`mv ${dataDir}/pglite ${dataDir}/pglite.broken`);
    },
    TIMEOUT_MS,
  );

  test(
    "DATABASE_URL on a closed port: retried within DATABASE_CONNECT_TIMEOUT_SECONDS, one line per retry, then the failure",
    async () => {
      const port = await freePort();
      const run = await runServer({ DATA_DIR: tempDir(), DATABASE_URL: `postgres://app:secret@127.0.0.1:${port}/app`, DATABASE_CONNECT_TIMEOUT_SECONDS: "2" });
      const line = failureLine(run, EXIT.databaseUnreachable);
      expect(line).toMatch(
        new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${port}/app refused the connection \\(ECONNREFUSED, 5 attempts in 1\\.\\d s\\)\\. Fix: `),
      );
      expect(line).not.toContain("secret");
      expect(run.stdout.match(/^Database not reachable yet \(attempt \d of 5: /gm)).toHaveLength(4);
    },
    TIMEOUT_MS,
  );

  test(
    "the port in use",
    async () => {
      const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("taken") });
      try {
        const line = failureLine(await runServer({ DATA_DIR: tempDir(), PORT: String(taken.port) }), EXIT.listen);
        expect(line).toBe(
          `Port ${taken.port} on 127.0.0.1 is already in use (EADDRINUSE). Fix: stop the process using it (lsof -i :${taken.port}), or set PORT to a free port.`,
        );
      } finally {
        taken.stop(true);
      }
    },
    TIMEOUT_MS,
  );

  test(
    "a bad variable keeps its message, with the configuration's code",
    async () => {
      const line = failureLine(await runServer({ DATA_DIR: tempDir(), DATABASE_CONNECT_TIMEOUT_SECONDS: "0" }), EXIT.config);
      expect(line).toStartWith("Invalid environment variable DATABASE_CONNECT_TIMEOUT_SECONDS: expected a number of seconds above 0 to 600, such as 10 or 0.5");
    },
    TIMEOUT_MS,
  );
});

describe("start-ups that recover", () => {
  test(
    "a 0-byte session-secret (what a full disk used to leave) is regenerated and the server starts",
    async () => {
      const dataDir = tempDir();
      writeFileSync(join(dataDir, "session-secret"), "");
      const run = await runServer({ DATA_DIR: dataDir }, { stopWhenReady: true });
      expect(run.stdout).toMatch(READY);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      expect(readFileSync(join(dataDir, "session-secret"), "utf8").length).toBeGreaterThanOrEqual(32);
    },
    TIMEOUT_MS,
  );

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

describe("one data folder, one port, one process (ADR 024)", () => {
  test(
    "a second server on the same DATA_DIR is refused with one line naming the folder and the first's pid; after kill -9 of the first, the next start has the folder and its data",
    async () => {
      const dataDir = tempDir();
      const first = await runningServer({ DATA_DIR: dataDir });
      const account = { username: "kept", email: "kept@example.com", password: "a long enough password" };
      await browserAt(first.baseUrl).api.register(account);

      const line = failureLine(await runServer({ DATA_DIR: dataDir }), EXIT.dataDirInUse);
      expect(line).toMatch(
        new RegExp(
          `^DATA_DIR ${dataDir} is in use by process ${first.proc.pid} \\(bun entry\\.server\\.tsx, since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\): `,
        ),
      );
      expect(line).toEndWith(`Fix: stop that process (kill ${first.proc.pid}), or set DATA_DIR to another folder.`);
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200); // the first runs on, untouched

      // Killed without a chance to release anything: the lock goes with the process.
      first.proc.kill("SIGKILL");
      await first.exited;
      const next = await runningServer({ DATA_DIR: dataDir });
      try {
        expect(await browserAt(next.baseUrl).api.login({ username: account.username, password: account.password })).toMatchObject({ username: "kept" });
      } finally {
        next.proc.kill("SIGTERM");
        expect((await next.exited).exitCode).toBe(0);
      }
    },
    TIMEOUT_MS,
  );

  test(
    "two starts at once on a new folder: one gets it, the other is refused",
    async () => {
      const dataDir = join(tempDir(), "data");
      const [a, b] = [spawnServer({ DATA_DIR: dataDir }), spawnServer({ DATA_DIR: dataDir })];
      const loser = await Promise.race([a.exited.then(() => a), b.exited.then(() => b)]);
      const winner = loser === a ? b : a;
      expect(failureLine(await loser.exited, EXIT.dataDirInUse)).toStartWith(`DATA_DIR ${dataDir} is in use by `);
      await winner.listening;
      winner.proc.kill("SIGTERM");
      expect((await winner.exited).exitCode).toBe(0);
    },
    TIMEOUT_MS,
  );

  test(
    "bun run seed is refused while a server has the folder",
    async () => {
      const dataDir = tempDir();
      const server = await runningServer({ DATA_DIR: dataDir });
      try {
        const seed = await spawnServer({ DATA_DIR: dataDir }, { command: ["bun", resolve(import.meta.dir, "../../scripts/seed.ts"), "--searches", "1"] })
          .exited;
        expect(failureLine(seed, EXIT.dataDirInUse)).toStartWith(`DATA_DIR ${dataDir} is in use by process ${server.proc.pid} (bun entry.server.tsx, since `);
      } finally {
        server.proc.kill("SIGTERM");
        await server.exited;
      }
    },
    TIMEOUT_MS,
  );

  test(
    "a second server on the first's port fails with exit 10 instead of sharing it",
    async () => {
      const first = await runningServer({ DATA_DIR: tempDir() });
      try {
        const line = failureLine(await runServer({ DATA_DIR: tempDir(), PORT: String(first.port) }), EXIT.listen);
        expect(line).toBe(
          `Port ${first.port} on 127.0.0.1 is already in use (EADDRINUSE). Fix: stop the process using it (lsof -i :${first.port}), or set PORT to a free port.`,
        );
      } finally {
        first.proc.kill("SIGTERM");
        await first.exited;
      }
    },
    TIMEOUT_MS,
  );
});

describe("the data folder is its owner's only: files 0600, folders 0700 (ADR 024)", () => {
  /** Every file and folder under `dir` (and `dir`) whose mode is not owner-only, as "0644 path". */
  function looseUnder(dir: string): string[] {
    const loose: string[] = [];
    const visit = (path: string) => {
      const stats = lstatSync(path);
      const mode = stats.mode & 0o777;
      if (mode !== (stats.isDirectory() ? 0o700 : 0o600)) loose.push(`${mode.toString(8).padStart(4, "0")} ${path}`);
      if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    };
    visit(dir);
    return loose;
  }
  const countUnder = (dir: string): number => 1 + (lstatSync(dir).isDirectory() ? readdirSync(dir).reduce((n, name) => n + countUnder(join(dir, name)), 0) : 0);

  test(
    "a fresh start writes every file 0600 and every folder 0700, the database's included",
    async () => {
      const dataDir = join(tempDir(), "data");
      const run = await runServer({ DATA_DIR: dataDir }, { stopWhenReady: true });
      expect(run.exitCode).toBe(0);
      expect(countUnder(join(dataDir, "pglite"))).toBeGreaterThan(500); // WAL, catalogs, the app's tables
      expect(looseUnder(dataDir)).toEqual([]);
      expect(run.stdout).not.toContain("Tightened");
    },
    TIMEOUT_MS,
  );

  test(
    "a start on a folder left readable by others tightens it, saying so in one line",
    async () => {
      const dataDir = join(tempDir(), "data");
      expect((await runServer({ DATA_DIR: dataDir }, { stopWhenReady: true })).exitCode).toBe(0);
      const loosen = (path: string) => {
        const folder = lstatSync(path).isDirectory();
        chmodSync(path, folder ? 0o777 : 0o666);
        if (folder) for (const name of readdirSync(path)) loosen(join(path, name));
      };
      loosen(dataDir);
      const entries = countUnder(dataDir);
      expect(looseUnder(dataDir)).toHaveLength(entries);

      const run = await runServer({ DATA_DIR: dataDir }, { stopWhenReady: true });
      expect(run.exitCode).toBe(0);
      const lines = run.stdout.match(/^Tightened .*$/gm) ?? [];
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^Tightened modes of (\\d+) file\\(s\\) and folder\\(s\\) under DATA_DIR ${dataDir} to owner-only \\(files 0600, folders 0700\\)\\.$`),
      );
      // All of them, but for the few files the database replaces as it opens (its relation cache).
      expect(Number(/of (\d+)/.exec(lines[0]!)?.[1])).toBeGreaterThan(entries - 10);
      expect(looseUnder(dataDir)).toEqual([]);
    },
    TIMEOUT_MS,
  );
});

test(
  "a session-secret file shorter than 32 characters stops the start with one line naming it; it is never used",
  async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, "session-secret"), "hunter2\n");
    const line = failureLine(await runServer({ DATA_DIR: dataDir }), EXIT.dataDir);
    expect(line).toStartWith(`The session secret in ${dataDir}/session-secret is too short (7 characters, at least 32 needed): `);
    expect(readFileSync(join(dataDir, "session-secret"), "utf8")).toBe("hunter2\n");
  },
  TIMEOUT_MS,
);
