import type { Env } from "#src/server/env.ts";

import type { ProviderId, ProviderMode } from "#src/contract/search.ts";

const keyOf = { openai: "OPENAI_API_KEY", anthropic: "ANTHROPIC_API_KEY", gemini: "GEMINI_API_KEY" } as const;

/**
 * How each provider runs: with its key against the real service; on its loopback simulator when
 * forced (`on`) or keyless outside production (`auto`); otherwise not at all.
 */
export function providerModes(env: Pick<Env, "SIMULATE_PROVIDERS" | "NODE_ENV" | (typeof keyOf)[ProviderId]>): Record<ProviderId, ProviderMode> {
  const modeOf = (id: ProviderId): ProviderMode => {
    if (env.SIMULATE_PROVIDERS === "on") return "simulated";
    if (env[keyOf[id]]) return "live";
    return env.SIMULATE_PROVIDERS === "auto" && env.NODE_ENV !== "production" ? "simulated" : "off";
  };
  return { openai: modeOf("openai"), anthropic: modeOf("anthropic"), gemini: modeOf("gemini") };
}
