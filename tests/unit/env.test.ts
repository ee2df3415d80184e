import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvError, parseEnv } from "#src/server/env.ts";
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

  test("outside production a missing SESSION_SECRET is generated once and kept in DATA_DIR", () => {
    const dir = dataDir();
    const first = parseEnv({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(join(dir, "session-secret"))).toBe(true);
    expect(readFileSync(join(dir, "session-secret"), "utf8")).toBe(first);
    expect(parseEnv({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
  });

  test("production requires SESSION_SECRET", () => {
    expect(() => parseEnv({ NODE_ENV: "production", DATA_DIR: dataDir() })).toThrow("SESSION_SECRET");
    expect(parseEnv({ NODE_ENV: "production", SESSION_SECRET: "x".repeat(32), DATA_DIR: dataDir() }).SESSION_SECRET).toBe("x".repeat(32));
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
