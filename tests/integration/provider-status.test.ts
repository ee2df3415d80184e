import { describe, expect, test } from "bun:test";
import { failureLabels, type ProviderFailure } from "#src/contract/provider-failures.ts";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { ApiStatus } from "#src/contract/status.ts";
import type { FaultFor } from "#dev/simulators/index.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv, useSimulatedDatabase } from "#tests/support/app.ts";
import { waitFor } from "#tests/support/wait.ts";

/*
 * The Connection Status tells the truth (ADR 040): every provider is live here (a key and a base
 * URL, pointing at the simulator, through the real SDKs), the simulator answers each failure in
 * the provider's own wire shape, and /api/status and a search's error card name the same cause
 * and the same remedy.
 */
const fx = useSimulatedDatabase();

const liveApp = (extra?: Record<string, string>) => createTestApp(fx.db, { simulator: fx.sim, env: liveProviderEnv(fx.sim, extra) });

/** What each fault must read as, for a provider, on the status and on the card. */
function expected(id: ProviderId, failure: ProviderFailure): string {
  const { company } = providerCatalogue[id];
  const { env, defaultModel } = providerConfig[id];
  const billingUrl = {
    openai: "https://platform.openai.com/settings/organization/billing",
    anthropic: "https://platform.claude.com/settings/billing",
    gemini: "https://aistudio.google.com/usage",
    perplexity: "https://www.perplexity.ai/account/api/billing",
  }[id];
  return {
    no_key: `${env.apiKey} is not set: set it to a ${company} API key to search with it.`,
    key_refused: `${company} refused the API key in ${env.apiKey}: set ${env.apiKey} to a valid ${company} API key.`,
    model_not_found: `${env.model}=${defaultModel} is no longer offered by ${company}: set ${env.model} to a current model.`,
    quota_exhausted: `The ${company} account of ${env.apiKey} is out of credit or quota: add credit or raise its limit at ${billingUrl}.`,
    rate_limited: `${company} is rate-limiting this key right now (429): calls wait the time it asks and try again; if it lasts, lower PROVIDER_CONCURRENCY or raise the key's rate limits.`,
    unreachable: `${company}'s API could not be reached: check this server's network connection, and ${env.baseUrl} if it is set.`,
    provider_error: "",
  }[failure];
}

const faults: Array<[ProviderFailure, FaultFor<ProviderId>]> = [
  ["key_refused", { kind: "auth_refused" }],
  ["model_not_found", { kind: "model_not_found" }],
  ["quota_exhausted", { kind: "quota_exhausted" }],
  ["rate_limited", { kind: "rate_limit", retryAfterSeconds: 0 }],
  ["unreachable", { kind: "unreachable" }],
];

describe("the Connection Status and the error card name the same cause and remedy", () => {
  for (const [failure, fault] of faults)
    test(`${failure}: each provider, as its API answers it`, async () => {
      const { app, providerStatus } = await liveApp();
      const visitor = createAgent(app);
      for (const id of providerIds) {
        fx.sim.setFaults(id, [fault], { persistent: true });
        try {
          await providerStatus.checkNow();
          const status: ApiStatus = await visitor.api.status();
          expect({ id, health: status.providers[id], connected: status[id] }).toEqual({
            id,
            health: {
              state: "failing",
              failure,
              label: failureLabels[failure],
              message: expected(id, failure),
              checkedAt: expect.any(String) as unknown as string,
              model: providerConfig[id].defaultModel,
              extraction: { provider: id, model: providerConfig[id].defaultExtractionModel },
            },
            connected: false,
          });
          // The others are unaffected.
          for (const other of providerIds.filter((p) => p !== id))
            expect({ other, state: status.providers[other].state }).toEqual({ other, state: "connected" });

          const { result } = await visitor.api.search({ query: "best crm for a small agency" });
          expect({ id, card: result.models[id] }).toMatchObject({ id, card: { status: "error", failure, error: expected(id, failure) } });
        } finally {
          fx.sim.clearFaults();
        }
      }
    });

  test("no key: the provider is not connected, saying which variable to set, on the status and its card", async () => {
    const { app, providerStatus } = await liveApp({ GEMINI_API_KEY: "" });
    await providerStatus.checkNow();
    const visitor = createAgent(app);
    const status = await visitor.api.status();
    expect(status.modes.gemini).toBe("off");
    expect(status.gemini).toBe(false);
    expect(status.providers.gemini).toMatchObject({ state: "failing", failure: "no_key", label: "No Key", message: expected("gemini", "no_key") });
    const { result } = await visitor.api.search({ query: "best crm for a small agency" });
    expect(result.models.gemini).toMatchObject({ status: "off", failure: "no_key", error: expected("gemini", "no_key") });
  });

  test("a retired model names its variable and the default to go back to", async () => {
    const { app, providerStatus } = await liveApp({ GEMINI_MODEL: "gemini-2.5-flash" });
    fx.sim.setFaults("gemini", [{ kind: "model_not_found" }], { persistent: true });
    try {
      await providerStatus.checkNow();
      const status = await createAgent(app).api.status();
      expect(status.providers.gemini).toMatchObject({
        state: "failing",
        failure: "model_not_found",
        model: "gemini-2.5-flash",
        message: `GEMINI_MODEL=gemini-2.5-flash is no longer offered by Google: set GEMINI_MODEL to a current model, or unset it for the default (${providerConfig.gemini.defaultModel}).`,
      });
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("the check retrieves each configured model with the provider's own call, and nothing else", async () => {
    const { providerStatus } = await liveApp();
    const before = fx.sim.requests.length;
    await providerStatus.checkNow();
    const checks = fx.sim.requests.slice(before);
    expect(checks.every((r) => r.kind === "model")).toBe(true);
    expect(checks.map((r) => `${r.provider} ${r.path}`).sort()).toEqual(
      [
        ...providerIds.map((id) => `${id} ${modelPath(id, providerConfig[id].defaultModel)}`),
        ...providerIds.map((id) => `${id} ${modelPath(id, providerConfig[id].defaultExtractionModel)}`),
      ].sort(),
    );
    // Perplexity's check asks its model, without the web search tool, for a few tokens.
    for (const check of checks.filter((r) => r.provider === "perplexity")) {
      expect(check.body).toMatchObject({ model: providerConfig.perplexity.defaultModel, max_output_tokens: 16 });
      expect(check.body).not.toHaveProperty("tools");
    }
  });
});

describe("checked at start and again every few minutes", () => {
  test("the periodic check picks up a provider that recovered", async () => {
    // A check every 60 ms here (PROVIDER_CHECK_MINUTES=0.001); 5 minutes by default.
    const { app, providerStatus } = await liveApp({ PROVIDER_CHECK_MINUTES: "0.001" });
    const visitor = createAgent(app);
    fx.sim.setFaults("anthropic", [{ kind: "quota_exhausted" }], { persistent: true });
    try {
      expect((await visitor.api.status()).providers.anthropic.state).toBe("checking");
      providerStatus.start();
      await waitFor(async () => (await visitor.api.status()).providers.anthropic.failure === "quota_exhausted", {
        what: "the first check to find the quota spent",
      });
      fx.sim.clearFaults();
      await waitFor(async () => (await visitor.api.status()).providers.anthropic.state === "connected", { what: "a later check to find it recovered" });
      expect((await visitor.api.status()).anthropic).toBe(true);
    } finally {
      providerStatus.stop();
      fx.sim.clearFaults();
    }
  });

  test("a failing model that reads answers leaves searches working: degraded, with the reason", async () => {
    // Anthropic's small model reads every provider's answers; its models answer 404.
    const { app, providerStatus } = await liveApp({ EXTRACTION_PROVIDER: "anthropic" });
    fx.sim.setFaults("anthropic", [{ kind: "model_not_found" }], { kinds: ["model"], persistent: true });
    try {
      await providerStatus.checkNow();
      const status = await createAgent(app).api.status();
      const model = providerConfig.anthropic.defaultExtractionModel;
      expect(status.providers.openai).toMatchObject({
        state: "degraded",
        failure: "model_not_found",
        extraction: { provider: "anthropic", model },
        label: "Connected",
        message: `ChatGPT / OpenAI answers with live web search (${providerConfig.openai.defaultModel}). But the model that reads the answers failed: ANTHROPIC_EXTRACTION_MODEL=${model} is no longer offered by Anthropic: set ANTHROPIC_EXTRACTION_MODEL to a current model. Until then, answers are read from their text.`,
      });
      expect(status.openai).toBe(true);
      expect(status.providers.anthropic).toMatchObject({ state: "failing", failure: "model_not_found" });
    } finally {
      fx.sim.clearFaults();
    }
  });
});

describe("rate limits: a 429 with Retry-After is honoured and counted", () => {
  test("the search waits as long as each provider asks, asks again, and the card says so", async () => {
    const { app } = await liveApp();
    // Each provider's 429 in its own wire (Retry-After; Gemini's RetryInfo, the only wait its SDK's error keeps).
    for (const id of providerIds) fx.sim.setFaults(id, [{ kind: "rate_limit", retryAfterSeconds: 1 }], { kinds: ["search"] });
    try {
      const before = fx.sim.requests.length;
      const { result } = await createAgent(app).api.search({ query: "best running shoes" });
      for (const id of providerIds) {
        const calls = fx.sim.requests.slice(before).filter((r) => r.provider === id && r.kind === "search");
        expect({ id, faults: calls.map((r) => r.fault) }).toEqual({ id, faults: ["rate_limit", undefined] });
        // Asked again only after the second it asked for (the test policy's own backoff is 5-50 ms).
        expect({ id, waited: (calls[1]?.atMs ?? 0) - (calls[0]?.atMs ?? 0) >= 1000 }).toEqual({ id, waited: true });
        expect({ id, card: result.models[id] }).toMatchObject({ id, card: { status: "ok", rateLimited: { count: 1, waitedMs: 1000 } } });
      }
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("an answer that met no 429 says nothing about rate limits", async () => {
    const { app } = await liveApp();
    const { result } = await createAgent(app).api.search({ query: "best running shoes" });
    for (const id of providerIds) expect({ id, rateLimited: result.models[id]?.rateLimited }).toEqual({ id, rateLimited: undefined });
  });

  test("a wait that would pass the search's deadline is not made: the card names the rate limit, counted", async () => {
    const { app } = await liveApp({ SEARCH_DEADLINE_SECONDS: "2" });
    fx.sim.setFaults("gemini", [{ kind: "rate_limit", retryAfterSeconds: 30 }], { persistent: true });
    try {
      const { result } = await createAgent(app).api.search({ query: "best running shoes" });
      expect(result.models.gemini).toMatchObject({
        status: "error",
        failure: "rate_limited",
        error: expected("gemini", "rate_limited"),
        rateLimited: { count: 1, waitedMs: 0 },
      });
    } finally {
      fx.sim.clearFaults();
    }
  });

  test("an exhausted quota is not retried: no wait brings credit back", async () => {
    const { app } = await liveApp();
    fx.sim.setFaults("openai", [{ kind: "quota_exhausted" }], { persistent: true });
    try {
      const before = fx.sim.requests.length;
      await createAgent(app).api.search({ query: "best running shoes" });
      expect(fx.sim.requests.slice(before).filter((r) => r.provider === "openai" && r.kind === "search").length).toBe(1);
    } finally {
      fx.sim.clearFaults();
    }
  });
});

/** The path each SDK retrieves a model at (the adapters pin Gemini to v1beta). */
/** What each provider's check asks: its model retrieved, or (Perplexity, which has no models endpoint) a tool-less answer of a few tokens. */
function modelPath(id: ProviderId, model: string): string {
  if (id === "perplexity") return "/perplexity/v1/responses";
  return id === "gemini" ? `/v1beta/models/${model}` : `/v1/models/${model}`;
}
