import type { SearchOptions } from "#src/contract/search-request.ts";
import { offModelResult, type ModelResult } from "#src/contract/search-result.ts";
import { cleanExtraction, extractionRequest, parseStructuredAnswer } from "#src/core/extraction/extract.ts";
import { withMentions } from "#src/core/extraction/positions.ts";
import { dedupeSources } from "#src/core/urls.ts";
import { DeadlineReachedError, withRetry, type RetryPolicy } from "#src/server/services/providers/retry.ts";
import type { ProviderAdapter } from "#src/server/services/providers/types.ts";
import { deadlineMessage, type Deadline } from "./deadline.ts";

export type ProviderRun = { query: string; prompt: string; options: SearchOptions; signal: AbortSignal; retry?: RetryPolicy; deadline: Deadline };

/**
 * One iteration of one provider: search, then extract products and companies from the answer
 * (inline JSON, else a fallback extraction call on the text there is, which is also the way for
 * an answer the provider cut short) and find where the answer first names each. A failure
 * becomes an error result, so one provider never fails the others; only cancellation propagates.
 * Past the search's deadline it calls nothing, and a call the deadline cuts becomes a card saying so.
 */
export async function runProvider(adapter: ProviderAdapter, run: ProviderRun): Promise<ModelResult> {
  const started = performance.now();
  // What the card shows if the call fails: the provider, its mode and the model asked.
  const base: ModelResult = { ...offModelResult(adapter.id), simulated: adapter.mode === "simulated", modelName: adapter.model, modelVersion: adapter.model };
  try {
    const answer = await withRetry((signal) => adapter.search({ ...run, signal }), run.signal, run.retry, run.deadline.at);
    let extraction: ModelResult["extraction"] = "inline";
    let structured = parseStructuredAnswer(answer.text, { cut: answer.truncated !== undefined });
    if (!structured && answer.text.trim()) {
      try {
        structured = asExtraction(
          await withRetry((signal) => adapter.structured(extractionRequest(answer.text), signal), run.signal, run.retry, run.deadline.at),
        );
        extraction = structured ? "fallback" : "none";
      } catch (error) {
        if (run.signal.aborted) throw error;
        extraction = "none";
      }
    }
    if (!structured) extraction = "none";
    const { products, companies } = structured ? withMentions(cleanExtraction(structured, answer.text), answer.text) : { products: [], companies: [] };
    return {
      ...base,
      status: "ok",
      modelName: modelFamily(answer.modelVersion),
      modelVersion: answer.modelVersion,
      products,
      companies,
      sources: dedupeSources(answer.sources),
      rawResponse: answer.text,
      searched: answer.searched,
      searchQueries: answer.searchQueries,
      usage: answer.usage,
      extraction,
      ...(answer.truncated ? { truncated: answer.truncated } : {}),
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    if (run.signal.aborted) throw run.signal.reason;
    const durationMs = Math.round(performance.now() - started);
    if (error instanceof DeadlineReachedError) return { ...base, status: "error", stopped: "deadline", error: deadlineMessage(run.deadline.ms), durationMs };
    return { ...base, status: "error", error: describeError(error), durationMs };
  }
}

/** "gpt-5-mini-2025-08-07" → "gpt-5-mini", "claude-sonnet-4-6-20260101" → "claude-sonnet-4-6". */
function modelFamily(version: string): string {
  return version.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, "");
}

/** A fallback call's JSON, accepted only in the expected shape. */
function asExtraction(value: unknown): { products: unknown[]; companies: unknown[] } | null {
  if (!value || typeof value !== "object") return null;
  const { products, companies } = value as { products?: unknown; companies?: unknown };
  if (!Array.isArray(products) && !Array.isArray(companies)) return null;
  return { products: Array.isArray(products) ? products : [], companies: Array.isArray(companies) ? companies : [] };
}

/** What the card shows: the SDK's message (status first), one line, without secrets. */
function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    message
      .replace(/\s+/g, " ")
      .replace(/(sk|key|AIza)[-_A-Za-z0-9]{12,}/g, "[redacted]")
      .slice(0, 300) || "The provider call failed"
  );
}
