import { hostname } from "node:os";
import * as v from "valibot";
import type { User } from "#src/contract/auth.ts";
import { TOKEN_PREFIX } from "#src/contract/tokens.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, Flag, parseOptions } from "#cli/lib/command.ts";
import { saveConfig, type SavedLogin } from "#cli/lib/config.ts";
import { clientFor, type Context } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { note, print, printJson } from "#cli/lib/output.ts";
import { askHidden, readStdinLine } from "#cli/lib/prompt.ts";
import { passwordSession, PasswordOptions, withPasswordOptions } from "#cli/lib/session.ts";

const Token = v.pipe(v.string(), v.trim(), v.startsWith(TOKEN_PREFIX, `a token starts with ${TOKEN_PREFIX}`));

const Options = v.object({
  ...PasswordOptions.entries,
  token: v.optional(Token),
  tokenStdin: Flag,
});

export const login = withPasswordOptions(defineCommand("login", "sign in and save a personal API token for this server"))
  .option(
    "--token-stdin",
    `save an existing token (${TOKEN_PREFIX}…, from your profile page) read from standard input (asked, hidden, on a terminal) instead of signing in`,
  )
  .option(
    "--token <token>",
    "the same with the token on the command line, where other users can see it in the process list: prefer --token-stdin, or AISC_TOKEN",
  )
  .addHelpText(
    "after",
    `\nPrefer --token-stdin (or AISC_TOKEN) to --token: a token on the command line shows in the process list.\n  printf '%s\\n' "$TOKEN" | aisc login --token-stdin`,
  )
  .action(
    action(Options, async ({ context, options }) => {
      if (options.token && options.tokenStdin) throw new CliError("usage", "use --token-stdin or --token, not both");
      if (options.tokenStdin && options.passwordStdin) throw new CliError("usage", "standard input gives a token or a password, not both");
      const token = options.tokenStdin ? parseOptions(Token, await readToken()) : options.token;
      const { saved, user } = token ? await checkToken(context, token) : await signIn(context, options);
      const path = saveConfig(saved);
      if (context.json) printJson({ user, server: saved.server, config: path });
      else print(`Signed in to ${saved.server} as ${visibleText(user.username)}. Token saved in ${path}`);
      if (context.tokenSource === "env") note(context.quiet, "note: AISC_TOKEN is set and is used instead of the saved token");
    }),
  );

type SignedIn = { saved: SavedLogin; user: User };

/** --token-stdin: the first line of standard input, or asked without echo on a terminal. */
function readToken(): Promise<string> {
  return process.stdin.isTTY ? askHidden("Token: ") : readStdinLine();
}

/** A token given with --token-stdin or --token: kept only if the server knows it. */
async function checkToken({ server }: Context, token: string): Promise<SignedIn> {
  const user = await clientFor(server, token).currentUser();
  if (!user) throw new CliError("auth", "Invalid or revoked token");
  return { saved: { server, token }, user };
}

/** Signs in with the password and creates a token named after this machine: only a session may create tokens. */
async function signIn(context: Context, options: PasswordOptions): Promise<SignedIn> {
  const { session, user } = await passwordSession(context, options, "no terminal to ask on: use --username with --password-stdin, or --token-stdin");
  const created = await session.createToken(`aisc on ${hostname()}`.slice(0, 60));
  return { saved: { server: context.server, token: created.token, tokenId: created.id }, user };
}
