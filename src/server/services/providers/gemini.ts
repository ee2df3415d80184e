import { GoogleGenAI } from "@google/genai";
import * as v from "valibot";
import { GeminiResponse } from "./wire.ts";
import { truncationOf } from "#src/contract/provider-config.ts";
import type { Source, Usage } from "#src/contract/search-result.ts";
import { hostOf } from "#src/core/urls.ts";
import { createRedirectResolver, type RedirectResolver } from "./redirects.ts";
import { adapterOf, type AdapterConfig, type ProviderAdapter, type ProviderAnswer, type SearchCall } from "./types.ts";

/**
 * Gemini generateContent grounded with Google Search. `googleSearchRetrieval` (and its dynamic
 * threshold) is gone on Gemini ≥ 2.0, so `geminiThreshold` is stored but not sent. The API
 * version is pinned: @google/genai 3.x defaults to v1, where search grounding is not guaranteed.
 * The search's location is not sent: Google Search grounding takes none (its card says so, ADR 042).
 */
export function geminiAdapter(config: AdapterConfig & { resolveRedirect?: RedirectResolver }): ProviderAdapter {
  const resolveRedirect = config.resolveRedirect ?? createRedirectResolver(config.redirectOrigins ? { origins: config.redirectOrigins } : {});
  const ai = new GoogleGenAI({ apiKey: config.apiKey, apiVersion: "v1beta", httpOptions: config.baseURL ? { baseUrl: config.baseURL } : undefined });
  return {
    ...adapterOf("gemini", config),

    async check(signal) {
      // Its Model resource gives no shutdown date: the announced table answers (ADR 061).
      await ai.models.get({ model: config.model, config: { abortSignal: signal } });
      return {};
    },

    async search({ query, signal }: SearchCall): Promise<ProviderAnswer> {
      const raw = await ai.models.generateContent({ model: config.model, contents: query, config: { tools: [{ googleSearch: {} }], abortSignal: signal } });
      const response = v.parse(GeminiResponse, raw);
      const candidate = response.candidates[0];
      const grounding = candidate?.groundingMetadata;
      const chunks = grounding?.groundingChunks ?? [];
      // A page is cited only when a support ties a sentence of the answer to it; pages no sentence
      // rests on were retrieved, not cited (an answer saying it found nothing cites nothing).
      const citedChunks = new Set((grounding?.groundingSupports ?? []).flatMap((s) => s.groundingChunkIndices));
      const sources = await Promise.all(
        chunks.flatMap((chunk, index) => {
          const uri = chunk.web?.uri;
          return uri ? [resolveSource(uri, chunk.web?.title, citedChunks.has(index), resolveRedirect, signal)] : [];
        }),
      );
      return {
        modelVersion: response.modelVersion ?? config.model,
        text: textOf(response),
        // Cited first, like the other providers.
        sources: [...sources.filter((s) => s.cited), ...sources.filter((s) => !s.cited)],
        searchQueries: grounding?.webSearchQueries ?? [],
        searched: chunks.length > 0 || (grounding?.webSearchQueries?.length ?? 0) > 0,
        // Anything but STOP (MAX_TOKENS, SAFETY, RECITATION…) ended the text early.
        ...(candidate?.finishReason && !FINISHED.has(candidate.finishReason) ? { truncated: truncationOf("gemini", candidate.finishReason) } : {}),
        // Searches: the queries it ran (an empty one ran nothing).
        usage: usageOf(response, (grounding?.webSearchQueries ?? []).filter((q) => q.trim()).length),
      };
    },

    async structured({ prompt, schema }, signal) {
      const raw = await ai.models.generateContent({
        model: config.model,
        contents: prompt,
        config: { responseMimeType: "application/json", responseJsonSchema: schema, abortSignal: signal },
      });
      const response = v.parse(GeminiResponse, raw);
      return {
        value: JSON.parse(textOf(response)),
        model: response.modelVersion ?? config.model,
        usage: usageOf(response, 0),
      };
    },
  };
}

/**
 * A response's usage: the prompt with what the search tool added, the answer with its thinking
 * (billed as output); `cachedContentTokenCount` is the part of the prompt read from the cache.
 */
function usageOf(response: GeminiResponse, searches: number): Usage {
  const usage = response.usageMetadata;
  return {
    inputTokens: (usage?.promptTokenCount ?? 0) + (usage?.toolUsePromptTokenCount ?? 0),
    outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
    searches,
    cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
  };
}

const FINISHED = new Set(["STOP", "FINISH_REASON_UNSPECIFIED"]);

/** A redirect that cannot be resolved keeps its URL, titled with the publisher host it names. */
async function resolveSource(uri: string, title: string | undefined, cited: boolean, resolve: RedirectResolver, signal: AbortSignal): Promise<Source> {
  const target = await resolve(uri, signal);
  if (target) return { url: target, title: title && title !== hostOf(target) ? title : undefined, cited };
  return { url: uri, title: title ?? undefined, cited };
}

function textOf(response: GeminiResponse): string {
  return (response.candidates[0]?.content?.parts ?? [])
    .filter((p) => !p.thought)
    .map((p) => p.text ?? "")
    .join("");
}
