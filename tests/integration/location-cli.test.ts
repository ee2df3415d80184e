import { afterEach, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v from "valibot";
import { SavedSearchResponse, SearchResponse } from "#src/contract/search-wire.ts";
import type { RequestLogEntry } from "#dev/simulators/index.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, runCli, useCliServer } from "#tests/support/cli.ts";

/*
 * ADR 042: `aisc search --country DE --city Berlin` and the MCP search tool's
 * `location` ask from a place, checked as the API checks it.
 */

const getServer = useCliServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The user_location the last search request of a provider carried. */
function lastUserLocation(requests: readonly RequestLogEntry[], provider: "openai" | "anthropic"): unknown {
  const entry = requests.filter((request) => request.provider === provider && request.kind === "search").at(-1);
  const tools = (entry?.body as { tools?: Array<{ type?: string; user_location?: unknown }> } | undefined)?.tools ?? [];
  return tools.find((tool) => tool.type?.startsWith("web_search"))?.user_location;
}

test("aisc search --country de --city Berlin asks from there: each provider that takes it gets it, the JSON keeps it, the table says it and which provider is not localised", async () => {
  const server = getServer();
  const user = await createUser(server);
  const asUser = { server, env: { AISC_TOKEN: user.token, COLUMNS: "200" } };

  const json = await runCli(["search", "best e-bike", "--country", "de", "--city", "Berlin", "--timezone", "Europe/Berlin", "--json"], asUser);
  expect(json).toMatchObject({ code: EXIT.ok });
  const wire = v.parse(SearchResponse, JSON.parse(json.stdout));
  expect(wire.options?.location).toEqual({ country: "DE", city: "Berlin", timezone: "Europe/Berlin" });
  for (const provider of ["openai", "anthropic"] as const)
    expect(lastUserLocation(server.simulator.requests, provider)).toEqual({ type: "approximate", country: "DE", city: "Berlin", timezone: "Europe/Berlin" });
  expect([wire.openai?.location, wire.anthropic?.location, wire.gemini?.location]).toEqual(["applied", "applied", "not supported"]);

  const table = await runCli(["search", "best e-bike", "--country", "FR"], asUser);
  expect(table.code).toBe(EXIT.ok);
  expect(table.stdout).toContain('"best e-bike" · asked from France');
  expect(table.stdout).toContain("not localised");
});

test("a location the API would refuse is a usage error naming the flag, and nothing is searched", async () => {
  const server = getServer();
  const user = await createUser(server);
  const asUser = { server, env: { AISC_TOKEN: user.token } };
  const before = server.simulator.requests.length;
  const cases: Array<[string[], string]> = [
    [["--country", "Germany"], '--country: location.country must be a two-letter ISO 3166-1 country code, such as DE, not "Germany"'],
    [["--country", "XX"], '--country: location.country "XX" is not an ISO 3166-1 country code'],
    [["--city", "Berlin"], "--region, --city and --timezone need --country"],
    [["--country", "DE", "--timezone", "Berlin"], "--timezone: location.timezone must be an IANA time zone"],
  ];
  for (const [flags, message] of cases) {
    const run = await runCli(["search", "best e-bike", ...flags], asUser);
    expect({ flags, code: run.code, stderr: run.stderr }).toEqual({ flags, code: EXIT.usage, stderr: expect.stringContaining(message) });
  }
  expect(server.simulator.requests.length).toBe(before);
});

test("the MCP search tool takes a location: the search is asked from there and its summary says so", async () => {
  const server = getServer();
  const user = await createUser(server);
  const env = cliEnv({ server, env: { AISC_TOKEN: user.token } });
  const client = new Client({ name: "aisc-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" }));
  clients.push(client);

  const answer = await client.callTool({ name: "search", arguments: { query: "best e-bike", location: { country: "DE", city: "Berlin" } } });
  expect(answer.isError).toBeFalsy();
  const [summary, json] = (answer.content as Array<{ text: string }>).map((item) => item.text);
  expect(summary).toContain("asked from Germany, Berlin");
  expect(summary).toContain("Gemini (simulated):");
  expect(summary).toContain("not localised");
  expect(v.parse(SavedSearchResponse, JSON.parse(json ?? "")).options?.location).toEqual({ country: "DE", city: "Berlin" });
  expect(lastUserLocation(server.simulator.requests, "anthropic")).toEqual({ type: "approximate", country: "DE", city: "Berlin" });

  const refused = await client.callTool({ name: "search", arguments: { query: "best e-bike", location: { country: "XX" } } });
  expect(refused.isError).toBe(true);
  expect((refused.content as Array<{ text: string }>)[0]?.text).toBe('location.country "XX" is not an ISO 3166-1 country code');
});
