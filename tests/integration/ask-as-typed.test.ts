import { afterAll, describe, expect, test } from "bun:test";
import { providerIds } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { ModelResult } from "#src/contract/search-result.ts";
import { EnvError, parseEnv } from "#src/server/env.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import { startSimulator } from "#dev/simulators/index.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";

/*
 * ADR 039: each provider gets the query exactly as the person typed it; what the
 * answer recommends is read afterwards by a small model's call, checked against the answer's text,
 * and read from the prose when that call fails.
 */

// Punctuation, quotes, a currency sign and a line a prompt template would be tempted to "fix".
const QUERY = 'best CRM for a 5-person "startup" team — under $50/month?';

function answers(result: { models: Partial<Record<string, ModelResult>> }): ModelResult[] {
  return providerIds.map((id) => {
    const model = result.models[id];
    if (!model || model.status !== "ok") throw new Error(`no answer from ${id}`);
    return model;
  });
}

describeEachDatabase("asked as typed, read afterwards", (getDb) => {
  const simulators: Array<{ stop(): Promise<void> | void }> = [];
  afterAll(async () => {
    for (const simulator of simulators) await simulator.stop();
  });
  const ownSimulator = (options: Parameters<typeof startSimulator>[0] = {}) => {
    const simulator = startSimulator({ latency: { kind: "fixed", ms: 5 }, ...options });
    simulators.push(simulator);
    return simulator;
  };

  test("every provider receives the query exactly as typed, and nothing else; the answer carries no JSON block and says how it was asked and read", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator });
    const { result } = await createAgent(app).api.search({ query: QUERY, iterations: 1 });

    for (const id of providerIds) {
      expect(simulator.searchPrompts(id)).toEqual([{ provider: id, prompt: QUERY }]);
      // The one other call is the reading of the answer, on the provider's small model.
      const readings = simulator.requests.filter((entry) => entry.provider === id && entry.kind === "extraction");
      expect(readings).toHaveLength(1);
      // The model is in the body (OpenAI, Anthropic) or the path (Gemini's models/{model}:generateContent).
      const asked = (readings[0]?.body as { model?: string }).model ?? /\/models\/([^/:]+):/.exec(readings[0]?.path ?? "")?.[1];
      expect(asked).toBe(providerConfig[id].defaultExtractionModel);
      expect(readings[0]?.prompt).toContain(result.models[id]?.rawResponse ?? "no answer");
    }
    for (const model of answers(result)) {
      expect(model.asked).toBe("as typed");
      expect(model.rawResponse).not.toMatch(/```json|"products"\s*:/);
      expect(model.extraction).toBe("extractor");
      expect(model.extractor).toEqual({ provider: model.provider, model: providerConfig[model.provider].defaultExtractionModel });
      expect(model.extractionUsage?.inputTokens).toBeGreaterThan(0);
      expect(model.extractionUsage?.outputTokens).toBeGreaterThan(0);
      expect(model.products.length).toBeGreaterThan(0);
    }
  });

  test("a small model's mistakes never reach the page: every product and company kept is written in the answer, where its position says; the names it made up are counted", async () => {
    // Every reading carries one of the small model's mistakes (dev/simulators/extractor-errors.ts).
    const simulator = ownSimulator({ extractorErrors: 1, seed: 7 });
    const { app } = await createTestApp(getDb(), { simulator });
    const { agent } = await createProAgent(app, getDb());
    let ungrounded = 0;
    const queries = [
      "best robot vacuum for pet hair",
      "best noise cancelling headphones",
      "best running shoes for flat feet",
      "best crm for startups",
      "best espresso machine under $500",
    ];
    for (const query of queries) {
      const { result } = await agent.api.search({ query, iterations: 5 });
      for (const model of answers(result)) {
        const text = model.rawResponse ?? "";
        for (const item of [...model.products, ...model.companies]) {
          expect({ name: item.name, at: item.mention ? "found" : "missing" }).toEqual({ name: item.name, at: "found" });
          if (item.mention) expect(text.slice(item.mention.start, item.mention.end).length).toBeGreaterThan(0);
          // No word of a kept name is one the answer never writes (a misspelt or invented maker).
          const unwritten = item.name.split(/\s+/).filter((word) => !text.toLowerCase().includes(word.toLowerCase().replace(/['’]s$/, "")));
          expect({ name: item.name, unwritten }).toEqual({ name: item.name, unwritten: [] });
        }
        ungrounded += model.ungrounded ?? 0;
      }
    }
    // Invented and misspelt names are among the mistakes: some were dropped, and counted.
    expect(ungrounded).toBeGreaterThan(0);
  });

  test("when the reading call fails, the prose is read instead: the search still lists what the answer recommends, and says how it was read", async () => {
    const simulator = ownSimulator();
    for (const id of providerIds) simulator.setFaults(id, [{ kind: "server_error" }], { persistent: true, kinds: ["extraction"] });
    const { app } = await createTestApp(getDb(), { simulator });
    const { result } = await createAgent(app).api.search({ query: "best running shoes", iterations: 1 });
    for (const model of answers(result)) {
      expect(model.extraction).toBe("prose");
      expect(model.extractor).toBeUndefined();
      expect(model.products.length).toBeGreaterThan(0);
      for (const product of model.products) expect(product.mention).toBeDefined();
    }
    // The search call itself was asked once per provider; the reading was tried, and retried once.
    for (const id of providerIds) expect(simulator.searchPrompts(id)).toHaveLength(1);
  });

  test("EXTRACTION_PROVIDER has one provider's small model read every provider's answers", async () => {
    const simulator = ownSimulator();
    const { app } = await createTestApp(getDb(), { simulator, env: { EXTRACTION_PROVIDER: "gemini" } });
    const { result } = await createAgent(app).api.search({ query: "best espresso machine", iterations: 1 });
    for (const model of answers(result)) expect(model.extractor).toEqual({ provider: "gemini", model: providerConfig.gemini.defaultExtractionModel });
    const readings = simulator.requests.filter((entry) => entry.kind === "extraction");
    expect(readings.map((entry) => entry.provider)).toEqual(providerIds.map(() => "gemini"));
    // Each provider was still asked itself.
    for (const id of providerIds) expect(simulator.searchPrompts(id)).toHaveLength(1);
  });
});

describe("the extraction settings", () => {
  test("a provider's extraction model can be set; EXTRACTION_PROVIDER naming a provider that is not connected stops the start with the fix", () => {
    const env = parseEnv({ OPENAI_API_KEY: "sk-test", OPENAI_EXTRACTION_MODEL: "gpt-5.4-mini", SIMULATE_PROVIDERS: "off", EXTRACTION_PROVIDER: "anthropic" });
    expect(env.providers.openai.extractionModel).toBe("gpt-5.4-mini");
    expect(env.providers.anthropic.extractionModel).toBe(providerConfig.anthropic.defaultExtractionModel);
    expect(() => createProviders(env)).toThrow(EnvError);
    expect(() => createProviders(env)).toThrow("EXTRACTION_PROVIDER=anthropic, but anthropic is not connected");
    expect(() => parseEnv({ EXTRACTION_PROVIDER: "mistral" })).toThrow("EXTRACTION_PROVIDER");
  });
});
