import { describe, expect, test } from "bun:test";
import { providerConfig } from "#src/contract/provider-config.ts";
import { providerIds } from "#src/contract/providers.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createTestApp, liveProviderEnv, useSimulatedDatabase } from "#tests/support/app.ts";

/*
 * Gemini 3 deprecates temperature, top_p and top_k (Google's changelog, 2026-07-21), and recent
 * Claude and GPT models take none either: every provider's search and reading calls leave them to
 * the model (ADR 061). Read from what the simulator received on the wire, through the real SDKs.
 */
const fx = useSimulatedDatabase();

const SAMPLING = ["temperature", "top_p", "top_k", "topP", "topK"];

/** Every sampling parameter a request body carries, at its top level or in Gemini's generationConfig. */
function samplingOf(body: unknown): string[] {
  const record = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});
  const top = record(body);
  return [...Object.keys(top), ...Object.keys(record(top.generationConfig)).map((k) => `generationConfig.${k}`)].filter((k) =>
    SAMPLING.includes(k.replace("generationConfig.", "")),
  );
}

describe("no sampling parameters on the wire", () => {
  test("a search and its reading, on every provider's default model", async () => {
    const { app } = await createTestApp(fx.db, { simulator: fx.sim, env: liveProviderEnv(fx.sim) });
    fx.sim.clearLog();
    const { result } = await createAgent(app).api.search({ query: "best crm for a small agency" });
    for (const id of providerIds) expect({ id, status: result.models[id]?.status }).toEqual({ id, status: "ok" });

    const calls = fx.sim.requests.filter((r) => r.kind !== "model");
    for (const id of providerIds) {
      const kinds = new Set(calls.filter((r) => r.provider === id).map((r) => r.kind));
      expect({ id, search: kinds.has("search"), extraction: kinds.has("extraction") }).toEqual({ id, search: true, extraction: true });
    }
    for (const call of calls)
      expect({ provider: call.provider, kind: call.kind, sampling: samplingOf(call.body) }).toEqual({ provider: call.provider, kind: call.kind, sampling: [] });

    // Gemini's calls went to its default, grounded with Google Search for the search.
    const gemini = calls.filter((r) => r.provider === "gemini");
    expect(gemini.every((r) => r.path.endsWith(`/models/${providerConfig.gemini.defaultModel}:generateContent`))).toBe(true);
    expect(gemini.find((r) => r.kind === "search")?.body).toMatchObject({ tools: [{ googleSearch: {} }] });
  });
});
