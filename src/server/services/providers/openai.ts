import OpenAI from "openai";
import * as v from "valibot";
import { OpenAIMessage, OpenAIModel, OpenAIOutputText, OpenAIResponse, OpenAIUrlCitation, OpenAIWebSearchCall } from "./wire.ts";
import { DEFAULT_OPENAI_CONTEXT_SIZE } from "#src/contract/search-request.ts";
import { truncationOf } from "#src/contract/provider-config.ts";
import type { Source, Usage } from "#src/contract/search-result.ts";
import { adapterOf, type AdapterConfig, type ProviderAdapter, type ProviderAnswer, type SearchCall } from "./types.ts";
import { userLocation } from "./user-location.ts";

/** OpenAI Responses API with the `web_search` tool; sources from url_citation annotations. */
export function openaiAdapter(config: AdapterConfig): ProviderAdapter {
  // Retries are ours (withRetry), so every provider backs off the same way.
  const client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0 });
  return {
    ...adapterOf("openai", config),

    async check(signal) {
      const model = v.parse(OpenAIModel, await client.models.retrieve(config.model, { signal }));
      return model.shutdown_date ? { shutdownDate: model.shutdown_date } : {};
    },

    async search({ query, options, signal }: SearchCall): Promise<ProviderAnswer> {
      const raw = await client.responses.create(
        {
          model: config.model,
          input: query,
          tools: [{ type: "web_search", search_context_size: options.openaiContextSize ?? DEFAULT_OPENAI_CONTEXT_SIZE, ...userLocation(options.location) }],
          include: ["web_search_call.action.sources"],
        },
        { signal },
      );
      return readAnswer(v.parse(OpenAIResponse, raw));
    },

    async structured({ name, prompt, schema }, signal) {
      const raw = await client.responses.create(
        {
          model: config.model,
          input: prompt,
          text: { format: { type: "json_schema", name, schema, strict: true } },
        },
        { signal },
      );
      const response = v.parse(OpenAIResponse, raw);
      return { value: JSON.parse(outputText(response)), model: response.model, usage: usageOf(response, 0) };
    },
  };
}

function readAnswer(response: OpenAIResponse): ProviderAnswer {
  const cited: Source[] = [];
  const retrieved: Source[] = [];
  const searchQueries: string[] = [];
  let searches = 0;
  let searchCalls = 0;
  for (const item of response.output) {
    if (item.type === "web_search_call") {
      searchCalls++;
      const action = v.parse(OpenAIWebSearchCall, item).action;
      if (action?.type === "search") searches++;
      for (const q of [...(action?.queries ?? []), ...(action?.query ? [action.query] : [])]) if (!searchQueries.includes(q)) searchQueries.push(q);
      for (const s of action?.sources ?? []) if (s.url) retrieved.push({ url: s.url, cited: false });
    }
    for (const text of outputTexts(item)) {
      for (const a of text.annotations) {
        if (a.type !== "url_citation") continue;
        const citation = v.parse(OpenAIUrlCitation, a);
        cited.push({ url: citation.url, title: citation.title ?? undefined, cited: true });
      }
    }
  }
  return {
    modelVersion: response.model,
    text: outputText(response),
    sources: [...cited, ...retrieved],
    searchQueries,
    searched: searchCalls > 0,
    // status "incomplete": the output hit max_output_tokens or a content filter mid-answer.
    ...(response.status === "incomplete" ? { truncated: truncationOf("openai", response.incomplete_details?.reason || "incomplete") } : {}),
    usage: usageOf(response, searches || searchCalls),
  };
}

/** The response's usage; `searches` counted from its items when the provider does not report them. */
function usageOf(response: OpenAIResponse, searches: number): Usage {
  return {
    inputTokens: response.usage?.input_tokens ?? 0,
    outputTokens: response.usage?.output_tokens ?? 0,
    searches: response.tool_usage?.web_search?.num_requests || searches,
    cachedInputTokens: response.usage?.input_tokens_details?.cached_tokens ?? 0,
  };
}

function outputTexts(item: OpenAIResponse["output"][number]) {
  if (item.type !== "message") return [];
  return v.parse(OpenAIMessage, item).content.flatMap((part) => (part.type === "output_text" ? [v.parse(OpenAIOutputText, part)] : []));
}

/** The SDK's `output_text`, computed from the parsed items so it never depends on `object`. */
function outputText(response: OpenAIResponse): string {
  return response.output
    .flatMap(outputTexts)
    .map((part) => part.text)
    .join("");
}
