/**
 * Perplexity Agent API (`POST /v1/responses`) wire format: `search_results` items (the queries a
 * search ran and the pages it retrieved) before the `message`, whose `output_text` carries
 * numbered markers and `url_citation` annotations; `usage.cost` says what the call cost. Its SDK
 * appends `/v1/responses` to the base URL, as OpenAI's appends `/responses` to one ending in `/v1`:
 * the simulator serves it under its own prefix so the two never share a path.
 */
import { answerRequest, estimateTokens, type Answer } from "./answers.ts";
import type { SourcePage } from "./catalogue.ts";
import type { AccountFaultKind } from "./faults.ts";
import { cachedPart, isObject, jsonResponse, responsesPrompt, type ErrorKind, type JsonObject, type ProviderContext, type ProviderHandler } from "./http.ts";
import type { AskedFrom } from "./location.ts";
import { randomToken } from "./random.ts";
import type { Rng } from "./random.ts";
import { kindOfName, structuredAnswer } from "./structured.ts";

const PREFIX = "/perplexity";
const RESPONSES = `${PREFIX}/v1/responses`;

/** Sonar's Agent API rates, USD: per input, cached input and output token, and per search call (docs.perplexity.ai, ADR 059). */
const RATES = { input: 0.25e-6, cached: 0.0625e-6, output: 2.5e-6, search: 0.005 };

export const perplexity: ProviderHandler<"perplexity"> = {
  id: "perplexity",
  basePath: PREFIX,
  paths: [`${PREFIX}/`],
  endpoint: (method, pathname) => method === "POST" && pathname === RESPONSES,
  owns: () => true,
  // No models endpoint: the Connection Status' check is a tool-less answer of a few tokens (kind "model").
  retrievedModel: () => undefined,
  modelInfo: (model) => jsonResponse({ id: model, object: "model" }, 200),
  modelOf: (body) => String(body.model ?? ""),
  accountFailure,
  apiKey: (request) =>
    request.headers
      .get("authorization")
      ?.match(/^Bearer\s+(.*)$/i)?.[1]
      ?.trim() || undefined,
  missingKeyMessage: "Missing API key. Provide it in an Authorization header using Bearer auth (Authorization: Bearer pplx-…).",
  classify: (body) => (webSearchTool(body) ? "search" : isObject(body.response_format) ? kindOfName(formatName(body)) : "model"),
  userText: (body) => responsesPrompt(body.input),
  validate(body) {
    if (typeof body.model !== "string" || body.model === "") return error("invalid_request", "Field required: model", { param: "model" });
    if (typeof body.input !== "string" && !Array.isArray(body.input)) return error("invalid_request", "Field required: input", { param: "input" });
    const { invalid } = readLocation(webSearchTool(body));
    if (invalid) return error("invalid_request", `tools[0].${invalid}`, { param: "tools[0].user_location" });
    return undefined;
  },
  respond,
  error,
  truncatedBody: () =>
    `{"id":"resp_${randomToken(36)}","object":"response","created_at":${now()},"model":"perplexity/sonar","status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"The best picks are`,
  faultMessages: {
    rate_limit: "Rate limit exceeded: too many requests. Please slow down and try again later.",
    server_error: "Internal server error. Please try again later.",
    overloaded: "The service is temporarily overloaded. Please try again later.",
  },
};

/** Perplexity's answers for a refused key (401), a model it does not offer (400 invalid_model) and an account without credit (402). */
function accountFailure(kind: AccountFaultKind, model: string): Response {
  const spec = {
    auth_refused: { status: 401, error: { message: "Invalid API key provided.", type: "invalid_api_key", code: "401" } },
    model_not_found: {
      status: 400,
      error: {
        message: `Invalid model '${model}'. Permitted models can be found in the documentation at https://docs.perplexity.ai/docs/agent-api/models.`,
        type: "invalid_model",
        code: "400",
      },
    },
    quota_exhausted: {
      status: 402,
      error: { message: "Insufficient credits: your API credit balance is too low. Add credits to continue.", type: "insufficient_quota", code: "402" },
    },
  }[kind];
  return jsonResponse({ error: spec.error }, spec.status, { "x-request-id": requestId() });
}

function respond(body: JsonObject, context: ProviderContext): Response {
  const prompt = responsesPrompt(body.input);
  const model = String(body.model);
  const kind = perplexity.classify(body);
  const output: JsonObject[] = [];
  let text: string;
  let annotations: JsonObject[] = [];
  let searchCalls = 0;
  let truncated = false;
  if (kind === "model") {
    text = "OK";
  } else if (kind !== "search") {
    text = JSON.stringify(structuredAnswer(kind, prompt, context));
  } else {
    const tool = webSearchTool(body);
    const answer = answerRequest(context, prompt, {
      provider: "perplexity",
      searchTool: tool !== undefined,
      searches: { min: 1, max: 4 },
      location: readLocation(tool).location,
    });
    const items = searchResultItems(answer, context.rng);
    searchCalls = items.length;
    output.push(...items);
    ({ text, annotations } = citedText(answer));
    truncated = answer.truncated;
  }
  output.push({
    type: "message",
    id: `msg_${randomToken(36)}`,
    role: "assistant",
    status: truncated ? "incomplete" : "completed",
    content: [{ type: "output_text", text, annotations }],
  });
  const searches = kind === "search" ? (context.usage?.searches ?? searchCalls) : 0;
  const inputTokens = context.usage?.inputTokens ?? estimateTokens(prompt) + 600 * searchCalls;
  const cachedTokens = context.usage?.cachedInputTokens ?? cachedPart(inputTokens);
  const outputTokens = context.usage?.outputTokens ?? estimateTokens(text);
  const inputCost = (inputTokens - cachedTokens) * RATES.input;
  const cacheCost = cachedTokens * RATES.cached;
  const outputCost = outputTokens * RATES.output;
  const toolCost = searches * RATES.search;
  return jsonResponse(
    {
      id: `resp_${randomToken(36)}`,
      object: "response",
      created_at: now(),
      model,
      status: truncated ? "incomplete" : "completed",
      ...(truncated ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cache_read_input_tokens: cachedTokens },
        output_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
        ...(searches > 0 ? { tool_calls_details: { web_search: { invocation: searches } } } : {}),
        cost: {
          currency: "USD",
          input_cost: round(inputCost),
          cache_read_cost: round(cacheCost),
          output_cost: round(outputCost),
          ...(searches > 0 ? { tool_calls_cost: round(toolCost) } : {}),
          total_cost: round(inputCost + cacheCost + outputCost + toolCost),
        },
      },
    },
    200,
    { "x-request-id": requestId() },
  );
}

/** One `search_results` item per search call: its queries and the pages it found, numbered across the answer. */
function searchResultItems(answer: Answer, rng: Rng): JsonObject[] {
  let id = 0;
  return answer.searches.map((search) => ({
    type: "search_results",
    queries: [search.query],
    results: search.results.map((page) => ({
      id: ++id,
      url: page.url,
      title: page.title,
      snippet: snippetOf(page),
      date: recentDate(rng),
      source: "web",
    })),
  }));
}

/**
 * The answer's text with Perplexity's numbered markers ("[1][3]") after each cited span, and one
 * `url_citation` annotation per page cited, spanning the text it supports.
 */
function citedText(answer: Answer): { text: string; annotations: JsonObject[] } {
  const numbers = new Map<string, number>();
  const numberOf = (page: SourcePage) => {
    if (!numbers.has(page.url)) numbers.set(page.url, numbers.size + 1);
    return numbers.get(page.url) ?? 0;
  };
  let text = "";
  const annotations: JsonObject[] = [];
  for (const segment of answer.segments) {
    const start = text.length;
    text += segment.text;
    if (segment.sources.length === 0) continue;
    const end = text.length;
    text += segment.sources.map((page) => `[${numberOf(page)}]`).join("");
    for (const page of segment.sources) annotations.push({ type: "url_citation", url: page.url, title: page.title, start_index: start, end_index: end });
  }
  return { text, annotations };
}

/** The web_search tool's `user_location` (country, region, city, coordinates), or why the API would refuse it. */
function readLocation(tool: JsonObject | undefined): { location?: AskedFrom; invalid?: string } {
  const raw = tool?.user_location;
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) return { invalid: "user_location: Input should be a valid dictionary" };
  const location: AskedFrom = {};
  for (const field of ["country", "region", "city"] as const) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return { invalid: `user_location.${field}: Input should be a valid string` };
    location[field] = value;
  }
  if (location.country !== undefined && !/^[A-Z]{2}$/i.test(location.country))
    return { invalid: `user_location.country: should be a two-letter ISO 3166-1 alpha-2 code, got ${JSON.stringify(location.country)}` };
  return { location: { ...location, ...(location.country ? { country: location.country.toUpperCase() } : {}) } };
}

function snippetOf(page: SourcePage): string {
  return `${page.title}. Our picks, compared on price, features and what owners say after months of use.`;
}

/** A publication date in the last year and a half, as search results carry one. */
function recentDate(rng: Rng): string {
  return new Date(Date.UTC(2026, 11, 1) - rng.int(1, 540) * 86_400_000).toISOString().slice(0, 10);
}

function error(kind: ErrorKind, message: string, options: { retryAfterSeconds?: number; param?: string } = {}): Response {
  const spec: Record<ErrorKind, { status: number; type: string }> = {
    authentication: { status: 401, type: "invalid_api_key" },
    invalid_request: { status: 400, type: "invalid_request_error" },
    not_found: { status: 404, type: "not_found" },
    rate_limit: { status: 429, type: "rate_limit_exceeded" },
    server_error: { status: 500, type: "internal_server_error" },
    overloaded: { status: 503, type: "service_unavailable" },
  };
  const { status, type } = spec[kind];
  const headers: Record<string, string> = { "x-request-id": requestId() };
  if (options.retryAfterSeconds !== undefined) headers["retry-after"] = String(options.retryAfterSeconds);
  return jsonResponse({ error: { message, type, code: String(status), ...(options.param ? { param: options.param } : {}) } }, status, headers);
}

function webSearchTool(body: JsonObject): JsonObject | undefined {
  if (!Array.isArray(body.tools)) return undefined;
  return body.tools.find((tool): tool is JsonObject => isObject(tool) && tool.type === "web_search");
}

function formatName(body: JsonObject): unknown {
  const format = isObject(body.response_format) ? body.response_format : undefined;
  return format && isObject(format.json_schema) ? format.json_schema.name : undefined;
}

const round = (usd: number) => Math.round(usd * 1e8) / 1e8;
const now = () => Math.floor(Date.now() / 1000);
const requestId = () => randomToken(32);
