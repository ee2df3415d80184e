import type { ProviderId } from "#src/contract/providers.ts";
import type { Truncation } from "#src/contract/provider-config.ts";
import type { StructuredRequest } from "#src/core/structured.ts";
import type { ProviderMode } from "#src/contract/provider-schemas.ts";
import type { SearchOptions } from "#src/contract/search-request.ts";
import type { Source, Usage } from "#src/contract/search-result.ts";

/** What one provider call with web search returned, before products and companies are extracted. */
export type ProviderAnswer = {
  modelVersion: string;
  /** The whole answer text, as the person would read it. */
  text: string;
  /** From citation metadata only: cited ones, then the rest of what the search retrieved. */
  sources: Source[];
  searchQueries: string[];
  searched: boolean;
  usage: Usage;
  /** Why the provider stopped before the answer was finished (its finish signal, read by truncationOf); absent when it finished. */
  truncated?: Truncation;
};

/** A search: the query exactly as the person typed it, and nothing else (ADR 039). */
export type SearchCall = { query: string; options: SearchOptions; signal: AbortSignal };

/** What a structured-output call returned: the parsed JSON, the model that answered, and what the call used. */
export type StructuredAnswer = { value: unknown; model: string; usage: Usage };

/** One adapter per provider, each through its official SDK. */
export interface ProviderAdapter {
  readonly id: ProviderId;
  readonly mode: Exclude<ProviderMode, "off">;
  /** The model asked; the result's modelVersion comes from the response. */
  readonly model: string;
  search(call: SearchCall): Promise<ProviderAnswer>;
  /** A tool-less structured-output call (query variants, reading an answer). */
  structured(request: StructuredRequest, signal: AbortSignal): Promise<StructuredAnswer>;
  /**
   * The cheapest call that proves the key and the model: retrieving the model (ADR 040); throws the
   * provider's error. What the API says of the model comes back (its shutdown date, where its API gives one).
   */
  check(signal: AbortSignal): Promise<ModelFacts>;
  /** The adapter, on a small model, that reads this provider's answers (ADR 039); this one when absent. */
  readonly extractor?: ProviderAdapter;
}

/** What a provider's API said of a model when it was retrieved: its shutdown date (YYYY-MM-DD), where it gives one (ADR 061). */
export type ModelFacts = { shutdownDate?: string };

/** What every adapter is built from: the key and base URL (the real service's, or a simulator's) and the model. */
export type AdapterConfig = {
  apiKey: string;
  baseURL?: string;
  model: string;
  simulated: boolean;
  /** Origins whose redirects in citations may be followed (Gemini's grounding redirects); the provider's own when absent. */
  redirectOrigins?: readonly string[];
};

/** What every adapter says about itself: its provider, how it runs, the model it asks. */
export function adapterOf(id: ProviderId, config: AdapterConfig): Pick<ProviderAdapter, "id" | "mode" | "model"> {
  return { id, mode: config.simulated ? "simulated" : "live", model: config.model };
}
