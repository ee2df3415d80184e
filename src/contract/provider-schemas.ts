/*
 * The provider id and a provider's mode as schemas, for every contract that names a provider.
 * The catalogue (providers.ts) stays plain data, so the first page reads it without valibot.
 */
import * as v from "valibot";

import { failureLabels, type ProviderFailure as Failure } from "./provider-failures.ts";
import { providerIds, type ProviderId as Id } from "./providers.ts";

export const ProviderId = v.picklist(providerIds);
export type ProviderId = Id;

/** live: the real service with our key; simulated: our loopback simulator; off: not connected. */
export const ProviderMode = v.picklist(["live", "simulated", "off"]);
export type ProviderMode = v.InferOutput<typeof ProviderMode>;

/** Why a provider cannot answer (providers.ts `providerFailures`, ADR 040). */
export const ProviderFailure = v.picklist(Object.keys(failureLabels) as Failure[]);
