/**
 * Loopback simulators of each catalogue provider's API with web search (one module each,
 * registered in `simulators`), on one Bun.serve (their paths differ). The app's real adapters
 * reach them through the official SDKs by pointing the base URL here. Not mocks of our code.
 *
 *   bun dev/simulators/index.ts [--port N] [--seed N] [--latency-ms N] [--format-variety P] [--noise P] [--extractor-errors P]
 *                               [--day-effect-sd N] [--run-effect-sd N] [--run-gap-ms N]
 *
 * A search request whose prompt is the query as typed gets prose alone; one whose prompt asks
 * for a JSON block (the old method) gets the block too. The extraction call (extractionRequest:
 * a tool-less structured call named "extraction") is answered as a small model would, with its
 * mistakes at the `extractorErrors` rate (extractor-errors.ts lists them).
 *
 * With run effects (`dayEffectSd`, `runEffectSd`; ADR 051), search answers move together as a real assistant's do: those of
 * one run (a burst of a question's requests, none more than `runGapMs` after the one before) lean
 * the same way, and each UTC day leans every question its own way, so a tracker's iterations agree
 * more with each other than with the next day's. Off by default (each answer drawn on its own);
 * the CLI and the keyless demo use DEMO_RUN_EFFECTS (the --day-effect-sd, --run-effect-sd and
 * --run-gap-ms flags override it; 0 and 0 turn it off).
 */
import { perProvider, providerIds, providerInfo, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { abortableSleep } from "#src/core/backoff.ts";
import { createAnthropic } from "./anthropic.ts";
import { faultResponse } from "./fault-responses.ts";
import { FaultBook, type Fault, type FaultFor, type FaultKind, type SetFaultsOptions } from "./faults.ts";
import { gemini, resolveGroundingToken } from "./gemini.ts";
import { isObject, jsonResponse, type JsonObject, type ProviderHandler, type RequestKind, type SimulatedUsage } from "./http.ts";
import { openai } from "./openai.ts";
import { perplexity } from "./perplexity.ts";
import { userQuery } from "./query.ts";
import { createRng, hashString, randomSeed, type Rng } from "./random.ts";
import { createRunEffects, type Effect, type RunEffects } from "./run-effects.ts";

export type { Fault, FaultFor, FaultKind, SetFaultsOptions } from "./faults.ts";
export type { RequestKind, SimulatedUsage } from "./http.ts";
export type { RunEffects } from "./run-effects.ts";

/** Every catalogue provider's simulator; a provider added to the catalogue fails to compile here until it has one. */
export const simulators: { [P in ProviderId]: () => ProviderHandler<P> } = {
  openai: () => openai,
  anthropic: createAnthropic,
  gemini: () => gemini,
  perplexity: () => perplexity,
};

export type Latency = { kind: "fixed"; ms: number } | { kind: "lognormal"; medianMs: number; p95Ms: number };

export interface SimulatorOptions extends RunEffects {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  hostname?: string;
  /** Default lognormal, median 1200 ms, p95 3500 ms. */
  latency?: Latency;
  /**
   * Seed for reproducible answers and latencies; random when absent. Each request draws from its
   * own stream, keyed by the seed, the request and how many identical ones came before it: the
   * answers a seed gives do not depend on the order concurrent calls arrive in.
   */
  seed?: number;
  /**
   * Probability (0–1) of an unusual format: a JSON block (when asked for) unfenced, single-quoted
   * or with trailing text; picks in prose laid out as headings, bold-led paragraphs or a table. Default 0.
   */
  formatVariety?: number;
  /** Probability (0–1) that a search answer carries one of the quirks of real models (answers.ts). Default 0. */
  noise?: number;
  /**
   * Probability (0–1) that an extraction call's answer carries one small-model mistake (an invented
   * name, a category, a fragment, a possessive, a name the answer couldn't find, a misspelt name,
   * a company as a product: extractor-errors.ts). Default 0: exactly the names the answer recommends.
   */
  extractorErrors?: number;
}

export interface RequestLogEntry {
  provider: ProviderId;
  path: string;
  kind: RequestKind;
  /** The parsed JSON body as received (undefined when it was not JSON). */
  body: unknown;
  /** The user's message text as received (every user turn, a blank line apart); "" when the body was not JSON. */
  prompt: string;
  /** Request headers, lower-cased names. */
  headers: Record<string, string>;
  /** Epoch ms when the request arrived. */
  atMs: number;
  /** The fault applied to this request, if any. */
  fault?: FaultKind;
}

export interface AbortRecord {
  provider: ProviderId;
  path: string;
  /** Epoch ms when the simulator saw the client disconnect. */
  atMs: number;
  /** How long after the request arrived. */
  sinceStartMs: number;
}

export interface Simulator {
  readonly origin: string;
  readonly port: number;
  readonly baseUrls: Readonly<Record<ProviderId, string>>;
  readonly requests: readonly RequestLogEntry[];
  readonly aborts: readonly AbortRecord[];
  /** What each search request (not an extraction or variants call) asked, as its provider received it, in order of arrival. */
  searchPrompts(provider?: ProviderId): { provider: ProviderId; prompt: string }[];
  /** Queue faults consumed one per request (then normal), or with `persistent` apply them to every request. */
  setFaults<P extends ProviderId>(provider: P, faults: FaultFor<P>[], options?: SetFaultsOptions): void;
  clearFaults(provider?: ProviderId): void;
  setLatency(latency: Latency): void;
  /** Report exactly this usage for a provider's requests of a kind (search, extraction) from now on; `undefined` goes back to estimating it. */
  setUsage(provider: ProviderId, kind: RequestKind, usage: SimulatedUsage | undefined): void;
  /**
   * A lasting change in how the providers (or one) see an item, from now on: its log-weight moved
   * by `offset` (a product by name, a page by URL), as a new search index or model build would.
   * A brand whose products get −2 is named far less often; 0 undoes it.
   */
  setLean(item: string, offset: number, provider?: ProviderId): void;
  /** The most search requests (not extraction or model calls) each provider had in flight at once since the start or `clearLog`. */
  peakInFlight(provider: ProviderId): number;
  /**
   * The shutdown date (YYYY-MM-DD) a provider's models endpoint reports for a model from now on,
   * in its wire format where it has one (OpenAI's `shutdown_date`; Gemini's and Anthropic's model
   * objects carry none); `undefined` removes it.
   */
  setShutdown(provider: ProviderId, model: string, date: string | undefined): void;
  /** Empties `requests` and `aborts`, and the peaks. */
  clearLog(): void;
  /** Called when a client disconnects before its response was sent; returns an unsubscribe function. */
  onAbort(listener: (abort: AbortRecord) => void): () => void;
  stop(): Promise<void>;
}

/** The keyless demo's noise rate: about one answer in twelve shows a quirk of real models. */
export const DEMO_NOISE = 0.08;

/** The keyless demo's extractor error rate: about one extraction in five carries a small model's mistake. */
export const DEMO_EXTRACTOR_ERRORS = 0.2;

/**
 * The keyless demo's run effects: a day's lean and a run's lean of equal size, so that whether a
 * product is named correlates about 0.1 within a run (a run's mention rate varies about twice as
 * much as independent answers' would) while the brands of one day's answer and the next's still
 * share about half (scripts/simulator-variance.ts measures it; ADR 051 has the figures).
 */
export const DEMO_RUN_EFFECTS = { dayEffectSd: 0.25, runEffectSd: 0.25 } as const satisfies RunEffects;

const ASKED_KEPT = 100_000;

export const DEFAULT_LATENCY: Latency = { kind: "lognormal", medianMs: 1200, p95Ms: 3500 };

export function startSimulator(options: SimulatorOptions = {}): Simulator {
  const seed = options.seed ?? randomSeed();
  const latencyRng = createRng(seed ^ 0x9e3779b9);
  const extractorErrorRate = options.extractorErrors ?? 0;
  /** How many times each request (by its hash) was answered; forgotten past ASKED_KEPT, as a long demo would otherwise hold every one. */
  const asked = new Map<number, number>();
  /**
   * A request's own randomness: the n-th request with this body gets the same answer whatever
   * else is in flight, so a tracker run's ten iterations (sent at once) give one set of answers
   * per seed. The extractor's mistakes have their own stream, so they never change the answers.
   */
  const requestRandomness = (provider: ProviderId, pathname: string, raw: string): { rng: Rng; extractorErrors: { rate: number; rng: Rng } } => {
    const key = hashString(`${provider} ${pathname} ${raw}`);
    const n = asked.get(key) ?? 0;
    if (asked.size >= ASKED_KEPT) asked.clear();
    asked.set(key, n + 1);
    const stream = hashString(`${seed}:${n}:${key}`);
    return { rng: createRng(stream), extractorErrors: { rate: extractorErrorRate, rng: createRng(stream ^ 0x85ebca6b) } };
  };
  const runEffect = createRunEffects(seed, options);
  /** setLean's offsets, by provider ("" for every one) and item. */
  const leans = new Map<string, number>();
  const withLeans = (provider: ProviderId, effect: Effect | undefined): Effect | undefined => {
    if (leans.size === 0) return effect;
    return (item) => (effect?.(item) ?? 0) + (leans.get(`\n${item}`) ?? 0) + (leans.get(`${provider}\n${item}`) ?? 0);
  };
  let latency = options.latency ?? DEFAULT_LATENCY;
  /** Shutdown dates its models endpoints report, by "provider model". */
  const shutdowns = new Map<string, string>();
  const formatVariety = options.formatVariety ?? 0;
  const noise = options.noise ?? 0;
  const handlers = perProvider<ProviderHandler>((id) => simulators[id]());
  const routes = Object.values(handlers);
  const faults = new FaultBook();
  const usages = new Map<string, SimulatedUsage>();
  const requests: RequestLogEntry[] = [];
  const aborts: AbortRecord[] = [];
  const inFlight = perProvider(() => 0);
  const peaks = perProvider(() => 0);
  const abortListeners = new Set<(abort: AbortRecord) => void>();
  const stopping = new AbortController();

  const server = Bun.serve({
    hostname: options.hostname ?? "127.0.0.1",
    port: options.port ?? 0,
    idleTimeout: 0,
    development: false,
    error: (error) => jsonResponse({ error: { message: `simulator error: ${error.message}` } }, 500),
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname.startsWith("/grounding-api-redirect/")) return groundingRedirect(request, url);
      const handler = handlerFor(routes, request, url.pathname);
      if (!handler)
        return url.pathname === "/"
          ? jsonResponse({ simulator: "ai-search-providers", baseUrls: simulator.baseUrls }, 200)
          : jsonResponse({ error: "Not Found" }, 404);
      if (!handler.endpoint(request.method, url.pathname)) return handler.error("not_found", `Unknown endpoint: ${request.method} ${url.pathname}`);

      const retrieved = handler.retrievedModel(request.method, url.pathname);
      if (retrieved !== undefined) return await retrieveModel(handler, request, url, retrieved);

      const startedAt = performance.now();
      const raw = await request.text();
      const body = parseJson(raw);
      const entry: RequestLogEntry = {
        provider: handler.id,
        path: url.pathname,
        kind: isObject(body) ? handler.classify(body) : "search",
        body,
        prompt: isObject(body) ? handler.userText(body) : "",
        headers: Object.fromEntries(request.headers),
        atMs: Date.now(),
      };
      requests.push(entry);
      if (!handler.apiKey(request, url)) return handler.error("authentication", handler.missingKeyMessage);
      if (!isObject(body)) return handler.error("invalid_request", "The request body is not valid JSON.");
      const invalid = handler.validate(body);
      if (invalid) return invalid;

      const fault = faults.take(handler.id, entry.kind);
      if (fault) entry.fault = fault.kind;
      let answered = false;
      request.signal.addEventListener(
        "abort",
        () => {
          if (answered) return;
          const record = { provider: handler.id, path: url.pathname, atMs: Date.now(), sinceStartMs: Math.round(performance.now() - startedAt) };
          aborts.push(record);
          for (const listener of abortListeners) listener(record);
        },
        { once: true },
      );
      const gone = AbortSignal.any([request.signal, stopping.signal]);
      const searching = entry.kind === "search";
      // Taken as the request arrives: the clock at arrival decides which run of its question it is in.
      const effect = searching ? withLeans(handler.id, runEffect(handler.id, userQuery(entry.prompt))) : undefined;
      if (searching) peaks[handler.id] = Math.max(peaks[handler.id], ++inFlight[handler.id]);
      try {
        if (fault?.kind === "rate_limit")
          return faultResponse(handler, fault, handler.modelOf(body, url.pathname)) ?? handler.error("rate_limit", "Rate limited");
        if (fault?.kind === "timeout") {
          await abortableSleep(Number.POSITIVE_INFINITY, gone);
          return new Response(null, { status: 504 });
        }
        if (!(await abortableSleep(sampleLatency(latency, latencyRng), gone))) return new Response(null, { status: 499 });
        return (
          (fault && faultResponse(handler, fault, handler.modelOf(body, url.pathname))) ??
          respond(handler, body, fault, requestRandomness(handler.id, url.pathname, raw), url.pathname, effect, usages.get(`${handler.id}:${entry.kind}`))
        );
      } finally {
        answered = true;
        if (searching) inFlight[handler.id]--;
      }
    },
  });

  /**
   * Retrieving a model (GET …/models/{id}): the cheapest call each API offers, which the Connection
   * Status makes. It takes the provider's faults like any request ("model" kind), else answers the model.
   */
  async function retrieveModel(handler: ProviderHandler, request: Request, url: URL, model: string): Promise<Response> {
    // Read to its end, as every request is: a connection then reset is seen as such by the client.
    await request.text();
    const entry: RequestLogEntry = {
      provider: handler.id,
      path: url.pathname,
      kind: "model",
      body: undefined,
      prompt: "",
      headers: Object.fromEntries(request.headers),
      atMs: Date.now(),
    };
    requests.push(entry);
    if (!handler.apiKey(request, url)) return handler.error("authentication", handler.missingKeyMessage);
    const fault = faults.take(handler.id, "model");
    if (fault) entry.fault = fault.kind;
    return (fault && faultResponse(handler, fault, model)) ?? handler.modelInfo(model, shutdowns.get(`${handler.id} ${model}`));
  }

  const origin = `http://${server.hostname === "::1" ? "[::1]" : server.hostname}:${server.port}`;
  const respond = (
    handler: ProviderHandler,
    body: JsonObject,
    fault: Fault | undefined,
    random: ReturnType<typeof requestRandomness>,
    pathname: string,
    effect: Effect | undefined,
    usage?: SimulatedUsage,
  ): Response =>
    handler.respond(body, { ...random, origin, fault, formatVariety, noise, pathname, ...(effect ? { effect } : {}), ...(usage ? { usage } : {}) });

  const simulator: Simulator = {
    origin,
    port: server.port ?? 0,
    baseUrls: perProvider((id) => `${origin}${handlers[id].basePath}`),
    requests,
    aborts,
    searchPrompts: (provider) =>
      requests
        .filter((entry) => entry.kind === "search" && (provider === undefined || entry.provider === provider))
        .map(({ provider, prompt }) => ({ provider, prompt })),
    setFaults: (provider, list, setOptions) => faults.set(provider, list, setOptions),
    setShutdown(provider, model, date) {
      if (date === undefined) shutdowns.delete(`${provider} ${model}`);
      else shutdowns.set(`${provider} ${model}`, date);
    },
    clearFaults: (provider) => faults.clear(provider),
    setLatency: (next) => {
      latency = next;
    },
    setUsage: (provider, kind, usage) => {
      if (usage) usages.set(`${provider}:${kind}`, usage);
      else usages.delete(`${provider}:${kind}`);
    },
    setLean: (item, offset, provider) => {
      const key = `${provider ?? ""}\n${item}`;
      if (offset === 0) leans.delete(key);
      else leans.set(key, offset);
    },
    peakInFlight: (provider) => peaks[provider],
    clearLog: () => {
      requests.length = 0;
      aborts.length = 0;
      for (const id of providerIds) peaks[id] = inFlight[id];
    },
    onAbort: (listener) => {
      abortListeners.add(listener);
      return () => abortListeners.delete(listener);
    },
    stop: async () => {
      stopping.abort();
      await server.stop(true);
    },
  };
  return simulator;
}

/**
 * The handler with the longest path prefix the path starts with (Anthropic's /v1/messages over
 * OpenAI's /v1/), among those whose endpoint it is and whose SDK sent it (GET /v1/models/{id} is
 * OpenAI's, Anthropic's and Gemini's alike); any whose prefix matches when none serves it (its 404).
 */
function handlerFor(handlers: readonly ProviderHandler[], request: Request, pathname: string): ProviderHandler | undefined {
  const serving = handlers.filter((handler) => handler.endpoint(request.method, pathname) && handler.owns(request));
  return longestPrefix(serving, pathname) ?? longestPrefix(handlers, pathname);
}

function longestPrefix(handlers: readonly ProviderHandler[], pathname: string): ProviderHandler | undefined {
  let best: { handler: ProviderHandler; length: number } | undefined;
  for (const handler of handlers) {
    for (const prefix of handler.paths) {
      if (pathname.startsWith(prefix) && prefix.length > (best?.length ?? -1)) best = { handler, length: prefix.length };
    }
  }
  return best?.handler;
}

/** Milliseconds to wait before answering. */
export function sampleLatency(latency: Latency, rng: Rng): number {
  if (latency.kind === "fixed") return Math.max(0, latency.ms);
  const sigma = Math.log(Math.max(latency.p95Ms, latency.medianMs) / latency.medianMs) / 1.6449;
  return Math.min(latency.medianMs * Math.exp(sigma * rng.normal()), latency.p95Ms * 3);
}

function groundingRedirect(request: Request, url: URL): Response {
  if (request.method !== "GET" && request.method !== "HEAD") return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET, HEAD" } });
  const target = resolveGroundingToken(url.pathname.slice("/grounding-api-redirect/".length));
  if (!target) return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain" } });
  return new Response(null, { status: 302, headers: { location: target } });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const arg = (name: string): string | undefined => {
    const index = process.argv.indexOf(name);
    return index >= 0 ? process.argv[index + 1] : undefined;
  };
  const number = (name: string): number | undefined => {
    const value = arg(name);
    if (value === undefined) return undefined;
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) throw new Error(`${name} expects a number, got ${JSON.stringify(value)}`);
    return parsed;
  };
  const latencyMs = number("--latency-ms");
  const sim = startSimulator({
    port: number("--port") ?? 0,
    seed: number("--seed"),
    formatVariety: number("--format-variety"),
    noise: number("--noise") ?? DEMO_NOISE,
    extractorErrors: number("--extractor-errors") ?? DEMO_EXTRACTOR_ERRORS,
    latency: latencyMs === undefined ? DEFAULT_LATENCY : { kind: "fixed", ms: latencyMs },
    dayEffectSd: number("--day-effect-sd") ?? DEMO_RUN_EFFECTS.dayEffectSd,
    runEffectSd: number("--run-effect-sd") ?? DEMO_RUN_EFFECTS.runEffectSd,
    runGapMs: number("--run-gap-ms"),
  });
  console.log(`AI provider simulators listening on ${sim.origin}`);
  for (const id of providerIds) console.log(`  ${providerConfig[id].env.baseUrl}=${sim.baseUrls[id]}`);
  console.log("Any non-empty API key is accepted. Ctrl-C to stop.");
  const shutdown = () => void sim.stop().then(() => process.exit(0));
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}
