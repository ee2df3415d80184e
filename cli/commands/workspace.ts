import * as v from "valibot";
import { AuditQuery, CreateInvitation, CreateWorkspace, INVITATION_PATH, MAX_AUDIT_PAGE, workspaceRoles } from "#src/contract/workspaces.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, Flag, NoOptions, parseOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { saveWorkspace } from "#cli/lib/config.ts";
import { CliError } from "#cli/lib/exit.ts";
import { note, print, printJson } from "#cli/lib/output.ts";
import { when } from "#cli/lib/trackers.ts";
import { auditTable, currentOrPersonal, currentWorkspace, findWorkspace, membersTable, roleLabel, withRole, workspacesTable } from "#cli/lib/workspaces.ts";

/*
 * `aisc workspace`: the workspaces you are a member of (ADR 071), the one commands act in, its
 * members, invitations and audit log. Each subcommand is one or two calls of the API client;
 * `--json` prints the API's answer.
 */

const list = defineCommand("list", "list your workspaces: id, name, your role (and which is your personal one); * marks the one commands act in").action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const [answer, current] = await Promise.all([api.listWorkspaces(), currentWorkspace(context, api).catch(() => undefined)]);
    if (context.json) return printJson(answer);
    print(workspacesTable(answer.workspaces, current?.id));
    if (!current)
      note(context.quiet, "No workspace chosen: lists show every workspace's, new trackers go to your personal one (aisc workspace use <id|name>).");
  }),
);

const UseOptions = v.object({ personal: Flag });

const use = defineCommand(
  "use",
  "choose the workspace the commands act in (remembered for this server in the saved config; --workspace overrides it once); --personal goes back to none chosen",
)
  .argument("[workspace]", "the workspace's id or name (any letter case; aisc workspace list)")
  .option("--personal", "forget the choice: lists show every workspace's again, new trackers and links go to your personal workspace")
  .action(
    action<typeof UseOptions, [string | undefined]>(UseOptions, async ({ context, options, args: [ref] }) => {
      if (options.personal === (ref !== undefined)) throw new CliError("usage", "give a workspace's id or name, or --personal (not both)");
      if (options.personal) {
        const path = saveWorkspace(undefined);
        if (context.json) return printJson({ workspace: null, config: path });
        return print("No workspace chosen: lists show every workspace's, new trackers and links go to your personal workspace.");
      }
      const workspace = await findWorkspace(signedIn(context), ref ?? "");
      const path = saveWorkspace({ server: context.server, id: workspace.id, name: workspace.name });
      if (context.json) return printJson({ workspace, config: path });
      print(`Using ${visibleText(workspace.name)} (${workspace.id}), where you are ${roleLabel(workspace)}.`);
    }),
  );

const create = defineCommand("create", "make a workspace (you are its owner); aisc workspace use it, then invite people")
  .argument("<name>", "its name (up to 80 characters)")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [name] }) => {
      const request = parseOptions(CreateWorkspace, { name }, () => undefined);
      const workspace = await signedIn(context).createWorkspace(request.name);
      if (context.json) return printJson(workspace);
      print(`Created ${visibleText(workspace.name)} (${workspace.id}).`);
      note(context.quiet, `Work in it: aisc workspace use ${workspace.id}`);
    }),
  );

const members = defineCommand("members", "list the current workspace's members and their roles (the personal one when none is chosen)").action(
  action(NoOptions, async ({ context }) => {
    const api = signedIn(context);
    const workspace = await currentOrPersonal(context, api);
    const answer = await withRole(workspace, api.listMembers(workspace.id));
    if (context.json) return printJson(answer);
    print(`${visibleText(workspace.name)} (${workspace.id}):`);
    print(membersTable(answer.members));
  }),
);

const InviteOptions = v.object({ role: v.string(), email: v.optional(v.string()) });

const invite = defineCommand(
  "invite",
  "invite someone to the current workspace (admin; an owner to invite an owner): prints a link that works once, for 7 days",
)
  .requiredOption("--role <role>", `the role they join with: ${workspaceRoles.join(", ")}`)
  .option("--email <address>", "only the account with this address may accept it (and it is e-mailed there when the server sends e-mail)")
  .action(
    action(InviteOptions, async ({ context, options }) => {
      const request = parseOptions(CreateInvitation, options, (path) => `--${path[0] ?? "role"}`);
      const api = signedIn(context);
      const workspace = await currentOrPersonal(context, api);
      const created = await withRole(workspace, api.createInvitation(workspace.id, request));
      if (context.json) return printJson(created);
      print(created.url);
      note(
        context.quiet,
        `An invitation to ${visibleText(workspace.name)} as ${request.role}${request.email ? ` for ${request.email}` : ""}: it works once, until ${when(created.expiresAt)} UTC` +
          `${created.emailed ? `; e-mailed to ${request.email}` : ""}. Accept it with aisc workspace accept <link>, or open it signed in.`,
      );
    }),
  );

const AuditOptions = v.object({ csv: Flag, limit: v.optional(v.string()), before: v.optional(v.string()) });

const audit = defineCommand("audit", "the current workspace's audit log, newest first: who did what, when, from a browser or which token (admin)")
  .option("--limit <n>", `entries to show (1–${MAX_AUDIT_PAGE}, default 50)`)
  .option("--before <id>", "entries older than this one (the last page's next id)")
  .option("--csv", "print the server's CSV of its newest entries instead (At, Actor, Actor id, Via, Token, Action, Target, Details)")
  .action(
    action(AuditOptions, async ({ context, options: { csv, ...page } }) => {
      if (csv && context.json) throw new CliError("usage", "choose --json or --csv, not both");
      if (csv && (page.limit !== undefined || page.before !== undefined))
        throw new CliError("usage", "--csv prints the newest entries: leave out --limit and --before");
      const query = parseOptions(AuditQuery, page);
      const api = signedIn(context);
      const workspace = await currentOrPersonal(context, api);
      if (csv) {
        process.stdout.write(await withRole(workspace, api.getWorkspaceAuditCsv(workspace.id)));
        return;
      }
      const answer = await withRole(workspace, api.getWorkspaceAudit(workspace.id, query));
      if (context.json) return printJson(answer);
      if (answer.entries.length === 0) return print(`Nothing in ${visibleText(workspace.name)}'s audit log yet.`);
      print(auditTable(answer.entries));
      if (answer.nextBefore !== undefined) note(context.quiet, `Older entries: aisc workspace audit --before ${answer.nextBefore}`);
    }),
  );

// The token of an invitation's link (…/invitations/<token>), or the token itself.
const InvitationToken = v.pipe(
  v.string(),
  v.trim(),
  v.transform((text) => text.split(`${INVITATION_PATH}/`).at(-1)?.split(/[?#]/)[0] ?? ""),
  v.regex(/^[A-Za-z0-9_-]{16,}$/, "give the invitation's link (…/invitations/…) or its token"),
);

const accept = defineCommand("accept", "accept an invitation: join its workspace with its role (a member already keeps the higher role)")
  .argument("<link>", "the invitation's link, or the token at its end")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [link] }) => {
      const token = parseOptions(InvitationToken, link);
      const api = signedIn(context);
      const accepted = await api.acceptInvitation(token);
      if (context.json) return printJson(accepted);
      const workspace = (await api.listWorkspaces()).workspaces.find((w) => w.id === accepted.workspaceId);
      const name = workspace ? `${visibleText(workspace.name)} (${accepted.workspaceId})` : accepted.workspaceId;
      print(accepted.joined ? `Joined ${name} as ${accepted.role}.` : `You were a member of ${name} already; your role there is ${accepted.role}.`);
      note(context.quiet, `Work in it: aisc workspace use ${accepted.workspaceId}`);
    }),
  );

export const workspace = defineCommand(
  "workspace",
  "workspaces: where trackers and share links live, shared with members by role (viewer, editor, admin, owner)",
)
  .addCommand(list)
  .addCommand(use)
  .addCommand(create)
  .addCommand(members)
  .addCommand(invite)
  .addCommand(audit)
  .addCommand(accept);
