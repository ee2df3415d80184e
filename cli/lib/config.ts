import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import * as v from "valibot";

export const DEFAULT_SERVER = "http://localhost:3000";

/** What `aisc login` saves: the server and a personal API token for it (and the token's id, to revoke it). */
export const SavedLogin = v.object({ server: v.string(), token: v.string(), tokenId: v.optional(v.string()) });
export type SavedLogin = v.InferOutput<typeof SavedLogin>;

/** `$XDG_CONFIG_HOME/aisc/config.json`, by default `~/.config/aisc/config.json`. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), ".config"), "aisc", "config.json");
}

/** The saved login, or undefined when there is none (an unreadable file counts as none, with a warning). */
export function readConfig(path = configPath()): SavedLogin | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return v.parse(SavedLogin, JSON.parse(readFileSync(path, "utf8")));
  } catch {
    process.stderr.write(`warning: ignoring ${path}: not a saved login\n`);
    return undefined;
  }
}

/** Writes the login readable by its owner only (0600, in a 0700 folder). */
export function saveConfig(login: SavedLogin, path = configPath()): string {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // mode applies only when the file is created
  return path;
}

export function deleteConfig(path = configPath()): void {
  rmSync(path, { force: true });
}
