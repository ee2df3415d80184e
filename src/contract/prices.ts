/*
 * What the providers charge, per model: the table that turns an answer's usage into money (ADR 041).
 * Plain data, shared by the server, the web, the CLI and MCP; an operator replaces it with a file
 * (PRICES_FILE, parsed with PriceTable below). Every row says where its figures were read and when.
 */
import * as v from "valibot";

const Usd = v.pipe(v.number(), v.minValue(0));

export const PriceRow = v.object({
  /** The model's name as the API takes it; a dated version ("gpt-5-mini-2025-08-07") finds its row. */
  model: v.pipe(v.string(), v.minLength(1)),
  /** USD per million input tokens not read from the provider's cache. */
  inputPerMTok: Usd,
  /** USD per million input tokens read from the cache. */
  cachedInputPerMTok: Usd,
  /** USD per million output tokens (thinking included). */
  outputPerMTok: Usd,
  /** USD per thousand web searches, as the provider counts them (`searchUnit`). */
  searchesPerK: Usd,
  /**
   * What a search is billed per: each web search the model made (`search`), or each answer that
   * searched at all, however many queries it ran (`prompt`: Gemini 2.5's grounded prompts).
   */
  searchUnit: v.optional(v.picklist(["search", "prompt"]), "search"),
  /** Where the figures were read, and when (YYYY-MM-DD). */
  source: v.pipe(v.string(), v.minLength(1)),
  read: v.pipe(v.string(), v.isoDate("a date such as 2026-11-26")),
});
export type PriceRow = v.InferOutput<typeof PriceRow>;

export const PriceTable = v.pipe(v.array(PriceRow), v.minLength(1, "at least one model"));
export type PriceTable = readonly PriceRow[];

const OPENAI = "https://developers.openai.com/api/docs/pricing";
const ANTHROPIC = "https://platform.claude.com/docs/en/about-claude/pricing";
const GEMINI = "https://ai.google.dev/gemini-api/docs/pricing";
const READ = "2026-11-26";

/**
 * The built-in table: the current default and extraction models and a few likely alternatives,
 * standard (not batch, not priority) rates, USD. Web search: OpenAI $10 per 1,000 web search calls;
 * Anthropic $10 per 1,000 searches; Gemini 2.5 $35 per 1,000 grounded prompts, Gemini 3.x $14 per
 * 1,000 search queries (free allowances are not counted: a search is priced as if paid).
 */
export const DEFAULT_PRICES: PriceTable = [
  { model: "gpt-5-mini", inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2, searchesPerK: 10, searchUnit: "search", source: OPENAI, read: READ },
  {
    model: "gpt-5.4-mini",
    inputPerMTok: 0.75,
    cachedInputPerMTok: 0.075,
    outputPerMTok: 4.5,
    searchesPerK: 10,
    searchUnit: "search",
    source: OPENAI,
    read: READ,
  },
  {
    model: "gpt-5.4-nano",
    inputPerMTok: 0.2,
    cachedInputPerMTok: 0.02,
    outputPerMTok: 1.25,
    searchesPerK: 10,
    searchUnit: "search",
    source: OPENAI,
    read: READ,
  },
  {
    model: "gpt-5-nano",
    inputPerMTok: 0.05,
    cachedInputPerMTok: 0.005,
    outputPerMTok: 0.4,
    searchesPerK: 10,
    searchUnit: "search",
    source: OPENAI,
    read: READ,
  },
  {
    model: "claude-sonnet-4-6",
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    outputPerMTok: 15,
    searchesPerK: 10,
    searchUnit: "search",
    source: ANTHROPIC,
    read: READ,
  },
  {
    model: "claude-sonnet-4-5",
    inputPerMTok: 3,
    cachedInputPerMTok: 0.3,
    outputPerMTok: 15,
    searchesPerK: 10,
    searchUnit: "search",
    source: ANTHROPIC,
    read: READ,
  },
  {
    model: "claude-haiku-4-5",
    inputPerMTok: 1,
    cachedInputPerMTok: 0.1,
    outputPerMTok: 5,
    searchesPerK: 10,
    searchUnit: "search",
    source: ANTHROPIC,
    read: READ,
  },
  {
    model: "gemini-2.5-flash",
    inputPerMTok: 0.3,
    cachedInputPerMTok: 0.03,
    outputPerMTok: 2.5,
    searchesPerK: 35,
    searchUnit: "prompt",
    source: GEMINI,
    read: READ,
  },
  {
    model: "gemini-2.5-flash-lite",
    inputPerMTok: 0.1,
    cachedInputPerMTok: 0.01,
    outputPerMTok: 0.4,
    searchesPerK: 35,
    searchUnit: "prompt",
    source: GEMINI,
    read: READ,
  },
  {
    model: "gemini-3-flash-preview",
    inputPerMTok: 0.5,
    cachedInputPerMTok: 0.05,
    outputPerMTok: 3,
    searchesPerK: 14,
    searchUnit: "search",
    source: GEMINI,
    read: READ,
  },
  {
    model: "gemini-3.5-flash",
    inputPerMTok: 1.5,
    cachedInputPerMTok: 0.15,
    outputPerMTok: 9,
    searchesPerK: 14,
    searchUnit: "search",
    source: GEMINI,
    read: READ,
  },
  // $0.75 / $3.75 "through December 31, 2026"; $1.50 / $7.50 from January 1, 2027.
  {
    model: "gemini-3.8-flash",
    inputPerMTok: 0.75,
    cachedInputPerMTok: 0.075,
    outputPerMTok: 3.75,
    searchesPerK: 14,
    searchUnit: "search",
    source: GEMINI,
    read: READ,
  },
];
