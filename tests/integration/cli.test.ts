import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { PRO_REQUIRED } from "#src/contract/quota.ts";
import { SavedSearchList, SavedSearchResponse, SearchResponse } from "#src/contract/search.ts";
import { User } from "#src/contract/auth.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { resultToCsv } from "#src/core/export.ts";
import { startSimulator } from "#src/simulators/index.ts";
import { StatusReport } from "#cli/commands/status.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { testRetry } from "#tests/support/app.ts";
import { clientAs, createUser, eventually, runCli, spawnCli, tempConfigHome, useCliServer } from "#tests/support/cli.ts";
import { newAccount, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";

const ESCAPE = /\u001b/;

describe("aisc against a running server", () => {
  const getServer = useCliServer();

  test("login with a password → whoami → search → history → show → export → logout", async () => {
    const server = getServer();
    const configHome = tempConfigHome();
    const run = (args: string[], extra: { stdin?: string; cwd?: string; env?: Record<string, string> } = {}) => runCli(args, { server, configHome, ...extra });
    const browser = createAgent(server.app);
    const account = await signUp(browser, server.database, newAccount());

    const login = await run(["login", "--username", account.username, "--password-stdin"], { stdin: `${account.password}\n` });
    expect(login).toMatchObject({ code: EXIT.ok, stderr: "" });
    const configFile = join(configHome, "aisc", "config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(configFile, "utf8")) as { server: string; token: string };
    expect(saved.server).toBe(server.baseUrl);
    expect(saved.token).toMatch(/^aisc_/);
    const tokens = await clientAs(server, saved.token).listTokens();
    expect(tokens.tokens.map((t) => t.name)).toEqual([expect.stringMatching(/^aisc on /)]);
    expect((await browser.api.currentUser())?.username).toBe(account.username); // the browser stays signed in

    const whoami = await run(["whoami"]);
    expect(whoami.code).toBe(EXIT.ok);
    expect(whoami.stdout).toContain(account.username);
    expect(v.parse(User, JSON.parse((await run(["whoami", "--json"])).stdout)).username).toBe(account.username);

    const table = await run(["search", "best crm for a small agency"]);
    expect(table.code).toBe(EXIT.ok);
    for (const id of providerIds) expect(table.stdout).toContain(providerCatalogue[id].model);
    expect(table.stdout).toContain("Top products");
    expect(table.stderr).toContain("free searches left today");

    const searched = await run(["search", "best crm", "--json"]);
    expect(searched.code).toBe(EXIT.ok);
    const wire = v.parse(SearchResponse, JSON.parse(searched.stdout));
    expect(wire.query).toBe("best crm");

    const history = v.parse(SavedSearchList, JSON.parse((await run(["history", "--json"])).stdout));
    expect(history.searches.map((s) => s.query)).toEqual(["best crm", "best crm for a small agency"]);

    const shown = await run(["show", wire.id]);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain('"best crm"');
    expect(v.parse(SavedSearchResponse, JSON.parse((await run(["show", wire.id, "--json"])).stdout)).id).toBe(wire.id);

    const cwd = mkdtempSync(join(tmpdir(), "aisc-export-"));
    expect((await run(["export", wire.id, "--format", "csv", "-o", "out.csv"], { cwd })).code).toBe(EXIT.ok);
    const web = resultToCsv(await clientAs(server, saved.token).getSearch(wire.id));
    expect(readFileSync(join(cwd, "out.csv"), "utf8")).toBe(web);
    expect((await run(["export", wire.id, "--format", "json"], { cwd })).code).toBe(EXIT.ok);
    expect(readdirSync(cwd).filter((name) => /^search-results-best-crm-\d{4}-\d{2}-\d{2}\.json$/.test(name))).toHaveLength(1);

    const logout = await run(["logout"]);
    expect(logout.code).toBe(EXIT.ok);
    expect(existsSync(configFile)).toBe(false);
    const revoked = await run(["whoami"], { env: { AISC_TOKEN: saved.token } });
    expect(revoked.code).toBe(EXIT.auth);
    expect(revoked.stderr).toContain("Invalid or revoked token");
    expect((await run(["whoami"])).code).toBe(EXIT.auth);
  });

  test("a free user's -n 5 exits 3 with the server's message; a bogus token exits 2; a bad flag or argument exits 1", async () => {
    const server = getServer();
    const free = await createUser(server);
    const asFree = { server, env: { AISC_TOKEN: free.token } };

    const tooMany = await runCli(["search", "best crm", "-n", "5"], asFree);
    expect(tooMany.code).toBe(EXIT.limit);
    expect(tooMany.stderr).toContain(PRO_REQUIRED);
    expect(tooMany.stdout).toBe("");

    const bogus = await runCli(["search", "best crm"], { server, env: { AISC_TOKEN: "aisc_bogusbogusbogusbogusbogusbogusbogusbogusbog" } });
    expect(bogus.code).toBe(EXIT.auth);
    expect(bogus.stderr).toContain("Invalid or revoked token");

    expect((await runCli(["history"], { server })).code).toBe(EXIT.auth);
    for (const args of [["search", "best crm", "--bogus"], ["search", "best crm", "-n", "many"], ["history", "--limit", "0"], ["export", "x", "--format", "xml"], ["search", "x", "--json", "--csv"]]) {
      const bad = await runCli(args, asFree);
      expect({ args, code: bad.code }).toEqual({ args, code: EXIT.usage });
      expect(bad.stderr).toStartWith("error:");
    }
  });

  test("Pro: a 5-iteration search prints 5 iterations in its JSON, and the brand lens goes with it", async () => {
    const server = getServer();
    const pro = await createUser(server, { pro: true });
    const run = await runCli(["search", "best project management tool", "-n", "5", "--json", "--brand", "Asana"], { server, env: { AISC_TOKEN: pro.token } });
    expect(run.code).toBe(EXIT.ok);
    const document = JSON.parse(run.stdout) as { lens?: { brand: { name: string } } };
    expect(v.parse(SearchResponse, document).iterationCount).toBe(5);
    expect(document.lens?.brand.name).toBe("Asana");
  });

  test("status works signed out, and --json parses", async () => {
    const server = getServer();
    const run = await runCli(["status", "--json"], { server });
    expect(run.code).toBe(EXIT.ok);
    const report = v.parse(StatusReport, JSON.parse(run.stdout));
    expect(report).toMatchObject({ server: server.baseUrl, user: null, quota: null });
    expect(report.status.modes.openai).toBe("simulated");
  });

  test("no escape codes when stdout and stderr are not terminals, with NO_COLOR or without", async () => {
    const server = getServer();
    const user = await createUser(server);
    const envs: Array<Record<string, string>> = [{ AISC_TOKEN: user.token }, { AISC_TOKEN: user.token, NO_COLOR: "" }];
    for (const env of envs) {
      for (const args of [["search", "best running shoes"], ["history"], ["status"], ["whoami"], ["search", "x", "-n", "5"], ["--help"], ["search", "--bogus"]]) {
        const run = await runCli(args, { server, env });
        expect({ args, stdout: ESCAPE.test(run.stdout), stderr: ESCAPE.test(run.stderr) }).toEqual({ args, stdout: false, stderr: false });
      }
    }
  });

  test("a server that is not there exits 4 naming it", async () => {
    const server = getServer();
    const run = await runCli(["status"], { server, env: { AISC_SERVER: "http://127.0.0.1:9" } });
    expect(run.code).toBe(EXIT.server);
    expect(run.stderr).toContain("could not reach http://127.0.0.1:9");
  });

  test("login --token-stdin saves a token read from standard input (never on the command line); the help says to prefer it or AISC_TOKEN", async () => {
    const server = getServer();
    const user = await createUser(server);
    const configHome = tempConfigHome();
    const login = await runCli(["login", "--token-stdin"], { server, configHome, stdin: `${user.token}\n` });
    expect(login).toMatchObject({ code: EXIT.ok, stderr: "" });
    expect(login.stdout).toContain(`as ${user.username}`);
    expect(JSON.parse(readFileSync(join(configHome, "aisc", "config.json"), "utf8"))).toMatchObject({ server: server.baseUrl, token: user.token });
    expect((await runCli(["whoami"], { server, configHome })).stdout).toContain(user.username);

    const bogus = await runCli(["login", "--token-stdin"], { server, configHome: tempConfigHome(), stdin: "aisc_bogusbogusbogusbogusbogusbogusbogusbogusbog\n" });
    expect(bogus.code).toBe(EXIT.auth);
    expect((await runCli(["login", "--token-stdin", "--token", user.token], { server })).code).toBe(EXIT.usage);

    const help = await runCli(["login", "--help"], { server });
    expect(help.stdout).toContain("--token-stdin");
    expect(help.stdout).toContain("Prefer --token-stdin (or AISC_TOKEN) to --token: a token on the command line shows in the process list.");

    // A token saved this way has no id in the config: logout finds it in the list (by its first characters) and it revokes itself.
    const logout = await runCli(["logout"], { server, configHome });
    expect(logout).toMatchObject({ code: EXIT.ok, stdout: `Signed out of ${server.baseUrl}; the token is revoked.\n` });
    expect(await clientAs(server, user.token).currentUser()).toBeNull();
  });

  test("tokens create and revoke sign in with the password for that call (a token cannot); tokens list works with the token and shows scopes", async () => {
    const server = getServer();
    const user = await createUser(server);
    const asUser = { server, env: { AISC_TOKEN: user.token } };

    // No terminal and no --password-stdin: nothing is made, and the message says what to do.
    const noPassword = await runCli(["tokens", "create", "ci"], asUser);
    expect(noPassword.code).toBe(EXIT.usage);
    expect(noPassword.stderr).toContain("a token cannot create tokens");
    expect(noPassword.stderr).toContain(`${server.baseUrl}/user/profile`);
    expect(noPassword.stderr).toContain("--password-stdin");
    expect((await clientAs(server, user.token).listTokens()).tokens).toHaveLength(1);

    // The username is the token's; the password comes from standard input.
    const created = await runCli(["tokens", "create", "ci", "--password-stdin", "--json"], { ...asUser, stdin: `${user.password}\n` });
    expect(created.code).toBe(EXIT.ok);
    const made = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
    expect((await clientAs(server, made.token).currentUser())?.username).toBe(user.username);
    expect(made.scopes).toContain("search");

    const wrong = await runCli(["tokens", "create", "other", "--password-stdin"], { ...asUser, stdin: "not the password\n" });
    expect(wrong.code).toBe(EXIT.auth);

    const listed = await runCli(["tokens", "list"], asUser);
    expect(listed.code).toBe(EXIT.ok);
    expect(listed.stdout).toContain("ci");
    expect(listed.stdout).toContain("Scopes");
    expect(listed.stdout).toContain("search");

    const revoked = await runCli(["tokens", "revoke", made.id, "--password-stdin"], { ...asUser, stdin: `${user.password}\n` });
    expect(revoked).toMatchObject({ code: EXIT.ok, stdout: `Revoked ${made.id}.\n` });
    expect(await clientAs(server, made.token).currentUser()).toBeNull();
    // Signed out, --username says who.
    const byName = await runCli(["tokens", "create", "laptop", "--username", user.username, "--password-stdin"], { server, stdin: `${user.password}\n` });
    expect(byName.code).toBe(EXIT.ok);
    expect(byName.stdout).toMatch(/^aisc_/);
  });
});

describe("aisc search, Ctrl-C after some iterations", () => {
  // Each answer takes a moment: a 25-iteration search is under way, not done, when Ctrl-C comes.
  const getServer = useCliServer({ simulator: () => startSimulator({ latency: { kind: "fixed", ms: 300 } }) });

  test("SIGINT keeps what had finished: the CLI says how far it came and the id it was saved as, which reads back as cancelled", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const child = spawnCli(["search", "best vpn", "-n", "25"], { server, env: { AISC_TOKEN: user.token } });
    // A 6th call per provider starts only once one of its first 5 (SEARCH_CONCURRENCY) has answered.
    const calls = (id: string) => server.simulator.requests.filter((request) => request.kind === "search" && request.provider === id).length;
    await eventually(() => providerIds.every((id) => calls(id) >= 6), "an iteration of every provider answered");
    child.kill("SIGINT");
    const [stderr, code] = await Promise.all([new Response(child.stdout).text().then(() => new Response(child.stderr).text()), child.exited]);
    expect(code).toBe(EXIT.interrupted);
    const [, finished, id] = /Cancelled after (\d+) of 25 iterations: saved as ([0-9a-f-]{36}) \(aisc show \2\)/.exec(stderr) ?? [];
    if (!id) throw new Error(`no saved id in: ${stderr}`);
    expect(Number(finished)).toBeGreaterThan(0);
    const saved = await clientAs(server, user.token).getSearch(id);
    expect(saved).toMatchObject({ id, status: "cancelled", query: "best vpn", iterationCount: 25 });
  });
});

describe("aisc search and Ctrl-C", () => {
  // Providers that take a minute; the call timeout is longer still, so only a cancel closes their connections.
  const getServer = useCliServer({ simulator: () => startSimulator({ latency: { kind: "fixed", ms: 60_000 } }), retry: { ...testRetry, callTimeoutMs: 120_000 } });

  test("SIGINT cancels the search: the simulator sees every provider's connection close, and the CLI exits 130", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const child = spawnCli(["search", "best vpn"], { server, env: { AISC_TOKEN: user.token } });
    const searches = () => server.simulator.requests.filter((request) => request.kind === "search");
    await eventually(() => searches().length >= providerIds.length, "every provider asked");
    child.kill("SIGINT");
    expect(await child.exited).toBe(EXIT.interrupted);
    await eventually(() => server.simulator.aborts.length >= providerIds.length, "every provider's connection closed");
    expect(new Set(server.simulator.aborts.map((abort) => abort.provider))).toEqual(new Set(providerIds));
  });
});
