import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import type { Env } from "#src/server/env.ts";

/**
 * How each provider runs: with its key against the real service; on its loopback simulator when
 * forced (`on`) or keyless outside production (`auto`); otherwise not at all.
 */
export function providerModes(env: Pick<Env, "SIMULATE_PROVIDERS" | "NODE_ENV" | "providers">): Record<ProviderId, ProviderMode> {
  return perProvider((id) => {
    if (env.SIMULATE_PROVIDERS === "on") return "simulated";
    if (env.providers[id].apiKey) return "live";
    return env.SIMULATE_PROVIDERS === "auto" && env.NODE_ENV !== "production" ? "simulated" : "off";
  });
}
