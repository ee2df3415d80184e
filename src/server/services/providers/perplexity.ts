import Perplexity from "@perplexity-ai/perplexity_ai";
import * as v from "valibot";
import { PerplexityMessage, PerplexityOutputText, PerplexityResponse, PerplexitySearchResults } from "./wire.ts";
import { providerConfig, truncationOf } from "#src/contract/provider-config.ts";
import type { Location } from "#src/contract/location.ts";
import type { Source, Usage } from "#src/contract/search-result.ts";
import { adapterOf, type AdapterConfig, type ProviderAdapter, type ProviderAnswer, type SearchCall } from "./types.ts";

/**
 * Perplexity's Agent API (POST /v1/responses) with its `web_search` tool: the query as typed is the
 * input, the url_citation annotations of the answer are its cited sources, the `search_results`
 * items what the search retrieved, and `usage.cost` what the call cost.
 */
export function perplexityAdapter(config: AdapterConfig): ProviderAdapter {
  // Retries are ours (withRetry), so every provider backs off the same way.
  const client = new Perplexity({ apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0 });
  return {
    ...adapterOf("perplexity", config),

    async check(signal) {
      // The SDK has no models endpoint: the cheapest call that proves the key and the model is a
      // tool-less answer of a few tokens (a fraction of a hundredth of a cent).
      const raw = await client.responses.create({ model: config.model, input: "Reply with OK.", max_output_tokens: 16 }, { signal });
      failedResponse(v.parse(PerplexityResponse, raw));
      return {};
    },

    async search({ query, options, signal }: SearchCall): Promise<ProviderAnswer> {
      const raw = await client.responses.create(
        {
          model: config.model,
          input: query,
          tools: [{ type: providerConfig.perplexity.searchTool, ...userLocation(options.location) }],
        },
        { signal },
      );
      const response = v.parse(PerplexityResponse, raw);
      failedResponse(response);
      return readAnswer(response);
    },

    async structured({ name, description, prompt, schema }, signal) {
      const raw = await client.responses.create(
        {
          model: config.model,
          input: prompt,
          response_format: { type: "json_schema", json_schema: { name, description, schema: schema as Record<string, unknown> } },
        },
        { signal },
      );
      const response = v.parse(PerplexityResponse, raw);
      failedResponse(response);
      return { value: JSON.parse(outputText(response)), model: response.model, usage: usageOf(response, 0) };
    },
  };
}

/**
 * The web_search tool's `user_location`: country, region and city (no time zone, which it does not
 * take); nothing without a location, so Perplexity searches as it would.
 */
function userLocation(location: Location | undefined) {
  if (!location) return {};
  const { country, region, city } = location;
  return { user_location: { country, ...(region ? { region } : {}), ...(city ? { city } : {}) } };
}

/** A response that says it failed (HTTP 200, status "failed") is the provider's error, with its words. */
function failedResponse(response: PerplexityResponse): void {
  if (response.status !== "failed") return;
  throw new Error(`Perplexity answered with status "failed": ${response.error?.message ?? "no reason given"}`);
}

function readAnswer(response: PerplexityResponse): ProviderAnswer {
  const cited: Source[] = [];
  const retrieved: Source[] = [];
  const searchQueries: string[] = [];
  let searchItems = 0;
  for (const item of response.output) {
    if (item.type === "search_results") {
      searchItems++;
      const results = v.parse(PerplexitySearchResults, item);
      for (const q of results.queries ?? []) if (!searchQueries.includes(q)) searchQueries.push(q);
      for (const r of results.results ?? []) retrieved.push({ url: r.url, title: r.title ?? undefined, cited: false });
    }
    for (const text of outputTexts(item)) {
      for (const a of text.annotations ?? []) if (a.url) cited.push({ url: a.url, title: a.title ?? undefined, cited: true });
    }
  }
  const truncation = truncationSignal(response);
  return {
    modelVersion: response.model,
    text: outputText(response),
    sources: [...cited, ...retrieved],
    searchQueries,
    searched: searchItems > 0,
    ...(truncation ? { truncated: truncationOf("perplexity", truncation) } : {}),
    usage: usageOf(response, searchItems),
  };
}

/** Why the answer was cut, where the response or its message did not complete; undefined when it finished. */
function truncationSignal(response: PerplexityResponse): string | undefined {
  const incomplete =
    response.status === "incomplete" || response.output.some((item) => item.type === "message" && v.parse(PerplexityMessage, item).status === "incomplete");
  return incomplete ? response.incomplete_details?.reason || "incomplete" : undefined;
}

/** The response's usage, with its own cost where it gives one in USD; `searches` (each a search call) counted from its items when it does not report them. */
function usageOf(response: PerplexityResponse, searches: number): Usage {
  const usage = response.usage;
  // input_tokens counts the cached ones too, as in the Responses format the Agent API follows.
  const cached = Math.min(usage?.input_tokens_details?.cache_read_input_tokens ?? 0, usage?.input_tokens ?? 0);
  const cost = usage?.cost;
  const reported = cost && (cost.currency ?? "USD") === "USD" ? { reportedUsd: { total: cost.total_cost, searches: cost.tool_calls_cost ?? 0 } } : {};
  return {
    inputTokens: usage?.input_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    searches: usage?.tool_calls_details?.web_search?.invocation || searches,
    cachedInputTokens: cached,
    ...reported,
  };
}

function outputTexts(item: PerplexityResponse["output"][number]) {
  if (item.type !== "message") return [];
  return v.parse(PerplexityMessage, item).content.flatMap((part) => (part.type === "output_text" ? [v.parse(PerplexityOutputText, part)] : []));
}

/** Every output_text of every message, as the SDK's `output_text` joins them. */
function outputText(response: PerplexityResponse): string {
  return response.output
    .flatMap(outputTexts)
    .map((part) => part.text)
    .join("");
}
