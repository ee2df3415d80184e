/** Plumbing shared by the provider modules: what a provider handler is and JSON responses. */
import type { ProviderId } from "#src/contract/providers.ts";
import type { AccountFaultKind, Fault, FaultKind, RequestKind } from "./faults.ts";
import type { Rng } from "./random.ts";
import type { Effect } from "./run-effects.ts";

export type { RequestKind } from "./faults.ts";

/** What a request to a provider whose models are retrieved can ask: a search or a structured call. */
export type AnswerKind = Exclude<RequestKind, "model">;

export type ErrorKind = "authentication" | "invalid_request" | "not_found" | "rate_limit" | "server_error" | "overloaded";

/** The errors a fault can cause (rate_limit, server_error, overloaded). */
export type FaultErrorKind = Extract<ErrorKind, FaultKind>;

export interface ErrorOptions {
  retryAfterSeconds?: number;
  param?: string;
}

export interface ProviderContext {
  rng: Rng;
  /** The simulator's own origin (Gemini's grounding redirects point back at it). */
  origin: string;
  /** no_search / prose_only / pause_turn; error faults never reach a handler. */
  fault: Fault | undefined;
  formatVariety: number;
  /** Probability that a search answer carries one of its provider's noise classes (answers.ts). */
  noise: number;
  /** A search request's run effects (run-effects.ts): how much its day and run favour a product or page. Absent: none. */
  effect?: Effect;
  /** How the extraction call errs (extractor-errors.ts): its rate and its own seeded randomness. */
  extractorErrors: { rate: number; rng: Rng };
  /** Path of the request (Gemini reads the model from it). */
  pathname: string;
  /** The usage to report instead of the estimated one (Simulator.setUsage), for exact costs in tests. */
  usage?: SimulatedUsage;
}

/**
 * Usage as the simulator reports it, whatever the provider's wire format: input tokens (the
 * cached ones included), the cached part, output tokens, web searches (the search call only).
 */
export type SimulatedUsage = { inputTokens: number; cachedInputTokens: number; outputTokens: number; searches?: number };

/** By default a quarter of a prompt is read from the cache, as a repeated prefix would be. */
export function cachedPart(inputTokens: number): number {
  return Math.floor(inputTokens / 4);
}

/**
 * A provider's simulator. `K`: the kinds its requests classify as; "model" only for an API whose
 * check is a small answer rather than retrieving a model (Perplexity's).
 */
export interface ProviderHandler<P extends ProviderId = ProviderId, K extends RequestKind = RequestKind> {
  id: P;
  /** What its SDK's base URL adds to the simulator's origin. */
  basePath: string;
  /** Path prefixes it serves (any method); the longest prefix wins, so one provider may sit inside another's. */
  paths: readonly string[];
  /** Whether the method + path is an endpoint (otherwise 404 in this provider's format). */
  endpoint(method: string, pathname: string): boolean;
  /** Whether a request is its SDK's (by the headers only it sends), where two providers share a path (GET /v1/models/{id}). */
  owns(request: Request): boolean;
  /** The model a models-retrieve request (GET …/models/{id}) names; undefined for every other request. */
  retrievedModel(method: string, pathname: string): string | undefined;
  /**
   * The model object its models endpoint answers for an offered model, with the shutdown date set
   * for it (setShutdown) where its wire format has one (OpenAI's `shutdown_date`).
   */
  modelInfo(model: string, shutdownDate?: string): Response;
  /** The model a generation request asks for (in its body, or Gemini's path). */
  modelOf(body: JsonObject, pathname: string): string;
  /** Its answer, in its own wire shape and words, when the key is refused, the model is gone or the account is out of quota. */
  accountFailure(kind: AccountFaultKind, model: string): Response;
  apiKey(request: Request, url: URL): string | undefined;
  /** The 401 message when no (or an empty) API key was sent. */
  missingKeyMessage: string;
  classify(body: JsonObject): K;
  /** The user's message text as received (every user turn's text, a blank line apart). */
  userText(body: JsonObject): string;
  /** A 400 for a request the real API would reject, else undefined. */
  validate(body: JsonObject): Response | undefined;
  respond(body: JsonObject, context: ProviderContext): Response;
  error(kind: ErrorKind, message: string, options?: ErrorOptions): Response;
  /** The first bytes of a real answer, cut off (for the malformed_json fault). */
  truncatedBody(): string;
  /** The real API's message for each error a fault causes. */
  faultMessages: Record<FaultErrorKind, string>;
}

export type JsonObject = Record<string, unknown>;

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text of a message content that is a string or a list of `{type:"text"|"input_text", text}` parts. */
/** The user's words in a Responses-style `input` (a string, or messages whose content is text parts), as OpenAI's and Perplexity's simulators read them. */
export function responsesPrompt(input: unknown): string {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return "";
  return input
    .filter((item) => isObject(item) && (item.role === undefined || item.role === "user"))
    .map((item) => (isObject(item) ? contentText(item.content) : ""))
    .filter(Boolean)
    .join("\n\n");
}

export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      isObject(part) && typeof part.text === "string" && (part.type === undefined || part.type === "text" || part.type === "input_text") ? part.text : "",
    )
    .filter(Boolean)
    .join("\n\n");
}
