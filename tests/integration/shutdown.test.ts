import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SearchStreamEvent } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { PROVIDER_INTERRUPTED } from "#src/server/services/search/stopped.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { browserAt, startServer } from "#tests/support/server.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * SIGTERM as a container sends it, to the server process itself (`bun web/entry.server.tsx`), with
 * a search in flight and one provider hung. The providers run "live" against this test's
 * simulator, so the test decides which one hangs.
 */

let sim: Simulator;
beforeAll(() => {
  sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(() => sim.stop());

test("SIGTERM with a search in flight: the server takes no new request, stops the hung provider after the grace, saves what finished, and exits 0", async () => {
  sim.setFaults("gemini", [{ kind: "timeout" }], { persistent: true });
  const dataDir = mkdtempSync(join(tmpdir(), "ai-search-shutdown-"));
  // A time limit far off: only the drain can end this search.
  const server = await startServer(sim, dataDir, { SEARCH_DEADLINE_SECONDS: "600", SHUTDOWN_GRACE_SECONDS: "1" });
  const visitor = browserAt(server.baseUrl);
  await visitor.api.status(); // its anonymous id
  const events: SearchStreamEvent[] = [];
  const reading = (async () => {
    for await (const event of visitor.api.searchStream({ query: "best project management software" })) events.push(event);
  })().catch((error: unknown) => error);
  await waitFor(() => events.filter((e) => e.type === "result").length >= 2, { what: "the two answering providers' results" });

  server.process.kill("SIGTERM");
  // While it drains, it answers no new connection: asked until refused, or until it has exited.
  let refusedWhileRunning = false;
  await waitFor(
    async () => {
      refusedWhileRunning = await fetch(`${server.baseUrl}/healthz`).then(
        () => false,
        () => server.process.exitCode === null,
      );
      return refusedWhileRunning || server.process.exitCode !== null;
    },
    { what: "a refused connection or the server's exit" },
  );
  expect(refusedWhileRunning).toBe(true);
  expect(await server.process.exited).toBe(0);
  const stopped = await reading;
  expect(stopped).toBeInstanceOf(ApiError);
  expect({ status: (stopped as ApiError).status, code: (stopped as ApiError).code }).toEqual({ status: 503, code: "SERVER_STOPPING" });
  expect(await server.output()).toContain("1 of 1 search(es) interrupted and saved with what had finished");

  // The next start on the same data: the search is in the history with the providers that finished.
  const next = await startServer(sim, dataDir, {});
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
