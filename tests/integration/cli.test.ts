import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { PRO_REQUIRED } from "#src/contract/quota.ts";
import { SavedSearchList } from "#src/contract/history.ts";
import type { AggregatedStats, Frequency } from "#src/contract/search-result.ts";
import { SavedSearchResponse, SearchResponse } from "#src/contract/search-wire.ts";
import { nameKey } from "#src/core/names.ts";
import { User } from "#src/contract/auth.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { LensReport } from "#src/contract/lens.ts";
import { resultToCsvFile, resultToJson } from "#src/core/export.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { StatusReport } from "#cli/commands/status.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { testRetry } from "#tests/support/app.ts";
import { clientAs, createUser, runCli, savedSearchWithLens, spawnCli, tableRow, tempConfigHome, useCliServer } from "#tests/support/cli.ts";
import { newAccount, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { waitFor } from "#tests/support/wait.ts";

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
    // What the account's searches cost: nothing yet (ADR 041).
    expect(whoami.stdout).toContain("spent $0.00 today (limit $20.00), $0.00 this month");
    const me = JSON.parse((await run(["whoami", "--json"])).stdout);
    expect(v.parse(User, me).username).toBe(account.username);
    expect(me.spend).toEqual({ todayUsd: 0, monthUsd: 0, dailyLimitUsd: 20 });

    const table = await run(["search", "best crm for a small agency"]);
    expect(table.code).toBe(EXIT.ok);
    for (const id of providerIds) expect(table.stdout).toContain(providerCatalogue[id].model);
    expect(table.stdout).toContain("Top products");
    // The keyless server's answers are simulated: they cost $0, and say so.
    expect(table.stdout).toContain("cost $0.00 (simulated)");
    expect(tableRow(table.stdout, "Cost")).toEqual(["Cost", ...providerIds.map(() => "$0.00 (simulated)")]);
    // A column per provider, the table within the 80 columns of a screen it does not know.
    for (const line of table.stdout.split("\n").filter((line) => /^[┌│├└]/.test(line))) expect({ line, fits: line.length <= 80 }).toEqual({ line, fits: true });
    expect(table.stderr).toContain("free searches left today");

    const searched = await run(["search", "best crm", "--json"]);
    expect(searched.code).toBe(EXIT.ok);
    const wire = v.parse(SearchResponse, JSON.parse(searched.stdout));
    expect(wire.query).toBe("best crm");
    expect(wire.cost?.total).toMatchObject({ usd: 0, simulated: true });

    const history = v.parse(SavedSearchList, JSON.parse((await run(["history", "--json"])).stdout));
    expect(history.searches.map((s) => s.query)).toEqual(["best crm", "best crm for a small agency"]);

    const shown = await run(["show", wire.id]);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain('"best crm"');
    expect(v.parse(SavedSearchResponse, JSON.parse((await run(["show", wire.id, "--json"])).stdout)).id).toBe(wire.id);

    const cwd = mkdtempSync(join(tmpdir(), "aisc-export-"));
    expect((await run(["export", wire.id, "--format", "csv", "-o", "out.csv"], { cwd })).code).toBe(EXIT.ok);
    const web = resultToCsvFile(await clientAs(server, saved.token).getSearch(wire.id));
    expect(readFileSync(join(cwd, "out.csv"))).toEqual(Buffer.from(web));
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
    for (const args of [
      ["search", "best crm", "--bogus"],
      ["search", "best crm", "-n", "many"],
      ["history", "--limit", "0"],
      ["export", "x", "--format", "xml"],
      ["search", "x", "--json", "--csv"],
    ]) {
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

  test("the brand lens is the web's: --brand gives the figures of the web's lens route, and a Pro user's plain show prints the saved lens", async () => {
    const server = getServer();
    const { user, id, brand, competitors } = await savedSearchWithLens(server);
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    // What the results page's Brand Lens tab shows: the saved lens, and "Try another brand" with a name.
    const web = (await user.browser.api.searchLens(id)).lens;
    if (!web) throw new Error("no lens on the web");
    const openai = web.providers.openai;
    // The saved competitors and domain matter here: a lens without them would read 100% and 0%.
    expect(openai?.shareOfVoice.map((entry) => entry.name)).toEqual([brand, ...competitors]);
    expect(openai?.shareOfVoice[0]?.share).toBeLessThan(100);
    expect(openai?.domainCited.count).toBeGreaterThan(0);
    expect((await user.browser.api.searchLens(id, { name: brand.toUpperCase() })).lens).toEqual(web);

    const lensOf = (stdout: string) => (JSON.parse(stdout) as { lens?: LensReport }).lens;
    const overridden = await runCli(["show", id, "--brand", brand, "--json"], asUser);
    expect(overridden.code).toBe(EXIT.ok);
    expect(lensOf(overridden.stdout)).toEqual(web);
    const rival = competitors[0] ?? "";
    expect(lensOf((await runCli(["show", id, "--brand", rival, "--json"], asUser)).stdout)).toEqual(
      (await user.browser.api.searchLens(id, { name: rival })).lens ?? undefined,
    );

    expect(lensOf((await runCli(["show", id, "--json"], asUser)).stdout)).toEqual(web);
    const plain = await runCli(["show", id], { ...asUser, env: { ...asUser.env, COLUMNS: "200" } });
    expect(plain.code).toBe(EXIT.ok);
    expect(plain.stdout).toContain(`Brand lens: ${brand}`);
    const row = plain.stdout.split("\n").find((line) => line.includes(`│ ${providerCatalogue.openai.model} `) && line.includes("% ("));
    expect(row).toContain(`${openai?.shareOfVoice[0]?.share}%`);
    expect(row).toContain(`${openai?.domainCited.percentage}% (${openai?.domainCited.count}/${openai?.domainCited.n})`);
  });

  test("export writes the web's download byte for byte (byte-order mark, CRLF, the lens shown), its format from -o's name, else JSON", async () => {
    const server = getServer();
    const { user, id } = await savedSearchWithLens(server);
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    // What the results page's CSV and JSON buttons write with the Brand Lens tab open: the same core functions on the same inputs.
    const result = await user.browser.api.getSearch(id);
    const lens = (await user.browser.api.searchLens(id)).lens ?? undefined;
    const webCsv = Buffer.from(resultToCsvFile(result, { lens }));
    expect([...webCsv.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(webCsv.toString("utf8")).toContain("\r\nBrand Lens\r\n");

    const cwd = mkdtempSync(join(tmpdir(), "aisc-export-"));
    const csv = await runCli(["export", id, "-o", "crm.csv"], { ...asUser, cwd });
    expect(csv).toMatchObject({ code: EXIT.ok, stdout: "" });
    expect(readFileSync(join(cwd, "crm.csv"))).toEqual(webCsv);
    // Bytes, not text: decoding as text would drop the byte-order mark.
    const printed = spawnCli(["show", id, "--csv"], asUser);
    expect(Buffer.from(await new Response(printed.stdout).arrayBuffer())).toEqual(webCsv);
    expect(await printed.exited).toBe(EXIT.ok);

    const json = await runCli(["export", id], { ...asUser, cwd });
    expect(json.code).toBe(EXIT.ok);
    const [written] = readdirSync(cwd).filter((name) => /^search-results-best-crm-for-a-small-agency-\d{4}-\d{2}-\d{2}\.json$/.test(name));
    expect(readFileSync(join(cwd, written ?? "missing"), "utf8")).toBe(resultToJson(result, { lens }));
    expect((await runCli(["export", id, "-o", "-"], asUser)).stdout).toBe(resultToJson(result, { lens }));
  });

  test("an unknown search exits 5 (not found), as the help and the README say", async () => {
    const server = getServer();
    const user = await createUser(server);
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    for (const args of [
      ["show", "00000000-0000-4000-8000-000000000000"],
      ["show", "no-such-search"],
      ["export", "00000000-0000-4000-8000-000000000000"],
    ]) {
      const run = await runCli(args, asUser);
      expect({ args, code: run.code, stderr: run.stderr }).toEqual({ args, code: 5, stderr: "error: Search not found\n" });
    }
    expect((await runCli(["--help"], asUser)).stdout).toContain("5    not found");
    expect(readFileSync(join(import.meta.dir, "../../README.md"), "utf8").includes("| 5 | not found")).toBe(true);
  });

  test("history fits the screen: 80 columns when it is unknown, COLUMNS when set; ids whole, the query wrapped, the counts dropped first", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const long = "best crm for a small marketing agency with a remote team across three time zones";
    for (const query of [long, "best running shoes"]) await user.browser.api.search({ query });
    const ids = (await user.browser.api.listSearches({})).searches.map((s) => s.id);
    const widest = (text: string) =>
      Math.max(
        ...text
          .trimEnd()
          .split("\n")
          .map((line) => Bun.stringWidth(line)),
      );

    for (const columns of [undefined, "100", "60"]) {
      const run = await runCli(["history"], { server, env: { AISC_TOKEN: user.token, ...(columns ? { COLUMNS: columns } : {}) } });
      expect(run.code).toBe(EXIT.ok);
      expect({ columns, widest: widest(run.stdout) <= Number(columns ?? 80) }).toEqual({ columns, widest: true });
      for (const id of ids) expect(run.stdout).toContain(id);
      for (const word of ["agency", "zones", "running"]) expect(run.stdout).toContain(word);
      expect(run.stdout).not.toContain("Links");
    }
    const wide = await runCli(["history"], { server, env: { AISC_TOKEN: user.token, COLUMNS: "200" } });
    for (const head of ["ID", "Date (UTC)", "Query", "Iterations", "Products", "Companies", "Links"]) expect(wide.stdout).toContain(head);
    expect(wide.stdout).toContain(long);
  });

  test("a multi-iteration search: the CLI's JSON, headline and table count every item of every iteration, as the web lists them (ADR 028)", async () => {
    const server = getServer();
    const pro = await createUser(server, { pro: true });
    const run = (args: string[]) => runCli(args, { server, env: { AISC_TOKEN: pro.token, COLUMNS: "160" } });
    const searched = await run(["search", "best crm for startups", "-n", "5", "--json"]);
    expect(searched.code).toBe(EXIT.ok);
    const wire = v.parse(SearchResponse, JSON.parse(searched.stdout));
    const web = await clientAs(server, pro.token).getSearch(wire.id);
    // What the web's Products, Companies and All Links tabs list: each item any provider's iterations returned.
    const distinct = (pick: (stats: AggregatedStats) => Frequency[]) =>
      new Set(providerIds.flatMap((id) => (web.stats[id] ? pick(web.stats[id]) : []).map((f) => nameKey(f.name)))).size;
    const listed = [distinct((s) => s.productFrequencies), distinct((s) => s.companyFrequencies), distinct((s) => s.sourceFrequencies)];
    expect([wire.totalProducts, wire.totalCompanies, wire.totalLinks]).toEqual(listed);
    expect([web.totalProducts, web.totalCompanies, web.totalLinks]).toEqual(listed);

    const shown = await run(["show", wire.id]);
    expect(shown.code).toBe(EXIT.ok);
    expect(shown.stdout).toContain(`${listed[0]} products, ${listed[1]} companies, ${listed[2]} links`);
    const row = (label: string) =>
      shown.stdout
        .split("\n")
        .find((line) => line.includes(` ${label} `))
        ?.match(/\d+/g)
        ?.map(Number);
    expect(row("Companies")).toEqual(providerIds.map((id) => web.stats[id]?.companyFrequencies.length ?? 0));
    expect(row("Sources")).toEqual(providerIds.map((id) => web.stats[id]?.sourceFrequencies.length ?? 0));
    const exported = await run(["show", wire.id, "--json"]);
    expect(JSON.parse(exported.stdout)).toMatchObject({ totalProducts: listed[0], totalCompanies: listed[1], totalLinks: listed[2] });
  });

  test("status works signed out, and --json parses", async () => {
    const server = getServer();
    const run = await runCli(["status", "--json"], { server });
    expect(run.code).toBe(EXIT.ok);
    const report = v.parse(StatusReport, JSON.parse(run.stdout));
    expect(report).toMatchObject({ server: server.baseUrl, user: null, quota: null });
    expect(report.status.modes.openai).toBe("simulated");
  });

  test("status names a provider that cannot answer, why, and what to do, as the server last checked it", async () => {
    const server = getServer();
    // Google no longer offers the model: its retrieval answers 404 (searches are left alone).
    server.simulator.setFaults("gemini", [{ kind: "model_not_found" }], { kinds: ["model"], persistent: true });
    try {
      await server.providerStatus.checkNow();
      const run = await runCli(["status"], { server });
      expect(run.code).toBe(EXIT.ok);
      const model = providerConfig.gemini.defaultModel;
      expect(run.stdout).toContain("Model Not Found");
      expect(run.stdout).toContain(`Gemini: GEMINI_MODEL=${model} is no longer offered by Google: set GEMINI_MODEL to a current model.`);
      const report = v.parse(StatusReport, JSON.parse((await runCli(["status", "--json"], { server })).stdout));
      expect(report.status.providers.gemini).toMatchObject({ state: "failing", failure: "model_not_found" });
      expect(report.status.gemini).toBe(false);
    } finally {
      server.simulator.clearFaults();
      await server.providerStatus.checkNow();
    }
  });

  test("no escape codes when stdout and stderr are not terminals, with NO_COLOR or without", async () => {
    const server = getServer();
    const user = await createUser(server);
    const envs: Array<Record<string, string>> = [{ AISC_TOKEN: user.token }, { AISC_TOKEN: user.token, NO_COLOR: "" }];
    for (const env of envs) {
      for (const args of [
        ["search", "best running shoes"],
        ["history"],
        ["status"],
        ["whoami"],
        ["search", "x", "-n", "5"],
        ["--help"],
        ["search", "--bogus"],
      ]) {
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

    const bogus = await runCli(["login", "--token-stdin"], {
      server,
      configHome: tempConfigHome(),
      stdin: "aisc_bogusbogusbogusbogusbogusbogusbogusbogusbog\n",
    });
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

  test("aisc variants answers the saved set (the web's, edits included) until --regenerate; --run searches that set", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    const variantsOf = async (...flags: string[]) => {
      const run = await runCli(["variants", "best crm", ...flags, "--json"], asUser);
      expect({ flags, code: run.code }).toEqual({ flags, code: EXIT.ok });
      return (JSON.parse(run.stdout) as { variants: Array<{ query: string }>; batchId?: string }).variants.map((variant) => variant.query);
    };
    const first = await variantsOf();
    expect(first).toHaveLength(5);
    expect(await variantsOf()).toEqual(first);
    await clientAs(server, user.token).saveVariants({
      query: "best crm",
      variants: [{ query: "crm my agency would love" }, { query: "crm with a free plan" }],
    });
    expect(await variantsOf()).toEqual(["crm my agency would love", "crm with a free plan"]);
    const fresh = await variantsOf("--regenerate");
    expect(fresh).toHaveLength(5);
    expect(fresh).not.toEqual(first);

    const ran = await runCli(["variants", "best crm", "--run", "--json"], asUser);
    expect(ran.code).toBe(EXIT.ok);
    const batch = JSON.parse(ran.stdout) as { items: Array<{ query: string; status: string }> };
    expect(batch.items.map((item) => item.query)).toEqual(fresh);
    expect(batch.items.every((item) => item.status === "completed")).toBe(true);
  });

  test("history --search/--provider/--iterations/--from/--to filter; history rename names a search; history delete asks (or --yes) and removes it", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const api = clientAs(server, user.token);
    // Wide enough that titles and queries are not wrapped (fitting narrow screens is tested on its own).
    const asUser = { server, env: { AISC_TOKEN: user.token, COLUMNS: "200" } };
    const crm = (await api.search({ query: "best crm for a small agency" })).result.id;
    const vpn = (await api.search({ query: "best vpn", iterations: 5 })).result.id;
    const cheap = (await api.search({ query: "cheap CRM" })).result.id;
    const today = new Date().toISOString().slice(0, 10);
    const ids = async (...flags: string[]) => {
      const run = await runCli(["history", ...flags, "--json"], asUser);
      expect({ flags, code: run.code, stderr: run.stderr }).toEqual({ flags, code: EXIT.ok, stderr: "" });
      return v.parse(SavedSearchList, JSON.parse(run.stdout)).searches.map((s) => s.id);
    };

    expect(await ids("--search", "crm")).toEqual([cheap, crm]);
    expect(await ids("--iterations", "5")).toEqual([vpn]);
    expect(await ids("--provider", "openai", "--from", today, "--to", today)).toEqual([cheap, vpn, crm]);
    expect(await ids("--to", "2000-01-01")).toEqual([]);
    expect((await runCli(["history", "--from", "2000-01-01", "--to", "2000-01-02"], asUser)).stdout).toContain("No saved searches match.");
    const paged = await runCli(["history", "--search", "crm", "--limit", "1"], asUser);
    expect(paged.stderr).toContain("More: aisc history --limit 1 --search crm --before ");
    for (const bad of [
      ["--provider", "bing"],
      ["--iterations", "0"],
      ["--from", "last week"],
    ]) {
      const run = await runCli(["history", ...bad], asUser);
      expect({ bad, code: run.code }).toEqual({ bad, code: EXIT.usage });
    }

    const renamed = await runCli(["history", "rename", crm, "Agency CRMs"], asUser);
    expect(renamed).toMatchObject({ code: EXIT.ok, stdout: `Renamed ${crm}: "Agency CRMs"\n` });
    const listed = await runCli(["history", "--search", "agency"], asUser);
    expect(listed.stdout).toContain("Agency CRMs");
    expect(listed.stdout).toContain("best crm for a small agency"); // the query stays visible
    expect(await ids("--search", "Agency CRMs")).toEqual([crm]);

    // No terminal to ask on: nothing is deleted without --yes.
    const unasked = await runCli(["history", "delete", vpn], asUser);
    expect(unasked.code).toBe(EXIT.usage);
    expect(unasked.stderr).toContain("--yes");
    expect(await ids()).toEqual([cheap, vpn, crm]);
    expect(await runCli(["history", "delete", vpn, "--yes"], asUser)).toMatchObject({ code: EXIT.ok, stdout: `Deleted ${vpn}.\n` });
    expect(await ids()).toEqual([cheap, crm]);
    const again = await runCli(["history", "delete", vpn, "--yes"], asUser);
    expect(again.code).not.toBe(EXIT.ok);
    expect(again.stderr).toContain("Search not found");
  });
});

describe("aisc search, Ctrl-C after some iterations", () => {
  // Each answer takes a moment: a 25-iteration search is under way, not done, when Ctrl-C comes.
  const getServer = useCliServer({ simulator: () => startSimulator({ latency: { kind: "fixed", ms: 300 } }) });

  test("SIGINT keeps what had finished: the CLI says how far it came and the id it was saved as, which reads back as cancelled", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const child = spawnCli(["search", "best vpn", "-n", "25"], { server, env: { AISC_TOKEN: user.token } });
    // An iteration is a search, then the reading of its answer, which overlaps the next search
    // (5 searches in flight per provider, SEARCH_CONCURRENCY). The 11th reading starts a whole
    // answer's time after the first 5 readings did: by then those iterations have finished.
    const readings = (id: string) => server.simulator.requests.filter((request) => request.kind === "extraction" && request.provider === id).length;
    await waitFor(() => providerIds.every((id) => readings(id) >= 11), { what: "iterations of every provider finished" });
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
  const getServer = useCliServer({
    simulator: () => startSimulator({ latency: { kind: "fixed", ms: 60_000 } }),
    retry: { ...testRetry, callTimeoutMs: 120_000 },
  });

  test("SIGINT cancels the search: the simulator sees every provider's connection close, and the CLI exits 130", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const child = spawnCli(["search", "best vpn"], { server, env: { AISC_TOKEN: user.token } });
    const searches = () => server.simulator.requests.filter((request) => request.kind === "search");
    await waitFor(() => searches().length >= providerIds.length, { what: "every provider asked" });
    child.kill("SIGINT");
    expect(await child.exited).toBe(EXIT.interrupted);
    await waitFor(() => server.simulator.aborts.length >= providerIds.length, { what: "every provider's connection closed" });
    expect(new Set(server.simulator.aborts.map((abort) => abort.provider))).toEqual(new Set(providerIds));
  });
});
