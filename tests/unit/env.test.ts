import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError, loadEnv, parseEnv } from "#src/server/env.ts";
import { writeFileAtomic } from "#src/server/session-secret.ts";
import { EXIT, StartupError } from "#src/server/startup-errors.ts";
import { perProvider } from "#src/contract/providers.ts";
import { providerModes } from "#src/server/services/providers/mode.ts";

const dataDir = () => mkdtempSync(join(tmpdir(), "env-test-"));

describe("parseEnv", () => {
  test("defaults: port 3000, embedded database, simulators auto", () => {
    const env = parseEnv({ DATA_DIR: dataDir() });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SIMULATE_PROVIDERS).toBe("auto");
  });

  test("a bad PORT is refused with one line naming PORT", () => {
    expect(() => parseEnv({ PORT: "abc", DATA_DIR: dataDir() })).toThrow(EnvError);
    try {
      parseEnv({ PORT: "abc", DATA_DIR: dataDir() });
    } catch (error) {
      expect((error as Error).message).toStartWith("Invalid environment variable PORT: expected a whole number from 0 to 65535");
      expect((error as Error).message).not.toContain("\n");
    }
    expect(() => parseEnv({ PORT: "70000", DATA_DIR: dataDir() })).toThrow("PORT");
  });

  test("other bad values name their variable", () => {
    expect(() => parseEnv({ SIMULATE_PROVIDERS: "maybe", DATA_DIR: dataDir() })).toThrow("SIMULATE_PROVIDERS: expected auto, on or off");
    expect(() => parseEnv({ DATABASE_URL: "mysql://x", DATA_DIR: dataDir() })).toThrow("DATABASE_URL");
    expect(() => parseEnv({ OPENAI_BASE_URL: "not a url", DATA_DIR: dataDir() })).toThrow("OPENAI_BASE_URL");
  });

  test("parseEnv reads and writes no file: a missing SESSION_SECRET is left to loadEnv, what the app is assembled with", () => {
    const dir = dataDir();
    expect(parseEnv({ DATA_DIR: dir }).SESSION_SECRET).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
    // Not even read: a file loadEnv would refuse is no concern of parsing.
    writeFileSync(join(dir, "session-secret"), "hunter2");
    expect(parseEnv({ DATA_DIR: dir }).DATA_DIR).toBe(dir);
    expect(readdirSync(dir)).toEqual(["session-secret"]);
  });

  test("outside production a missing SESSION_SECRET is generated once and kept in DATA_DIR", () => {
    const dir = dataDir();
    const first = loadEnv({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(join(dir, "session-secret"))).toBe(true);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
  });

  test("the secret is written whole and owner-only, nothing left beside it", () => {
    const dir = dataDir();
    const secret = loadEnv({ DATA_DIR: dir }).SESSION_SECRET;
    expect(readdirSync(dir)).toEqual(["session-secret"]);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(secret);
    expect(statSync(join(dir, "session-secret")).mode & 0o777).toBe(0o600);
  });

  test("writeFileAtomic: a write that fails leaves the old file as it was and no temp file", () => {
    const dir = dataDir();
    const file = join(dir, "session-secret");
    writeFileSync(file, "old");
    mkdirSync(`${file}.${process.pid}.tmp`); // the temp file cannot be opened: EISDIR
    expect(() => writeFileAtomic(file, "new", 0o600)).toThrow("EISDIR");
    expect(readFileSync(file, "utf8")).toBe("old");
    rmSync(`${file}.${process.pid}.tmp`, { recursive: true });
    writeFileAtomic(file, "new", 0o600);
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["session-secret"]);
  });

  test("an empty or blank secret file (a write cut short by a full disk) counts as absent and is regenerated", () => {
    for (const blank of ["", "  \n\t"]) {
      const dir = dataDir();
      writeFileSync(join(dir, "session-secret"), blank);
      const secret = loadEnv({ DATA_DIR: dir }).SESSION_SECRET;
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(secret);
    }
  });

  test("a secret file that cannot be read is an error naming the file, not a new secret", () => {
    const dir = dataDir();
    mkdirSync(join(dir, "session-secret")); // read() answers EISDIR, for root too
    const attempt = () => loadEnv({ DATA_DIR: dir });
    expect(attempt).toThrow(StartupError);
    expect(attempt).toThrow(`Cannot read the session secret ${join(dir, "session-secret")} (EISDIR)`);
    try {
      attempt();
    } catch (error) {
      expect((error as StartupError).exitCode).toBe(EXIT.dataDir);
    }
  });

  test("a secret file shorter than SESSION_SECRET's 32 characters is refused, naming the file and the fix, and left as it was", () => {
    for (const weak of ["hunter2", "x".repeat(31), `  ${"y".repeat(31)}\n`]) {
      const dir = dataDir();
      const file = join(dir, "session-secret");
      writeFileSync(file, weak);
      let refused: unknown;
      try {
        loadEnv({ DATA_DIR: dir });
      } catch (error) {
        refused = error;
      }
      expect(refused).toBeInstanceOf(StartupError);
      expect((refused as StartupError).exitCode).toBe(EXIT.dataDir);
      expect((refused as StartupError).message).toStartWith(
        `The session secret in ${file} is too short (${weak.trim().length} characters, at least 32 needed): `,
      );
      expect((refused as StartupError).message).toContain("Fix: remove the file to have a strong one generated");
      expect(readFileSync(file, "utf8")).toBe(weak);
    }
    // 32 characters written by hand are a secret like SESSION_SECRET's.
    const dir = dataDir();
    writeFileSync(join(dir, "session-secret"), "z".repeat(32));
    expect(loadEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe("z".repeat(32));
  });

  test.skipIf(process.getuid?.() === 0)("an unreadable secret file (mode 000) is an error naming it (not as root, who reads anything)", () => {
    const dir = dataDir();
    writeFileSync(join(dir, "session-secret"), "x".repeat(43));
    chmodSync(join(dir, "session-secret"), 0o000);
    expect(() => loadEnv({ DATA_DIR: dir })).toThrow(`Cannot read the session secret ${join(dir, "session-secret")} (EACCES)`);
  });

  test("DATABASE_CONNECT_TIMEOUT_SECONDS: 10 s by default, seconds above 0 up to 600", () => {
    expect(parseEnv({ DATA_DIR: dataDir() }).DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(10);
    expect(parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: "30", DATA_DIR: dataDir() }).DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(30);
    expect(parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: "1.5", DATA_DIR: dataDir() }).DATABASE_CONNECT_TIMEOUT_SECONDS).toBe(1.5);
    for (const bad of ["0", "601", "-1", "soon"]) {
      expect(() => parseEnv({ DATABASE_CONNECT_TIMEOUT_SECONDS: bad, DATA_DIR: dataDir() })).toThrow(
        "DATABASE_CONNECT_TIMEOUT_SECONDS: expected a number of seconds above 0 to 600, such as 10 or 0.5",
      );
    }
  });

  test("production requires SESSION_SECRET", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATA_DIR: dataDir() })).toThrow("SESSION_SECRET");
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), DATA_DIR: dataDir() }).SESSION_SECRET).toBe("x".repeat(32));
    // Never generated in production either, whatever DATA_DIR holds.
    const dir = dataDir();
    expect(() => loadEnv({ NODE_ENV: "production", DATA_DIR: dir })).toThrow("SESSION_SECRET");
    expect(readdirSync(dir)).toEqual([]);
  });

  test("GOOGLE_API_KEY stands in for GEMINI_API_KEY; empty values count as unset", () => {
    expect(parseEnv({ GOOGLE_API_KEY: "g", DATA_DIR: dataDir() }).providers.gemini.apiKey).toBe("g");
    expect(parseEnv({ PORT: "", DATA_DIR: dataDir() }).PORT).toBe(3000);
  });
});

describe("providerModes", () => {
  // The modes of an environment as the server parses it at start-up.
  const modes = (vars: Record<string, string>) =>
    providerModes(parseEnv({ NODE_ENV: "development", SIMULATE_PROVIDERS: "auto", SESSION_SECRET: "x".repeat(32), DATA_DIR: dataDir(), ...vars }));
  test("auto: keyed providers are live, keyless ones simulated outside production", () => {
    expect(modes({ OPENAI_API_KEY: "sk" })).toEqual({ ...perProvider(() => "simulated"), openai: "live" });
  });
  test("auto in production: keyless providers are off, never silently simulated", () => {
    expect(modes({ NODE_ENV: "production", ANTHROPIC_API_KEY: "k" })).toEqual({ ...perProvider(() => "off"), anthropic: "live" });
  });
  test("on forces every provider onto its simulator; off disables keyless ones", () => {
    expect(modes({ SIMULATE_PROVIDERS: "on", OPENAI_API_KEY: "sk" })).toEqual(perProvider(() => "simulated"));
    expect(modes({ SIMULATE_PROVIDERS: "off", GEMINI_API_KEY: "g" })).toEqual({ ...perProvider(() => "off"), gemini: "live" });
  });
});
