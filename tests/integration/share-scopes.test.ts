import { afterEach, describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { eq } from "drizzle-orm";
import { apiTokens } from "#db/schema.ts";
import type { CreatedShare, Share, ShareList } from "#src/contract/shares.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, useCliServer } from "#tests/support/cli.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * A share link shows anyone what it links to: an API token makes one only if it may read that
 * itself — `history` for a saved search, `compare` for a comparison, `trackers` for a tracker —
 * besides `shares`. A link made with a token is the account's: the answer says it keeps working
 * after the token is revoked, and it does.
 */

const tracker = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 1,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};
const OUTLIVES = "keeps working after the token is revoked";

describeEachDatabase("share links: the scope that reads what is shared", (getDb) => {
  test("a token needs history, compare or trackers to share a search, a comparison or a tracker; its links say they outlive it, and do", async () => {
    const { app, queue } = await createTestApp(getDb());
    try {
      const { agent: owner } = await createProAgent(app, getDb());
      const search = (await owner.api.search({ query: "best crm for startups" })).result;
      const saved = (await owner.request("POST", "/api/trackers", tracker)).json as Tracker;
      // Tokens are made with every scope; one with fewer is as an operator (or an older version) left it.
      const tokenWith = async (scopes: string[]) => {
        const created = (await owner.request("POST", "/api/tokens", { name: scopes.join(" ") })).json as CreatedToken;
        await getDb().db.update(apiTokens).set({ scopes }).where(eq(apiTokens.id, created.id));
        return created;
      };
      const script = createAgent(app);
      const share = (token: string, body: object) => script.request("POST", "/api/shares", body, { authorization: `Bearer ${token}` });
      const bodies = {
        search: { kind: "search", id: search.id },
        compare: { kind: "compare", id: search.id, variants: [] },
        tracker: { kind: "tracker", id: saved.id },
      };

      const sharesOnly = await tokenWith(["shares"]);
      for (const [kind, scope] of [
        ["search", "history"],
        ["compare", "compare"],
        ["tracker", "trackers"],
      ] as const) {
        const refused = await share(sharesOnly.token, bodies[kind]);
        expect({ kind, status: refused.status, code: (refused.json as { code: string }).code }).toEqual({ kind, status: 403, code: "SESSION_REQUIRED" });
        expect((refused.json as { message: string }).message).toContain(`lacks the "${scope}" scope`);
      }
      const withHistory = await tokenWith(["shares", "history"]);
      expect((await share(withHistory.token, bodies.tracker)).status).toBe(403);
      expect((await share(withHistory.token, bodies.compare)).status).toBe(403);
      // Nothing was made by a refusal.
      expect(((await owner.request("GET", "/api/shares")).json as ShareList).shares).toEqual([]);

      const searchLink = await share(withHistory.token, bodies.search);
      expect(searchLink.status).toBe(201);
      expect((searchLink.json as CreatedShare).note).toContain(OUTLIVES);
      const withTrackers = await tokenWith(["shares", "trackers"]);
      expect((await share(withTrackers.token, bodies.search)).status).toBe(403);
      const trackerLink = await share(withTrackers.token, bodies.tracker);
      expect(trackerLink.status).toBe(201);
      expect((trackerLink.json as CreatedShare).note).toContain(OUTLIVES);
      // Without shares, the read scopes alone make no link.
      expect((await share((await tokenWith(["history", "trackers"])).token, bodies.search)).status).toBe(403);
      // A session makes any link, and is told nothing about tokens.
      const bySession = await owner.request("POST", "/api/shares", bodies.tracker);
      expect(bySession.status).toBe(201);
      expect(bySession.json).not.toHaveProperty("note");

      // The tokens revoked: the links they made still open, as the answer said.
      for (const token of [withHistory, withTrackers]) expect((await owner.request("DELETE", `/api/tokens/${token.id}`)).status).toBe(200);
      const visitor = createAgent(app);
      for (const made of [searchLink, trackerLink])
        expect((await visitor.request("GET", `/api/shared/${(made.json as Share).url.split("/").at(-1)}`)).status).toBe(200);
    } finally {
      await queue.stop();
    }
  });
});

describe("share links through MCP: share_create needs the same scope", () => {
  const getServer = useCliServer();
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  test("share_create of a tracker with a token lacking trackers is refused saying so; with it, the link and that it outlives the token", async () => {
    const server = getServer();
    const user = await createUser(server, { pro: true });
    const saved = await user.browser.api.createTracker(tracker);
    const client = new Client({ name: "aisc-test", version: "1.0.0" });
    const env = cliEnv({ server, env: { AISC_TOKEN: user.token } });
    await client.connect(new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" }));
    clients.push(client);
    const texts = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>).map((item) => item.text).join("\n");

    await server.database.db
      .update(apiTokens)
      .set({ scopes: ["shares", "history"] })
      .where(eq(apiTokens.userId, user.id));
    const refused = await client.callTool({ name: "share_create", arguments: { kind: "tracker", id: saved.id } });
    expect(refused.isError).toBe(true);
    expect(texts(refused)).toContain('lacks the "trackers" scope');

    await server.database.db
      .update(apiTokens)
      .set({ scopes: ["shares", "trackers"] })
      .where(eq(apiTokens.userId, user.id));
    const made = await client.callTool({ name: "share_create", arguments: { kind: "tracker", id: saved.id } });
    expect(made.isError).toBeFalsy();
    expect(texts(made)).toContain("/shared/");
    expect(texts(made)).toContain(OUTLIVES);
  }, 30_000);
});
