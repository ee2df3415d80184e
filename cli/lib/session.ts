import type { Command } from "commander";
import * as v from "valibot";
import type { ApiClient } from "#src/client/api.ts";
import { Login, type User } from "#src/contract/auth.ts";
import { Flag, parseOptions } from "./command.ts";
import { clientFor, type Context } from "./context.ts";
import { fetchWithCookies } from "./cookies.ts";
import { CliError } from "./exit.ts";
import { ask, askHidden, readStdinLine } from "./prompt.ts";

/** The options of a command that signs in with a password. */
export const PasswordOptions = v.object({ username: v.optional(v.string()), passwordStdin: Flag });
export type PasswordOptions = v.InferOutput<typeof PasswordOptions>;

/** Adds -u/--username and --password-stdin to a command. */
export function withPasswordOptions(command: Command, username = "your username (asked on a terminal otherwise)"): Command {
  return command.option("-u, --username <name>", username).option("--password-stdin", "read the password from standard input, for scripts");
}

/**
 * Signs in with the password, for what needs a browser session rather than a token (creating a
 * token, revoking another one): a cookie session held in memory for this command only. It does not
 * sign out: logout ends every session of the user, and the browser must stay signed in.
 * `noTerminal` says what to do instead when there is no terminal to ask on.
 */
export async function passwordSession(context: Context, options: PasswordOptions, noTerminal: string): Promise<{ session: ApiClient; user: User }> {
  const credentials = parseOptions(Login, await askCredentials(options, noTerminal));
  const session = clientFor(context.server, undefined, fetchWithCookies());
  return { session, user: await session.login(credentials) };
}

/** Who the context's token signs in as, if it has a valid one: then only the password needs asking. */
export async function tokenUsername({ token, api }: Context): Promise<string | undefined> {
  return token ? (await api.currentUser())?.username : undefined;
}

async function askCredentials(options: PasswordOptions, noTerminal: string): Promise<{ username: string; password: string }> {
  const terminal = Boolean(process.stdin.isTTY);
  const username = options.username ?? (terminal ? await ask("Username: ") : undefined);
  if (username === undefined) throw new CliError("usage", noTerminal);
  if (options.passwordStdin) return { username, password: await readStdinLine() };
  if (!terminal) throw new CliError("usage", noTerminal);
  return { username, password: await askHidden(`Password for ${username}: `) };
}
