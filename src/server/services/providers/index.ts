import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import { EnvError, type Env } from "#src/server/env.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import { anthropicAdapter } from "./anthropic.ts";
import { geminiAdapter } from "./gemini.ts";
import { providerModes } from "./mode.ts";
import { storableText } from "#src/core/storable-text.ts";
import { createLimiter, type Limiter } from "#src/server/services/search/limit.ts";
import { openaiAdapter } from "./openai.ts";
import { perplexityAdapter } from "./perplexity.ts";
import type { AdapterConfig, ProviderAdapter } from "./types.ts";

/** Every catalogue provider's adapter: a new catalogue row is a compile error here until it has one. */
const adapters = { openai: openaiAdapter, anthropic: anthropicAdapter, gemini: geminiAdapter, perplexity: perplexityAdapter } satisfies Record<
  ProviderId,
  (config: AdapterConfig) => ProviderAdapter
>;

export type SimulatorUrls = Record<ProviderId, string>;

/** Keys simulators accept; never a real key, so nothing real can be billed by mistake. */
const SIMULATOR_KEY = "simulated-key";

/**
 * Every answer an adapter gives, in text the database can keep (src/core/storable-text.ts), with
 * at most `inFlight` of the provider's calls running at once across all searches (`limit`, shared
 * by the provider's search model and its extraction model; the rest wait their turn; a call whose
 * search was cancelled meanwhile ends as soon as it starts).
 */
function limitedAndStorable(adapter: ProviderAdapter, limit: Limiter): ProviderAdapter {
  return {
    ...adapter,
    search: (call) => limit(async () => storableText(await adapter.search(call))),
    structured: (request, signal) => limit(async () => storableText(await adapter.structured(request, signal))),
  };
}

/**
 * One adapter per connected provider: live ones use the key and base URL from the environment,
 * simulated ones the loopback simulator's URL; `off` providers are null ("Not Connected"). Each
 * carries its extractor: its own small model, or EXTRACTION_PROVIDER's for every provider (ADR 039).
 */
export function createProviders(
  env: Pick<Env, "SIMULATE_PROVIDERS" | "NODE_ENV" | "providers" | "GEMINI_REDIRECT_ORIGINS"> &
    Partial<Pick<Env, "PROVIDER_CONCURRENCY" | "EXTRACTION_PROVIDER">>,
  simulator?: Readonly<SimulatorUrls>,
): Providers {
  const modes = providerModes(env);
  const inFlight = env.PROVIDER_CONCURRENCY ?? Number.POSITIVE_INFINITY;
  const limits = perProvider(() => createLimiter(inFlight));
  const adapterFor = (id: ProviderId, model: string): ProviderAdapter | null => {
    const { apiKey, baseUrl } = env.providers[id];
    if (modes[id] === "live" && apiKey)
      return limitedAndStorable(adapters[id]({ apiKey, baseURL: baseUrl, model, simulated: false, redirectOrigins: env.GEMINI_REDIRECT_ORIGINS }), limits[id]);
    if (modes[id] !== "simulated") return null;
    if (!simulator) throw new Error(`${id} is simulated but no simulator is running`);
    // A simulator's citations redirect through the simulator itself.
    return limitedAndStorable(
      adapters[id]({ apiKey: SIMULATOR_KEY, baseURL: simulator[id], model, simulated: true, redirectOrigins: [new URL(simulator[id]).origin] }),
      limits[id],
    );
  };
  const shared = env.EXTRACTION_PROVIDER;
  const sharedExtractor = shared ? adapterFor(shared, env.providers[shared].extractionModel) : null;
  // A misconfiguration stops start-up with the fix, rather than every answer falling back to the prose reading.
  if (shared && !sharedExtractor)
    throw new EnvError(
      `EXTRACTION_PROVIDER=${shared}, but ${shared} is not connected: set its API key, or unset EXTRACTION_PROVIDER so each provider reads its own answers`,
    );
  return perProvider((id) => {
    const adapter = adapterFor(id, env.providers[id].model);
    if (!adapter) return null;
    const extractor = sharedExtractor ?? adapterFor(id, env.providers[id].extractionModel);
    return extractor ? { ...adapter, extractor } : adapter;
  });
}
