import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as v from "valibot";
import { CreatedShare, ShareList } from "#src/contract/shares.ts";
import { Tracker, TrackerList } from "#src/contract/trackers.ts";
import { AcceptedInvitation, AuditPage, CreatedInvitation, MemberList, Workspace, WorkspaceList } from "#src/contract/workspaces.ts";
import { EXIT } from "#cli/lib/exit.ts";
import { CLI_ENTRY, cliEnv, createUser, ROOT, runCli, tempConfigHome, useCliServer, type CliRun, type CliServer } from "#tests/support/cli.ts";
import { databaseKinds } from "#tests/support/databases.ts";

/*
 * `aisc workspace …`, `--workspace` on the track and share commands, and the MCP tools' `workspace`,
 * against the real server on both databases: what each prints, what it changed, and its exit code.
 */

const TRACK = ["--query", "best crm for a small agency", "--brand", "HubSpot", "--weekly", "mon@09:00", "--timezone", "UTC", "--iterations", "1"];

/** A user and the CLI as them, with a config folder of their own (where `workspace use` remembers). */
async function person(server: CliServer, pro = false) {
  const user = await createUser(server, { pro });
  const configHome = tempConfigHome();
  const cli = (args: string[]) => runCli(args, { server, configHome, env: { AISC_TOKEN: user.token, COLUMNS: "200" } });
  return { user, configHome, cli };
}

/** A command's --json answer through its schema; a failed command's stderr in the failure. */
function json<S extends v.GenericSchema>(schema: S, run: CliRun): v.InferOutput<S> {
  if (run.code !== EXIT.ok) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return v.parse(schema, JSON.parse(run.stdout));
}

for (const kind of databaseKinds) {
  describe(`aisc workspace (${kind})`, () => {
    const getServer = useCliServer({ database: kind });
    const clients: Client[] = [];
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close()));
    });

    test("list, create, use (remembered, any letter case), --workspace over it, --personal back; track create and list in it", async () => {
      const server = getServer();
      const owner = await person(server, true);

      const first = json(WorkspaceList, await owner.cli(["workspace", "list", "--json"]));
      expect(first.workspaces).toEqual([expect.objectContaining({ name: "Personal", personal: true, role: "owner", members: 1 })]);
      const personal = first.workspaces[0] as Workspace;

      const made = await owner.cli(["workspace", "create", "Acme Clients"]);
      expect(made).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/^Created Acme Clients \([0-9a-f-]{36}\)\.\n$/) });
      const acme = (await owner.user.browser.api.listWorkspaces()).workspaces.find((w) => w.name === "Acme Clients") as Workspace;

      const table = await owner.cli(["workspace", "list"]);
      expect(table.code).toBe(EXIT.ok);
      expect(table.stdout).toContain("owner, personal");
      expect(table.stderr).toContain("No workspace chosen");

      const used = await owner.cli(["workspace", "use", "acme CLIENTS"]);
      expect(used).toMatchObject({ code: EXIT.ok, stdout: `Using Acme Clients (${acme.id}), where you are owner.\n` });
      const config = JSON.parse(readFileSync(join(owner.configHome, "aisc", "config.json"), "utf8"));
      expect(config.workspace).toEqual({ server: server.baseUrl, id: acme.id, name: "Acme Clients" });
      expect((await owner.cli(["workspace", "list"])).stdout).toMatch(new RegExp(`│ \\* +│ ${acme.id}`));
      expect((await owner.cli(["whoami"])).stdout).toContain(`workspace: Acme Clients (${acme.id})`);
      expect((await owner.cli(["status"])).stdout).toContain(`Workspace: Acme Clients (${acme.id})`);

      // Made in the remembered workspace; --workspace (by id here) overrides it for one command.
      const inAcme = json(Tracker, await owner.cli(["track", "create", "--name", "Acme CRM", ...TRACK, "--json"]));
      expect(inAcme.workspaceId).toBe(acme.id);
      const inPersonal = json(Tracker, await owner.cli(["track", "create", "--name", "Own CRM", ...TRACK, "--workspace", personal.id, "--json"]));
      expect(inPersonal.workspaceId).toBe(personal.id);

      expect(json(TrackerList, await owner.cli(["track", "list", "--json"])).trackers.map((t) => t.name)).toEqual(["Acme CRM"]);
      const listed = await owner.cli(["track", "list", "--workspace", "personal"]);
      expect(listed.stdout).toContain("Own CRM");
      expect(listed.stdout).not.toContain("Acme CRM");

      // A tracker's command names it by id: a --workspace given must be its own.
      const elsewhere = await owner.cli(["track", "show", inAcme.id, "--workspace", "Personal"]);
      expect(elsewhere).toMatchObject({ code: EXIT.notFound, stderr: `error: The tracker ${inAcme.id} is not in the workspace "Personal" (${personal.id})\n` });
      expect((await owner.cli(["track", "pause", inAcme.id, "--workspace", acme.id])).code).toBe(EXIT.ok);

      // Back to none chosen: every workspace's trackers, each saying where it is.
      expect((await owner.cli(["workspace", "use", "--personal"])).code).toBe(EXIT.ok);
      expect(JSON.parse(readFileSync(join(owner.configHome, "aisc", "config.json"), "utf8")).workspace).toBeUndefined();
      const all = await owner.cli(["track", "list"]);
      expect(all.stdout).toContain("in Acme Clients");
      expect(all.stdout).toContain("in Personal");
      expect((await owner.cli(["whoami"])).stdout).toContain("workspace: none chosen");
    });

    test("a name given twice, a name of nobody's, an empty --workspace and a misused `use` are refused clearly", async () => {
      const server = getServer();
      const owner = await person(server, true);
      await owner.user.browser.api.createWorkspace("Clients");
      await owner.user.browser.api.createWorkspace("clients");

      const ambiguous = await owner.cli(["track", "list", "--workspace", "CLIENTS"]);
      expect(ambiguous.code).toBe(EXIT.usage);
      expect(ambiguous.stderr).toMatch(/^error: 2 of your workspaces are named "CLIENTS": give its id instead \([0-9a-f-]{36} owner, [0-9a-f-]{36} owner\)\n$/);
      expect(await owner.cli(["workspace", "use", "Nobody's"])).toMatchObject({
        code: EXIT.notFound,
        stderr: `error: No workspace "Nobody's" among yours (aisc workspace list)\n`,
      });
      expect(await owner.cli(["share", "list", "--workspace", " "])).toMatchObject({
        code: EXIT.usage,
        stderr: "error: --workspace needs a workspace's id or name (aisc workspace list)\n",
      });
      expect((await owner.cli(["workspace", "use"])).stderr).toBe("error: give a workspace's id or name, or --personal (not both)\n");
      expect((await owner.cli(["workspace", "create", " "])).stderr).toBe("error: A workspace name is required\n");

      // A remembered workspace that is gone says how to choose again.
      const gone = await owner.user.browser.api.createWorkspace("Short-lived");
      expect((await owner.cli(["workspace", "use", gone.id])).code).toBe(EXIT.ok);
      await owner.user.browser.api.deleteWorkspace(gone.id);
      const stale = await owner.cli(["track", "list"]);
      expect(stale.code).toBe(EXIT.notFound);
      expect(stale.stderr).toContain(`"Short-lived" (${gone.id}), is no longer one of yours: aisc workspace use <id|name>, or --personal`);
    });

    test("invite prints the link and its expiry; accept joins; members lists them; a viewer's token is refused with the role it lacks; audit as a table, JSON and CSV", async () => {
      const server = getServer();
      const owner = await person(server, true);
      const viewer = await person(server);
      const acme = await owner.user.browser.api.createWorkspace("Acme");
      await owner.cli(["workspace", "use", "Acme"]);

      const badRole = await owner.cli(["workspace", "invite", "--role", "boss"]);
      expect(badRole).toMatchObject({ code: EXIT.usage, stderr: "error: --role: role must be one of viewer, editor, admin, owner\n" });
      expect((await owner.cli(["workspace", "invite", "--role", "viewer", "--email", "not an address"])).stderr).toBe(
        "error: --email: email must be an e-mail address\n",
      );

      const invited = await owner.cli(["workspace", "invite", "--role", "viewer"]);
      expect(invited.code).toBe(EXIT.ok);
      const url = invited.stdout.trim();
      expect(url).toMatch(new RegExp(`^${server.baseUrl}/invitations/[A-Za-z0-9_-]{43}$`));
      expect(invited.stderr).toMatch(/An invitation to Acme as viewer: it works once, until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
      const asJson = json(CreatedInvitation, await owner.cli(["workspace", "invite", "--role", "editor", "--json"]));
      expect(Date.parse(asJson.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);

      expect(await viewer.cli(["workspace", "accept", "not a link"])).toMatchObject({
        code: EXIT.usage,
        stderr: "error: give the invitation's link (…/invitations/…) or its token\n",
      });
      const accepted = await viewer.cli(["workspace", "accept", url]);
      expect(accepted).toMatchObject({ code: EXIT.ok, stdout: `Joined Acme (${acme.id}) as viewer.\n` });
      const again = await viewer.cli(["workspace", "accept", url, "--json"]);
      expect(again.code).toBe(EXIT.usage);
      expect(again.stderr).toContain("used");
      expect(json(AcceptedInvitation, await viewer.cli(["workspace", "accept", asJson.url.split("/").at(-1) ?? "", "--json"]))).toEqual({
        workspaceId: acme.id,
        role: "editor",
        joined: false,
      });
      await owner.user.browser.api.changeMemberRole(acme.id, viewer.user.id, "viewer");

      const members = json(MemberList, await owner.cli(["workspace", "members", "--json"]));
      expect(members.members.map((m) => [m.username, m.role])).toEqual([
        [owner.user.username, "owner"],
        [viewer.user.username, "viewer"],
      ]);
      const memberTable = await viewer.cli(["workspace", "members", "--workspace", "acme"]);
      expect(memberTable.stdout).toStartWith(`Acme (${acme.id}):\n`);
      expect(memberTable.stdout).toContain(viewer.user.username);

      // The owner's tracker there: the viewer (not Pro) reads it through the workspace's Pro, and cannot make one.
      const tracker = await owner.user.browser.api.createTracker({
        name: "Acme watch",
        queries: ["best crm"],
        brand: { name: "HubSpot" },
        iterations: 1,
        schedule: { cron: "0 9 * * 1", timezone: "UTC" },
        workspaceId: acme.id,
      });
      expect(json(TrackerList, await viewer.cli(["track", "list", "--workspace", "Acme", "--json"])).trackers.map((t) => t.id)).toEqual([tracker.id]);
      const refused = await viewer.cli(["track", "create", "--name", "Mine", ...TRACK, "--workspace", "Acme"]);
      expect(refused).toMatchObject({ code: EXIT.limit, stdout: "", stderr: 'error: This needs the editor role or higher. You are a viewer in "Acme".\n' });
      const run = await viewer.cli(["track", "run", tracker.id]);
      expect(run).toMatchObject({ code: EXIT.limit, stderr: "error: This needs the editor role or higher.\n" });
      expect(await viewer.cli(["workspace", "invite", "--role", "viewer", "--workspace", "Acme"])).toMatchObject({
        code: EXIT.limit,
        stderr: 'error: This needs the admin role or higher. You are a viewer in "Acme".\n',
      });
      expect((await viewer.cli(["workspace", "audit", "--workspace", "Acme"])).stderr).toBe(
        'error: This needs the admin role or higher. You are a viewer in "Acme".\n',
      );
      // A share link in the workspace: the viewer lists it, the editor role is needed to make one.
      const shared = json(CreatedShare, await owner.cli(["share", "tracker", tracker.id, "--json"]));
      expect(json(ShareList, await viewer.cli(["share", "list", "--workspace", "Acme", "--json"])).shares.map((s) => s.id)).toEqual([shared.id]);
      expect(json(ShareList, await viewer.cli(["share", "list", "--json"])).shares).toEqual([]);
      expect(await owner.cli(["share", "revoke", shared.id, "--workspace", "Personal"])).toMatchObject({
        code: EXIT.notFound,
        stderr: expect.stringContaining(`No share link ${shared.id} in the workspace "Personal"`),
      });

      const audit = await owner.cli(["workspace", "audit"]);
      expect(audit.code).toBe(EXIT.ok);
      for (const action of ["workspace.created", "member.invited", "member.joined", "member.role-changed", "tracker.created", "link.shared"])
        expect(audit.stdout).toContain(action);
      expect(audit.stdout).toContain(`token ${owner.user.token.slice(0, 8)}`);
      const page = json(AuditPage, await owner.cli(["workspace", "audit", "--limit", "2", "--json"]));
      expect(page.entries.map((e) => e.action)).toEqual(["link.shared", "tracker.created"]);
      expect(page.nextBefore).toBeNumber();
      const older = json(AuditPage, await owner.cli(["workspace", "audit", "--limit", "1", "--before", String(page.nextBefore), "--json"]));
      expect(older.entries.map((e) => e.action)).toEqual(["member.role-changed"]);
      expect(await owner.cli(["workspace", "audit", "--limit", "0"])).toMatchObject({
        code: EXIT.usage,
        stderr: "error: --limit: limit must be a whole number from 1 to 200\n",
      });
      const csv = await owner.cli(["workspace", "audit", "--csv"]);
      expect(csv.code).toBe(EXIT.ok);
      expect(csv.stdout).toContain("At,Actor,Actor id,Via,Token,Action,Target,Details");
      expect(csv.stdout).toContain("link.shared");
      expect((await owner.cli(["workspace", "audit", "--csv", "--json"])).stderr).toBe("error: choose --json or --csv, not both\n");
    });

    test("MCP: list_workspaces, workspace_members and workspace_audit; list_trackers, share_list and share_create take a workspace; a viewer's share refused with the role", async () => {
      const server = getServer();
      const owner = await person(server, true);
      const viewer = await person(server);
      const acme = await owner.user.browser.api.createWorkspace("Acme");
      const invitation = await owner.user.browser.api.createInvitation(acme.id, { role: "viewer" });
      await viewer.user.browser.api.acceptInvitation(invitation.url.split("/").at(-1) ?? "");
      const tracker = await owner.user.browser.api.createTracker({
        name: "Acme watch",
        queries: ["best crm"],
        brand: { name: "HubSpot" },
        iterations: 1,
        schedule: { cron: "0 9 * * 1", timezone: "UTC" },
        workspaceId: acme.id,
      });
      const { result } = await owner.user.browser.api.search({ query: "best crm" });

      const connect = async (token: string) => {
        const client = new Client({ name: "aisc-test", version: "1.0.0" });
        const env = cliEnv({ server, env: { AISC_TOKEN: token } });
        await client.connect(new StdioClientTransport({ command: "bun", args: [CLI_ENTRY, "mcp"], env, cwd: ROOT, stderr: "pipe" }));
        clients.push(client);
        return client;
      };
      const texts = (answer: Record<string, unknown>) => (answer.content as Array<{ text: string }>).map((item) => item.text);
      const asOwner = await connect(owner.user.token);
      const asViewer = await connect(viewer.user.token);

      const { tools } = await asOwner.listTools();
      for (const name of ["list_trackers", "tracker_latest_run", "tracker_trend", "tracker_alerts", "share_create", "share_list", "share_revoke"])
        expect(tools.find((tool) => tool.name === name)?.inputSchema.properties?.workspace).toMatchObject({ type: "string", minLength: 1 });

      const [workspaces] = texts(await asViewer.callTool({ name: "list_workspaces", arguments: {} }));
      expect(workspaces).toContain(`- ${acme.id} · Acme · viewer · 2 members`);
      expect(workspaces).toContain("viewer");
      const [members] = texts(await asViewer.callTool({ name: "workspace_members", arguments: { workspace: "ACME" } }));
      expect(members).toContain(`Acme has 2 members:`);
      expect(members).toContain(`${viewer.user.username} · viewer`);

      const [, listJson] = texts(await asViewer.callTool({ name: "list_trackers", arguments: { workspace: "acme" } }));
      expect(v.parse(TrackerList, JSON.parse(listJson ?? "")).trackers.map((t) => t.id)).toEqual([tracker.id]);
      const [, ownJson] = texts(await asOwner.callTool({ name: "list_trackers", arguments: { workspace: "Personal" } }));
      expect(v.parse(TrackerList, JSON.parse(ownJson ?? "")).trackers).toEqual([]);
      const wrong = await asOwner.callTool({ name: "tracker_alerts", arguments: { id: tracker.id, workspace: "Personal" } });
      expect(wrong).toMatchObject({
        isError: true,
        content: [{ text: expect.stringContaining(`The tracker ${tracker.id} is not in the workspace "Personal"`) }],
      });
      expect((await asOwner.callTool({ name: "tracker_alerts", arguments: { id: tracker.id, workspace: "Acme" } })).isError).toBeFalsy();

      const made = await asOwner.callTool({ name: "share_create", arguments: { kind: "search", id: result.id, workspace: "Acme" } });
      expect(made.isError).toBeFalsy();
      const share = v.parse(CreatedShare, JSON.parse(texts(made)[1] ?? ""));
      expect(share.workspaceId).toBe(acme.id);
      const [, sharesJson] = texts(await asViewer.callTool({ name: "share_list", arguments: { workspace: acme.id } }));
      expect(v.parse(ShareList, JSON.parse(sharesJson ?? "")).shares.map((s) => s.id)).toEqual([share.id]);
      const byViewer = await asViewer.callTool({ name: "share_create", arguments: { kind: "tracker", id: tracker.id, workspace: "Acme" } });
      expect(byViewer).toMatchObject({ isError: true, content: [{ text: "This needs the editor role or higher." }] });

      const [auditText, auditJson] = texts(await asOwner.callTool({ name: "workspace_audit", arguments: { workspace: "Acme", limit: 2 } }));
      expect(auditText).toStartWith("Acme's audit log, newest first:\n");
      expect(v.parse(AuditPage, JSON.parse(auditJson ?? "")).entries.map((e) => e.action)).toEqual(["link.shared", "tracker.created"]);
      const viewerAudit = await asViewer.callTool({ name: "workspace_audit", arguments: { workspace: "Acme" } });
      expect(viewerAudit).toMatchObject({ isError: true, content: [{ text: 'This needs the admin role or higher. You are a viewer in "Acme".' }] });

      const elsewhere = await asOwner.callTool({ name: "share_revoke", arguments: { id: share.id, workspace: "Personal" } });
      expect(elsewhere).toMatchObject({ isError: true, content: [{ text: expect.stringContaining(`No share link ${share.id} in the workspace "Personal"`) }] });
      expect((await asOwner.callTool({ name: "share_revoke", arguments: { id: share.id, workspace: "acme" } })).isError).toBeFalsy();
      expect(v.parse(ShareList, JSON.parse(texts(await asViewer.callTool({ name: "share_list", arguments: { workspace: "Acme" } }))[1] ?? "")).shares).toEqual(
        [],
      );
    });
  });
}
