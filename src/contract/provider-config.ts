/*
 * How the server reaches each provider of the catalogue (providers.ts): its environment variables,
 * the models asked when they are unset, and what its finish signals mean. Apart from the
 * catalogue's display facts so that the browser's first load does not carry them (ADR 006); a
 * provider added to the catalogue fails to compile here until it has its row.
 */
import type { ProviderId } from "./providers.ts";

/** Why a provider cut an answer short, in the product's terms: the web card words each kind. */
export const truncationKinds = ["length", "context", "filter", "refusal", "other"] as const;
export type TruncationKind = (typeof truncationKinds)[number];

export type ProviderConfig = {
  /** Environment variables: the API key (and older names that stand in for it), base URL, model, extraction model. */
  env: { apiKey: string; apiKeyAliases: readonly string[]; baseUrl: string; model: string; extractionModel: string };
  /** The model asked when its model variable is unset. */
  defaultModel: string;
  /**
   * The web-search tool it is asked with, as the API names it (its version where it has one): part
   * of the provider's identity in a tracker's series, as its model is (ADR 050).
   */
  searchTool: string;
  /** The small model that reads products and companies from an answer (ADR 039) when its variable is unset. */
  defaultExtractionModel: string;
  /**
   * The finish signals it sends for an answer cut short that we know, and what each means. Its
   * adapter decides when an answer was cut; a cut whose signal is not here is "other".
   */
  truncationSignals: Readonly<Record<string, Exclude<TruncationKind, "other">>>;
};

export const providerConfig = {
  openai: {
    env: { apiKey: "OPENAI_API_KEY", apiKeyAliases: [], baseUrl: "OPENAI_BASE_URL", model: "OPENAI_MODEL", extractionModel: "OPENAI_EXTRACTION_MODEL" },
    // ADR 040: current, inexpensive, web_search on the Responses API (checked 2026-11-26).
    defaultModel: "gpt-6-luna",
    defaultExtractionModel: "gpt-6-luna",
    searchTool: "web_search",
    // incomplete_details.reason of a response whose status is "incomplete".
    truncationSignals: { max_output_tokens: "length", content_filter: "filter" },
  },
  anthropic: {
    env: {
      apiKey: "ANTHROPIC_API_KEY",
      apiKeyAliases: [],
      baseUrl: "ANTHROPIC_BASE_URL",
      model: "ANTHROPIC_MODEL",
      extractionModel: "ANTHROPIC_EXTRACTION_MODEL",
    },
    // ADR 040: the current Haiku, on the web search tool's supported list (checked 2026-11-26).
    defaultModel: "claude-haiku-5-5",
    defaultExtractionModel: "claude-haiku-5-5",
    searchTool: "web_search_20260318",
    // stop_reason; any other (end_turn, stop_sequence…) is a finished answer.
    truncationSignals: { max_tokens: "length", model_context_window_exceeded: "context", refusal: "refusal" },
  },
  gemini: {
    env: {
      apiKey: "GEMINI_API_KEY",
      apiKeyAliases: ["GOOGLE_API_KEY"],
      baseUrl: "GEMINI_BASE_URL",
      model: "GEMINI_MODEL",
      extractionModel: "GEMINI_EXTRACTION_MODEL",
    },
    // ADR 061: stable (GA 2026-07-21), grounding with Google Search and structured output, no
    // shutdown announced; Gemini 3 takes no sampling parameters, and none are sent (checked 2026-12-07).
    defaultModel: "gemini-3.5-flash-lite",
    defaultExtractionModel: "gemini-3.5-flash-lite",
    searchTool: "googleSearch",
    // The candidate's finishReason; anything but STOP ended the text early.
    truncationSignals: { MAX_TOKENS: "length", SAFETY: "filter", RECITATION: "filter" },
  },
  perplexity: {
    env: {
      apiKey: "PERPLEXITY_API_KEY",
      apiKeyAliases: [],
      baseUrl: "PERPLEXITY_BASE_URL",
      model: "PERPLEXITY_MODEL",
      extractionModel: "PERPLEXITY_EXTRACTION_MODEL",
    },
    // ADR 059: Perplexity's own Sonar on the Agent API (POST /v1/responses), which replaced Sonar
    // chat completions (unsupported since 2026-09-27); its models page names it perplexity/sonar.
    defaultModel: "perplexity/sonar",
    defaultExtractionModel: "perplexity/sonar",
    searchTool: "web_search",
    // incomplete_details.reason of a response (or message) that did not complete.
    truncationSignals: { max_output_tokens: "length", content_filter: "filter" },
  },
} as const satisfies Record<ProviderId, ProviderConfig>;

/** A cut answer as the result keeps it: what the provider's finish signal means, and the signal as sent. */
export type Truncation = { kind: TruncationKind; signal: string };

export function truncationOf(id: ProviderId, signal: string): Truncation {
  const signals: ProviderConfig["truncationSignals"] = providerConfig[id].truncationSignals;
  const kind = Object.hasOwn(signals, signal) ? signals[signal] : undefined;
  return { kind: kind ?? "other", signal };
}
