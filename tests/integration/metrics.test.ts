import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { Tracker, TrackerRun } from "#src/contract/trackers.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { waitFor } from "#tests/support/wait.ts";

const TOKEN = "metrics-token-for-tests-0123456789abcdef";

let simulator: Simulator;
beforeAll(() => {
  simulator = startSimulator({ latency: { kind: "fixed", ms: 5 } });
});
afterAll(async () => {
  await simulator.stop();
});

/** Everything written to the console while a test runs: the token must never be among it. */
let logged: string[] = [];
const originals = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
beforeEach(() => {
  logged = [];
  for (const name of Object.keys(originals) as Array<keyof typeof originals>)
    console[name] = (...args: unknown[]) => {
      logged.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : typeof arg === "string" ? arg : Bun.inspect(arg))).join(" "));
      originals[name](...args);
    };
});
afterEach(() => {
  Object.assign(console, originals);
});

type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a text exposition (version 0.0.4), as Prometheus reads them: `name{label="value",…} number`. */
function parseExposition(text: string): { samples: Sample[]; help: Map<string, string>; types: Map<string, string> } {
  const samples: Sample[] = [];
  const help = new Map<string, string>();
  const types = new Map<string, string>();
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const comment = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (comment) {
      (comment[1] === "HELP" ? help : types).set(comment[2] as string, comment[3] as string);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key as string] = value as string;
    const text = match[3] as string;
    // Go's ParseFloat, as Prometheus reads values: NaN in any case (an event-loop mean before its first sample), ±Inf.
    const value = /^nan$/i.test(text)
      ? Number.NaN
      : /^[+-]?inf$/i.test(text)
        ? Number(`${text.replace(/inf/i, "")}1`) * Number.POSITIVE_INFINITY
        : Number(text);
    if (Number.isNaN(value) && !/^nan$/i.test(text)) throw new Error(`not a number: ${line}`);
    samples.push({ name: match[1] as string, labels, value });
  }
  return { samples, help, types };
}

/** The one sample of `name` whose labels include `labels`. */
function sampleOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

const definition = {
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 2,
  schedule: { cron: "0 9 * * 1", timezone: "UTC" },
};

describeEachDatabase("metrics for operators", (getDb) => {
  test("without METRICS_TOKEN /metrics does not exist: 404 as any unknown path", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator });
    try {
      const visitor = createAgent(app);
      const unknown = await visitor.request("GET", "/no-such-path");
      const metrics = await visitor.request("GET", "/metrics", undefined, { authorization: `Bearer ${TOKEN}` });
      expect(metrics.status).toBe(404);
      expect(metrics.status).toBe(unknown.status);
      expect(metrics.headers.get("content-type")).toBe(unknown.headers.get("content-type"));
    } finally {
      await queue.stop();
    }
  });

  test("with METRICS_TOKEN: 401 without the bearer token or with another; with it, provider calls, tick lateness, runs, spend and job queues in the Prometheus text format; the token is never logged nor documented", async () => {
    simulator.clearLog();
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { ...liveProviderEnv(simulator), METRICS_TOKEN: TOKEN } });
    try {
      const visitor = createAgent(app);
      for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}extra`, `Basic ${btoa(`metrics:${TOKEN}`)}`, TOKEN]) {
        const refused = await visitor.request("GET", "/metrics", undefined, authorization ? { authorization } : {});
        expect({ authorization, status: refused.status }).toEqual({ authorization, status: 401 });
        expect(refused.headers.get("www-authenticate")).toStartWith("Bearer");
        expect(refused.json).toMatchObject({ code: "NOT_SIGNED_IN", message: expect.stringContaining("METRICS_TOKEN") });
        expect(refused.text).not.toContain(TOKEN);
      }

      // A search, and a tracker's scheduled run (ticked 5 s after its schedule time), on the live-priced simulator.
      const { agent } = await createProAgent(app, getDb());
      await agent.api.search({ query: "best crm" });
      const tracker = (await agent.request("POST", "/api/trackers", definition)).json as Tracker;
      await queue.send("tracker-tick", { trackerId: tracker.id, scheduledFor: new Date(Date.now() - 5_000).toISOString() });
      await waitFor(
        async () => {
          const { runs } = await agent.api.listTrackerRuns(tracker.id);
          return runs[0]?.status === "completed" && runs[0];
        },
        { what: "the scheduled run to complete" },
      );
      // A job due on a queue nobody works: the queue's depth shows it.
      await queue.send("metrics-probe", { waiting: true });

      const scrape = await visitor.request("GET", "/metrics", undefined, { authorization: `Bearer ${TOKEN}` });
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const { samples, help, types } = parseExposition(scrape.text);

      // Provider calls, by provider, kind and outcome, with their latency: the search's and the run's (2 iterations) answers.
      for (const provider of ["openai", "anthropic", "gemini"]) {
        expect(sampleOf(samples, "aisc_provider_calls_total", { provider, call: "search", outcome: "ok" })).toBeGreaterThanOrEqual(3);
        expect(sampleOf(samples, "aisc_provider_call_duration_seconds_count", { provider, call: "search", outcome: "ok" })).toBeGreaterThanOrEqual(3);
        expect(sampleOf(samples, "aisc_provider_call_duration_seconds_bucket", { provider, call: "search", outcome: "ok", le: "+Inf" })).toBeGreaterThanOrEqual(
          3,
        );
        expect(sampleOf(samples, "aisc_provider_call_duration_seconds_sum", { provider, call: "search", outcome: "ok" })).toBeGreaterThan(0);
      }
      expect(types.get("aisc_provider_call_duration_seconds")).toBe("histogram");
      // The tick made its run about 5 s late.
      expect(sampleOf(samples, "aisc_tracker_tick_lateness_seconds_count")).toBe(1);
      expect(sampleOf(samples, "aisc_tracker_tick_lateness_seconds_sum")).toBeGreaterThanOrEqual(5);
      expect(sampleOf(samples, "aisc_tracker_tick_lateness_seconds_bucket", { le: "1" })).toBe(0);
      // Runs by status, from the database.
      expect(sampleOf(samples, "aisc_tracker_runs_last_24h", { status: "completed" })).toBeGreaterThanOrEqual(1);
      expect(sampleOf(samples, "aisc_tracker_runs_active", { status: "running" })).toBe(0);
      expect(sampleOf(samples, "aisc_tracker_oldest_queued_run_seconds")).toBe(0);
      // Spend today, as the limits count it: the search's and the run's answers cost money at live prices.
      expect(sampleOf(samples, "aisc_spend_today_usd", { source: "search" })).toBeGreaterThan(0);
      expect(sampleOf(samples, "aisc_spend_today_usd", { source: "tracker" })).toBeGreaterThan(0);
      expect(sampleOf(samples, "aisc_spend_held_usd", { source: "tracker" })).toBe(0);
      // Job queues: every queue, the unworked one with its job due.
      expect(sampleOf(samples, "aisc_job_queue_depth", { queue: "metrics-probe" })).toBe(1);
      expect(sampleOf(samples, "aisc_job_queue_oldest_due_seconds", { queue: "metrics-probe" })).toBeGreaterThanOrEqual(0);
      expect(sampleOf(samples, "aisc_job_queue_depth", { queue: "tracker-query" })).toBe(0);
      expect(sampleOf(samples, "aisc_tracker_query_job_retries_last_24h", { state: "completed" })).toBe(0);
      expect(types.get("aisc_provider_slots_in_use")).toBe("gauge");
      // The process: memory, CPU, event loop lag.
      expect(sampleOf(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
      expect(sampleOf(samples, "process_cpu_seconds_total")).toBeGreaterThan(0);
      expect(sampleOf(samples, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
      expect(sampleOf(samples, "aisc_metrics_scrape_errors_total", { family: "aisc_spend" })).toBe(0);
      // Every metric of ours says what it means.
      for (const name of new Set(samples.map((s) => s.name.replace(/_(bucket|count|sum)$/, "")).filter((n) => n.startsWith("aisc_"))))
        expect({ name, help: (help.get(name) ?? "").length > 20 }).toEqual({ name, help: true });

      // Not in the API reference.
      const spec = (await visitor.request("GET", "/api/docs/json")).json as { paths: Record<string, unknown> };
      expect(Object.keys(spec.paths)).not.toContain("/metrics");
      expect(logged.some((line) => line.includes(TOKEN))).toBe(false);
    } finally {
      await queue.stop();
    }
  });

  test("a provider call's outcome is told apart: rate-limited, timed out, a provider error, then answered, each timed", async () => {
    simulator.clearLog();
    const retry = { retries: 2, baseDelayMs: 5, maxDelayMs: 50, callTimeoutMs: 400 };
    const { app, queue } = await createTestApp(getDb(), { simulator, retry, env: { METRICS_TOKEN: TOKEN } });
    try {
      simulator.setFaults("openai", [{ kind: "rate_limit", retryAfterSeconds: 0 }, { kind: "timeout" }], { kinds: ["search"] });
      simulator.setFaults("anthropic", [{ kind: "server_error" }], { kinds: ["search"] });
      const visitor = createAgent(app);
      await visitor.api.search({ query: "best crm" });
      const { samples } = parseExposition((await visitor.request("GET", "/metrics", undefined, { authorization: `Bearer ${TOKEN}` })).text);
      const calls = (provider: string, outcome: string) => sampleOf(samples, "aisc_provider_calls_total", { provider, call: "search", outcome });
      expect({ rateLimited: calls("openai", "rate_limited"), timeout: calls("openai", "timeout"), ok: calls("openai", "ok") }).toEqual({
        rateLimited: 1,
        timeout: 1,
        ok: 1,
      });
      expect({ error: calls("anthropic", "provider_error"), ok: calls("anthropic", "ok") }).toEqual({ error: 1, ok: 1 });
      // The timed-out call waited its whole limit.
      expect(sampleOf(samples, "aisc_provider_call_duration_seconds_sum", { provider: "openai", call: "search", outcome: "timeout" })).toBeGreaterThanOrEqual(
        0.39,
      );
    } finally {
      simulator.setFaults("openai", []);
      simulator.setFaults("anthropic", []);
      await queue.stop();
    }
  });

  test("a family whose read fails is left out and counted; the scrape still answers", async () => {
    const { app, queue } = await createTestApp(getDb(), { simulator, env: { METRICS_TOKEN: TOKEN } });
    const scrape = async () => parseExposition((await createAgent(app).request("GET", "/metrics", undefined, { authorization: `Bearer ${TOKEN}` })).text);
    try {
      await getDb().db.execute(sql`alter table provider_slots rename to provider_slots_away`);
      try {
        const { samples, types } = await scrape();
        expect(sampleOf(samples, "aisc_metrics_scrape_errors_total", { family: "aisc_provider_slots" })).toBe(1);
        expect(types.has("aisc_provider_slots_in_use")).toBe(false);
        expect(types.get("aisc_tracker_runs_active")).toBe("gauge");
      } finally {
        await getDb().db.execute(sql`alter table provider_slots_away rename to provider_slots`);
      }
      const { samples, types } = await scrape();
      expect(types.get("aisc_provider_slots_in_use")).toBe("gauge");
      expect(sampleOf(samples, "aisc_metrics_scrape_errors_total", { family: "aisc_provider_slots" })).toBe(1);
      expect(logged.some((line) => line.includes("aisc_provider_slots left out"))).toBe(true);
      expect(logged.some((line) => line.includes(TOKEN))).toBe(false);
    } finally {
      await queue.stop();
    }
  });
});

// The token is checked at start: too short stops the start, and the message never repeats it.
test("METRICS_TOKEN shorter than 32 characters stops the start without repeating it", async () => {
  const { parseEnv } = await import("#src/server/env.ts");
  expect(() => parseEnv({ METRICS_TOKEN: "short-secret" })).toThrow(
    "Invalid environment variable METRICS_TOKEN: expected a secret of at least 32 characters, got 12 characters",
  );
  expect(parseEnv({ METRICS_TOKEN: TOKEN }).METRICS_TOKEN).toBe(TOKEN);
});
