import Anthropic from "@anthropic-ai/sdk";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import * as v from "valibot";
import { AnthropicMessage, AnthropicSearchResult, AnthropicServerToolUse, AnthropicText, AnthropicToolUse } from "./wire.ts";
import { truncationOf, providerConfig } from "#src/contract/provider-config.ts";
import { DEFAULT_ANTHROPIC_MAX_USES } from "#src/contract/search-request.ts";
import type { Source, Usage } from "#src/contract/search-result.ts";
import { adapterOf, type AdapterConfig, type ProviderAdapter, type ProviderAnswer, type SearchCall } from "./types.ts";
import { userLocation } from "./user-location.ts";

const MAX_TOKENS = 4096;
/** A server-tool loop that keeps pausing is cut off after this many continuations. */
const MAX_CONTINUATIONS = 3;

/**
 * Anthropic Messages API with the server-side `web_search` tool. The tool is forced, because
 * Claude otherwise often answers from memory; `temperature` is never sent (API 2026-10-21).
 */
export function anthropicAdapter(config: AdapterConfig): ProviderAdapter {
  const client = new Anthropic({ apiKey: config.apiKey, baseURL: config.baseURL, maxRetries: 0 });
  return {
    ...adapterOf("anthropic", config),

    async check(signal) {
      // Its model object gives no shutdown date: the announced table answers (ADR 061).
      await client.models.retrieve(config.model, {}, { signal });
      return {};
    },

    async search({ query, options, signal }: SearchCall): Promise<ProviderAnswer> {
      const messages: MessageParam[] = [{ role: "user", content: query }];
      const blocks: AnthropicMessage["content"] = [];
      let last: AnthropicMessage | undefined;
      let usage: Usage = { inputTokens: 0, outputTokens: 0, searches: 0, cachedInputTokens: 0 };
      for (let turn = 0; turn <= MAX_CONTINUATIONS; turn++) {
        const raw = await client.messages.create(
          {
            model: config.model,
            max_tokens: MAX_TOKENS,
            messages,
            // The current version (ADR 040), called directly: the results come back as search
            // result blocks we read and cite, not filtered by code Claude writes (dynamic filtering).
            tools: [
              {
                type: providerConfig.anthropic.searchTool,
                name: "web_search",
                max_uses: options.anthropicMaxUses ?? DEFAULT_ANTHROPIC_MAX_USES,
                allowed_callers: ["direct"],
                ...userLocation(options.location),
              },
            ],
            // Forcing the tool once is enough: a continuation must be free to finish the answer.
            ...(turn === 0 ? { tool_choice: { type: "tool" as const, name: "web_search" } } : {}),
          },
          { signal },
        );
        last = v.parse(AnthropicMessage, raw);
        blocks.push(...last.content);
        usage = addUsage(usage, usageOf(last));
        if (last.stop_reason !== "pause_turn") break;
        // pause_turn: send the assistant content back so the server-tool loop continues.
        messages.push({ role: "assistant", content: raw.content });
      }
      const answer = readAnswer(last?.model ?? config.model, blocks, usage);
      // Only the stop reasons the catalogue lists end the text mid-answer (end_turn, stop_sequence… finish it).
      const stop = last?.stop_reason;
      return stop && Object.hasOwn(providerConfig.anthropic.truncationSignals, stop) ? { ...answer, truncated: truncationOf("anthropic", stop) } : answer;
    },

    async structured({ name, description, prompt, schema }, signal) {
      // Anthropic's structured output is a forced tool call whose input is the JSON.
      const tool = `record_${name}`;
      const raw = await client.messages.create(
        {
          model: config.model,
          max_tokens: 2048,
          messages: [{ role: "user", content: prompt }],
          tools: [{ name: tool, description, input_schema: schema as Anthropic.Tool.InputSchema }],
          tool_choice: { type: "tool", name: tool },
        },
        { signal },
      );
      const message = v.parse(AnthropicMessage, raw);
      const call = message.content.find((b) => b.type === "tool_use");
      if (!call) throw new Error(`the ${name} call returned no tool input`);
      return {
        value: v.parse(AnthropicToolUse, call).input,
        model: message.model,
        usage: usageOf(message),
      };
    },
  };
}

/**
 * A message's usage. Anthropic counts cache reads and writes apart from `input_tokens`: all three
 * are input (writes billed as plain input here, a slight undercount), the reads its cached part.
 */
function usageOf(message: AnthropicMessage): Usage {
  const usage = message.usage;
  const cached = usage?.cache_read_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + cached + (usage?.cache_creation_input_tokens ?? 0),
    outputTokens: usage?.output_tokens ?? 0,
    searches: usage?.server_tool_use?.web_search_requests ?? 0,
    cachedInputTokens: cached,
  };
}

/** A continued answer's usage: every turn's, added up. */
function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    searches: a.searches + b.searches,
    cachedInputTokens: (a.cachedInputTokens ?? 0) + (b.cachedInputTokens ?? 0),
  };
}

function readAnswer(model: string, blocks: AnthropicMessage["content"], usage: ProviderAnswer["usage"]): ProviderAnswer {
  const cited: Source[] = [];
  const retrieved: Source[] = [];
  const searchQueries: string[] = [];
  let text = "";
  let searched = false;
  for (const block of blocks) {
    if (block.type === "server_tool_use") {
      const call = v.parse(AnthropicServerToolUse, block);
      if (call.name !== "web_search") continue;
      searched = true;
      const query = call.input?.query;
      if (query && !searchQueries.includes(query)) searchQueries.push(query);
    } else if (block.type === "web_search_tool_result") {
      const { content } = v.parse(AnthropicSearchResult, block);
      // An error result (web_search_tool_result_error) comes as an object, with HTTP 200.
      if (Array.isArray(content)) for (const r of content) if (r.url) retrieved.push({ url: r.url, title: r.title ?? undefined, cited: false });
    } else if (block.type === "text") {
      const part = v.parse(AnthropicText, block);
      text += part.text;
      for (const c of part.citations ?? []) {
        if (c.type === "web_search_result_location" && c.url) cited.push({ url: c.url, title: c.title ?? undefined, cited: true });
      }
    }
  }
  return {
    modelVersion: model,
    text,
    sources: [...cited, ...retrieved],
    searchQueries,
    searched,
    usage: { ...usage, searches: usage.searches || searchQueries.length },
  };
}
