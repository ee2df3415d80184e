import type { ProviderFailure } from "#src/contract/provider-failures.ts";
import { providerCatalogue, type ProviderId } from "#src/contract/providers.ts";
import { providerConfig } from "#src/contract/provider-config.ts";

/** The call that failed: whose, for what (the search model or the one that reads answers), and which model. */
export type FailedCall = { provider: ProviderId; role: "search" | "extraction"; model: string };

/** What went wrong, as a reason and a sentence naming the cause and the remedy (ADR 040). */
export type ClassifiedFailure = { failure: ProviderFailure; message: string };

/**
 * The one classification of a provider's error, from its SDK's error as the provider sent it: the
 * Connection Status (the periodic model check) and a search's error card both word it from here,
 * so they always name the same cause and the same remedy.
 */
export function classifyFailure(error: unknown, call: FailedCall): ClassifiedFailure {
  const failure = failureKind(error);
  return { failure, message: failure === "provider_error" ? describeError(error) : remedy(failure, call) };
}

/** A provider with no key and no simulator: not connected, and how to connect it. */
export function noKeyFailure(provider: ProviderId): ClassifiedFailure {
  return { failure: "no_key", message: remedy("no_key", { provider, role: "search", model: "" }) };
}

/** The reason alone, for the retry loop: a rate limit is waited out, an exhausted quota is not (no wait helps). */
export function failureKind(error: unknown): ProviderFailure {
  return failureOf(readError(error));
}

type WireError = { status?: number; text: string };

/**
 * The parts of an SDK error the reasons are read from: the HTTP status, and every word of the
 * provider's body (OpenAI's `code`, Anthropic's error `type`, Gemini's `status` and `details`).
 */
function readError(error: unknown): WireError {
  if (!error || typeof error !== "object") return { text: String(error) };
  const e = error as { status?: unknown; message?: unknown; code?: unknown; type?: unknown; error?: unknown; cause?: unknown; name?: unknown };
  const status = typeof e.status === "number" ? e.status : undefined;
  const cause =
    e.cause && typeof e.cause === "object"
      ? ` ${String((e.cause as { code?: unknown }).code ?? "")} ${String((e.cause as { message?: unknown }).message ?? "")}`
      : "";
  const body = e.error === undefined ? "" : safeJson(e.error);
  return { status, text: `${String(e.name ?? "")} ${String(e.message ?? "")} ${String(e.code ?? "")} ${String(e.type ?? "")} ${body}${cause}` };
}

function failureOf({ status, text }: WireError): ProviderFailure {
  // Out of credit or quota, whatever the status: OpenAI's 429 insufficient_quota, Anthropic's
  // billing_error or "credit balance is too low", Gemini's RESOURCE_EXHAUSTED on a daily or billing
  // quota, Perplexity's 402 for an account without credit.
  if (status === 402 || /insufficient_quota|insufficient credit|billing_error|credit balance|check your plan and billing|PerDay|billing details/i.test(text))
    return "quota_exhausted";
  if (status === 401 || status === 403) return "key_refused";
  // Gemini answers a bad key with 400 INVALID_ARGUMENT (reason API_KEY_INVALID).
  if (status === 400 && /API_KEY_INVALID|API key not valid/i.test(text)) return "key_refused";
  // Perplexity answers a model it does not offer with 400 invalid_model.
  if (status === 404 || (status === 400 && /invalid_model|invalid model/i.test(text))) return "model_not_found";
  if (status === 429) return "rate_limited";
  if (status === undefined && /connection|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET|fetch failed|network|socket|Unable to connect/i.test(text))
    return "unreachable";
  return "provider_error";
}

/** The cause and what to do, naming the variable to change. */
function remedy(failure: Exclude<ProviderFailure, "provider_error">, { provider, role, model }: FailedCall): string {
  const { company } = providerCatalogue[provider];
  const { env, defaultModel, defaultExtractionModel } = providerConfig[provider];
  const variable = role === "search" ? env.model : env.extractionModel;
  const fallback = role === "search" ? defaultModel : defaultExtractionModel;
  switch (failure) {
    case "no_key":
      return `${env.apiKey} is not set: set it to a ${company} API key to search with it.`;
    case "key_refused":
      return `${company} refused the API key in ${env.apiKey}: set ${env.apiKey} to a valid ${company} API key.`;
    case "model_not_found":
      return `${variable}=${model} is no longer offered by ${company}: set ${variable} to a current model${model === fallback ? "" : `, or unset it for the default (${fallback})`}.`;
    case "quota_exhausted":
      return `The ${company} account of ${env.apiKey} is out of credit or quota: add credit or raise its limit at ${billingPages[provider]}.`;
    case "rate_limited":
      return `${company} is rate-limiting this key right now (429): calls wait the time it asks and try again; if it lasts, lower PROVIDER_CONCURRENCY or raise the key's rate limits.`;
    case "unreachable":
      return `${company}'s API could not be reached: check this server's network connection, and ${env.baseUrl} if it is set.`;
  }
}

/** Where each provider's account credit and limits are managed: the remedy a quota error names. */
export const billingPages: Record<ProviderId, string> = {
  openai: "https://platform.openai.com/settings/organization/billing",
  anthropic: "https://platform.claude.com/settings/billing",
  gemini: "https://aistudio.google.com/usage",
  perplexity: "https://www.perplexity.ai/account/api/billing",
};

/** An error we have no reason for: the SDK's message (status first), one line, without secrets. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/\s+/g, " ")
      .replace(/(sk|key|AIza|pplx)[-_A-Za-z0-9]{12,}/g, "[redacted]")
      .slice(0, 300) || "The provider call failed"
  );
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return "";
  }
}
