import { perProvider, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import { createProviders } from "#src/server/services/providers/index.ts";
import type { Providers } from "#src/server/services/search/run.ts";
import type { AnswerFixture } from "./fixtures.ts";

/** Where Gemini's grounding redirects point in the fixtures; served from the replay server instead. */
const GOOGLE_REDIRECT_ORIGIN = "https://vertexaisearch.cloud.google.com";

/** What the replay server saw for the fixture in play. */
export type ReplayLog = { searches: number; searchPrompts: string[]; extractions: number; extractionPrompts: string[]; unexpected: string[] };

export type ReplayServer = {
  origin: string;
  /** The base URL each provider's SDK is pointed at. */
  baseUrls: Record<ProviderId, string>;
  /** Serves `fixture` from now on and starts a fresh log. */
  play(fixture: AnswerFixture): ReplayLog;
  stop(): Promise<void>;
};

/**
 * A loopback server that answers the providers' endpoints with a fixture's recorded bodies: the
 * search call with `response`, the fallback extraction call with `extraction`, and Gemini's
 * grounding redirects with their targets. It speaks each wire format only as far as telling those
 * calls apart, so the real adapters and SDKs do all the reading.
 */
export function startReplayServer(): ReplayServer {
  let fixture: AnswerFixture | undefined;
  let log: ReplayLog = emptyLog();

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const redirect = /^\/grounding-api-redirect\/([^/]+)$/.exec(url.pathname)?.[1];
      if (redirect !== undefined) {
        const target = fixture?.redirects[redirect];
        return target ? new Response(null, { status: 302, headers: { location: target } }) : new Response("unknown redirect", { status: 404 });
      }
      const provider = providerOf(request.method, url.pathname);
      if (!fixture || !provider) return miss(`${request.method} ${url.pathname}`);
      if (provider !== fixture.provider) return miss(`a ${provider} call while replaying a ${fixture.provider} answer`);
      const body = (await request.json()) as Record<string, unknown>;
      if (!isExtractionCall(provider, body)) {
        log.searches++;
        log.searchPrompts.push(promptOf(body));
        return json(provider === "gemini" ? withOrigin(fixture.response, url.origin) : fixture.response);
      }
      log.extractions++;
      log.extractionPrompts.push(promptOf(body));
      return fixture.extraction ? json(fixture.extraction) : miss("an extraction call the fixture has no answer for");
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;

  function miss(what: string): Response {
    log.unexpected.push(what);
    return json({ error: { message: `replay: ${what}`, type: "invalid_request_error" } }, 400);
  }

  return {
    origin,
    baseUrls: { openai: `${origin}/v1`, anthropic: origin, gemini: origin, perplexity: `${origin}/perplexity` },
    play(next) {
      fixture = next;
      log = emptyLog();
      return log;
    },
    stop: () => server.stop(true),
  };
}

/** A log with nothing in it: the start of each fixture's replay, and a reading that makes no call. */
export function emptyLog(): ReplayLog {
  return { searches: 0, searchPrompts: [], extractions: 0, extractionPrompts: [], unexpected: [] };
}

function providerOf(method: string, pathname: string): ProviderId | undefined {
  if (method !== "POST") return undefined;
  if (pathname === "/v1/responses") return "openai";
  if (pathname === "/perplexity/v1/responses") return "perplexity";
  if (pathname === "/v1/messages") return "anthropic";
  if (/^\/v1(?:beta)?\/models\/[^/]+:generateContent$/.test(pathname)) return "gemini";
  return undefined;
}

// The structured-output call: OpenAI's json_schema format, Anthropic's forced custom tool, Gemini's JSON mime type, Perplexity's response_format.
function isExtractionCall(provider: ProviderId, body: Record<string, unknown>): boolean {
  const text = body.text as { format?: { type?: string } } | undefined;
  const tools = Array.isArray(body.tools) ? (body.tools as Record<string, unknown>[]) : [];
  const config = body.generationConfig as { responseMimeType?: string } | undefined;
  if (provider === "openai") return text?.format?.type === "json_schema";
  if (provider === "anthropic") return tools.some((tool) => "input_schema" in tool);
  if (provider === "perplexity") return (body.response_format as { type?: string } | undefined)?.type === "json_schema";
  return config?.responseMimeType === "application/json";
}

// The text the call sent, wherever its format puts it (input, messages, contents), without the
// formats' labels (role "user", part type "text").
function promptOf(body: Record<string, unknown>): string {
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") for (const [key, inner] of Object.entries(value)) if (key !== "role" && key !== "type") walk(inner);
  };
  walk(body.input ?? body.messages ?? body.contents);
  return texts.join("\n");
}

// Gemini cites Google's redirect host; the adapter may only follow redirects on an origin it trusts, here this server's.
function withOrigin(body: Record<string, unknown>, origin: string): unknown {
  return JSON.parse(JSON.stringify(body).replaceAll(GOOGLE_REDIRECT_ORIGIN, origin));
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "x-request-id": "req_replay" } });
}

/**
 * The app's own adapters (createProviders → SDK), every provider pointed at the replay server: the
 * search and the extraction call both answered from the fixture in play.
 */
export function replayProviders(replay: ReplayServer): Providers {
  return createProviders({
    SIMULATE_PROVIDERS: "off",
    NODE_ENV: "development",
    GEMINI_REDIRECT_ORIGINS: [replay.origin],
    providers: perProvider((id) => ({
      apiKey: "replay-key",
      baseUrl: replay.baseUrls[id],
      model: providerConfig[id].defaultModel,
      extractionModel: providerConfig[id].defaultExtractionModel,
    })),
  });
}
