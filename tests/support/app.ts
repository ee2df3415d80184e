import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "bun:test";
import type { Database } from "#db/client.ts";
import { providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { App } from "#src/server/app.ts";
import { assemble, type AssembleOptions } from "#src/server/assemble.ts";
import type { Env } from "#src/server/env.ts";
import type { Instance } from "#src/server/instance.ts";
import type { RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { ProviderStatus } from "#src/server/services/providers/status.ts";
import { MIN_POLLING_INTERVAL_SECONDS } from "#src/server/jobs/index.ts";
import type { JobQueue } from "#src/server/services/job-queue.ts";
import { startSimulator, type Simulator } from "#dev/simulators/index.ts";
import { startStripeSimulator, type StripeSimulator } from "#dev/simulators/stripe.ts";
import { openTestDatabase } from "#tests/support/databases.ts";
import { loadPageRenderer } from "#web/render.tsx";

/** Fast retries, so fault tests take milliseconds rather than the production back-off. */
export const testRetry: RetryPolicy = { retries: 2, baseDelayMs: 5, maxDelayMs: 50, callTimeoutMs: 10_000 };

export type TestAppOptions = {
  env?: Record<string, string>;
  simulator?: Simulator;
  retry?: RetryPolicy;
  /** The app's time (sessions, login throttle, quota day); real time unless given. */
  clock?: () => Date;
  /**
   * The Stripe simulator billing runs on (its webhooks are delivered into this app). By default
   * one shared by test apps, whose webhooks go to the app created last: a suite that follows
   * webhooks passes its own.
   */
  stripe?: StripeSimulator;
  /** This app as one of several instances on the database (started by the test); an unstarted one by default. */
  instance?: Instance;
  /** The page renderer (the web's by default). */
  renderer?: AssembleOptions["renderer"];
  /** How often its job queue looks for due schedule ticks and lapsed heartbeats (pg-boss's defaults unless given). */
  jobs?: AssembleOptions["jobs"];
};

/**
 * The real app on a given database with a test environment. Providers run on a loopback
 * simulator (fixed small latency unless one is passed), through their real SDK adapters.
 */
export async function createTestApp(
  database: Database,
  options: TestAppOptions = {},
): Promise<{ app: App; env: Env; simulator: Simulator; stripe: StripeSimulator; queue: JobQueue; providerStatus: ProviderStatus }> {
  const simulator = options.simulator ?? (sharedSimulator ??= startSimulator({ latency: { kind: "fixed", ms: 5 } }));
  const stripe = options.stripe ?? (sharedStripe ??= startStripeSimulator({ webhookRetryDelaysS: [0.05, 0.1] }));
  const { app, env, queue, providerStatus } = await assemble({
    env: {
      NODE_ENV: "test",
      DATA_DIR: mkdtempSync(join(tmpdir(), "ai-search-test-")),
      SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
      SIMULATE_PROVIDERS: "on",
      // app.handle has no socket: each agent says its address in X-Forwarded-For (createAgent's `ip`).
      TRUST_PROXY: "1",
      ...options.env,
    },
    renderer: options.renderer ?? loadPageRenderer,
    database,
    simulator,
    stripe,
    instance: options.instance,
    // The queue starts at the first job (a variant batch); a suite that runs batches stops it before closing its database.
    pollingIntervalSeconds: MIN_POLLING_INTERVAL_SECONDS,
    jobs: options.jobs,
    retry: options.retry ?? testRetry,
    clock: options.clock,
  });
  return { app, env, simulator, stripe, queue, providerStatus };
}

/**
 * For a suite that injects faults: its own in-memory database and a fast simulator, opened before
 * the suite and closed after it. Read `db` and `sim` inside tests, not at collection time.
 */
export function useSimulatedDatabase() {
  const fixture = {} as { db: Database; sim: Simulator };
  beforeAll(async () => {
    fixture.db = await openTestDatabase("pglite");
    fixture.sim = startSimulator({ latency: { kind: "fixed", ms: 5 } });
  });
  afterAll(async () => {
    await fixture.sim.stop();
    await fixture.db.close();
  });
  return fixture;
}

// Tests that inject faults or latency start their own simulator; the rest share this one.
let sharedSimulator: Simulator | undefined;
let sharedStripe: StripeSimulator | undefined;

/**
 * Every provider live against a wire-compatible server (the simulator): a key and a base URL under
 * the names the catalogue gives them, so the app runs its real SDK adapters as with real keys.
 */
export function liveProviderEnv(simulator: Pick<Simulator, "baseUrls" | "origin">, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SIMULATE_PROVIDERS: "off",
    ...Object.fromEntries(
      providerIds.flatMap((id) => [
        [providerConfig[id].env.apiKey, `live-key-${id}`],
        [providerConfig[id].env.baseUrl, simulator.baseUrls[id]],
      ]),
    ),
    // Its grounding redirects live on that server, not Google's (tests/integration/redirects.test.ts).
    GEMINI_REDIRECT_ORIGINS: simulator.origin,
    ...extra,
  };
}

export const BASE = "http://localhost";
/** Where the Stripe simulator's webhooks are addressed when it delivers them straight into a test app. */
export const WEBHOOK_URL = `${BASE}/api/stripe/webhook`;

export function get(app: App, path: string, init?: RequestInit) {
  return app.handle(new Request(BASE + path, init));
}
