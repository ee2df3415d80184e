import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v from "valibot";
import { Share, ShareList } from "#src/contract/shares.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { createAgent } from "#tests/support/agent.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, runCli, useCliServer, type CliServer } from "#tests/support/cli.ts";

/*
 * `aisc share <kind> <id>`, `aisc share list`, `aisc share revoke <id>` and the MCP tools
 * share_create, share_list and share_revoke, against the real server: the link printed opens
 * without any session, the list shows it, and a revoked one is gone.
 */

const getServer = useCliServer();
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** The link opened as a visitor with no session would (the page's data call). */
async function open(server: CliServer, url: string): Promise<number> {
  const token = url.split("/").at(-1);
  return (await createAgent(server.app).request("GET", `/api/shared/${token}`)).status;
}

describe("aisc share", () => {
  test("prints a link that opens without a session; list shows it with its last opening; revoke makes it 404", async () => {
    const server = getServer();
    const user = await createUser(server);
    const asUser = { server, env: { AISC_TOKEN: user.token, COLUMNS: "250" } };
    const { result } = await user.browser.api.search({ query: "best crm for a small agency" });

    const made = await runCli(["share", "search", result.id, "--expires-in-days", "30"], asUser);
    expect(made.code).toBe(EXIT.ok);
    expect(made.stderr).toContain("aisc share revoke");
    // Made with a token: said to outlive it.
    expect(made.stderr).toContain("keeps working after the token is revoked");
    const url = made.stdout.trim();
    expect(url).toMatch(new RegExp(`^${server.baseUrl}/shared/[A-Za-z0-9_-]{43}$`));
    expect(await open(server, url)).toBe(200);

    const listed = await runCli(["share", "list"], asUser);
    expect(listed.code).toBe(EXIT.ok);
    for (const header of ["ID", "Kind", "Title", "Link", "Created", "Expires", "Last opened"]) expect(listed.stdout).toContain(header);
    expect(listed.stdout).toContain(url);
    expect(listed.stdout).toContain("best crm for a small agency");
    expect(listed.stdout).not.toContain("never\n");
    const json = v.parse(ShareList, JSON.parse((await runCli(["share", "list", "--json"], asUser)).stdout));
    expect(json.shares).toHaveLength(1);
    const [share] = json.shares;
    expect(share).toMatchObject({ url, kind: "search", expired: false });
    expect(share!.lastOpenedAt).not.toBeNull();
    expect(listed.stdout).toContain(share!.expiresAt!.slice(0, 10));

    expect(await runCli(["share", "revoke", share!.id], asUser)).toMatchObject({ code: EXIT.ok, stdout: `Revoked ${share!.id}.\n` });
    expect(await open(server, url)).toBe(404);
    expect((await runCli(["share", "revoke", share!.id], asUser)).code).toBe(EXIT.notFound);
    expect((await runCli(["share", "list"], asUser)).stdout).toContain("No share links yet");
  });

  test("--json prints the link as the API answers it; bad kinds and flags exit with a usage error; a free account cannot share a tracker", async () => {
    const server = getServer();
    const user = await createUser(server);
    const asUser = { server, env: { AISC_TOKEN: user.token } };
    const { result } = await user.browser.api.search({ query: "best crm for startups" });
    const made = await runCli(["share", "search", result.id, "--json"], asUser);
    expect(made.code).toBe(EXIT.ok);
    expect(v.parse(Share, JSON.parse(made.stdout))).toMatchObject({ kind: "search", targetId: result.id, frozen: false });

    const page = await runCli(["share", "page", result.id], asUser);
    expect(page).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("kind must be one of search, compare, tracker") });
    const days = await runCli(["share", "search", result.id, "--expires-in-days", "0"], asUser);
    expect(days).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining("--expires-in-days") });
    const tracker = await runCli(["share", "tracker", result.id, "--frozen"], asUser);
    expect(tracker).toMatchObject({ code: EXIT.limit, stderr: expect.stringContaining("Pro") });
  });
});

describe("MCP share tools", () => {
  async function connect(server: CliServer, token: string): Promise<Client> {
    const client = new Client({ name: "aisc-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env: cliEnv({ server, env: { AISC_TOKEN: token } }), cwd: ROOT, stderr: "pipe" }),
    );
    clients.push(client);
    return client;
  }
  const texts = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((item) => item.text);

  test("share_create answers a link that opens without a session; share_list lists it; share_revoke makes it 404", async () => {
    const server = getServer();
    const user = await createUser(server);
    const { result } = await user.browser.api.search({ query: "best crm for startups" });
    const client = await connect(server, user.token);
    const { tools } = await client.listTools();
    const create = tools.find((tool) => tool.name === "share_create");
    expect(create?.inputSchema.required).toEqual(["kind", "id"]);
    expect(create?.inputSchema.properties?.kind).toMatchObject({ enum: ["search", "compare", "tracker"] });

    const made = texts(await client.callTool({ name: "share_create", arguments: { kind: "search", id: result.id } }));
    const share = v.parse(Share, JSON.parse(made[1]!));
    expect(made[0]).toContain(share.url);
    expect(await open(server, share.url)).toBe(200);

    const listed = texts(await client.callTool({ name: "share_list", arguments: {} }));
    expect(listed[0]).toContain(`${share.id} · search · best crm for startups · ${share.url}`);
    expect(v.parse(ShareList, JSON.parse(listed[1]!)).shares[0]!.lastOpenedAt).not.toBeNull();

    expect(texts(await client.callTool({ name: "share_revoke", arguments: { id: share.id } }))[0]).toBe(`Revoked ${share.id}.`);
    expect(await open(server, share.url)).toBe(404);
    expect(texts(await client.callTool({ name: "share_list", arguments: {} }))[0]).toBe("No share links.");
  });
});
