/** Gemini API `POST /(v1|v1beta)/models/{model}:generateContent` wire format, plus grounding redirects. */
import { publisherDomain } from "./catalogue.ts";
import { answerRequest, estimateTokens, type Answer } from "./answers.ts";
import type { AccountFaultKind } from "./faults.ts";
import {
  cachedPart,
  contentText,
  isObject,
  jsonResponse,
  type ErrorKind,
  type ErrorOptions,
  type JsonObject,
  type ProviderContext,
  type AnswerKind,
  type ProviderHandler,
} from "./http.ts";
import { invalidLatLng } from "./location.ts";
import { hashString, randomToken } from "./random.ts";
import { kindOfSchema, structuredAnswer } from "./structured.ts";

const GENERATE = /^\/(v1|v1beta)\/models\/([^/:]+):generateContent$/;
const MODEL = /^\/(v1|v1beta)\/models\/([^/:]+)$/;

/** Google's own answers for a refused key (400 API_KEY_INVALID), a model it no longer offers (404) and a spent daily quota (429). */
function accountFailure(kind: AccountFaultKind, model: string): Response {
  const body = {
    auth_refused: {
      code: 400,
      message: "API key not valid. Please pass a valid API key.",
      status: "INVALID_ARGUMENT",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com",
          metadata: { service: "generativelanguage.googleapis.com" },
        },
      ],
    },
    model_not_found: {
      code: 404,
      message: `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      status: "NOT_FOUND",
    },
    quota_exhausted: {
      code: 429,
      message:
        "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
      status: "RESOURCE_EXHAUSTED",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.QuotaFailure",
          violations: [
            {
              quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
              quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
              quotaDimensions: { location: "global", model },
            },
          ],
        },
      ],
    },
  }[kind];
  return jsonResponse({ error: body }, body.code);
}

export const gemini: ProviderHandler<"gemini", AnswerKind> = {
  id: "gemini",
  basePath: "",
  paths: ["/v1beta/", "/v1/models/"],
  endpoint: (method, pathname) => (method === "POST" && GENERATE.test(pathname)) || (method === "GET" && MODEL.test(pathname)),
  // OpenAI's and Anthropic's SDKs share GET /v1/models/{id}; only Google's sends x-goog-api-key.
  owns: (request) => request.headers.has("x-goog-api-key") || new URL(request.url).searchParams.has("key"),
  retrievedModel: (method, pathname) => (method === "GET" ? MODEL.exec(pathname)?.[2] : undefined),
  modelInfo: (model) =>
    jsonResponse(
      {
        name: `models/${model}`,
        version: "001",
        displayName: model,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ["generateContent", "countTokens"],
      },
      200,
    ),
  modelOf: (_body, pathname) => GENERATE.exec(pathname)?.[2] ?? "",
  accountFailure,
  apiKey: (request, url) => request.headers.get("x-goog-api-key")?.trim() || url.searchParams.get("key")?.trim() || undefined,
  missingKeyMessage:
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  classify: (body) => (hasGoogleSearch(body) || !wantsJson(body) ? "search" : kindOfSchema(responseSchema(body))),
  userText: (body) =>
    (Array.isArray(body.contents) ? body.contents : [])
      .filter(isObject)
      .filter((c) => c.role === undefined || c.role === "user")
      .map((c) => contentText(c.parts))
      .join("\n\n"),
  validate(body) {
    if (Array.isArray(body.tools) && body.tools.some((tool) => isObject(tool) && "googleSearchRetrieval" in tool)) {
      return error("invalid_request", "Please use google_search field instead of google_search_retrieval field.");
    }
    if (!Array.isArray(body.contents) || body.contents.length === 0)
      return error("invalid_request", "* GenerateContentRequest.contents: contents is not specified\n");
    const latLng = invalidLatLng(body);
    if (latLng) return error("invalid_request", latLng);
    return undefined;
  },
  respond,
  error,
  truncatedBody: () => `{"candidates":[{"content":{"parts":[{"text":"Here are the most recommended`,
  faultMessages: {
    rate_limit: "Resource has been exhausted (e.g. check quota).",
    server_error: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
    overloaded: "The model is overloaded. Please try again later.",
  },
};

function respond(body: JsonObject, context: ProviderContext): Response {
  const model = GENERATE.exec(context.pathname)?.[2] ?? "gemini";
  const prompt = gemini.userText(body);
  let text: string;
  let truncated = false;
  let groundingMetadata: JsonObject | undefined;
  const kind = gemini.classify(body);
  if (kind !== "search") {
    text = JSON.stringify(structuredAnswer(kind, prompt, context));
  } else {
    const answer = answerRequest(context, prompt, {
      provider: "gemini",
      searchTool: hasGoogleSearch(body),
      jsonOnly: wantsJson(body),
      searches: { min: 1, max: 4 },
    });
    text = answer.text;
    truncated = answer.truncated;
    if (answer.searches.length > 0) groundingMetadata = grounding(answer, context.origin);
  }
  const thinking = /gemini-(2\.5|3)/.test(model) ? context.rng.int(100, 900) : 0;
  const tool = groundingMetadata ? context.rng.int(80, 300) : 0;
  // Fixed usage (Simulator.setUsage): all input in the prompt count, output with no thinking apart.
  const fixed = context.usage;
  const promptTokens = fixed?.inputTokens ?? estimateTokens(prompt);
  const cachedTokens = fixed?.cachedInputTokens ?? cachedPart(promptTokens);
  const candidatesTokens = fixed?.outputTokens ?? estimateTokens(text);
  const thoughts = fixed ? 0 : thinking;
  const toolTokens = fixed ? 0 : tool;
  return jsonResponse(
    {
      candidates: [
        {
          content: { parts: [{ text }], role: "model" },
          finishReason: truncated ? "MAX_TOKENS" : "STOP",
          index: 0,
          ...(groundingMetadata ? { groundingMetadata } : {}),
        },
      ],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount: candidatesTokens,
        totalTokenCount: promptTokens + candidatesTokens + thoughts + toolTokens,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: promptTokens }],
        ...(cachedTokens ? { cachedContentTokenCount: cachedTokens } : {}),
        ...(toolTokens ? { toolUsePromptTokenCount: toolTokens } : {}),
        ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      },
      modelVersion: model,
      responseId: randomToken(22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
    },
    200,
  );
}

function grounding(answer: Answer, origin: string): JsonObject {
  const chunkIndex = new Map(answer.retrieved.map((page, i) => [page.url, i]));
  const encoder = new TextEncoder();
  const supports: JsonObject[] = [];
  let offset = 0;
  for (const segment of answer.segments) {
    const length = encoder.encode(segment.text).length;
    if (segment.sources.length > 0) {
      // Proto3 JSON leaves out zero values, so a segment at the very start has no startIndex.
      supports.push({
        segment: { ...(offset > 0 ? { startIndex: offset } : {}), endIndex: offset + length, text: segment.text },
        groundingChunkIndices: segment.sources.map((page) => chunkIndex.get(page.url) ?? 0),
      });
    }
    offset += length;
  }
  const queries = answer.searches.map((s) => s.query);
  return {
    searchEntryPoint: { renderedContent: entryPointHtml(queries) },
    groundingChunks: answer.retrieved.map((page) => ({
      web: { uri: `${origin}/grounding-api-redirect/${groundingToken(page.url)}`, title: publisherDomain(page.url) },
    })),
    groundingSupports: supports,
    retrievalMetadata: {},
    webSearchQueries: queries,
  };
}

/** Stateless redirect token: a prefix, an 8-hex checksum, then the target URL in base64url. */
export function groundingToken(url: string): string {
  return `AUZIYQ${hashString(url).toString(16).padStart(8, "0")}${Buffer.from(url).toString("base64url")}`;
}

/** The target URL of a token, or undefined when the token is unknown or garbled. */
export function resolveGroundingToken(token: string): string | undefined {
  const match = /^AUZIYQ([0-9a-f]{8})([A-Za-z0-9_-]+)$/.exec(token);
  if (!match?.[1] || !match[2]) return undefined;
  const url = Buffer.from(match[2], "base64url").toString("utf8");
  if (hashString(url).toString(16).padStart(8, "0") !== match[1]) return undefined;
  return URL.canParse(url) && url.startsWith("https://") ? url : undefined;
}

function entryPointHtml(queries: readonly string[]): string {
  const chips = queries
    .map(
      (q) =>
        `<a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(q)}&amp;client=app-vertex-grounding&amp;safesearch=active">${escapeHtml(q)}</a>`,
    )
    .join("\n    ");
  return `<style>\n.container { align-items: center; border-radius: 8px; display: flex; font-family: Google Sans, Roboto, sans-serif; font-size: 14px; line-height: 20px; padding: 8px 12px; }\n.chip { display: inline-block; border: solid 1px; border-radius: 16px; min-width: 14px; padding: 5px 16px; text-align: center; user-select: none; margin: 0 8px; }\n.carousel { overflow: auto; scrollbar-width: none; white-space: nowrap; margin-right: -12px; }\n</style>\n<div class="container">\n  <div class="headline">Google Search Suggestions</div>\n  <div class="carousel">\n    ${chips}\n  </div>\n</div>\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function error(kind: ErrorKind, message: string, options: ErrorOptions = {}): Response {
  const spec: Record<ErrorKind, [number, string]> = {
    authentication: [401, "UNAUTHENTICATED"],
    invalid_request: [400, "INVALID_ARGUMENT"],
    not_found: [404, "NOT_FOUND"],
    rate_limit: [429, "RESOURCE_EXHAUSTED"],
    server_error: [500, "INTERNAL"],
    overloaded: [503, "UNAVAILABLE"],
  };
  const [code, status] = spec[kind];
  const headers: Record<string, string> = {};
  const details: JsonObject[] = [];
  if (options.retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(options.retryAfterSeconds);
    details.push({ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${options.retryAfterSeconds}s` });
  }
  return jsonResponse({ error: { code, message, status, ...(details.length > 0 ? { details } : {}) } }, code, headers);
}

function hasGoogleSearch(body: JsonObject): boolean {
  return Array.isArray(body.tools) && body.tools.some((tool) => isObject(tool) && ("googleSearch" in tool || "google_search" in tool));
}

function wantsJson(body: JsonObject): boolean {
  return isObject(body.generationConfig) && body.generationConfig.responseMimeType === "application/json";
}

/** The JSON schema asked for: `responseJsonSchema` (what @google/genai sends), or the older `responseSchema`. */
function responseSchema(body: JsonObject): unknown {
  return isObject(body.generationConfig) ? (body.generationConfig.responseJsonSchema ?? body.generationConfig.responseSchema) : undefined;
}
