import { Elysia } from "elysia";
import type { BillingMode } from "#src/contract/billing.ts";
import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import { ApiStatus } from "#src/contract/status.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** GET /api/status: which providers are connected, how each runs, and how payments run. */
export function statusRoutes({ modes, billing }: { modes: () => Record<ProviderId, ProviderMode>; billing: BillingMode }) {
  return new Elysia().get(
    "/api/status",
    () => {
      const current = modes();
      return { ...perProvider((id) => current[id] !== "off"), modes: current, billing };
    },
    {
      response: ApiStatus,
      detail: forTokens("public", {
        tags: ["system"],
        summary: "Which providers are connected",
        description:
          "Booleans per provider; `modes`: `live`, `simulated` (a loopback simulator; its answers are labelled) or `off`; `billing`: `live`, `simulated` (the Stripe simulator, no card is charged) or `off`.",
      }),
    },
  );
}
