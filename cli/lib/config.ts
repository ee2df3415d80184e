import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import * as v from "valibot";

export const DEFAULT_SERVER = "http://localhost:3000";

/** What `aisc workspace use` remembers: the workspace (its name as it was, to show) and the server it is on. */
export const SavedWorkspace = v.object({ server: v.string(), id: v.string(), name: v.string() });
export type SavedWorkspace = v.InferOutput<typeof SavedWorkspace>;

/** What `aisc login` saves: the server and a personal API token for it (and the token's id, to revoke it); and the workspace chosen. */
export const SavedLogin = v.object({ server: v.string(), token: v.string(), tokenId: v.optional(v.string()), workspace: v.optional(SavedWorkspace) });
export type SavedLogin = v.InferOutput<typeof SavedLogin>;

// The file as written: a login, a workspace chosen without one (signed in with AISC_TOKEN), or both.
const ConfigFile = v.object({ ...v.partial(v.omit(SavedLogin, ["workspace"])).entries, workspace: v.optional(SavedWorkspace) });
type ConfigFile = v.InferOutput<typeof ConfigFile>;

/** `$XDG_CONFIG_HOME/aisc/config.json`, by default `~/.config/aisc/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "aisc", "config.json");
}

/** The saved login, or undefined when there is none (an unreadable file counts as none, with a warning). */
export function readConfig(path = configPath()): SavedLogin | undefined {
  const file = readFile(path);
  return file?.server !== undefined && file.token !== undefined ? { ...file, server: file.server, token: file.token } : undefined;
}

/** The workspace `aisc workspace use` chose, for whichever server. */
export function readWorkspace(path = configPath()): SavedWorkspace | undefined {
  return readFile(path)?.workspace;
}

/** Writes the login readable by its owner only (0600, in a 0700 folder); a new login starts in no chosen workspace. */
export function saveConfig(login: SavedLogin, path = configPath()): string {
  return writeFile(login, path);
}

/** Remembers the chosen workspace beside the login (or forgets it: undefined), leaving the rest of the file as it is. */
export function saveWorkspace(workspace: SavedWorkspace | undefined, path = configPath()): string {
  const { workspace: _previous, ...rest } = readFile(path) ?? {};
  return writeFile(workspace ? { ...rest, workspace } : rest, path);
}

export function deleteConfig(path = configPath()): void {
  rmSync(path, { force: true });
}

function readFile(path: string): ConfigFile | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return v.parse(ConfigFile, JSON.parse(readFileSync(path, "utf8")));
  } catch {
    process.stderr.write(`warning: ignoring ${path}: not a saved login\n`);
    return undefined;
  }
}

function writeFile(config: ConfigFile, path: string): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // mode applies only when the file is created
  return path;
}
