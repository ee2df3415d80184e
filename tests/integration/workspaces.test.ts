import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { subscriptions, trackers, workspaceInvitations } from "#db/schema.ts";
import type { CreatedToken } from "#src/contract/tokens.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import {
  AUDIT_ACTIONS,
  roleRequired,
  type AcceptedInvitation,
  type AuditPage,
  type CreatedInvitation,
  type MemberList,
  type Workspace,
  type WorkspaceList,
  type WorkspaceRole,
} from "#src/contract/workspaces.ts";
import { TRACKER_NOT_FOUND } from "#src/server/services/trackers/index.ts";
import { WORKSPACE_NOT_FOUND } from "#src/server/services/workspaces/access.ts";
import { createProAgent, signUp } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { linksIn, startSmtpSink } from "#tests/support/smtp.ts";
import { waitFor } from "#tests/support/wait.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { crmTracker, runToEnd } from "#tests/support/trackers.ts";

type Agent = Awaited<ReturnType<typeof createProAgent>>["agent"];
type Person = { agent: Agent; id: string; email: string };
const ROLES = ["viewer", "editor", "admin", "owner"] as const satisfies readonly WorkspaceRole[];

/**
 * The role each workspace-scoped call needs (ADR 071). The walk below checks that the API reference
 * documents exactly these under /api/workspaces/{id} and /api/trackers/{id}, so a new such route
 * cannot be added without saying here what it needs.
 */
const NEEDS: Record<string, { role: WorkspaceRole; body?: unknown; destroys?: boolean }> = {
  "GET /api/workspaces/{id}": { role: "viewer" },
  "PATCH /api/workspaces/{id}": { role: "admin", body: { name: "Agency" } },
  "DELETE /api/workspaces/{id}": { role: "owner", destroys: true },
  "GET /api/workspaces/{id}/members": { role: "viewer" },
  "PATCH /api/workspaces/{id}/members/{userId}": { role: "admin", body: { role: "viewer" } },
  "DELETE /api/workspaces/{id}/members/{userId}": { role: "admin", destroys: true },
  "POST /api/workspaces/{id}/invitations": { role: "admin", body: { role: "viewer" } },
  "GET /api/workspaces/{id}/invitations": { role: "admin" },
  "DELETE /api/workspaces/{id}/invitations/{invitationId}": { role: "admin", destroys: true },
  "GET /api/workspaces/{id}/audit": { role: "admin" },
  "GET /api/workspaces/{id}/audit.csv": { role: "admin" },
  "GET /api/trackers/{id}": { role: "viewer" },
  "PATCH /api/trackers/{id}": { role: "editor", body: { name: "CRM watch" } },
  "DELETE /api/trackers/{id}": { role: "editor", destroys: true },
  "POST /api/trackers/{id}/runs": { role: "editor" },
  "GET /api/trackers/{id}/runs": { role: "viewer" },
  "GET /api/trackers/{id}/runs/{runId}": { role: "viewer" },
  "POST /api/trackers/{id}/webhook/test": { role: "editor" },
  "GET /api/trackers/{id}/trend": { role: "viewer" },
  "GET /api/trackers/{id}/summary": { role: "viewer" },
  "GET /api/trackers/{id}/sources": { role: "viewer" },
  "GET /api/trackers/{id}/alerts": { role: "viewer" },
  "GET /api/trackers/{id}/changes": { role: "viewer" },
  "GET /api/trackers/{id}/report": { role: "viewer" },
  "PUT /api/trackers/{id}/report": { role: "editor", body: { cadence: "off", recipients: [] } },
  "POST /api/trackers/{id}/report/link": { role: "editor" },
  "POST /api/trackers/{id}/report/test": { role: "editor" },
};

describeEachDatabase("workspaces", (getDb) => {
  async function setup(env: Record<string, string> = {}) {
    const { app, queue } = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "1", ...env } });
    const person = async (): Promise<Person> => {
      const { agent, account } = await createProAgent(app, getDb());
      return { agent, id: account.id, email: account.email };
    };
    return { app, queue, person };
  }

  /** Owner's invitation for `role`, accepted by `who`. */
  async function join(owner: Person, workspaceId: string, who: Person, role: WorkspaceRole): Promise<void> {
    const invited = await owner.agent.request("POST", `/api/workspaces/${workspaceId}/invitations`, { role });
    expect(invited.status).toBe(201);
    const token = new URL((invited.json as CreatedInvitation).url).pathname.split("/").at(-1);
    const accepted = await who.agent.request("POST", `/api/invitations/${token}/accept`);
    expect(accepted).toMatchObject({ status: 200, json: { workspaceId, role, joined: true } });
  }

  /** A workspace with one member of each role, a tracker, and a pending invitation. */
  async function team(person: () => Promise<Person>) {
    const [owner, admin, editor, viewer, outsider, extra] = await Promise.all([person(), person(), person(), person(), person(), person()]);
    const made = await owner.agent.request("POST", "/api/workspaces", { name: "Acme team" });
    expect(made.status).toBe(201);
    const workspace = made.json as Workspace;
    for (const [who, role] of [
      [admin, "admin"],
      [editor, "editor"],
      [viewer, "viewer"],
      [extra, "viewer"],
    ] as const)
      await join(owner, workspace.id, who, role);
    const created = await editor.agent.request("POST", "/api/trackers", { ...crmTracker, workspaceId: workspace.id });
    expect(created.status).toBe(201);
    const pending = (await owner.agent.request("POST", `/api/workspaces/${workspace.id}/invitations`, { role: "editor" })).json as CreatedInvitation;
    return { owner, admin, editor, viewer, outsider, extra, workspace, tracker: created.json as Tracker, invitationId: pending.id };
  }

  test("every workspace-scoped route × role: a non-member gets 404, a member below the role 403 ROLE_REQUIRED naming it, the rest are let through", async () => {
    const { app, queue, person } = await setup();
    try {
      const probe = await person();
      const doc = (await probe.agent.request("GET", "/api/docs/json")).json as { paths: Record<string, Record<string, unknown>> };
      const scoped = Object.entries(doc.paths)
        .filter(([path]) => path.startsWith("/api/workspaces/{id}") || path.startsWith("/api/trackers/{id}"))
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
      expect(scoped.sort()).toEqual(Object.keys(NEEDS).sort());

      let fixture = await team(person);
      for (const [operation, { role: needed, body, destroys }] of Object.entries(NEEDS)) {
        const [method, template] = operation.split(" ") as [string, string];
        for (const caller of ["outsider", ...ROLES] as const) {
          const path = template
            .replace("{id}", template.startsWith("/api/trackers") ? fixture.tracker.id : fixture.workspace.id)
            .replace("{userId}", fixture.extra.id)
            .replace("{invitationId}", fixture.invitationId)
            .replace("{runId}", crypto.randomUUID());
          const who = caller === "outsider" ? fixture.outsider : caller === "owner" ? fixture.owner : fixture[caller];
          const answer = await who.agent.request(method, path, body);
          const json = (answer.json ?? {}) as { code?: string; message?: string };
          const seen = { operation, caller, status: answer.status, code: json.code, message: json.message };
          const missing = template.startsWith("/api/trackers") ? TRACKER_NOT_FOUND : WORKSPACE_NOT_FOUND;
          if (caller === "outsider") expect(seen).toMatchObject({ status: 404, code: "NOT_FOUND", message: missing });
          else if (ROLES.indexOf(caller) < ROLES.indexOf(needed))
            expect(seen).toMatchObject({ status: 403, code: "ROLE_REQUIRED", message: roleRequired(needed) });
          else {
            expect(answer.status).toBeLessThan(500);
            expect({ ...seen, refused: answer.status === 403 || (answer.status === 404 && json.message === missing) }).toMatchObject({ refused: false });
            if (destroys && answer.status < 300) fixture = await team(person);
          }
        }
      }
    } finally {
      await queue.stop();
    }
  }, 240_000);

  test("a viewer reads the workspace's trackers but cannot create, run, edit, share or delete one; the list filters by workspace", async () => {
    const { queue, person } = await setup();
    try {
      const { viewer, editor, outsider, workspace, tracker } = await team(person);
      expect(tracker.workspaceId).toBe(workspace.id);
      // Without a filter: every workspace the caller is in; with one, that workspace's only.
      const mine = await viewer.agent.request("POST", "/api/trackers", { ...crmTracker, name: "Mine" });
      expect(mine.status).toBe(201);
      const all = (await viewer.agent.api.listTrackers()).trackers.map((t) => t.name).sort();
      expect(all).toEqual(["CRM visibility", "Mine"]);
      const filtered = await viewer.agent.request("GET", `/api/trackers?workspaceId=${workspace.id}`);
      expect((filtered.json as { trackers: Tracker[] }).trackers.map((t) => t.id)).toEqual([tracker.id]);
      expect((await outsider.agent.request("GET", `/api/trackers?workspaceId=${workspace.id}`)).status).toBe(404);
      expect((await outsider.agent.api.listTrackers()).trackers).toEqual([]);

      const refused = { status: 403, json: { code: "ROLE_REQUIRED", message: roleRequired("editor") } };
      expect(await viewer.agent.request("POST", "/api/trackers", { ...crmTracker, workspaceId: workspace.id })).toMatchObject(refused);
      expect(await viewer.agent.request("POST", `/api/trackers/${tracker.id}/runs`)).toMatchObject(refused);
      expect(await viewer.agent.request("PATCH", `/api/trackers/${tracker.id}`, { paused: true })).toMatchObject(refused);
      expect(await viewer.agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id })).toMatchObject(refused);
      expect(await viewer.agent.request("DELETE", `/api/trackers/${tracker.id}`)).toMatchObject(refused);
      expect((await viewer.agent.request("GET", `/api/trackers/${tracker.id}/trend`)).status).toBe(200);
      // Nothing ran: a viewer caused no spend.
      expect((await viewer.agent.api.listTrackerRuns(tracker.id)).runs).toEqual([]);

      // An editor shares; the link is the workspace's: a viewer lists it but cannot revoke it, the editor can.
      const shared = await editor.agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id });
      expect(shared.status).toBe(201);
      const share = shared.json as { id: string; workspaceId: string };
      expect(share.workspaceId).toBe(workspace.id);
      const listed = await viewer.agent.request("GET", `/api/shares?workspaceId=${workspace.id}`);
      expect((listed.json as { shares: Array<{ id: string }> }).shares.map((s) => s.id)).toEqual([share.id]);
      expect(await viewer.agent.request("DELETE", `/api/shares/${share.id}`)).toMatchObject(refused);
      expect((await outsider.agent.request("DELETE", `/api/shares/${share.id}`)).status).toBe(404);
      expect((await editor.agent.request("DELETE", `/api/shares/${share.id}`)).status).toBe(200);
      // Someone else's workspace as a target is a missing one.
      expect((await outsider.agent.request("POST", "/api/trackers", { ...crmTracker, workspaceId: workspace.id })).status).toBe(404);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a run's answers read by the team: a viewer opens a search the editor's tracker asked, with its tracker; an outsider finds nothing, and nobody but its maker renames it", async () => {
    const { queue, person } = await setup();
    try {
      const { viewer, editor, outsider, tracker } = await team(person);
      const run = await runToEnd(editor.agent.api, tracker.id);
      const searchId = run.queries[0]?.searchId;
      expect(searchId).toBeString();
      const opened = await viewer.agent.request("GET", `/api/search/${searchId}`);
      expect(opened.status).toBe(200);
      expect(opened.json).toMatchObject({ id: searchId, tracker: { id: tracker.id, runId: run.id } });
      expect((await outsider.agent.request("GET", `/api/search/${searchId}`)).status).toBe(404);
      // Reading is all: the search stays its maker's.
      expect((await viewer.agent.request("PATCH", `/api/search/${searchId}`, { title: "Mine now" })).status).toBe(404);
      expect((await viewer.agent.request("DELETE", `/api/search/${searchId}`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a tracker's link is its workspace's: it keeps reading after its maker leaves (whose trackers pass to the first owner), and goes with the tracker", async () => {
    const { app, queue, person } = await setup();
    try {
      const { editor, owner, workspace, tracker } = await team(person);
      const shared = await editor.agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id });
      const token = new URL((shared.json as { url: string }).url).pathname.split("/").at(-1);
      expect((await editor.agent.request("DELETE", `/api/workspaces/${workspace.id}/members/${editor.id}`)).status).toBe(200);
      expect((await editor.agent.request("GET", `/api/trackers/${tracker.id}`)).status).toBe(404);
      // Its runs are no longer paid as the editor's: the workspace's first owner took the tracker over.
      const [row] = await getDb().db.select({ userId: trackers.userId }).from(trackers).where(eq(trackers.id, tracker.id));
      expect(row?.userId).toBe(owner.id);
      const anyone = createAgent(app);
      expect(await anyone.request("GET", `/api/shared/${token}`)).toMatchObject({
        status: 200,
        json: { kind: "tracker", tracker: { name: "CRM visibility" } },
      });
      expect((await anyone.request("GET", `/api/shared/${token}/trend`)).status).toBe(200);
      expect(JSON.stringify((await anyone.request("GET", `/api/shared/${token}`)).json)).not.toContain(workspace.id);
      expect((await owner.agent.request("DELETE", `/api/trackers/${tracker.id}`)).status).toBe(200);
      expect((await anyone.request("GET", `/api/shared/${token}`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("a team's free members use its trackers while an owner is Pro (viewers are free); their own workspace still needs their own Pro", async () => {
    const { app, queue, person } = await setup();
    try {
      const owner = await person();
      const free = async (): Promise<Person> => {
        const agent = createAgent(app);
        const account = await signUp(agent, getDb());
        return { agent, id: account.id, email: account.email };
      };
      const [viewer, editor] = [await free(), await free()];
      const workspace = (await owner.agent.request("POST", "/api/workspaces", { name: "Team" })).json as Workspace;
      await join(owner, workspace.id, viewer, "viewer");
      await join(owner, workspace.id, editor, "editor");
      const tracker = (await owner.agent.request("POST", "/api/trackers", { ...crmTracker, workspaceId: workspace.id })).json as Tracker;

      expect((await viewer.agent.api.listTrackers()).trackers.map((t) => t.id)).toEqual([tracker.id]);
      expect((await viewer.agent.request("GET", `/api/trackers/${tracker.id}/trend`)).status).toBe(200);
      expect(await viewer.agent.request("POST", `/api/trackers/${tracker.id}/runs`)).toMatchObject({ status: 403, json: { code: "ROLE_REQUIRED" } });
      const made = await editor.agent.request("POST", "/api/trackers", { ...crmTracker, name: "By the editor", workspaceId: workspace.id });
      expect(made.status).toBe(201);
      expect((await editor.agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id })).status).toBe(201);
      // Their personal workspace has no Pro.
      expect(await editor.agent.request("POST", "/api/trackers", crmTracker)).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });
      // Once the team has no Pro owner, its trackers are Pro-only again.
      await getDb().db.delete(subscriptions).where(eq(subscriptions.userId, owner.id));
      expect(await viewer.agent.request("GET", "/api/trackers")).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });
      expect(await editor.agent.request("GET", `/api/trackers/${tracker.id}`)).toMatchObject({ status: 403, json: { code: "PRO_REQUIRED" } });
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("limits: the personal workspace keeps the account's tracker cap and Run-now count; another workspace has its own", async () => {
    const { queue, person } = await setup({ MAX_TRACKERS_PER_ACCOUNT: "2", TRACKER_MANUAL_RUNS_PER_DAY: "1" });
    try {
      const me = await person();
      const workspace = (await me.agent.request("POST", "/api/workspaces", { name: "Client" })).json as Workspace;
      const make = async (workspaceId?: string) => me.agent.request("POST", "/api/trackers", { ...crmTracker, ...(workspaceId ? { workspaceId } : {}) });
      const [a1, a2] = [(await make()).json as Tracker, (await make()).json as Tracker];
      expect(await make()).toMatchObject({ status: 409, json: { message: expect.stringContaining("You have 2 trackers, the most an account may have") } });
      const [b1, b2] = [(await make(workspace.id)).json as Tracker, (await make(workspace.id)).json as Tracker];
      expect(b1.workspaceId).toBe(workspace.id);
      expect(await make(workspace.id)).toMatchObject({ status: 409, json: { message: expect.stringContaining("This workspace has 2 trackers") } });

      const run = (tracker: Tracker) => me.agent.request("POST", `/api/trackers/${tracker.id}/runs`);
      expect((await run(a1)).status).toBe(202);
      expect((await run(a2)).status).toBe(429);
      expect((await run(b1)).status).toBe(202);
      expect((await run(b2)).status).toBe(429);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("the typed client (the web's and the CLI's) makes every workspace call and reads its answer", async () => {
    const { queue, person } = await setup();
    try {
      const [owner, other] = await Promise.all([person(), person()]);
      const api = owner.agent.api;
      const made = await api.createWorkspace("Studio");
      expect((await api.listWorkspaces()).workspaces.map((w) => [w.name, w.role, w.personal])).toEqual([
        ["Personal", "owner", true],
        ["Studio", "owner", false],
      ]);
      expect(await api.renameWorkspace(made.id, "Studio B")).toMatchObject({ name: "Studio B" });
      const invitation = await api.createInvitation(made.id, { role: "viewer" });
      expect((await api.listInvitations(made.id)).invitations.map((i) => i.id)).toEqual([invitation.id]);
      expect(await other.agent.api.acceptInvitation(new URL(invitation.url).pathname.split("/").at(-1)!)).toEqual({
        workspaceId: made.id,
        role: "viewer",
        joined: true,
      });
      expect(await api.changeMemberRole(made.id, other.id, "editor")).toMatchObject({ userId: other.id, role: "editor" });
      expect((await api.listMembers(made.id)).members.map((m) => m.role)).toEqual(["owner", "editor"]);
      expect((await api.getWorkspace(made.id)).members).toBe(2);
      const spare = await api.createInvitation(made.id, { role: "viewer" });
      expect(await api.revokeInvitation(made.id, spare.id)).toEqual({ success: true });
      expect(await other.agent.api.removeMember(made.id, other.id)).toEqual({ success: true });
      expect((await api.getWorkspaceAudit(made.id, { limit: 3 })).entries.map((e) => e.action)).toEqual([
        "member.left",
        "invitation.revoked",
        "member.invited",
      ]);
      expect(await api.deleteWorkspace(made.id)).toEqual({ success: true });
      expect((await api.listWorkspaces()).workspaces).toHaveLength(1);
    } finally {
      await queue.stop();
    }
  }, 60_000);

  test("invitations: single use, expiry, revocation, another e-mail, and a member accepting again keeps the higher role", async () => {
    const { app, queue, person } = await setup();
    try {
      const [owner, first, second, named] = await Promise.all([person(), person(), person(), person()]);
      const workspace = (await owner.agent.request("POST", "/api/workspaces", { name: "Clients" })).json as Workspace;
      const invite = async (body: object) => {
        const answer = await owner.agent.request("POST", `/api/workspaces/${workspace.id}/invitations`, body);
        expect(answer.status).toBe(201);
        const created = answer.json as CreatedInvitation;
        expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
        return { ...created, token: new URL(created.url).pathname.split("/").at(-1)! };
      };
      const accept = (who: Person, token: string) => who.agent.request("POST", `/api/invitations/${token}/accept`);

      // Only its hash is kept.
      const once = await invite({ role: "editor" });
      const [stored] = await getDb().db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, once.id));
      expect(JSON.stringify(stored)).not.toContain(once.token);
      expect(await accept(first, once.token)).toMatchObject({ status: 200, json: { workspaceId: workspace.id, role: "editor", joined: true } });
      expect(await accept(second, once.token)).toMatchObject({ status: 409, json: { code: "CONFLICT", message: expect.stringContaining("used already") } });

      const expiring = await invite({ role: "viewer" });
      await getDb()
        .db.update(workspaceInvitations)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(workspaceInvitations.id, expiring.id));
      expect(await accept(second, expiring.token)).toMatchObject({ status: 409, json: { code: "CONFLICT", message: expect.stringContaining("expired") } });

      const revoked = await invite({ role: "viewer" });
      const pending = (await owner.agent.request("GET", `/api/workspaces/${workspace.id}/invitations`)).json as { invitations: Array<{ id: string }> };
      expect(pending.invitations.map((i) => i.id)).toEqual([revoked.id]);
      expect((await owner.agent.request("DELETE", `/api/workspaces/${workspace.id}/invitations/${revoked.id}`)).status).toBe(200);
      expect((await owner.agent.request("DELETE", `/api/workspaces/${workspace.id}/invitations/${revoked.id}`)).status).toBe(404);
      expect(await accept(second, revoked.token)).toMatchObject({ status: 409, json: { code: "CONFLICT", message: expect.stringContaining("revoked") } });

      const forNamed = await invite({ role: "viewer", email: named.email.toUpperCase() });
      expect(forNamed.emailed).toBe(false);
      expect(await accept(second, forNamed.token)).toMatchObject({ status: 403, json: { code: "WRONG_ACCOUNT" } });
      expect(await accept(named, forNamed.token)).toMatchObject({ status: 200, json: { role: "viewer", joined: true } });

      expect(await accept(second, "not-a-token")).toMatchObject({ status: 404, json: { code: "NOT_FOUND" } });

      // Already an editor: a viewer's invitation keeps the editor role; an admin's raises it.
      const lower = await invite({ role: "viewer" });
      // Accepting needs an account.
      expect((await createAgent(app).request("POST", `/api/invitations/${lower.token}/accept`)).status).toBe(401);
      expect((await accept(first, lower.token)).json).toEqual({ workspaceId: workspace.id, role: "editor", joined: false } satisfies AcceptedInvitation);
      const higher = await invite({ role: "admin" });
      expect((await accept(first, higher.token)).json).toEqual({ workspaceId: workspace.id, role: "admin", joined: false } satisfies AcceptedInvitation);

      // An admin cannot invite an owner.
      expect(await first.agent.request("POST", `/api/workspaces/${workspace.id}/invitations`, { role: "owner" })).toMatchObject({
        status: 403,
        json: { code: "ROLE_REQUIRED", message: roleRequired("owner") },
      });
      expect((await owner.agent.request("POST", `/api/workspaces/${workspace.id}/invitations`, { role: "boss" })).status).toBe(400);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("the last owner cannot leave or be demoted; members leave; only an owner makes owners; a personal workspace stays", async () => {
    const { queue, person } = await setup();
    try {
      const [owner, admin, viewer] = await Promise.all([person(), person(), person()]);
      const workspace = (await owner.agent.request("POST", "/api/workspaces", { name: "Shop" })).json as Workspace;
      expect(workspace).toMatchObject({ name: "Shop", personal: false, role: "owner", members: 1 });
      await join(owner, workspace.id, admin, "admin");
      await join(owner, workspace.id, viewer, "viewer");
      const base = `/api/workspaces/${workspace.id}/members`;
      const lastOwner = { status: 409, json: { code: "CONFLICT", message: expect.stringContaining("at least one owner") } };

      expect(await owner.agent.request("DELETE", `${base}/${owner.id}`)).toMatchObject(lastOwner);
      expect(await owner.agent.request("PATCH", `${base}/${owner.id}`, { role: "admin" })).toMatchObject(lastOwner);
      expect(await admin.agent.request("PATCH", `${base}/${viewer.id}`, { role: "owner" })).toMatchObject({
        status: 403,
        json: { message: roleRequired("owner") },
      });
      expect(await admin.agent.request("DELETE", `${base}/${owner.id}`)).toMatchObject({ status: 403, json: { message: roleRequired("owner") } });
      expect(await viewer.agent.request("DELETE", `${base}/${admin.id}`)).toMatchObject({ status: 403, json: { message: roleRequired("admin") } });
      expect((await admin.agent.request("PATCH", `${base}/${crypto.randomUUID()}`, { role: "viewer" })).status).toBe(404);

      // A viewer leaves; then they are a stranger to it.
      expect((await viewer.agent.request("DELETE", `${base}/${viewer.id}`)).status).toBe(200);
      expect((await viewer.agent.request("GET", `/api/workspaces/${workspace.id}`)).status).toBe(404);

      // With a second owner, the first may go.
      expect(await owner.agent.request("PATCH", `${base}/${admin.id}`, { role: "owner" })).toMatchObject({ status: 200, json: { role: "owner" } });
      expect((await owner.agent.request("DELETE", `${base}/${owner.id}`)).status).toBe(200);
      expect(((await admin.agent.request("GET", base)).json as MemberList).members.map((m) => [m.userId, m.role])).toEqual([[admin.id, "owner"]]);

      // The personal workspace: listed first, cannot be deleted, its owner cannot leave.
      const list = (await owner.agent.request("GET", "/api/workspaces")).json as WorkspaceList;
      const personal = list.workspaces[0]!;
      expect(personal).toMatchObject({ personal: true, role: "owner" });
      expect(await owner.agent.request("DELETE", `/api/workspaces/${personal.id}`)).toMatchObject({
        status: 409,
        json: { code: "CONFLICT", message: expect.stringContaining("personal workspace cannot be deleted") },
      });
      expect((await owner.agent.request("DELETE", `/api/workspaces/${personal.id}/members/${owner.id}`)).status).toBe(409);

      // An owner deletes a workspace with its trackers.
      const created = await admin.agent.request("POST", "/api/trackers", { ...crmTracker, workspaceId: workspace.id });
      expect(created.status).toBe(201);
      expect((await admin.agent.request("DELETE", `/api/workspaces/${workspace.id}`)).status).toBe(200);
      expect((await admin.agent.request("GET", `/api/trackers/${(created.json as Tracker).id}`)).status).toBe(404);
      expect((await admin.agent.request("GET", `/api/workspaces/${workspace.id}`)).status).toBe(404);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("an API token acts with its user's role, and the audit log says who did what, how, newest first, paged and as CSV", async () => {
    const { queue, person } = await setup({ WEBHOOK_ALLOW_PRIVATE: "1" });
    try {
      const fixture = await team(person);
      const { owner, editor, viewer, workspace, tracker, invitationId } = fixture;
      const tokenOf = async (who: Person) => ((await who.agent.request("POST", "/api/tokens", { name: "script" })).json as CreatedToken).token;
      const [editorToken, viewerToken] = await Promise.all([tokenOf(editor), tokenOf(viewer)]);
      const withToken = (token: string) => (method: string, path: string, body?: unknown) =>
        owner.agent.request(method, path, body, { authorization: `Bearer ${token}` });

      expect((await withToken(viewerToken)("GET", `/api/trackers/${tracker.id}`)).status).toBe(200);
      expect(await withToken(viewerToken)("POST", `/api/trackers/${tracker.id}/runs`)).toMatchObject({ status: 403, json: { code: "ROLE_REQUIRED" } });
      expect((await withToken(viewerToken)("GET", `/api/workspaces/${workspace.id}/audit`)).status).toBe(403);
      expect((await withToken(editorToken)("PATCH", `/api/trackers/${tracker.id}`, { name: "CRM watch", paused: true })).status).toBe(200);
      expect((await withToken(editorToken)("GET", "/api/workspaces")).json).toMatchObject({
        workspaces: [{ personal: true }, { id: workspace.id, role: "editor" }],
      });

      const page = (await owner.agent.request("GET", `/api/workspaces/${workspace.id}/audit`)).json as AuditPage;
      const actions = page.entries.map((entry) => entry.action);
      expect(actions.slice(0, 3).sort()).toEqual(["tracker.edited", "tracker.paused"].concat("member.invited").sort());
      expect(actions).toContain("tracker.created");
      expect(actions).toContain("member.joined");
      expect(actions.at(-1)).toBe("workspace.created");
      const edited = page.entries.find((entry) => entry.action === "tracker.edited")!;
      expect(edited).toMatchObject({
        via: "token",
        actor: { userId: editor.id },
        target: "CRM visibility",
        details: { fields: ["name"], renamedTo: "CRM watch" },
      });
      expect(edited.token?.prefix).toBe(editorToken.slice(0, 9));
      expect(page.entries.find((entry) => entry.action === "tracker.created")).toMatchObject({ via: "session", token: null });

      // Paged: two at a time, without gaps or repeats.
      const seen: number[] = [];
      let before: number | undefined;
      do {
        const next = (await owner.agent.request("GET", `/api/workspaces/${workspace.id}/audit?limit=2${before ? `&before=${before}` : ""}`)).json as AuditPage;
        seen.push(...next.entries.map((entry) => entry.id));
        before = next.nextBefore;
      } while (before);
      expect(seen).toEqual(page.entries.map((entry) => entry.id));
      expect((await owner.agent.request("GET", `/api/workspaces/${workspace.id}/audit?limit=0`)).status).toBe(400);

      // Every other kind of change is written too.
      const { admin, extra } = fixture;
      expect((await editor.agent.request("PATCH", `/api/trackers/${tracker.id}`, { paused: false, webhook: { url: "http://127.0.0.1:9/hook" } })).status).toBe(
        200,
      );
      expect((await editor.agent.request("POST", `/api/trackers/${tracker.id}/runs`)).status).toBe(202);
      const link = (await editor.agent.request("POST", "/api/shares", { kind: "tracker", id: tracker.id })).json as { id: string };
      expect((await editor.agent.request("DELETE", `/api/shares/${link.id}`)).status).toBe(200);
      expect((await admin.agent.request("PATCH", `/api/workspaces/${workspace.id}`, { name: "Acme" })).status).toBe(200);
      expect((await admin.agent.request("PATCH", `/api/workspaces/${workspace.id}/members/${extra.id}`, { role: "editor" })).status).toBe(200);
      expect((await admin.agent.request("DELETE", `/api/workspaces/${workspace.id}/invitations/${invitationId}`)).status).toBe(200);
      expect((await viewer.agent.request("DELETE", `/api/workspaces/${workspace.id}/members/${viewer.id}`)).status).toBe(200);
      expect((await admin.agent.request("DELETE", `/api/workspaces/${workspace.id}/members/${extra.id}`)).status).toBe(200);
      expect((await editor.agent.request("DELETE", `/api/trackers/${tracker.id}`)).status).toBe(200);
      const all = (await owner.agent.request("GET", `/api/workspaces/${workspace.id}/audit?limit=200`)).json as AuditPage;
      expect(new Set(all.entries.map((entry) => entry.action))).toEqual(new Set(AUDIT_ACTIONS));
      expect(all.entries.find((entry) => entry.action === "tracker.webhook-set")?.details).toMatchObject({ url: "http://127.0.0.1:9/hook" });
      expect(JSON.stringify(all.entries)).not.toContain("whsec");
      expect(all.entries.find((entry) => entry.action === "member.role-changed")).toMatchObject({
        actor: { userId: admin.id },
        details: { from: "viewer", to: "editor" },
      });

      const csv = await owner.agent.request("GET", `/api/workspaces/${workspace.id}/audit.csv`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toContain("text/csv");
      const lines = csv.text.trimEnd().split("\r\n");
      expect(lines[0]).toBe("At,Actor,Actor id,Via,Token,Action,Target,Details");
      expect(lines).toHaveLength(all.entries.length + 1);
      expect(lines.some((line) => line.includes(",token,") && line.includes("tracker.edited"))).toBe(true);
    } finally {
      await queue.stop();
    }
  }, 120_000);

  test("with SMTP_URL an invitation naming an address is e-mailed there, once, and its link joins that account", async () => {
    const smtp = await startSmtpSink();
    const { app, queue } = await createTestApp(getDb(), { env: { SMTP_URL: smtp.url, MAIL_FROM: "Team <team@example.com>" } });
    try {
      const { agent: owner } = await createProAgent(app, getDb());
      const { agent: invitee, account } = await createProAgent(app, getDb());
      const workspace = (await owner.request("POST", "/api/workspaces", { name: "Northwind" })).json as Workspace;
      const answer = await owner.request("POST", `/api/workspaces/${workspace.id}/invitations`, { role: "editor", email: account.email });
      expect(answer).toMatchObject({ status: 201, json: { emailed: true } });
      const mail = await waitFor(() => smtp.inbox.find((received) => received.to.includes(account.email)), { what: "the invitation" });
      expect(mail.subject).toContain('"Northwind"');
      expect(mail.text).toContain("as editor");
      const [link] = linksIn(mail.text, "/invitations/");
      expect(link).toBe((answer.json as CreatedInvitation).url);
      // The same address again the same day is not e-mailed twice.
      expect((await owner.request("POST", `/api/workspaces/${workspace.id}/invitations`, { role: "viewer", email: account.email })).json).toMatchObject({
        emailed: false,
      });
      const token = new URL(link!).pathname.split("/").at(-1);
      expect(await invitee.request("POST", `/api/invitations/${token}/accept`)).toMatchObject({
        status: 200,
        json: { workspaceId: workspace.id, role: "editor" },
      });
    } finally {
      await queue.stop();
      await smtp.stop();
    }
  }, 60_000);
});
