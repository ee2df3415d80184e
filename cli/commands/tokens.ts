import { CreateToken } from "#src/contract/tokens.ts";
import { action, defineCommand, NoOptions, parseOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { note, print, printJson, table } from "#cli/lib/output.ts";

const list = defineCommand("list", "list your personal API tokens (never the tokens themselves)").action(
  action(NoOptions, async ({ context }) => {
    const tokens = await signedIn(context).listTokens();
    if (context.json) return printJson(tokens);
    if (tokens.tokens.length === 0) return print("No tokens.");
    print(table(["ID", "Name", "Starts with", "Created", "Last used"], tokens.tokens.map((t) => [t.id, t.name, `${t.prefix}…`, t.createdAt.slice(0, 10), t.lastUsedAt?.slice(0, 10) ?? "never"])));
  }),
);

const create = defineCommand("create", "create a token for a script or an MCP client; it is shown this once")
  .argument("<name>", "what it is for")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [name] }) => {
      const created = await signedIn(context).createToken(parseOptions(CreateToken, { name }).name);
      if (context.json) return printJson(created);
      print(created.token);
      note(context.quiet, `Token "${created.name}" (${created.id}): shown this once; revoke it with aisc tokens revoke ${created.id}`);
    }),
  );

const revoke = defineCommand("revoke", "revoke a token: requests with it are refused from then on")
  .argument("<id>", "the token's id (aisc tokens list)")
  .action(
    action<typeof NoOptions, [string]>(NoOptions, async ({ context, args: [id] }) => {
      const answer = await signedIn(context).revokeToken(id);
      if (context.json) return printJson(answer);
      print(`Revoked ${id}.`);
    }),
  );

export const tokens = defineCommand("tokens", "manage personal API tokens").addCommand(list).addCommand(create).addCommand(revoke);
