import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createApiClient } from "#src/client/api.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { SearchEvent } from "#src/contract/search.ts";
import { PROVIDER_INTERRUPTED } from "#src/server/services/search/interrupted.ts";
import { startSimulator, type Simulator } from "#src/simulators/index.ts";

/*
 * SIGTERM as a container sends it, to the server process itself (`bun web/entry.server.tsx`), with
 * a search in flight and one provider hung. The providers run "live" against this test's
 * simulator, so the test decides which one hangs.
 */

const ROOT = resolve(import.meta.dir, "../..");

let sim: Simulator;
beforeAll(() => {
  sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(() => sim.stop());

test("SIGTERM with a search in flight: the server takes no new request, stops the hung provider after the grace, saves what finished, and exits 0", async () => {
  sim.setFaults("gemini", [{ kind: "timeout" }], { persistent: true });
  const dataDir = mkdtempSync(join(tmpdir(), "ai-search-shutdown-"));
  // A time limit far off: only the drain can end this search.
  const server = await startServer(dataDir, { SEARCH_DEADLINE_SECONDS: "600", SHUTDOWN_GRACE_SECONDS: "1" });
  const visitor = browserAt(server.baseUrl);
  await visitor.api.status(); // its anonymous id
  const events: SearchEvent[] = [];
  const reading = (async () => {
    for await (const event of visitor.api.searchStream({ query: "best project management software" })) events.push(event);
  })();
  while (events.filter((e) => e.type === "result").length < 2) await Bun.sleep(10);

  const signalled = performance.now();
  server.process.kill("SIGTERM");
  // While it drains, it answers no new connection.
  let refusedWhileRunning = false;
  while (server.process.exitCode === null && !refusedWhileRunning) {
    refusedWhileRunning = await fetch(`${server.baseUrl}/healthz`).then(
      () => false,
      () => server.process.exitCode === null,
    );
  }
  expect(refusedWhileRunning).toBe(true);
  const code = await server.process.exited;
  console.log(`SIGTERM to exit with a provider hung (SHUTDOWN_GRACE_SECONDS=1): ${Math.round(performance.now() - signalled)} ms`);
  expect(code).toBe(0);
  await reading;
  expect(events.at(-1)).toMatchObject({ type: "error", status: 503 });
  expect(await server.output()).toContain("1 of 1 search(es) interrupted and saved with what had finished");

  // The next start on the same data: the search is in the history with the providers that finished.
  const next = await startServer(dataDir, {});
  try {
    const again = browserAt(next.baseUrl, visitor.jar);
    const [listed] = (await again.api.listSearches()).searches;
    expect(listed).toMatchObject({ query: "best project management software", status: "interrupted" });
    const saved = await again.api.getSearch(listed?.id ?? "");
    expect(saved.models.openai?.status).toBe("ok");
    expect(saved.models.anthropic?.status).toBe("ok");
    expect(saved.models.gemini).toMatchObject({ status: "error", stopped: "interrupted", error: PROVIDER_INTERRUPTED });
  } finally {
    next.process.kill("SIGTERM");
    expect(await next.process.exited).toBe(0);
  }
});

type Server = { baseUrl: string; process: Bun.Subprocess<"ignore", "pipe", "pipe">; output: () => Promise<string> };

/** `bun web/entry.server.tsx` on a free port, every provider "live" against the test's simulator. */
async function startServer(dataDir: string, env: Record<string, string>): Promise<Server> {
  const providers = Object.fromEntries(providerIds.flatMap((id) => [[providerCatalogue[id].env.apiKey, `key-${id}`], [providerCatalogue[id].env.baseUrl, sim.baseUrls[id]]]));
  const child = Bun.spawn(["bun", "web/entry.server.tsx"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dataDir, NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, SESSION_SECRET: "shutdown-test-secret-0123456789abcdef", SIMULATE_PROVIDERS: "off", ...providers, ...env },
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
  for (;;) {
    const port = /on http:\/\/localhost:(\d+)/.exec(text)?.[1];
    if (port) return { baseUrl: `http://127.0.0.1:${port}`, process: child, output: async () => (await drained, text) };
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}): ${text}${await errors}`);
    await Bun.sleep(20);
  }
}

/** A browser: the typed client with a cookie jar (kept across servers, as a browser keeps it across restarts). */
function browserAt(baseUrl: string, jar = new Map<string, string>()) {
  const jarFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (jar.size) request.headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(request);
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const at = pair.indexOf("=");
      if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  };
  return { jar, api: createApiClient({ baseUrl, fetch: jarFetch as typeof fetch }) };
}
