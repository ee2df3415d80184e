import type { ProviderId } from "#src/contract/search.ts";
import type { Env } from "#src/server/env.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import { anthropicAdapter } from "./anthropic.ts";
import { geminiAdapter } from "./gemini.ts";
import { providerModes } from "./mode.ts";
import { openaiAdapter } from "./openai.ts";
import { createRedirectResolver } from "./redirects.ts";

export type SimulatorUrls = Record<ProviderId, string>;

/** Keys simulators accept; never a real key, so nothing real can be billed by mistake. */
const SIMULATOR_KEY = "simulated-key";

/**
 * One adapter per connected provider: live ones use the key and base URL from the environment,
 * simulated ones the loopback simulator's URL; `off` providers are null ("Not Connected").
 */
export function createProviders(env: Env, simulator?: SimulatorUrls): Providers {
  const modes = providerModes(env);
  const target = (id: ProviderId, key: string | undefined, baseURL: string | undefined) => {
    if (modes[id] === "live" && key) return { apiKey: key, baseURL, simulated: false };
    if (modes[id] === "simulated") {
      if (!simulator) throw new Error(`${id} is simulated but no simulator is running`);
      return { apiKey: SIMULATOR_KEY, baseURL: simulator[id], simulated: true };
    }
    return null;
  };
  const openai = target("openai", env.OPENAI_API_KEY, env.OPENAI_BASE_URL);
  const anthropic = target("anthropic", env.ANTHROPIC_API_KEY, env.ANTHROPIC_BASE_URL);
  const gemini = target("gemini", env.GEMINI_API_KEY, env.GEMINI_BASE_URL);
  return {
    openai: openai && openaiAdapter({ ...openai, model: env.OPENAI_MODEL }),
    anthropic: anthropic && anthropicAdapter({ ...anthropic, model: env.ANTHROPIC_MODEL }),
    gemini: gemini && geminiAdapter({ ...gemini, model: env.GEMINI_MODEL, resolveRedirect: createRedirectResolver() }),
  };
}
