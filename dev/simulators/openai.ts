/** OpenAI Responses API (`POST /v1/responses`) wire format. */
import { answerRequest, estimateTokens, type Answer } from "./answers.ts";
import type { AccountFaultKind } from "./faults.ts";
import {
  cachedPart,
  isObject,
  jsonResponse,
  type ErrorKind,
  type JsonObject,
  type ProviderContext,
  type AnswerKind,
  type ProviderHandler,
  responsesPrompt,
} from "./http.ts";
import { readUserLocation } from "./location.ts";
import { HEX, randomToken } from "./random.ts";
import { kindOfName, structuredAnswer } from "./structured.ts";

export const openai: ProviderHandler<"openai", AnswerKind> = {
  id: "openai",
  // Its SDK appends only "/responses" to the base URL.
  basePath: "/v1",
  paths: ["/v1/"],
  endpoint: (method, pathname) => (method === "POST" && pathname === "/v1/responses") || (method === "GET" && MODEL.test(pathname)),
  // Anthropic's SDK shares GET /v1/models/{id}, and always says its API version.
  owns: (request) => !request.headers.has("anthropic-version"),
  retrievedModel: (method, pathname) => (method === "GET" ? MODEL.exec(pathname)?.[1] : undefined),
  modelInfo: (model, shutdownDate) =>
    jsonResponse({ id: model, object: "model", created: 1_790_000_000, owned_by: "openai", shutdown_date: shutdownDate ?? null }, 200, {
      "x-request-id": requestId(),
    }),
  modelOf: (body) => String(body.model ?? ""),
  accountFailure,
  apiKey: (request) =>
    request.headers
      .get("authorization")
      ?.match(/^Bearer\s+(.*)$/i)?.[1]
      ?.trim() || undefined,
  missingKeyMessage:
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). You can obtain an API key from https://platform.openai.com/account/api-keys.",
  classify: (body) => (hasWebSearch(body) || !isJsonSchema(body) ? "search" : kindOfName(formatName(body))),
  userText: (body) => responsesPrompt(body.input),
  validate(body) {
    if (typeof body.model !== "string" || body.model === "") return missing("model");
    if (typeof body.input !== "string" && !Array.isArray(body.input)) return missing("input");
    const { invalid } = readUserLocation(webSearchTool(body));
    if (invalid) return error("invalid_request", `Invalid 'tools[0].${invalid.replace(/: /, "': ")}`, { param: "tools[0].user_location" });
    return undefined;
  },
  respond,
  error,
  truncatedBody: () =>
    `{"id":"resp_${randomToken(48, HEX)}","object":"response","created_at":${now()},"status":"completed","output":[{"type":"message","id":"msg_${randomToken(48, HEX)}","content":[{"type":"output_text","text":"Here are the top picks`,
  faultMessages: {
    rate_limit: "Rate limit reached for requests. Please try again later.",
    server_error: "The server had an error while processing your request. Sorry about that!",
    overloaded: "The engine is currently overloaded, please try again later.",
  },
};

const MODEL = /^\/v1\/models\/([^/]+)$/;
/** OpenAI's reasoning models (gpt-5 onwards, the o series): their answers start with a reasoning item, and bill reasoning tokens. */
const REASONING = /^(gpt-[5-9]|o\d)/;

/** OpenAI's own answers (status, type, code and words) for a refused key, a model it does not offer and an exhausted quota. */
function accountFailure(kind: AccountFaultKind, model: string): Response {
  const spec = {
    auth_refused: {
      status: 401,
      error: {
        message: "Incorrect API key provided: simulat**********-key. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    },
    model_not_found: {
      status: 404,
      error: {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    },
    quota_exhausted: {
      status: 429,
      error: {
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    },
  }[kind];
  return jsonResponse({ error: spec.error }, spec.status, { "x-request-id": requestId() });
}

function respond(body: JsonObject, context: ProviderContext): Response {
  const prompt = responsesPrompt(body.input);
  const model = String(body.model);
  const output: JsonObject[] = [];
  let text: string;
  let annotations: JsonObject[] = [];
  let searchCalls = 0;
  let truncated = false;
  const kind = openai.classify(body);
  if (kind !== "search") {
    text = JSON.stringify(structuredAnswer(kind, prompt, context));
  } else {
    const answer = answerRequest(context, prompt, {
      provider: "openai",
      searchTool: hasWebSearch(body),
      jsonOnly: isJsonSchema(body),
      searches: { min: 1, max: 3 },
      location: readUserLocation(webSearchTool(body)).location,
    });
    if (REASONING.test(model)) output.push({ id: `rs_${randomToken(48, HEX)}`, type: "reasoning", summary: [] });
    const calls = webSearchCallItems(answer, context, includesSources(body));
    searchCalls = calls.length;
    output.push(...calls);
    text = answer.text;
    annotations = annotationsOf(answer);
    truncated = answer.truncated;
  }
  output.push({
    id: `msg_${randomToken(48, HEX)}`,
    type: "message",
    status: truncated ? "incomplete" : "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations, logprobs: [] }],
  });
  const thinking = REASONING.test(model) ? context.rng.int(64, 512) : 0;
  // Reasoning is part of output_tokens, as the API reports it.
  const reasoningTokens = context.usage ? Math.min(thinking, context.usage.outputTokens) : thinking;
  const inputTokens = context.usage?.inputTokens ?? estimateTokens(prompt) + 350 * searchCalls;
  const cachedTokens = context.usage?.cachedInputTokens ?? cachedPart(inputTokens);
  const outputTokens = context.usage ? context.usage.outputTokens - reasoningTokens : estimateTokens(text);
  return jsonResponse(
    {
      id: `resp_${randomToken(48, HEX)}`,
      object: "response",
      created_at: now(),
      status: truncated ? "incomplete" : "completed",
      background: false,
      error: null,
      incomplete_details: truncated ? { reason: "max_output_tokens" } : null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      model,
      output,
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      service_tier: "default",
      store: true,
      temperature: 1,
      text: body.text ?? { format: { type: "text" }, verbosity: "medium" },
      tool_choice: body.tool_choice ?? "auto",
      tools: body.tools ?? [],
      top_p: 1,
      truncation: "disabled",
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: cachedTokens },
        output_tokens: outputTokens + reasoningTokens,
        output_tokens_details: { reasoning_tokens: reasoningTokens },
        total_tokens: inputTokens + outputTokens + reasoningTokens,
      },
      ...(context.usage?.searches !== undefined && kind === "search" ? { tool_usage: { web_search: { num_requests: context.usage.searches } } } : {}),
      user: null,
      metadata: {},
    },
    200,
    { "x-request-id": requestId(), "openai-processing-ms": String(context.rng.int(800, 4000)) },
  );
}

/** The searches grouped into one or more web_search_call items (several queries per call). */
function webSearchCallItems(answer: Answer, context: ProviderContext, withSources: boolean): JsonObject[] {
  if (answer.searches.length === 0) return [];
  const callCount = context.rng.int(1, answer.searches.length);
  return Array.from({ length: callCount }, (_, i) => answer.searches.filter((_, j) => j % callCount === i)).map((group) => ({
    type: "web_search_call",
    id: `ws_${randomToken(48, HEX)}`,
    status: "completed",
    action: {
      type: "search",
      query: group[0]?.query ?? answer.query,
      queries: group.map((s) => s.query),
      ...(withSources ? { sources: group.flatMap((s) => s.results).map((page) => ({ type: "url", url: page.url })) } : {}),
    },
  }));
}

function annotationsOf(answer: Answer): JsonObject[] {
  const annotations: JsonObject[] = [];
  let offset = 0;
  for (const segment of answer.segments) {
    for (const page of segment.sources) {
      annotations.push({ type: "url_citation", start_index: offset, end_index: offset + segment.text.length, url: page.url, title: page.title });
    }
    offset += segment.text.length;
  }
  return annotations;
}

function error(kind: ErrorKind, message: string, options: { retryAfterSeconds?: number; param?: string } = {}): Response {
  const spec: Record<ErrorKind, { status: number; type: string; code: string | null }> = {
    authentication: { status: 401, type: "invalid_request_error", code: "invalid_api_key" },
    invalid_request: { status: 400, type: "invalid_request_error", code: null },
    not_found: { status: 404, type: "invalid_request_error", code: "unknown_url" },
    rate_limit: { status: 429, type: "requests", code: "rate_limit_exceeded" },
    server_error: { status: 500, type: "server_error", code: null },
    overloaded: { status: 503, type: "server_error", code: "engine_overloaded" },
  };
  const { status, type, code } = spec[kind];
  const headers: Record<string, string> = { "x-request-id": requestId() };
  if (options.retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(options.retryAfterSeconds);
    headers["x-ratelimit-limit-requests"] = "500";
    headers["x-ratelimit-remaining-requests"] = "0";
    headers["x-ratelimit-reset-requests"] = `${options.retryAfterSeconds}s`;
  }
  return jsonResponse({ error: { message, type, param: options.param ?? null, code } }, status, headers);
}

function missing(param: string): Response {
  return jsonResponse(
    { error: { message: `Missing required parameter: '${param}'.`, type: "invalid_request_error", param, code: "missing_required_parameter" } },
    400,
    { "x-request-id": requestId() },
  );
}

function hasWebSearch(body: JsonObject): boolean {
  return webSearchTool(body) !== undefined;
}

function webSearchTool(body: JsonObject): JsonObject | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  return body.tools.find((tool): tool is JsonObject => isObject(tool) && typeof tool.type === "string" && tool.type.startsWith("web_search"));
}

function isJsonSchema(body: JsonObject): boolean {
  return isObject(body.text) && isObject(body.text.format) && body.text.format.type === "json_schema";
}

function formatName(body: JsonObject): unknown {
  return isObject(body.text) && isObject(body.text.format) ? body.text.format.name : undefined;
}

function includesSources(body: JsonObject): boolean {
  return Array.isArray(body.include) && body.include.includes("web_search_call.action.sources");
}

const now = () => Math.floor(Date.now() / 1000);
const requestId = () => `req_${randomToken(32, HEX)}`;
