/*
 * What the providers charge, per model: the table that turns an answer's usage into money (ADR 041).
 * Plain data, shared by the server, the web, the CLI and MCP; an operator replaces it with a file
 * (PRICES_FILE, parsed with PriceTable below). Every row says where its figures were read and when.
 */
import * as v from "valibot";

const Usd = v.pipe(v.number(), v.minValue(0));

/**
 * Dearer rates for a longer prompt: a call whose prompt (its input tokens, cached included) is over
 * `inputTokens` is billed wholly at these rates, as Anthropic bills a long prompt.
 */
export const PriceTier = v.object({
  inputTokens: v.pipe(v.number(), v.integer(), v.minValue(1)),
  inputPerMTok: Usd,
  cachedInputPerMTok: Usd,
  outputPerMTok: Usd,
});
export type PriceTier = v.InferOutput<typeof PriceTier>;

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
  /** The tiers above the row's rates, by prompt size (PriceTier); the largest threshold a prompt is over applies. */
  above: v.optional(v.array(PriceTier)),
  /**
   * Web searches the provider bills nothing for each month (Gemini 3's 5,000 search queries). The
   * provider counts them for the whole project, with whatever else uses it, so answers are still
   * priced as paid (ADR 062): the allowance is for the operator to set against the provider's bill.
   */
  freeSearchesPerMonth: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
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
const PERPLEXITY = "https://docs.perplexity.ai/docs/agent-api/models";
const READ = "2026-11-26";

/** A row of the built-in table: USD per million input, cached input and output tokens, and how its web searches are billed. */
const priced =
  (source: string, searchesPerK: number, searchUnit: PriceRow["searchUnit"]) =>
  (model: string, inputPerMTok: number, cachedInputPerMTok: number, outputPerMTok: number): PriceRow => ({
    model,
    inputPerMTok,
    cachedInputPerMTok,
    outputPerMTok,
    searchesPerK,
    searchUnit,
    source,
    read: READ,
  });
// Web search: OpenAI $10 per 1,000 web search calls; Anthropic $10 per 1,000 searches; Gemini 2.5
// $35 per 1,000 grounded prompts (however many queries each ran), Gemini 3.x $14 per 1,000 search queries.
const openai = priced(OPENAI, 10, "search");
const anthropic = priced(ANTHROPIC, 10, "search");
const gemini25 = priced(GEMINI, 35, "prompt");
// Gemini 3's first 5,000 search queries a month are free, shared by its models.
const gemini3 = (...row: Parameters<ReturnType<typeof priced>>): PriceRow => ({ ...priced(GEMINI, 14, "search")(...row), freeSearchesPerMonth: 5_000 });

/**
 * The built-in table: the current default and extraction models and a few likely alternatives,
 * standard (not batch, not priority) rates, USD. A free allowance is listed (freeSearchesPerMonth)
 * but an answer's searches are priced as if paid.
 */
export const DEFAULT_PRICES: PriceTable = [
  // The defaults of ADR 040. gpt-6-luna: $0.10 / $0.50 on OpenAI's model page (cached input a tenth
  // of input, as for the others); claude-haiku-5-5: $0.10 / $0.01 cache reads / $0.50 for prompts up
  // to 100,000 tokens, $0.50 / $0.05 / $2.50 over (ADR 062).
  { ...openai("gpt-6-luna", 0.1, 0.01, 0.5), source: "https://developers.openai.com/api/docs/models/gpt-6-luna" },
  {
    ...anthropic("claude-haiku-5-5", 0.1, 0.01, 0.5),
    above: [{ inputTokens: 100_000, inputPerMTok: 0.5, cachedInputPerMTok: 0.05, outputPerMTok: 2.5 }],
    source: "https://platform.claude.com/docs/en/models/haiku-5-5/overview",
    read: "2026-12-07",
  },
  openai("gpt-5-mini", 0.25, 0.025, 2),
  openai("gpt-5.4-mini", 0.75, 0.075, 4.5),
  openai("gpt-5.4-nano", 0.2, 0.02, 1.25),
  openai("gpt-5-nano", 0.05, 0.005, 0.4),
  anthropic("claude-sonnet-4-6", 3, 0.3, 15),
  anthropic("claude-sonnet-4-5", 3, 0.3, 15),
  anthropic("claude-haiku-4-5", 1, 0.1, 5),
  gemini25("gemini-2.5-flash", 0.3, 0.03, 2.5),
  gemini25("gemini-2.5-flash-lite", 0.1, 0.01, 0.4),
  // The Gemini default of ADR 061: $0.30 / $2.50, cached $0.03, as three secondary sources give
  // them (no copy of Google's page we read had this row; ADR 061 names them); grounding per search query run.
  { ...gemini3("gemini-3.5-flash-lite", 0.3, 0.03, 2.5), read: "2026-12-07" },
  gemini3("gemini-3-flash-preview", 0.5, 0.05, 3),
  // Cached input of the 3.5 and 3.8 rows: a tenth of input, as for the others (not on the copies read).
  gemini3("gemini-3.5-flash", 1.5, 0.15, 9),
  // $0.75 / $3.75 "through December 31, 2026"; $1.50 / $7.50 from January 1, 2027.
  gemini3("gemini-3.8-flash", 0.75, 0.075, 3.75),
  // Sonar on the Agent API: $0.25 / $2.50, cache $0.0625; web_search $5 per 1,000 search calls
  // (https://docs.perplexity.ai/docs/agentic-research/tools). Its answers carry what they cost
  // (usage.cost), which is used instead; the row prices estimates and the spend held.
  { ...priced(PERPLEXITY, 5, "search")("perplexity/sonar", 0.25, 0.0625, 2.5), read: "2026-12-07" },
];
