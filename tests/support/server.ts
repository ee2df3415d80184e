import { resolve } from "node:path";
import { fetchWithCookies } from "#cli/lib/cookies.ts";
import { createApiClient } from "#src/client/api.ts";
import { providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { Simulator } from "#dev/simulators/index.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * The server as it runs in production: its own process (`bun web/entry.server.tsx`), reached over
 * a socket, for what only a real process shows (signals, exit codes, restarts). Its providers run
 * "live" against the caller's simulator, so the caller decides which one hangs.
 */

const ROOT = resolve(import.meta.dir, "../..");

export type Server = { baseUrl: string; process: Bun.Subprocess<"ignore", "pipe", "pipe">; output: () => Promise<string> };

/** `bun web/entry.server.tsx` on a free port, every provider "live" against the test's simulator. */
export async function startServer(sim: Simulator, dataDir: string, env: Record<string, string>): Promise<Server> {
  const providers = Object.fromEntries(
    providerIds.flatMap((id) => [
      [providerConfig[id].env.apiKey, `key-${id}`],
      [providerConfig[id].env.baseUrl, sim.baseUrls[id]],
    ]),
  );
  const child = Bun.spawn(["bun", "web/entry.server.tsx"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? dataDir,
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: "server-process-secret-0123456789abcdef",
      SIMULATE_PROVIDERS: "off",
      ...providers,
      ...env,
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  // Read as it comes: the start-up line names the port.
  let text = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const drained = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  const errors = new Response(child.stderr).text();
  const port = await waitFor(
    async () => {
      const found = /on http:\/\/localhost:(\d+)/.exec(text)?.[1];
      if (!found && child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${text}${await errors}`);
      return found;
    },
    { what: "the server's start-up line", timeoutMs: 45_000 },
  );
  return { baseUrl: `http://127.0.0.1:${port}`, process: child, output: async () => (await drained, text) };
}

/** A browser: the typed client with a cookie jar (kept across servers, as a browser keeps it across restarts). */
export function browserAt(baseUrl: string, jar = new Map<string, string>()) {
  return { jar, api: createApiClient({ baseUrl, fetch: fetchWithCookies(jar) }) };
}
