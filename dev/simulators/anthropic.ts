/** Anthropic Messages API (`POST /v1/messages`, API version 2026-10-21) wire format. */
import { providerConfig } from "#src/contract/provider-config.ts";
import { answerRequest, estimateTokens, type Answer, type Segment } from "./answers.ts";
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
  type SimulatedUsage,
} from "./http.ts";
import { readUserLocation } from "./location.ts";
import { randomToken, type Rng } from "./random.ts";
import { kindOfName, structuredAnswer } from "./structured.ts";

const REMOVED_PARAMETERS = ["temperature", "top_p", "top_k"] as const;
const MODEL = /^\/v1\/models\/([^/]+)$/;

/** "claude-haiku-5-5" → "Claude Haiku 5.5". */
function displayName(model: string): string {
  return model
    .replace(/^claude-/, "Claude ")
    .replace(/-(\d+)-(\d+)$/, " $1.$2")
    .replace(/-(\w)/g, (_, c: string) => ` ${c.toUpperCase()}`)
    .replace(/ (\w)/, (_, c: string) => ` ${c.toUpperCase()}`);
}

/** A handler with its own memory of paused turns (pause_turn fault → continuation). */
export function createAnthropic(): ProviderHandler<"anthropic", AnswerKind> {
  /** Remaining content of a paused turn, by the id of the last server_tool_use it sent. */
  const paused = new Map<string, JsonObject[]>();

  const handler: ProviderHandler<"anthropic", AnswerKind> = {
    id: "anthropic",
    basePath: "",
    paths: ["/v1/messages", "/v1/models/"],
    endpoint: (method, pathname) => (method === "POST" && pathname === "/v1/messages") || (method === "GET" && MODEL.test(pathname)),
    // Its SDK always sends its API version; OpenAI's shares GET /v1/models/{id} and never does.
    owns: (request) => request.headers.has("anthropic-version") || new URL(request.url).pathname === "/v1/messages",
    retrievedModel: (method, pathname) => (method === "GET" ? MODEL.exec(pathname)?.[1] : undefined),
    modelInfo: (model) =>
      jsonResponse({ type: "model", id: model, display_name: displayName(model), created_at: "2026-10-07T00:00:00Z" }, 200, { "request-id": requestId() }),
    modelOf: (body) => String(body.model ?? ""),
    accountFailure(kind, model) {
      // Anthropic's words: an unknown model is a 404 naming it; an empty balance a 400 invalid_request_error.
      if (kind === "auth_refused") return error("authentication", "invalid x-api-key");
      if (kind === "model_not_found") return error("not_found", `model: ${model}`);
      return error(
        "invalid_request",
        "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      );
    },
    apiKey: (request) =>
      request.headers.get("x-api-key")?.trim() ||
      request.headers
        .get("authorization")
        ?.match(/^Bearer\s+(.*)$/i)?.[1]
        ?.trim() ||
      undefined,
    missingKeyMessage: "x-api-key header or Authorization: Bearer token is required",
    classify: (body) => {
      const tool = structuredTool(body);
      return tool === undefined ? "search" : kindOfName(tool.replace(/^record_/, ""));
    },
    userText: (body) => userTurns(body).join("\n\n"),
    validate(body) {
      for (const name of REMOVED_PARAMETERS) {
        if (name in body) return error("invalid_request", `${name}: Extra inputs are not permitted. This parameter was removed in API version 2026-10-21.`);
      }
      if (typeof body.model !== "string" || body.model === "") return error("invalid_request", "model: Field required");
      if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
        return error("invalid_request", "max_tokens: Field required");
      if (!Array.isArray(body.messages) || body.messages.length === 0) return error("invalid_request", "messages: at least one message is required");
      const { invalid } = readUserLocation(webSearchTool(body));
      if (invalid) return error("invalid_request", `tools.0.web_search_20250305.${invalid}`);
      return undefined;
    },
    respond(body, context) {
      const messages = (body.messages as unknown[]).filter(isObject);
      const userText = userTurns(body);
      const tool = structuredTool(body);
      const kind = handler.classify(body);
      if (tool !== undefined && kind !== "search") {
        const input = structuredAnswer(kind, userText.join("\n\n"), context);
        const content = [{ type: "tool_use", id: `toolu_01${randomToken(22)}`, name: tool, input, caller: { type: "direct" } }];
        return message(body, content, "tool_use", userText.join("\n\n"), undefined, context.usage);
      }
      const last = messages.at(-1);
      const remainder = last?.role === "assistant" ? takePaused(paused, last.content) : undefined;
      if (remainder) return message(body, remainder, "end_turn", userText.join("\n\n"), countSearches(remainder), context.usage);

      const maxUses = webSearchTool(body)?.max_uses;
      const answer = answerRequest(context, userText[0] ?? "", {
        provider: "anthropic",
        searchTool: webSearchTool(body) !== undefined,
        searches: { min: 1, max: Math.min(3, typeof maxUses === "number" && maxUses >= 1 ? maxUses : 3) },
        location: readUserLocation(webSearchTool(body)).location,
      });
      const content = [...searchBlocks(answer, context.rng), ...textBlocks(answer.segments)];
      if (context.fault?.kind === "pause_turn") {
        const searchesDone = content.findIndex((block) => block.type === "text");
        const cut = Math.max(1, Math.min(searchesDone > 0 ? 2 : Math.ceil(content.length / 2), content.length - 1));
        const [first, rest] = [content.slice(0, cut), content.slice(cut)];
        const key = lastToolUseId(first) ?? `text:${String(first.at(-1)?.text ?? "")}`;
        paused.set(key, rest);
        if (paused.size > 1000) paused.delete(paused.keys().next().value as string);
        return message(body, first, "pause_turn", userText.join("\n\n"), countSearches(first), context.usage);
      }
      return message(
        body,
        content,
        answer.truncated ? "max_tokens" : "end_turn",
        userText.join("\n\n"),
        answer.searches.length > 0 ? countSearches(content) : undefined,
        context.usage,
      );
    },
    error,
    truncatedBody: () =>
      `{"id":"msg_01${randomToken(22)}","type":"message","role":"assistant","model":"${providerConfig.anthropic.defaultModel}","content":[{"type":"text","text":"Based on current reviews`,
    faultMessages: {
      rate_limit: "This request would exceed the rate limit for your organization. Please try again later.",
      server_error: "Internal server error",
      overloaded: "Overloaded",
    },
  };
  return handler;
}

/** A message; `fixed` usage (Simulator.setUsage) replaces the estimate. Anthropic counts cache reads apart from input_tokens. */
function message(body: JsonObject, content: JsonObject[], stopReason: string, prompt: string, searches: number | undefined, fixed?: SimulatedUsage): Response {
  const text = content.map((block) => (typeof block.text === "string" ? block.text : JSON.stringify(block.input ?? ""))).join("");
  const inputTokens = fixed?.inputTokens ?? estimateTokens(prompt) + (searches ?? 0) * 2100;
  const cachedTokens = fixed?.cachedInputTokens ?? cachedPart(inputTokens);
  const reportedSearches = searches === undefined ? undefined : (fixed?.searches ?? searches);
  return jsonResponse(
    {
      id: `msg_01${randomToken(22)}`,
      type: "message",
      role: "assistant",
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      stop_details: null,
      container: null,
      usage: {
        input_tokens: inputTokens - cachedTokens,
        output_tokens: fixed?.outputTokens ?? estimateTokens(text),
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: cachedTokens,
        server_tool_use: reportedSearches === undefined ? null : { web_search_requests: reportedSearches, web_fetch_requests: 0 },
        service_tier: "standard",
      },
    },
    200,
    { "request-id": requestId() },
  );
}

function searchBlocks(answer: Answer, rng: Rng): JsonObject[] {
  return answer.searches.flatMap((search) => {
    const id = `srvtoolu_01${randomToken(22)}`;
    return [
      { type: "server_tool_use", id, name: "web_search", input: { query: search.query }, caller: { type: "direct" } },
      {
        type: "web_search_tool_result",
        tool_use_id: id,
        caller: { type: "direct" },
        content: search.results.map((page) => ({
          type: "web_search_result",
          url: page.url,
          title: page.title,
          encrypted_content: `Eq${randomToken(rng.int(180, 320), BASE64)}`,
          page_age: rng.chance(0.85) ? pageAge(rng) : null,
        })),
      },
    ];
  });
}

/** One text block per cited span; consecutive uncited spans merge, as the real API does. */
function textBlocks(segments: readonly Segment[]): JsonObject[] {
  const blocks: JsonObject[] = [];
  for (const segment of segments) {
    const previous = blocks.at(-1);
    if (segment.sources.length === 0 && previous && previous.citations === null) {
      previous.text = `${String(previous.text)}${segment.text}`;
      continue;
    }
    const citations = segment.sources.map((page) => ({
      type: "web_search_result_location",
      url: page.url,
      title: page.title,
      cited_text: segment.citedText ?? segment.text,
      encrypted_index: `Eo${randomToken(120, BASE64)}`,
    }));
    blocks.push({ type: "text", text: segment.text, citations: citations.length > 0 ? citations : null });
  }
  return blocks;
}

/** The text of each user message. */
function userTurns(body: JsonObject): string[] {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  return messages.filter((m) => m.role === "user").map((m) => contentText(m.content));
}

/** The custom tool a structured-output call forces (`record_<name>`); never with web search. */
function structuredTool(body: JsonObject): string | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  const custom = body.tools.filter((tool) => isObject(tool) && "input_schema" in tool && typeof tool.name === "string") as JsonObject[];
  if (custom.length === 0 || webSearchTool(body)) return undefined;
  const chosen = isObject(body.tool_choice) && body.tool_choice.type === "tool" ? body.tool_choice.name : undefined;
  return String(custom.find((tool) => tool.name === chosen)?.name ?? custom[0]?.name);
}

function webSearchTool(body: JsonObject): JsonObject | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  return body.tools.find((tool): tool is JsonObject => isObject(tool) && typeof tool.type === "string" && tool.type.startsWith("web_search_"));
}

function takePaused(paused: Map<string, JsonObject[]>, content: unknown): JsonObject[] | undefined {
  const blocks = Array.isArray(content) ? content.filter(isObject) : [];
  const key = lastToolUseId(blocks) ?? `text:${String(blocks.at(-1)?.text ?? "")}`;
  const remainder = paused.get(key);
  paused.delete(key);
  return remainder;
}

function lastToolUseId(blocks: readonly JsonObject[]): string | undefined {
  const id = blocks.filter((block) => block.type === "server_tool_use").at(-1)?.id;
  return typeof id === "string" ? id : undefined;
}

function countSearches(blocks: readonly JsonObject[]): number {
  return blocks.filter((block) => block.type === "server_tool_use").length;
}

function error(kind: ErrorKind, message: string, options: ErrorOptions = {}): Response {
  const spec: Record<ErrorKind, [number, string]> = {
    authentication: [401, "authentication_error"],
    invalid_request: [400, "invalid_request_error"],
    not_found: [404, "not_found_error"],
    rate_limit: [429, "rate_limit_error"],
    server_error: [500, "api_error"],
    overloaded: [529, "overloaded_error"],
  };
  const [status, type] = spec[kind];
  const id = requestId();
  const headers: Record<string, string> = { "request-id": id };
  if (options.retryAfterSeconds !== undefined) {
    headers["retry-after"] = String(options.retryAfterSeconds);
    headers["anthropic-ratelimit-requests-limit"] = "50";
    headers["anthropic-ratelimit-requests-remaining"] = "0";
    headers["anthropic-ratelimit-requests-reset"] = new Date(Date.now() + options.retryAfterSeconds * 1000).toISOString();
  }
  return jsonResponse({ type: "error", error: { type, message }, request_id: id }, status, headers);
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function pageAge(rng: Rng): string {
  const date = new Date(Date.now() - rng.int(3, 400) * 86_400_000);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}

const requestId = () => `req_011C${randomToken(20)}`;
