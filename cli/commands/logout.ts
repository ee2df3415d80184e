import { ApiError } from "#src/client/errors.ts";
import type { ApiClient } from "#src/client/api.ts";
import { action, defineCommand, NoOptions } from "#cli/lib/command.ts";
import { configPath, deleteConfig, type SavedLogin } from "#cli/lib/config.ts";
import { clientFor } from "#cli/lib/context.ts";
import { note, print, printJson } from "#cli/lib/output.ts";

export const logout = defineCommand("logout", "revoke the saved token and forget it").action(
  action(NoOptions, async ({ context }) => {
    const saved = context.saved;
    const revoked = saved ? await revoke(clientFor(saved.server, saved.token), saved) : false;
    deleteConfig();
    if (context.json) printJson({ revoked, server: saved?.server ?? null });
    else print(saved ? `Signed out of ${saved.server}${revoked ? "; the token is revoked" : ""}.` : `Not signed in (no ${configPath()}).`);
    if (context.tokenSource === "env") note(context.quiet, "note: AISC_TOKEN is still set; unset it, or revoke it with `aisc tokens revoke <id>`");
  }),
);

/** Revokes the saved token: by its id, else the one token of the user's whose prefix it starts with. False when the server no longer knows it. */
async function revoke(api: ApiClient, saved: SavedLogin): Promise<boolean> {
  try {
    const id = saved.tokenId ?? (await onlyMatch(api, saved.token));
    if (!id) return false;
    await api.revokeToken(id);
    return true;
  } catch (error) {
    if (error instanceof ApiError && (error.code === "NOT_SIGNED_IN" || error.code === "NOT_FOUND")) return false;
    throw error;
  }
}

/** A token saved with --token has no id: the user's token listed with its first characters, when only one is. */
async function onlyMatch(api: ApiClient, token: string): Promise<string | undefined> {
  const matches = (await api.listTokens()).tokens.filter((listed) => token.startsWith(listed.prefix));
  return matches.length === 1 ? matches[0]?.id : undefined;
}
