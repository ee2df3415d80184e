import { CreateToken } from "#src/contract/tokens.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, NoOptions, parseOptions } from "#cli/lib/command.ts";
import { signedIn, type Context } from "#cli/lib/context.ts";
import { note, print, printJson, table } from "#cli/lib/output.ts";
import { passwordSession, PasswordOptions, tokenUsername, withPasswordOptions } from "#cli/lib/session.ts";

const list = defineCommand("list", "list your personal API tokens (never the tokens themselves)").action(
  action(NoOptions, async ({ context }) => {
    const tokens = await signedIn(context).listTokens();
    if (context.json) return printJson(tokens);
    if (tokens.tokens.length === 0) return print("No tokens.");
    print(
      table(
        ["ID", "Name", "Starts with", "Scopes", "Created", "Last used"],
        tokens.tokens.map((t) => [
          t.id,
          visibleText(t.name),
          `${t.prefix}…`,
          t.scopes.join(" "),
          t.createdAt.slice(0, 10),
          t.lastUsedAt?.slice(0, 10) ?? "never",
        ]),
      ),
    );
  }),
);

const create = withPasswordOptions(
  defineCommand("create", "create a token for a script or an MCP client; it is shown this once (asks for your password: a token cannot create tokens)"),
  "your username (by default the one you are signed in as)",
)
  .argument("<name>", "what it is for")
  .action(
    action<typeof PasswordOptions, [string]>(PasswordOptions, async ({ context, options, args: [name] }) => {
      const { session } = await withSession(context, options, "create");
      const created = await session.createToken(parseOptions(CreateToken, { name }).name);
      if (context.json) return printJson(created);
      print(created.token);
      note(context.quiet, `Token "${visibleText(created.name)}" (${created.id}): shown this once; revoke it with aisc tokens revoke ${created.id}`);
    }),
  );

const revoke = withPasswordOptions(
  defineCommand("revoke", "revoke a token: requests with it are refused from then on (asks for your password; aisc logout revokes the saved token without)"),
  "your username (by default the one you are signed in as)",
)
  .argument("<id>", "the token's id (aisc tokens list)")
  .action(
    action<typeof PasswordOptions, [string]>(PasswordOptions, async ({ context, options, args: [id] }) => {
      const { session } = await withSession(context, options, "revoke");
      const answer = await session.revokeToken(id);
      if (context.json) return printJson(answer);
      print(`Revoked ${id}.`);
    }),
  );

export const tokens = defineCommand("tokens", "manage personal API tokens").addCommand(list).addCommand(create).addCommand(revoke);

/** Managing tokens needs a browser session, not a token: sign in with the password for this one call. */
async function withSession(context: Context, options: PasswordOptions, verb: "create" | "revoke") {
  const noTerminal = `a token cannot ${verb} tokens, so this asks for your password and there is no terminal to ask on: use --password-stdin (and --username when not signed in), or ${verb} it on ${context.server}/user/profile (CLI access)`;
  return passwordSession(context, { ...options, username: options.username ?? (await tokenUsername(context)) }, noTerminal);
}
