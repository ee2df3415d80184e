/** Injectable faults: what they are and how they are queued per provider (fault-responses.ts answers them). */
import type { ProviderId } from "#src/contract/providers.ts";

export type Fault =
  /** 429 with a `retry-after` header (default 1 s) and the provider's own body. */
  | { kind: "rate_limit"; retryAfterSeconds?: number }
  /** 500. */
  | { kind: "server_error" }
  /** The provider's own "overloaded" error (a 529 at Anthropic, a 503 elsewhere). */
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
  | { kind: "pause_turn" }
  /** The key is refused, as the provider says it (401 at OpenAI and Anthropic, 400 API_KEY_INVALID at Gemini). */
  | { kind: "auth_refused" }
  /** The model asked is not offered (404, naming it), as after its shutdown. */
  | { kind: "model_not_found" }
  /** The account is out of credit or quota (OpenAI's 429 insufficient_quota, Anthropic's "credit balance is too low", Gemini's daily RESOURCE_EXHAUSTED). */
  | { kind: "quota_exhausted" }
  /** The host cannot be reached: the connection closes before any response, as connection_reset. */
  | { kind: "unreachable" };

export type FaultKind = Fault["kind"];

/** What a request to a simulator asks for; "model" is retrieving a model (the Connection Status' check). */
export type RequestKind = "search" | "extraction" | "variants" | "model";

/** The faults its provider answers in its own words about the account or the model (ProviderHandler.accountFailure). */
export type AccountFaultKind = Extract<Fault["kind"], "auth_refused" | "model_not_found" | "quota_exhausted">;

/** The faults a provider can be given (pause_turn is Anthropic's). */
export type FaultFor<P extends ProviderId> = P extends "anthropic" ? Fault : Exclude<Fault, { kind: "pause_turn" }>;

export interface SetFaultsOptions {
  /** Apply to every request (cycling through the list) until clearFaults(). */
  persistent?: boolean;
  /** Only requests of these kinds take a fault (a failing extraction call after a good search); every kind when absent. */
  kinds?: readonly RequestKind[];
}

/** Per-provider fault queues: one fault consumed per request, or a persistent cycle. */
export class FaultBook {
  readonly #queued = new Map<ProviderId, Fault[]>();
  readonly #persistent = new Map<ProviderId, { faults: Fault[]; next: number }>();
  readonly #kinds = new Map<ProviderId, readonly RequestKind[]>();

  set(provider: ProviderId, faults: readonly Fault[], options: SetFaultsOptions = {}): void {
    if (options.kinds) this.#kinds.set(provider, options.kinds);
    else this.#kinds.delete(provider);
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
    if (provider) this.#kinds.delete(provider);
    else this.#kinds.clear();
    if (provider) {
      this.#queued.delete(provider);
      this.#persistent.delete(provider);
    } else {
      this.#queued.clear();
      this.#persistent.clear();
    }
  }

  take(provider: ProviderId, kind: RequestKind): Fault | undefined {
    const kinds = this.#kinds.get(provider);
    if (kinds && !kinds.includes(kind)) return undefined;
    const persistent = this.#persistent.get(provider);
    if (persistent) return persistent.faults[persistent.next++ % persistent.faults.length];
    return this.#queued.get(provider)?.shift();
  }
}
