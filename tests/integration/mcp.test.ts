import { afterEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v from "valibot";
import { CompareReport } from "#src/contract/compare.ts";
import { LensReport } from "#src/contract/lens.ts";
import { perProvider, providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { PRO_REQUIRED } from "#src/contract/quota.ts";
import { SavedSearchList } from "#src/contract/history.ts";
import { SavedSearchResponse } from "#src/contract/search-wire.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, savedSearchWithLens, useCliServer, type CliServer } from "#tests/support/cli.ts";

const getServer = useCliServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** An MCP client (the SDK's) talking to `aisc mcp` over stdio, with the given token. */
async function connect(server: CliServer, token?: string): Promise<Client> {
  const env = cliEnv({ server, env: token ? { AISC_TOKEN: token } : {} });
  const transport = new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" });
  const client = new Client({ name: "aisc-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Text = { type: "text"; text: string };
const texts = (result: Record<string, unknown>) => (result.content as Text[]).map((item) => item.text);

test("aisc mcp lists its tools with input schemas from the contract", async () => {
  const client = await connect(getServer());
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual([
    "brand_lens",
    "compare",
    "generate_variants",
    "get_search",
    "list_searches",
    "list_trackers",
    "list_workspaces",
    "provider_status",
    "search",
    "share_create",
    "share_list",
    "share_revoke",
    "tracker_alerts",
    "tracker_latest_run",
    "tracker_trend",
    "workspace_audit",
    "workspace_members",
  ]);
  const search = tools.find((tool) => tool.name === "search");
  expect(search?.inputSchema.required).toEqual(["query"]);
  expect(search?.inputSchema.properties?.query).toMatchObject({ type: "string", minLength: 1, maxLength: 500 });
  expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual(["brand", "iterations", "location", "query"]);
});

test("the provider_status tool says which provider cannot answer, why and what to do", async () => {
  const server = getServer();
  server.simulator.setFaults("anthropic", [{ kind: "quota_exhausted" }], { kinds: ["model"], persistent: true });
  try {
    await server.providerStatus.checkNow();
    const client = await connect(server, (await createUser(server)).token);
    const answer = await client.callTool({ name: "provider_status", arguments: {} });
    expect(answer.isError).toBeFalsy();
    const [summary, json] = texts(answer);
    expect(summary).toContain("Out of Credit");
    expect(summary).toContain(
      `Claude: The Anthropic account of ANTHROPIC_API_KEY is out of credit or quota: add credit or raise its limit at https://platform.claude.com/settings/billing.`,
    );
    expect(JSON.parse(json ?? "").providers.anthropic).toMatchObject({ state: "failing", failure: "quota_exhausted" });
  } finally {
    server.simulator.clearFaults();
    await server.providerStatus.checkNow();
  }
});

test("the search tool runs a search as the token's user and answers a summary and the result's JSON; the others read it back", async () => {
  const server = getServer();
  const user = await createUser(server);
  const client = await connect(server, user.token);

  const answer = await client.callTool({ name: "search", arguments: { query: "best standing desk" } });
  expect(answer.isError).toBeFalsy();
  const [summary, json] = texts(answer);
  expect(summary).toContain('"best standing desk"');
  expect(summary).toContain("ChatGPT");
  // What it cost: the keyless server's answers are simulated, $0 and said so (ADR 041).
  expect(summary).toContain("cost $0.00 (simulated)");
  const result = v.parse(SavedSearchResponse, JSON.parse(json ?? ""));
  expect(result.query).toBe("best standing desk");
  expect(result.cost?.total).toMatchObject({ usd: 0, simulated: true });

  const listed = await client.callTool({ name: "list_searches", arguments: { limit: 5 } });
  expect(v.parse(SavedSearchList, JSON.parse(texts(listed)[1] ?? "")).searches.map((s) => s.id)).toEqual([result.id]);
  const got = await client.callTool({ name: "get_search", arguments: { id: result.id } });
  expect(v.parse(SavedSearchResponse, JSON.parse(texts(got)[1] ?? "")).id).toBe(result.id);
});

test("the same limits as the CLI: Pro options refused for a free user, no token, bad arguments", async () => {
  const server = getServer();
  const user = await createUser(server);
  const free = await connect(server, user.token);
  const refused = await free.callTool({ name: "search", arguments: { query: "best crm", iterations: 5 } });
  expect(refused.isError).toBe(true);
  expect(texts(refused)).toEqual([PRO_REQUIRED]);
  expect((await free.callTool({ name: "generate_variants", arguments: { query: "best crm" } })).isError).toBe(true);
  for (const query of ["", "   "]) {
    const invalid = await free.callTool({ name: "search", arguments: { query } });
    expect(invalid.isError).toBe(true);
  }
  expect(texts(await free.callTool({ name: "search", arguments: { query: "   " } }))).toEqual(["Search query is required"]);

  const anonymous = await connect(server);
  const signedOut = await anonymous.callTool({ name: "list_searches", arguments: {} });
  expect(signedOut.isError).toBe(true);
  expect(texts(signedOut)[0]).toContain("Not signed in");
});

test("brand_lens answers the web's lens: the saved brand with its competitors and domain, by name or by default; get_search carries it too", async () => {
  const server = getServer();
  const { user, id, brand, competitors } = await savedSearchWithLens(server);
  const web = (await user.browser.api.searchLens(id)).lens;
  expect(web?.providers.openai?.shareOfVoice[0]?.share).toBeLessThan(100);
  const client = await connect(server, user.token);

  for (const args of [{ id, brand }, { id }]) {
    const answer = await client.callTool({ name: "brand_lens", arguments: args });
    expect(answer.isError).toBeFalsy();
    const [summary, json] = texts(answer);
    expect({ args, lens: JSON.parse(json ?? "null") }).toEqual({ args, lens: web });
    expect(summary).toContain(`against ${competitors.join(", ")}`);
  }
  const rival = competitors[0] ?? "";
  const asRival = await client.callTool({ name: "brand_lens", arguments: { id, brand: rival } });
  expect(JSON.parse(texts(asRival)[1] ?? "null")).toEqual((await user.browser.api.searchLens(id, { name: rival })).lens);

  const got = await client.callTool({ name: "get_search", arguments: { id } });
  expect((JSON.parse(texts(got)[1] ?? "{}") as { lens?: unknown }).lens).toEqual(web);
});

test("every tool's answer says which providers were simulated: on a keyless server the figures are invented, and an assistant is told so", async () => {
  const server = getServer();
  const { user, id } = await savedSearchWithLens(server);
  const client = await connect(server, user.token);
  const query = "best crm for a small agency";
  const everyProvider = perProvider(() => true);
  const models = providerIds.map((provider) => providerCatalogue[provider].model);

  // The lens: each provider's view is flagged in the JSON, and its summary line names it simulated.
  const [lensText, lensJson] = texts(await client.callTool({ name: "brand_lens", arguments: { id } }));
  const lens = v.parse(LensReport, JSON.parse(lensJson ?? "null"));
  expect(perProvider((provider) => lens.providers[provider]?.simulated)).toEqual(everyProvider);
  for (const model of models) expect(lensText).toContain(`- ${model} (simulated): mentioned in`);

  // The saved search, and its lens under it.
  const [searchText] = texts(await client.callTool({ name: "get_search", arguments: { id } }));
  for (const model of models) expect(searchText?.match(new RegExp(`- ${model} \\(simulated\\):`, "g"))).toHaveLength(2);

  // The comparison: each compared search says which providers were simulated.
  const [compareText, compareJson] = texts(await client.callTool({ name: "compare", arguments: { query, variants: [] } }));
  expect(v.parse(CompareReport, JSON.parse(compareJson ?? "null")).searches.map((search) => search.simulated)).toEqual([everyProvider]);
  expect(compareText).toContain(`Simulated (invented answers, not the live provider): ${models.join(", ")}`);

  // The history and the variants.
  const [listText] = texts(await client.callTool({ name: "list_searches", arguments: {} }));
  expect(listText).toContain(`- ${id} · `);
  expect(listText).toEndWith(" · simulated");
  const [variantsText] = texts(await client.callTool({ name: "generate_variants", arguments: { query } }));
  expect(variantsText).toMatch(/^\d+ variants of "best crm for a small agency" \(written by .+, simulated\):/);
});
