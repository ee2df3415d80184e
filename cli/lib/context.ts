import type { Command } from "commander";
import * as v from "valibot";
import { createApiClient, type ApiClient } from "#src/client/api.ts";
import { CliError, NOT_SIGNED_IN } from "./exit.ts";
import { DEFAULT_SERVER, readConfig, readWorkspace, type SavedLogin, type SavedWorkspace } from "./config.ts";

/** The global options, as every command sees them. */
const GlobalOptions = v.object({
  server: v.optional(
    v.pipe(v.string(), v.trim(), v.url("--server must be a URL such as http://localhost:3000"), v.regex(/^https?:/i, "--server must be an http or https URL")),
  ),
  json: v.optional(v.boolean(), false),
  quiet: v.optional(v.boolean(), false),
  workspace: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty("--workspace needs a workspace's id or name (aisc workspace list)"))),
});

export type Context = {
  /** The server's origin, without a trailing slash. */
  server: string;
  /** AISC_TOKEN, else the saved token when it was saved for this server. */
  token: string | undefined;
  tokenSource: "env" | "config" | undefined;
  saved: SavedLogin | undefined;
  /** The typed client, sending the token as `Authorization: Bearer`. */
  api: ApiClient;
  json: boolean;
  quiet: boolean;
  /** `--workspace`: a workspace's id or name, as given. */
  workspaceFlag: string | undefined;
  /** The workspace `aisc workspace use` chose on this server, if any. */
  savedWorkspace: SavedWorkspace | undefined;
};

/**
 * Where to talk and as whom: `--server`, else AISC_SERVER, else the saved login's server, else
 * http://localhost:3000. A saved token is only sent to the server it was made for.
 */
export function contextOf(command: Command, env: NodeJS.ProcessEnv = process.env): Context {
  const parsed = v.safeParse(GlobalOptions, command.optsWithGlobals());
  if (!parsed.success) throw new CliError("usage", parsed.issues[0].message);
  const { json, quiet, workspace } = parsed.output;
  const saved = readConfig();
  const server = (parsed.output.server ?? (env.AISC_SERVER?.trim() || undefined) ?? saved?.server ?? DEFAULT_SERVER).replace(/\/+$/, "");
  if (!URL.canParse(server)) throw new CliError("usage", `AISC_SERVER must be a URL, got "${server}"`);
  const fromEnv = env.AISC_TOKEN?.trim() || undefined;
  const fromConfig = saved && sameServer(saved.server, server) ? saved.token : undefined;
  const token = fromEnv ?? fromConfig;
  const chosen = readWorkspace();
  return {
    server,
    token,
    tokenSource: fromEnv ? "env" : fromConfig ? "config" : undefined,
    saved,
    api: clientFor(server, token),
    json,
    quiet,
    workspaceFlag: workspace,
    savedWorkspace: chosen && sameServer(chosen.server, server) ? chosen : undefined,
  };
}

/** The client for a server, with a token or without. */
export function clientFor(server: string, token?: string, fetchImpl?: typeof fetch): ApiClient {
  return createApiClient({ baseUrl: server, headers: token ? { authorization: `Bearer ${token}` } : {}, fetch: fetchImpl });
}

/** The client of a signed-in context; exit 2 when there is no token. */
export function signedIn(context: Context): ApiClient {
  if (!context.token) throw new CliError("auth", NOT_SIGNED_IN);
  return context.api;
}

function sameServer(a: string, b: string): boolean {
  return a.replace(/\/+$/, "") === b;
}
