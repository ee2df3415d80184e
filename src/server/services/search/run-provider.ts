import { locationApplied } from "#src/contract/location.ts";
import { providerConfig } from "#src/contract/provider-config.ts";
import type { SearchOptions } from "#src/contract/search-request.ts";
import { offModelResult, type ModelResult } from "#src/contract/search-result.ts";
import { extractionRequest, readExtraction } from "#src/core/extraction/extract.ts";
import { readProse } from "#src/core/extraction/prose.ts";
import { dedupeSources } from "#src/core/urls.ts";
import { classifyFailure } from "#src/server/services/providers/failure.ts";
import { DeadlineReachedError, defaultRetryPolicy, withRetry, type RateLimits, type RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { ProviderAdapter, ProviderAnswer } from "#src/server/services/providers/types.ts";
import { deadlineMessage, type Deadline } from "./deadline.ts";
import { answersRead } from "../../young-garbage.ts";

export type ProviderRun = { query: string; options: SearchOptions; signal: AbortSignal; retry?: RetryPolicy; deadline: Deadline };

/** A provider's answer to one iteration's search, waiting to be read; or the card of its failure. */
export type Asked = { answer: ProviderAnswer; startedAt: number; rateLimits: RateLimits } | { failed: ModelResult };

/**
 * One iteration of one provider: ask (askProvider), then read what the answer recommends
 * (readAnswer). The search runs the two apart, so that reading one answer overlaps the next search.
 */
export async function runProvider(adapter: ProviderAdapter, run: ProviderRun): Promise<ModelResult> {
  const asked = await askProvider(adapter, run);
  return "failed" in asked ? asked.failed : readAnswer(adapter, asked, run);
}

/**
 * The search call: the query exactly as typed, with web search on (ADR 039). A failure becomes an
 * error card, so one provider never fails the others; only cancellation propagates. Past the
 * search's deadline it calls nothing, and a call the deadline cuts becomes a card saying so.
 */
export async function askProvider(adapter: ProviderAdapter, run: ProviderRun): Promise<Asked> {
  const startedAt = performance.now();
  const rateLimits: RateLimits = { count: 0, waitedMs: 0 };
  try {
    const answer = await withRetry(
      (signal) => adapter.search({ query: run.query, options: run.options, signal }),
      run.signal,
      run.retry,
      run.deadline.at,
      rateLimits,
    );
    return { answer, startedAt, rateLimits };
  } catch (error) {
    if (run.signal.aborted) throw run.signal.reason;
    const base = { ...failedCard(adapter, startedAt), ...rateLimited(rateLimits) };
    if (error instanceof DeadlineReachedError) return { failed: { ...base, stopped: "deadline", error: deadlineMessage(run.deadline.ms) } };
    // The same cause and remedy as the Connection Status gives for it (providers/failure.ts).
    const { failure, message } = classifyFailure(error, { provider: adapter.id, role: "search", model: adapter.model });
    return { failed: { ...base, error: message, failure } };
  }
}

/**
 * Reads the products and companies an answer recommends: a structured-output call to the
 * provider's extractor (a small model), whose names our rules then check against the answer
 * (readExtraction: the noise rules, then grounding). If that call fails, times out or answers in
 * another shape, the deterministic reading of the prose gives the result (`extraction: "prose"`):
 * the answer is never lost because its reading failed.
 */
export async function readAnswer(
  adapter: ProviderAdapter,
  { answer, startedAt, rateLimits }: { answer: ProviderAnswer; startedAt: number; rateLimits?: RateLimits },
  run: ProviderRun,
): Promise<ModelResult> {
  const cut = answer.truncated !== undefined;
  const reader = adapter.extractor ?? adapter;
  let read: Pick<ModelResult, "products" | "companies" | "extraction" | "extractor" | "extractionUsage" | "ungrounded">;
  if (!answer.text.trim()) read = { products: [], companies: [], extraction: "none" };
  else {
    try {
      const reply = await withRetry(
        (signal) => reader.structured(extractionRequest(answer.text), signal),
        run.signal,
        extractionPolicy(run.retry),
        run.deadline.at,
      );
      const listed = asExtraction(reply.value);
      if (!listed) throw new Error("the extraction call answered in another shape");
      const { products, companies, ungrounded } = readExtraction(listed, answer.text, { cut });
      read = { products, companies, extraction: "extractor", extractor: { provider: reader.id, model: reply.model }, extractionUsage: reply.usage, ungrounded };
    } catch (error) {
      if (run.signal.aborted) throw run.signal.reason;
      read = { ...readProse(answer.text, { cut }), extraction: "prose" };
    }
  }
  answersRead();
  return {
    ...offModelResult(adapter.id),
    simulated: adapter.mode === "simulated",
    status: "ok",
    modelName: modelFamily(answer.modelVersion),
    modelVersion: answer.modelVersion,
    searchTool: providerConfig[adapter.id].searchTool,
    sources: dedupeSources(answer.sources),
    rawResponse: answer.text,
    searched: answer.searched,
    searchQueries: answer.searchQueries,
    usage: answer.usage,
    asked: "as typed",
    ...read,
    ...(run.options.location ? { location: locationApplied(adapter.id) } : {}),
    ...(answer.truncated ? { truncated: answer.truncated } : {}),
    ...rateLimited(rateLimits),
    durationMs: Math.round(performance.now() - startedAt),
  };
}

/**
 * Reading an answer is worth less waiting than getting it: one retry, and a shorter timeout, after
 * which the prose is read instead.
 */
function extractionPolicy(policy: RetryPolicy = defaultRetryPolicy): RetryPolicy {
  return { ...policy, retries: Math.min(policy.retries, 1), callTimeoutMs: Math.min(policy.callTimeoutMs, EXTRACTION_TIMEOUT_MS) };
}

const EXTRACTION_TIMEOUT_MS = 30_000;

/** What the card shows when the call fails: the provider, its mode and the model asked. */
export function failedCard(adapter: ProviderAdapter, startedAt: number): ModelResult {
  return {
    ...offModelResult(adapter.id),
    simulated: adapter.mode === "simulated",
    modelName: adapter.model,
    modelVersion: adapter.model,
    status: "error",
    durationMs: Math.round(performance.now() - startedAt),
  };
}

/** "gpt-5-mini-2025-08-07" → "gpt-5-mini", "claude-sonnet-4-6-20260101" → "claude-sonnet-4-6". */
function modelFamily(version: string): string {
  return version.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, "");
}

/** The extraction call's JSON, accepted only in the expected shape. */
function asExtraction(value: unknown): { products: unknown[]; companies: unknown[] } | null {
  if (!value || typeof value !== "object") return null;
  const { products, companies } = value as { products?: unknown; companies?: unknown };
  if (!Array.isArray(products) && !Array.isArray(companies)) return null;
  return { products: Array.isArray(products) ? products : [], companies: Array.isArray(companies) ? companies : [] };
}

/** The 429s a call met, kept on its card only when there were any. */
function rateLimited(limits: RateLimits | undefined): Pick<ModelResult, "rateLimited"> {
  return limits && limits.count > 0 ? { rateLimited: { count: limits.count, waitedMs: Math.round(limits.waitedMs) } } : {};
}
