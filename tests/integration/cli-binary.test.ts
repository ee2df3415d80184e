import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { StatusReport } from "#cli/commands/status.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { cliEnv, useCliServer } from "#tests/support/cli.ts";
import { compileCli } from "../../scripts/compile-cli.ts";

// The compiled CLI, built once (as `bun run build` builds dist/aisc), run from a folder with no sources.
const elsewhere = mkdtempSync(join(tmpdir(), "aisc-binary-"));
const binary = join(elsewhere, "aisc");
const getServer = useCliServer();

beforeAll(async () => {
  await compileCli(binary, { quiet: true });
});
afterAll(() => rmSync(elsewhere, { recursive: true, force: true }));

async function runBinary(args: string[]) {
  const proc = Bun.spawn([binary, ...args], { cwd: elsewhere, env: cliEnv({ server: getServer() }), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

test("dist/aisc runs --help and status from another folder", async () => {
  const help = await runBinary(["--help"]);
  expect(help.code).toBe(EXIT.ok);
  expect(help.stdout).toContain("Usage: aisc");
  expect(help.stdout).toContain("Exit codes:");

  const status = await runBinary(["status"]);
  expect(status).toMatchObject({ code: EXIT.ok, stderr: "" });
  expect(status.stdout).toContain("simulated");
  const json = await runBinary(["status", "--json"]);
  expect(v.parse(StatusReport, JSON.parse(json.stdout)).server).toBe(getServer().baseUrl);
});
