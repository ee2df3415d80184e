/*
 * When a provider's model shuts down, and what it recommends instead: what the Connection Status
 * warns with ahead of time (ADR 061). The provider's API is asked first (OpenAI's model object
 * carries `shutdown_date`); this table, read from the providers' own deprecation pages, answers
 * for a model whose API gives no date (Gemini's and Anthropic's model resources have none).
 */
import * as v from "valibot";
import type { ProviderId } from "./providers.ts";

/** From how many days before its shutdown a model's status warns (amber). */
export const SHUTDOWN_WARNING_DAYS = 30;

/** A model's shutdown as the status reports it: whose date it is, and what to set instead. */
export const ModelShutdown = v.object({
  /** Which of the provider's models: the one that searches, or the one that reads its answers. */
  role: v.picklist(["search", "extraction"]),
  model: v.string(),
  /** The day it stops answering (YYYY-MM-DD, UTC). */
  date: v.pipe(v.string(), v.isoDate()),
  /** The provider's recommended replacement, where it names one. */
  replacement: v.optional(v.string()),
  /** `api`: the provider's API gave the date; `announced`: the table below did. */
  source: v.picklist(["api", "announced"]),
  /** `soon`: within SHUTDOWN_WARNING_DAYS; `past`: on or after the date. */
  when: v.picklist(["soon", "past"]),
});
export type ModelShutdown = v.InferOutput<typeof ModelShutdown>;

export type AnnouncedShutdown = { model: string; date: string; replacement?: string; source: string; read: string };

const OPENAI = "https://developers.openai.com/api/docs/deprecations";
const GEMINI = "https://ai.google.dev/gemini-api/docs/deprecations";
const READ = "2026-12-07";

/**
 * Shutdowns announced on the providers' own pages, as read on READ. Only dates a provider's page
 * gave are here: a date seen only in third-party copies is not (ADR 061 says which and why).
 */
export const ANNOUNCED_SHUTDOWNS: Readonly<Record<ProviderId, readonly AnnouncedShutdown[]>> = {
  openai: [
    ...["gpt-5", "gpt-5-2025-08-07"].map((model) => ({ model, date: "2026-12-11", replacement: "gpt-6.1-sol", source: OPENAI, read: READ })),
    ...["gpt-5-mini", "gpt-5-mini-2025-08-07"].map((model) => ({ model, date: "2026-12-11", replacement: "gpt-6.1-terra", source: OPENAI, read: READ })),
    // The copy read was cut before gpt-5-nano's replacement: the status says "a current model".
    ...["gpt-5-nano", "gpt-5-nano-2025-08-07"].map((model) => ({ model, date: "2026-12-11", source: OPENAI, read: READ })),
  ],
  anthropic: [],
  gemini: [
    // "May 7, 2027" in the Gemini 3 table; no replacement named in the copy read.
    { model: "gemini-3.1-flash-lite", date: "2027-05-07", source: GEMINI, read: READ },
  ],
  perplexity: [],
};

/** The announced shutdown of a provider's model, if its page gave one. */
export function announcedShutdown(provider: ProviderId, model: string): AnnouncedShutdown | undefined {
  return ANNOUNCED_SHUTDOWNS[provider].find((s) => s.model === model);
}
