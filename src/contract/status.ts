import * as v from "valibot";

import { BillingMode } from "./billing.ts";
import { ProviderMode } from "./provider-schemas.ts";
import { perProvider } from "./providers.ts";

/** GET /api/status: spec §3 "API status" (a boolean per provider), with each provider's mode and how payments run. */
export const ApiStatus = v.object({
  ...perProvider(() => v.boolean()),
  modes: v.object(perProvider(() => ProviderMode)),
  billing: BillingMode,
});
export type ApiStatus = v.InferOutput<typeof ApiStatus>;
