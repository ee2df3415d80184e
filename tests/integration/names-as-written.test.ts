import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { eq } from "drizzle-orm";
import { apiTokens, searches, shares, trackers, users } from "#db/schema.ts";
import { hasInvisible } from "#src/core/display-text.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, runCli, useCliServer, type CliServer } from "#tests/support/cli.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * Issue 34 (the probe's finding 9), names shown as written. Written: a name or a question with a
 * character that changes how it reads without being seen (a line break, the right-to-left override
 * U+202E, a zero-width space) is refused with a 400 naming the field and the character, through
 * the API, the CLI and MCP alike (one set of schemas). Read: one stored before that rule is read
 * back as it is (never a 500, never refused unless rewritten) and shown visibly by the CLI's
 * tables and listings and MCP's text: on one line, the character named ("⟨U+202E⟩").
 */

const RLO = "\u202E";
const refused = (field: string, code: string) => ({
  code: "INVALID_INPUT",
  message: `${field} must not contain ${code} (an invisible control or format character)`,
});
const tracker = {
  name: "CRM watch",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  providers: ["openai" as const],
  iterations: 1,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

describeEachDatabase("names as written: refused when written, read back as stored", (getDb) => {
  test("every name and question a request writes refuses an invisible character, naming the field and the character", async () => {
    const { app } = await createTestApp(getDb());
    const { agent } = await createProAgent(app, getDb());
    const answer = async (method: string, path: string, body: unknown) => {
      const { status, json } = await agent.request(method, path, body);
      return { status, json };
    };
    expect(await answer("POST", "/api/trackers", { ...tracker, name: `CRM${RLO}watch` })).toEqual({ status: 400, json: refused("name", "U+202E") });
    expect(await answer("POST", "/api/trackers", { ...tracker, name: "CRM\nwatch" })).toEqual({ status: 400, json: refused("name", "U+000A") });
    expect(await answer("POST", "/api/trackers", { ...tracker, queries: ["best\u200bcrm"] })).toEqual({ status: 400, json: refused("Search query", "U+200B") });
    expect(await answer("POST", "/api/trackers", { ...tracker, brand: { name: "HubSpot", aliases: [`Hub${RLO}`] } })).toEqual({
      status: 400,
      json: refused("brand.aliases", "U+202E"),
    });
    expect(await answer("POST", "/api/trackers", { ...tracker, competitors: [{ name: "Sales\u2028force" }] })).toEqual({
      status: 400,
      json: refused("competitors.name", "U+2028"),
    });
    expect(await answer("PUT", "/api/user/brand-lens", { brand: { name: `Acme${RLO}` }, competitors: [] })).toEqual({
      status: 400,
      json: refused("brand.name", "U+202E"),
    });
    expect(await answer("POST", "/api/search", { query: `best crm${RLO}` })).toEqual({ status: 400, json: refused("Search query", "U+202E") });
    expect(await answer("POST", "/api/tokens", { name: `ci\u200b` })).toEqual({ status: 400, json: refused("A token name", "U+200B") });
    // NUL and lone surrogates stay refused, as before, for every body.
    expect(await answer("POST", "/api/trackers", { ...tracker, name: "a\u0000b" })).toEqual({
      status: 400,
      json: { code: "INVALID_INPUT", message: "Text must be valid Unicode, without NUL characters" },
    });
    // None of them was kept.
    expect((await agent.api.listTrackers()).trackers).toEqual([]);
    expect((await agent.api.brandLens()).brand).toBeNull();
  });

  test("a tracker and a brand lens stored before the rule are read back as stored; a change that does not rewrite the name is not refused", async () => {
    const { app } = await createTestApp(getDb());
    const { agent, account } = await createProAgent(app, getDb());
    const made = await agent.api.createTracker({ ...tracker, providers: ["openai"] });
    const name = `CRM${RLO}\nwatch`;
    const brand = { name: `Hub${RLO}Spot`, aliases: ["Hub\u200bSpot"], domains: [] };
    await getDb()
      .db.update(trackers)
      .set({ name, brand, queries: [`best${RLO} crm`] })
      .where(eq(trackers.id, made.id));
    await getDb()
      .db.update(users)
      .set({ brandLens: { brand, competitors: [] } })
      .where(eq(users.id, account.id));

    expect(await agent.api.getTracker(made.id)).toMatchObject({ name, brand, queries: [`best${RLO} crm`] });
    expect((await agent.api.listTrackers()).trackers[0]).toMatchObject({ name, brand });
    expect(await agent.api.updateTracker(made.id, { paused: true })).toMatchObject({ name, paused: true });
    expect((await agent.api.brandLens()).brand).toEqual(brand);
    // Rewriting it is a write like any other.
    expect((await agent.request("PATCH", `/api/trackers/${made.id}`, { name })).json).toEqual(refused("name", "U+202E"));
  });

  test("a visitor's refused search costs nothing of their day's searches", async () => {
    const { app } = await createTestApp(getDb());
    const visitor = createAgent(app);
    const { status, json } = await visitor.request("POST", "/api/search", { query: "best\u2066 crm" });
    expect({ status, json }).toEqual({ status: 400, json: refused("Search query", "U+2066") });
    expect((await visitor.api.quota()).remaining).toBe(5);
  });
});

describe("the CLI and MCP: the same rule when writing; visible names when reading", () => {
  const getServer = useCliServer();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(server: CliServer, token: string): Promise<Client> {
    const client = new Client({ name: "aisc-test", version: "1.0.0" });
    const env = cliEnv({ server, env: { AISC_TOKEN: token } });
    await client.connect(new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" }));
    clients.push(client);
    return client;
  }
  const texts = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((item) => item.text);

  /** The output shows every stored name visibly: nothing acts, nothing starts a line of its own. */
  function expectVisible(output: string, ...shown: string[]) {
    for (const line of output.split("\n")) expect({ line, invisible: hasInvisible(line) }).toEqual({ line, invisible: false });
    expect(output).not.toMatch(/^[\s│|─┌└├-]*Injected/m);
    for (const text of shown) expect(output).toContain(text);
  }

  test("aisc and MCP refuse an invisible character naming the flag or field and the character", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    const created = await runCli(["track", "create", "--name", `CRM${RLO}watch`, "--query", "best crm", "--brand", "HubSpot", "--weekly", "mon@09:00"], asUser);
    expect(created).toMatchObject({ code: EXIT.usage, stderr: "error: --name: name must not contain U+202E (an invisible control or format character)\n" });
    const searched = await runCli(["search", "best\u200bcrm"], asUser);
    expect(searched).toMatchObject({ code: EXIT.usage, stderr: "error: Search query must not contain U+200B (an invisible control or format character)\n" });
    const client = await connect(server, user.token);
    const answer = await client.callTool({ name: "search", arguments: { query: `best crm${RLO}` } });
    expect(answer.isError).toBe(true);
    expect(texts(answer)).toEqual(["Search query must not contain U+202E (an invisible control or format character)"]);
  });

  test("names stored before the rule: aisc track list and show, share list, history, tokens list and MCP's text show them visibly", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const asUser = { server, env: { AISC_TOKEN: user.token, COLUMNS: "400" } };
    const made = await user.browser.api.createTracker(tracker);
    const { result } = await user.browser.api.search({ query: "best crm for a small agency" });
    await user.browser.api.createShare({ kind: "tracker", id: made.id });
    const db = server.database.db;
    const poisoned = (text: string) => `${text}${RLO}\nInjected`;
    await db
      .update(trackers)
      .set({ name: poisoned("CRM watch"), brand: { name: poisoned("HubSpot"), aliases: [], domains: [] }, queries: [poisoned("best crm")] })
      .where(eq(trackers.id, made.id));
    await db
      .update(shares)
      .set({ title: poisoned("CRM watch") })
      .where(eq(shares.targetId, made.id));
    await db
      .update(searches)
      .set({ title: poisoned("My search") })
      .where(eq(searches.id, result.id));
    await db
      .update(apiTokens)
      .set({ name: poisoned("laptop") })
      .where(eq(apiTokens.userId, user.id));

    const shown = (text: string) => `${text}⟨U+202E⟩ Injected`;
    const list = await runCli(["track", "list"], asUser);
    expect(list.code).toBe(EXIT.ok);
    expectVisible(list.stdout, shown("CRM watch"));
    const show = await runCli(["track", "show", made.id], asUser);
    expect(show.code).toBe(EXIT.ok);
    expectVisible(show.stdout, shown("CRM watch"), shown("HubSpot"), shown("best crm"));
    expectVisible((await runCli(["share", "list"], asUser)).stdout, shown("CRM watch"));
    expectVisible((await runCli(["history"], asUser)).stdout, shown("My search"));
    expectVisible((await runCli(["tokens", "list"], asUser)).stdout, shown("laptop"));
    // --json: the same value to a script, the character escaped where it is printed.
    const json = (await runCli(["track", "list", "--json"], asUser)).stdout;
    expect(json).toContain("CRM watch\\u202e\\nInjected");
    expect(JSON.parse(json).trackers[0].name).toBe(poisoned("CRM watch"));

    const client = await connect(server, user.token);
    const [trackersText, trackersJson] = texts(await client.callTool({ name: "list_trackers", arguments: {} }));
    expectVisible(trackersText ?? "", shown("CRM watch"), shown("HubSpot"));
    expect(trackersJson).toContain("CRM watch\\u202e\\nInjected");
    expectVisible(texts(await client.callTool({ name: "share_list", arguments: {} }))[0] ?? "", shown("CRM watch"));
    expectVisible(texts(await client.callTool({ name: "tracker_latest_run", arguments: { id: made.id } }))[0] ?? "", shown("CRM watch"));
  });
});
