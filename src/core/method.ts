import { listModels } from "#src/contract/providers.ts";
import { modelOf, providersAsked, type ModelResult, type SearchResult } from "#src/contract/search-result.ts";

/*
 * How an answer was obtained and read, in words: the full response and `aisc show` say it beside
 * the answer, so a reader can tell what the lists measure (ADR 039).
 */

/**
 * What the product asks, said once on every results page, shared page and printed report (and in
 * the README): its answers are not what a person sees in an assistant's own app.
 */
export const API_ANSWERS_NOTE =
  "These are the assistants' API answers with web search, which can differ from what their consumer apps show for the same question.";

/** How the provider was asked. */
export function askedNote(model: Pick<ModelResult, "asked">): string {
  return model.asked === "as typed"
    ? "Asked the query exactly as typed, with web search on."
    : "Asked with the method used before 26 November 2026: the query followed by instructions to end the answer with a JSON list of the products it recommends.";
}

/** How the products and companies were read from the answer. */
export function readNote(model: Pick<ModelResult, "extraction" | "extractor" | "ungrounded">): string {
  switch (model.extraction) {
    case "extractor": {
      const dropped = model.ungrounded ?? 0;
      const by = model.extractor ? ` by ${model.extractor.model}` : "";
      return dropped > 0
        ? `Products and companies read from the answer${by}; ${dropped} ${dropped === 1 ? "name it gave does" : "names it gave do"} not occur in the answer and ${dropped === 1 ? "was" : "were"} left out.`
        : `Products and companies read from the answer${by}; every one listed occurs in the answer.`;
    }
    case "prose":
      return "Products read from the answer's lists, tables, headings and bold names: the extraction call failed.";
    case "inline":
      return "Products and companies read from the JSON list at the end of the answer.";
    case "fallback":
      return "Products and companies read from the answer by a second call: it ended without a JSON list.";
    case "none":
      return "Nothing to read: the answer had no text.";
  }
}

/** The provider's rate limits met on the way (ADR 040): "Rate-limited 2 times, waited 3.0 s as the provider asked."; null when none. */
export function rateLimitNote(model: Pick<ModelResult, "rateLimited">): string | null {
  const limited = model.rateLimited;
  if (!limited || limited.count === 0) return null;
  const times = limited.count === 1 ? "1 time" : `${limited.count} times`;
  return `Rate-limited ${times}, waited ${(limited.waitedMs / 1000).toFixed(1)} s as the provider asked.`;
}

/** How many times each assistant was asked, as a report's method says it: "once", "3 times". */
export function askedTimes(iterations: number): string {
  return iterations === 1 ? "once" : `${iterations} times`;
}

/**
 * A report's method in one sentence (the printed and shared reports): which assistants were
 * asked, how, and how many times each. "ChatGPT and Claude were asked the query exactly as typed,
 * with web search on, 3 times each."
 */
export function methodNote(result: Pick<SearchResult, "models" | "iterationCount">): string {
  const asked = providersAsked(result);
  if (asked.length === 0) return "No assistant was asked.";
  const times = askedTimes(result.iterationCount);
  const how = asked.every((id) => modelOf(result, id).asked === "as typed")
    ? "the query exactly as typed, with web search on"
    : "the query with web search on (answers saved before 26 November 2026 were asked with instructions to end with a JSON list)";
  return `${listModels(asked)} ${asked.length === 1 ? "was" : "were"} asked ${how}, ${times}${asked.length === 1 ? "" : " each"}.`;
}
