import * as v from "valibot";

import { BillingMode } from "./billing.ts";
import { ModelShutdown } from "./model-shutdowns.ts";
import { ProviderFailure, ProviderId, ProviderMode } from "./provider-schemas.ts";
import { perProvider } from "./providers.ts";

/**
 * What the last check of a provider found (ADR 040): its model retrieved with its key, and the
 * model that reads its answers. `connected`; `degraded` (searches work, the reading model failed:
 * answers are read from their prose meanwhile, or one of its models shuts down within 30 days);
 * `failing` (no search can be made: `failure` and `message` say why and what to do); `checking`
 * until the first check after start has answered.
 */
export const ProviderHealth = v.object({
  state: v.picklist(["connected", "degraded", "failing", "checking"]),
  failure: v.optional(ProviderFailure),
  /** Its badge, as every client shows it: "Connected", "Simulated", "Checking…", or the failure's ("Model Not Found"). */
  label: v.string(),
  /** In words: how it answers, or the cause and the remedy. */
  message: v.string(),
  /** When it was last checked (ISO 8601); absent before the first check. */
  checkedAt: v.optional(v.string()),
  /** The model asked (its variable, or the default). */
  model: v.string(),
  /** The small model that reads its answers, and whose it is (EXTRACTION_PROVIDER may name another provider). */
  extraction: v.optional(v.object({ provider: ProviderId, model: v.string() })),
  /** Its models that shut down within 30 days or have shut down (ADR 061); `message` words the first. */
  shutdowns: v.optional(v.array(ModelShutdown)),
});
export type ProviderHealth = v.InferOutput<typeof ProviderHealth>;

/**
 * GET /api/status: spec §3 "API status" (a boolean per provider: searched, and not known to be
 * failing), each provider's mode, what its last check found, and how payments run.
 */
export const ApiStatus = v.object({
  ...perProvider(() => v.boolean()),
  modes: v.object(perProvider(() => ProviderMode)),
  providers: v.object(perProvider(() => ProviderHealth)),
  billing: BillingMode,
});
export type ApiStatus = v.InferOutput<typeof ApiStatus>;
