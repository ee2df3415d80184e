/** Injectable faults: what they are, how they are queued per provider, and the error ones' responses. */
import type { ProviderId } from "#src/contract/search.ts";
import type { ProviderHandler } from "./http.ts";

export type Fault =
  /** 429 with a `retry-after` header (default 1 s) and the provider's own body. */
  | { kind: "rate_limit"; retryAfterSeconds?: number }
  /** 500. */
  | { kind: "server_error" }
  /** 529 overloaded_error (Anthropic), 503 UNAVAILABLE (Gemini), 503 (OpenAI). */
  | { kind: "overloaded" }
  /** Never answers; the request ends only when the client gives up. */
  | { kind: "timeout" }
  /** 200, application/json, a body cut off mid-way. */
  | { kind: "malformed_json" }
  /** The connection closes before any response is written. */
  | { kind: "connection_reset" }
  /** A normal answer without any web search or citations. */
  | { kind: "no_search" }
  /** An answer with prose naming products but no structured JSON block. */
  | { kind: "prose_only" }
  /** Anthropic only: stop_reason "pause_turn" with partial content; the continuation completes. */
  | { kind: "pause_turn" };

export type FaultKind = Fault["kind"];

/** The faults a provider can be given (pause_turn is Anthropic's). */
export type FaultFor<P extends ProviderId> = P extends "anthropic" ? Fault : Exclude<Fault, { kind: "pause_turn" }>;

export interface SetFaultsOptions {
  /** Apply to every request (cycling through the list) until clearFaults(). */
  persistent?: boolean;
}

/** Per-provider fault queues: one fault consumed per request, or a persistent cycle. */
export class FaultBook {
  readonly #queued = new Map<ProviderId, Fault[]>();
  readonly #persistent = new Map<ProviderId, { faults: Fault[]; next: number }>();

  set(provider: ProviderId, faults: readonly Fault[], options: SetFaultsOptions = {}): void {
    if (options.persistent) {
      this.#queued.delete(provider);
      if (faults.length > 0) this.#persistent.set(provider, { faults: [...faults], next: 0 });
      else this.#persistent.delete(provider);
    } else {
      this.#persistent.delete(provider);
      this.#queued.set(provider, [...faults]);
    }
  }

  clear(provider?: ProviderId): void {
    if (provider) {
      this.#queued.delete(provider);
      this.#persistent.delete(provider);
    } else {
      this.#queued.clear();
      this.#persistent.clear();
    }
  }

  take(provider: ProviderId): Fault | undefined {
    const persistent = this.#persistent.get(provider);
    if (persistent) return persistent.faults[persistent.next++ % persistent.faults.length];
    return this.#queued.get(provider)?.shift();
  }
}

/** The response for a fault that is an HTTP-level failure, or undefined for the others. */
export function faultResponse(handler: ProviderHandler, fault: Fault): Response | undefined {
  switch (fault.kind) {
    case "rate_limit": {
      const seconds = fault.retryAfterSeconds ?? 1;
      return handler.error("rate_limit", rateLimitMessage[handler.id], { retryAfterSeconds: seconds });
    }
    case "server_error":
      return handler.error("server_error", serverErrorMessage[handler.id]);
    case "overloaded":
      return handler.error("overloaded", overloadedMessage[handler.id]);
    case "malformed_json":
      return new Response(handler.truncatedBody(), { status: 200, headers: { "content-type": "application/json" } });
    case "connection_reset":
      return connectionReset();
    default:
      return undefined;
  }
}

/**
 * A streamed body that errors before its first byte: Bun then closes the socket without writing
 * a status line, so the client's fetch rejects (ECONNRESET) instead of seeing a 200.
 */
function connectionReset(): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      await Bun.sleep(1);
      controller.error();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "application/json" } });
}

const rateLimitMessage: Record<ProviderId, string> = {
  openai: "Rate limit reached for requests. Please try again later.",
  anthropic: "This request would exceed the rate limit for your organization. Please try again later.",
  gemini: "Resource has been exhausted (e.g. check quota).",
};

const serverErrorMessage: Record<ProviderId, string> = {
  openai: "The server had an error while processing your request. Sorry about that!",
  anthropic: "Internal server error",
  gemini: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
};

const overloadedMessage: Record<ProviderId, string> = {
  openai: "The engine is currently overloaded, please try again later.",
  anthropic: "Overloaded",
  gemini: "The model is overloaded. Please try again later.",
};
