import { hostname } from "node:os";
import * as v from "valibot";
import { Login, type User } from "#src/contract/auth.ts";
import { TOKEN_PREFIX } from "#src/contract/tokens.ts";
import { action, defineCommand, Flag, parseOptions } from "#cli/lib/command.ts";
import { saveConfig, type SavedLogin } from "#cli/lib/config.ts";
import { clientFor, type Context } from "#cli/lib/context.ts";
import { fetchWithCookies } from "#cli/lib/cookies.ts";
import { CliError } from "#cli/lib/exit.ts";
import { note, print, printJson } from "#cli/lib/output.ts";
import { ask, askHidden, readStdinLine } from "#cli/lib/prompt.ts";

const Options = v.object({
  username: v.optional(v.string()),
  passwordStdin: Flag,
  token: v.optional(v.pipe(v.string(), v.trim(), v.startsWith(TOKEN_PREFIX, `a token starts with ${TOKEN_PREFIX}`))),
});

export const login = defineCommand("login", "sign in and save a personal API token for this server")
  .option("-u, --username <name>", "your username (asked on a terminal otherwise)")
  .option("--password-stdin", "read the password from standard input, for scripts")
  .option("--token <token>", `save an existing token (${TOKEN_PREFIX}…, from your profile page) instead of signing in`)
  .action(
    action(Options, async ({ context, options }) => {
      const { saved, user } = options.token ? await checkToken(context, options.token) : await signIn(context, options);
      const path = saveConfig(saved);
      if (context.json) printJson({ user, server: saved.server, config: path });
      else print(`Signed in to ${saved.server} as ${user.username}. Token saved in ${path}`);
      if (context.tokenSource === "env") note(context.quiet, "note: AISC_TOKEN is set and is used instead of the saved token");
    }),
  );

type SignedIn = { saved: SavedLogin; user: User };

/** A token given with --token: kept only if the server knows it. */
async function checkToken({ server }: Context, token: string): Promise<SignedIn> {
  const user = await clientFor(server, token).currentUser();
  if (!user) throw new CliError("auth", "Invalid or revoked token");
  return { saved: { server, token }, user };
}

/**
 * Signs in with the password (a cookie session held only in memory) and creates a token named after this machine.
 * It does not sign out: logout ends every session of the user, and `aisc login` must not sign the browser out.
 */
async function signIn({ server }: Context, options: v.InferOutput<typeof Options>): Promise<SignedIn> {
  const credentials = parseOptions(Login, await askCredentials(options));
  const session = clientFor(server, undefined, fetchWithCookies());
  const user = await session.login(credentials);
  const created = await session.createToken(`aisc on ${hostname()}`.slice(0, 60));
  return { saved: { server, token: created.token, tokenId: created.id }, user };
}

async function askCredentials(options: v.InferOutput<typeof Options>): Promise<{ username: string; password: string }> {
  const terminal = Boolean(process.stdin.isTTY);
  const noTerminal = "no terminal to ask on: use --username with --password-stdin, or --token";
  const username = options.username ?? (terminal ? await ask("Username: ") : undefined);
  if (username === undefined) throw new CliError("usage", noTerminal);
  if (options.passwordStdin) return { username, password: await readStdinLine() };
  if (!terminal) throw new CliError("usage", noTerminal);
  return { username, password: await askHidden("Password: ") };
}
