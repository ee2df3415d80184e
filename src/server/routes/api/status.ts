import { Elysia } from "elysia";
import type { BillingMode } from "#src/contract/billing.ts";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import { ApiStatus, type ProviderHealth } from "#src/contract/status.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** GET /api/status: which providers are connected, how each runs, what its last check found, and how payments run. */
export function statusRoutes({
  modes,
  health,
  billing,
}: {
  modes: () => Record<ProviderId, ProviderMode>;
  /** The last check's findings, kept by providers/status.ts: this route never waits for a check. */
  health: () => Record<ProviderId, ProviderHealth>;
  billing: BillingMode;
}) {
  return new Elysia().get(
    "/api/status",
    () => {
      const current = modes();
      const providers = health();
      return { ...perProvider((id) => current[id] !== "off" && providers[id].state !== "failing"), modes: current, providers, billing };
    },
    {
      response: ApiStatus,
      detail: forTokens("public", {
        tags: ["system"],
        summary: "Which providers are connected, and why not",
        description:
          "Booleans per provider (searched, and not known to be failing); `modes`: `live`, `simulated` (a loopback simulator; its answers are labelled) or `off`; " +
          "`providers`: what the last check found (the model retrieved with its key, at start and every PROVIDER_CHECK_MINUTES): `connected`, `degraded` (the model reading answers failed, or a model shuts down within 30 days: `shutdowns`), " +
          "`failing` with `failure` (`no_key`, `key_refused`, `model_not_found`, `quota_exhausted`, `rate_limited`, `unreachable`, `provider_error`) and a `message` naming the cause and the remedy, " +
          "or `checking` before the first check; `billing`: `live`, `simulated` (the Stripe simulator, no card is charged) or `off`.",
      }),
    },
  );
}
