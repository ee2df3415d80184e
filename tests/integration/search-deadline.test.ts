import { afterEach, describe, expect, test } from "bun:test";
import * as v from "valibot";
import { resultTable } from "#cli/lib/render.ts";
import { streamSearch } from "#cli/lib/stream.ts";
import { createApiClient, type SearchStreamEvent } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { readEventStream } from "#src/client/sse.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { SearchEventWire } from "#src/contract/search-events.ts";
import { createInstance } from "#src/server/instance.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import { PROVIDER_INTERRUPTED } from "#src/server/services/search/stopped.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { tableRow } from "#tests/support/cli.ts";
import { BASE, createTestApp, useSimulatedDatabase } from "#tests/support/app.ts";
import { waitFor } from "#tests/support/wait.ts";
import { beginSearch, reduceSearch, type SearchState } from "#web/lib/search-state.ts";

/** Attempts that would each wait 10 minutes: only the search's time limit can end them in a test. */
const patient: RetryPolicy = { retries: 3, baseDelayMs: 5, maxDelayMs: 60_000, callTimeoutMs: 600_000 };

describe("search: time limit, heartbeats, drain", () => {
  const fx = useSimulatedDatabase();
  afterEach(() => fx.sim.clearFaults());
  /** Providers that never answer, until the test is over. */
  const hang = (...ids: ProviderId[]) => ids.forEach((id) => fx.sim.setFaults(id, [{ kind: "timeout" }], { persistent: true }));

  test("a search with one provider hung ends at its time limit: the others' answers are saved, and the hung one's card says the limit was reached", async () => {
    hang("gemini");
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, env: { SEARCH_DEADLINE_SECONDS: "1" } });
    const visitor = createAgent(app);
    const { result } = await visitor.api.search({ query: "best robot vacuum" });

    expect(result.models.gemini).toMatchObject({ status: "error", stopped: "deadline", error: "No answer within 1 s: the search's time limit was reached." });
    expect(result.models.openai?.status).toBe("ok");
    expect(result.models.anthropic?.status).toBe("ok");
    // The CLI's table says it too, in Gemini's column (its cell wraps at 80 columns: read the cell's words, not the lines).
    expect(tableRow(resultTable(result), "Status")[providerIds.indexOf("gemini") + 1]).toBe(
      "timed out: No answer within 1 s: the search's time limit was reached.",
    );
    const saved = await visitor.api.getSearch(result.id);
    expect(saved.models.gemini).toEqual(result.models.gemini);
    expect(saved.models.openai?.products).toEqual(result.models.openai?.products ?? []);
    expect((await visitor.api.listSearches()).searches.map((s) => s.id)).toEqual([result.id]);
    // The hung call was closed, not left open.
    await waitFor(() => fx.sim.aborts.some((abort) => abort.provider === "gemini"));
    // Answers were shown, so the free search counts.
    expect((await visitor.api.quota()).remaining).toBe(4);
  });

  test("PROVIDER_CONCURRENCY caps a provider's calls in flight across searches: with 2, another search's call to a hung provider waits its turn", async () => {
    hang("gemini");
    // 1 s for one iteration, about 3 s for five: the five-iteration search holds both of Gemini's slots past the other's limit.
    const { app } = await createTestApp(fx.db, {
      simulator: fx.sim,
      env: { PROVIDER_CONCURRENCY: "2", SEARCH_DEADLINE_SECONDS: "1", SEARCH_DEADLINE_SECONDS_AT_100: "50" },
    });
    fx.sim.clearLog();
    const calls = (id: ProviderId, query: string) =>
      fx.sim.requests.filter((r) => r.provider === id && r.kind === "search" && JSON.stringify(r.body).includes(query)).length;
    const { agent: pro } = await createProAgent(app, fx.db);
    const holding = pro.api.search({ query: "best robot vacuum", iterations: 5 });
    await waitFor(() => calls("gemini", "best robot vacuum") >= 2, { what: "both of Gemini's slots taken" });
    // This search ends only once its Gemini call has had its turn: the slots free at the first search's limit, after its own.
    const { result } = await createAgent(app).api.search({ query: "best air fryer" });
    expect(result.models.openai?.status).toBe("ok");
    expect(result.models.gemini).toMatchObject({ status: "error", stopped: "deadline", error: "No answer within 1 s: the search's time limit was reached." });
    expect(calls("openai", "best air fryer")).toBe(1);
    expect(calls("gemini", "best air fryer")).toBe(0);
    const held = (await holding).result;
    expect(held.stats.openai?.iterations).toBe(5);
    expect(held.models.gemini).toMatchObject({ status: "error", stopped: "deadline" });
  });

  test("a search whose every provider hangs fails at its time limit (502, saying so) and is given back", async () => {
    hang(...providerIds);
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, retry: patient, env: { SEARCH_DEADLINE_SECONDS: "0.5" } });
    const visitor = createAgent(app);
    await visitor.api.status(); // its anonymous id, so the quota asked after is the same caller's
    const answer = await visitor.request("POST", "/api/search", { query: "best e-bike" });
    expect(answer.status).toBe(502);
    expect(answer.json).toMatchObject({ remainingSearches: 5 });
    expect((answer.json as { message: string }).message).toContain("No answer within 0.5 s: the search's time limit was reached.");
    expect((await visitor.api.quota()).remaining).toBe(5);
  });

  test("an attempt's timeout shrinks to the time left: a limit shorter than one attempt cuts it, and no retry follows", async () => {
    hang("anthropic");
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, retry: patient, env: { SEARCH_DEADLINE_SECONDS: "0.5" } });
    const before = fx.sim.requests.length;
    const { result } = await createAgent(app).api.search({ query: "best standing desk" });
    expect(result.models.anthropic).toMatchObject({
      status: "error",
      stopped: "deadline",
      error: "No answer within 0.5 s: the search's time limit was reached.",
    });
    expect(fx.sim.requests.slice(before).filter((r) => r.provider === "anthropic" && r.kind === "search").length).toBe(1);
  });

  test("no retry starts whose wait would end past the limit: the provider's own error stands", async () => {
    fx.sim.setFaults("openai", [{ kind: "rate_limit", retryAfterSeconds: 30 }], { persistent: true });
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, retry: patient, env: { SEARCH_DEADLINE_SECONDS: "2" } });
    const before = fx.sim.requests.length;
    const { result } = await createAgent(app).api.search({ query: "best coffee machine" });
    expect(result.models.openai?.status).toBe("error");
    expect(result.models.openai?.stopped).toBeUndefined();
    expect(result.models.openai?.error).toContain("429");
    expect(fx.sim.requests.slice(before).filter((r) => r.provider === "openai" && r.kind === "search").length).toBe(1);
  });

  test("with several iterations, those not started by the limit count as cut: no call is made after it", async () => {
    hang("gemini");
    // One call at a time per provider: gemini's first iteration holds the other four back until the limit.
    const { app } = await createTestApp(fx.db, {
      simulator: fx.sim,
      retry: patient,
      env: { SEARCH_CONCURRENCY: "1", SEARCH_DEADLINE_SECONDS: "2", SEARCH_DEADLINE_SECONDS_AT_100: "2" },
    });
    const { agent: pro } = await createProAgent(app, fx.db);
    const before = fx.sim.requests.length;
    const events: SearchStreamEvent[] = [];
    for await (const event of pro.api.searchStream({ query: "best smartphone", iterations: 5 })) events.push(event);
    const done = events.at(-1);
    if (done?.type !== "done") throw new Error(`the search did not finish: ${JSON.stringify(done)}`);
    expect(events.filter((e) => e.type === "progress" && e.provider === "gemini").at(-1)).toEqual({
      type: "progress",
      provider: "gemini",
      completed: 0,
      failed: 5,
      total: 5,
    });
    expect(done.result.models.gemini?.stopped).toBe("deadline");
    expect(done.result.stats.openai?.iterations).toBe(5);
    expect(fx.sim.requests.slice(before).filter((r) => r.provider === "gemini" && r.kind === "search").length).toBe(1);
  });

  test("the event stream sends ': heartbeat' comment lines while providers are slow, and the reader the web and the CLI share skips them", async () => {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
    try {
      const { app } = await createTestApp(fx.db, { simulator: slow, env: { SSE_HEARTBEAT_SECONDS: "0.02" } });
      const visitor = createAgent(app);
      const response = await visitor.fetch(`${BASE}/api/search/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "best vpn" }),
      });
      const text = await response.text();
      const lines = text.split("\n");
      expect(lines.filter((line) => line === ": heartbeat").length).toBeGreaterThan(0);

      // The same bytes read back: every event, nothing for the comments.
      const events: SearchEventWire[] = [];
      for await (const data of readEventStream(new Response(text).body ?? new ReadableStream())) events.push(v.parse(SearchEventWire, data));
      expect(events.length).toBe(lines.filter((line) => line.startsWith("event: ")).length);
      expect(events[0]?.type).toBe("started");
      expect(events.at(-1)?.type).toBe("done");

      // The CLI's stream reader and the web's search state, over a live stream with heartbeats.
      const quiet = { update() {}, succeed() {}, fail() {} };
      const cli = await streamSearch(visitor.api, { query: "best crm" }, quiet);
      expect(cli.result.models.openai?.status).toBe("ok");
      let state: SearchState = beginSearch({ query: "best laptop", iterations: 1 }, Date.now());
      for await (const event of visitor.api.searchStream({ query: "best laptop" })) state = reduceSearch(state, event);
      expect(state.status).toBe("done");
    } finally {
      await slow.stop();
    }
  });

  test("over a real socket, a stream quieter than the server's idle timeout is kept open by its heartbeats and reaches its result", async () => {
    // Providers quiet for 10 s, a server that drops a connection idle for 8 s (Elysia sets 30 s; Bun
    // honours idle timeouts this short only roughly, and cuts below about 4 s whatever is written).
    const slow = startSimulator({ latency: { kind: "fixed", ms: 10_000 } });
    const { app } = await createTestApp(fx.db, { simulator: slow, retry: patient, env: { SSE_HEARTBEAT_SECONDS: "1" } });
    app.listen({ port: 0, hostname: "127.0.0.1", idleTimeout: 8 });
    try {
      const api = createApiClient({ baseUrl: `http://127.0.0.1:${app.server?.port}` });
      let state: SearchState = beginSearch({ query: "best air purifier", iterations: 1 }, Date.now());
      for await (const event of api.searchStream({ query: "best air purifier" })) state = reduceSearch(state, event);
      expect(state.status).toBe("done");
    } finally {
      await app.stop(true);
      await slow.stop();
    }
  });

  test("a drain lets a search in flight finish within the grace, and it is saved as completed", async () => {
    const slow = startSimulator({ latency: { kind: "fixed", ms: 300 } });
    try {
      const instance = createInstance(fx.db);
      const { app } = await createTestApp(fx.db, { simulator: slow, instance });
      const visitor = createAgent(app);
      const pending = visitor.request("POST", "/api/search", { query: "best note taking app" });
      await waitFor(() => slow.requests.length >= providerIds.length);
      expect(await instance.drain(30_000)).toEqual({ inFlight: 1, interrupted: 0 });
      expect((await pending).status).toBe(200);
      expect((await visitor.api.listSearches()).searches.map((s) => s.status)).toEqual(["completed"]);
    } finally {
      await slow.stop();
    }
  });

  test("past the grace, a drain stops what still runs and saves what finished as interrupted; answers shown are not given back; new searches are refused and not charged", async () => {
    hang("gemini");
    const instance = createInstance(fx.db);
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, instance, retry: patient });
    const visitor = createAgent(app);
    const events: SearchStreamEvent[] = [];
    const reading = (async () => {
      for await (const event of visitor.api.searchStream({ query: "best vpn" })) events.push(event);
    })().catch((error: unknown) => error);
    // Every provider but the hanging one has answered.
    await waitFor(() => events.filter((e) => e.type === "result").length === providerIds.length - 1, { what: "every answer but Gemini's" });

    expect(await instance.drain(50)).toEqual({ inFlight: 1, interrupted: 1 });
    // The stream's error event, thrown as an ApiError.
    const stopped = await reading;
    expect(stopped).toBeInstanceOf(ApiError);
    expect({ status: (stopped as ApiError).status, body: (stopped as ApiError).json }).toEqual({
      status: 503,
      body: { code: "SERVER_STOPPING", message: "The server restarted during this search: what had finished is saved in your history", remainingSearches: 4 },
    });
    const [listed] = (await visitor.api.listSearches()).searches;
    expect(listed).toMatchObject({ query: "best vpn", status: "interrupted" });
    expect(listed?.totalProducts).toBeGreaterThan(0);
    const saved = await visitor.request("GET", `/api/search/${listed?.id}`);
    expect(saved.json).toMatchObject({
      status: "interrupted",
      openai: { status: "ok" },
      anthropic: { status: "ok" },
      perplexity: { status: "ok" },
      gemini: { status: "error", stopped: "interrupted", error: PROVIDER_INTERRUPTED },
    });

    const late = await createAgent(app).request("POST", "/api/search", { query: "best crm" });
    expect(late.status).toBe(503);
    expect(late.json).toEqual({ code: "SERVER_STOPPING", message: "The server is restarting: try again in a moment", remainingSearches: 5 });
    expect(late.headers.get("retry-after")).toBe("5");
  });

  test("a search a drain stops before any answer was shown is given back, and its history entry says interrupted", async () => {
    hang(...providerIds);
    const instance = createInstance(fx.db);
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, instance, retry: patient });
    const visitor = createAgent(app);
    await visitor.api.status(); // its anonymous id, so the search and the history are the same caller's
    const before = fx.sim.requests.length;
    const pending = visitor.request("POST", "/api/search", { query: "best mattress" });
    await waitFor(() => fx.sim.requests.length - before === providerIds.length);
    expect(await instance.drain(0)).toEqual({ inFlight: 1, interrupted: 1 });
    expect(await pending).toMatchObject({ status: 503, json: { remainingSearches: 5 } });
    expect((await visitor.api.listSearches()).searches).toMatchObject([{ query: "best mattress", status: "interrupted", totalProducts: 0 }]);
  });
});
