/*
 * What answers cost (ADR 041): usage × the price table, for an answer, a provider's iterations and
 * a whole search, and the estimate shown before a search runs. Pure: the table is passed in.
 */
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { PriceRow, PriceTable, PriceTier } from "#src/contract/prices.ts";
import type { Cost, ModelResult, SearchCost, SearchResult, Usage } from "#src/contract/search-result.ts";

/** What a million tokens of each kind cost at a row or one of its tiers. */
type TokenRates = Pick<PriceTier, "inputPerMTok" | "cachedInputPerMTok" | "outputPerMTok">;

export const ZERO_COST: Cost = { usd: 0, searchTokensUsd: 0, searchesUsd: 0, readingUsd: 0, simulated: false };
const SIMULATED_COST: Cost = { ...ZERO_COST, simulated: true };

/**
 * The table's row for a model: its exact name, else the longest name it starts with followed by
 * "-" (a dated version, "gpt-5-mini-2025-08-07", is priced as "gpt-5-mini").
 */
export function priceOf(table: PriceTable, model: string): PriceRow | undefined {
  const name = model.trim().toLowerCase();
  let best: PriceRow | undefined;
  for (const row of table) {
    const key = row.model.toLowerCase();
    if (key === name) return row;
    if (name.startsWith(`${key}-`) && (!best || key.length > best.model.length)) best = row;
  }
  return best;
}

/**
 * One call's tokens in USD: input not cached, cached input, output, all at the rates of the tier its
 * prompt falls in (ratesFor). An answer continued over several requests is one prompt here, its
 * input added up: never less than the provider bills it, more only if the sum crosses a tier that
 * no single request did.
 */
export function tokensUsd(usage: Usage, row: PriceRow): number {
  const rates = ratesFor(row, usage.inputTokens);
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  return ((usage.inputTokens - cached) * rates.inputPerMTok + cached * rates.cachedInputPerMTok + usage.outputTokens * rates.outputPerMTok) / 1_000_000;
}

/** The token rates for a prompt of `inputTokens` (cached included): the row's, or those of the largest tier it is over. */
export function ratesFor(row: PriceRow, inputTokens: number): TokenRates {
  let rates: TokenRates = row;
  let over = 0;
  for (const tier of row.above ?? []) {
    if (inputTokens > tier.inputTokens && tier.inputTokens > over) {
      rates = tier;
      over = tier.inputTokens;
    }
  }
  return rates;
}

/** One call's web searches in USD: each search, or the answer once if it searched (`prompt`). */
export function searchesUsd(usage: Usage, row: PriceRow): number {
  const billed = row.searchUnit === "prompt" ? Math.min(usage.searches, 1) : usage.searches;
  return (billed * row.searchesPerK) / 1000;
}

/**
 * What one answer cost: its search call (tokens and web searches, at the answering model's price)
 * and the call that read it (at the reading model's). A simulated answer costs $0 and says so; a
 * call that used nothing costs nothing whatever its model; a model without a price is unknown.
 */
export function answerCost(run: AnswerUsage, table: PriceTable): Cost {
  return costWith(run, table);
}

type AnswerUsage = Pick<ModelResult, "simulated" | "status" | "modelVersion" | "usage" | "extractor" | "extractionUsage">;

/** An answer's cost; a model without a row is priced at `fallback` when given (and still named unpriced), else unknown. */
function costWith(run: AnswerUsage, table: PriceTable, fallback?: PriceRow): Cost {
  if (run.simulated) return SIMULATED_COST;
  if (run.status === "off") return ZERO_COST;
  const unpriced: string[] = [];
  const priced = (model: string, usage: Usage | undefined, part: (usage: Usage, row: PriceRow) => number): number | null => {
    if (!usage || (usage.inputTokens === 0 && usage.outputTokens === 0 && usage.searches === 0)) return 0;
    const row = priceOf(table, model);
    if (row) return part(usage, row);
    if (!unpriced.includes(model)) unpriced.push(model);
    return fallback ? part(usage, fallback) : null;
  };
  // What the provider reported it billed, where it does, is the cost; the table prices the rest.
  const reported = (usage: Usage | undefined, pick: (usd: NonNullable<Usage["reportedUsd"]>) => number) =>
    usage?.reportedUsd ? pick(usage.reportedUsd) : undefined;
  const searchTokens = reported(run.usage, (usd) => usd.total - usd.searches) ?? priced(run.modelVersion, run.usage, tokensUsd);
  const searches = reported(run.usage, (usd) => usd.searches) ?? priced(run.modelVersion, run.usage, searchesUsd);
  const reading = reported(run.extractionUsage, (usd) => usd.total) ?? priced(run.extractor?.model ?? run.modelVersion, run.extractionUsage, tokensUsd);
  return costOf(searchTokens, searches, reading, false, unpriced);
}

// ---------------------------------------------------------------------------------------------
// What counts against the spend limits (ADR 052): a model without a price fails closed

/**
 * What a model without a price is charged at: the highest rate of any row of the table for each
 * kind of usage (input, cached input, output, web searches), across the whole table (a row does
 * not say which provider it is) and its rows' dearer tiers, whatever the prompt's size, and every
 * web search billed on its own. A ceiling, never a price: it is charged against the spend limits
 * and budgets, while the answer's cost stays unknown.
 */
export function ceilingPrice(table: PriceTable): PriceRow {
  const most = <T>(list: readonly T[], pick: (item: T) => number) => list.reduce((max, item) => Math.max(max, pick(item)), 0);
  const rates = table.flatMap((row): TokenRates[] => [row, ...(row.above ?? [])]);
  return {
    model: "(no price: the table's highest rates)",
    inputPerMTok: most(rates, (rate) => rate.inputPerMTok),
    cachedInputPerMTok: most(rates, (rate) => rate.cachedInputPerMTok),
    outputPerMTok: most(rates, (rate) => rate.outputPerMTok),
    searchesPerK: most(table, (row) => row.searchesPerK),
    searchUnit: "search",
    source: "the price table's highest rate of each kind",
    read: table.reduce((latest, row) => (row.read > latest ? row.read : latest), "1970-01-01"),
  };
}

/**
 * What an answer is charged against the spend limits: its cost, or, for a model without a price,
 * its usage at the ceiling (ceilingPrice). Simulated answers and calls that used nothing charge $0.
 */
export function answerCharge(run: AnswerUsage, table: PriceTable): number {
  return costWith(run, table, ceilingPrice(table)).usd ?? 0;
}

/** Costs added up: unknown if any part is unknown; simulated only if every part was. */
export function sumCosts(costs: readonly Cost[]): Cost {
  if (costs.length === 0) return ZERO_COST;
  const add = (pick: (cost: Cost) => number | null) =>
    costs.reduce<number | null>((sum, cost) => (sum === null || pick(cost) === null ? null : sum + (pick(cost) ?? 0)), 0);
  const unpriced = [...new Set(costs.flatMap((cost) => cost.unpriced ?? []))];
  return costOf(
    add((c) => c.searchTokensUsd),
    add((c) => c.searchesUsd),
    add((c) => c.readingUsd),
    costs.every((cost) => cost.simulated),
    unpriced,
  );
}

/** A search's cost from its iterations: each provider's runs added up, then the providers. */
export function searchCost(runs: Partial<Record<ProviderId, readonly Partial<Pick<ModelResult, "cost" | "status">>[]>>): SearchCost {
  const providers: SearchCost["providers"] = {};
  for (const id of providerIds) {
    const list = runs[id];
    // A provider that was not connected made no call.
    if (list) providers[id] = sumCosts(list.map((run) => run.cost ?? (run.status === "off" ? ZERO_COST : UNKNOWN_COST)));
  }
  return { total: sumCosts(Object.values(providers)), providers };
}

/**
 * A saved result's cost: as it was saved, or, for a result saved before costs were kept, worked
 * out from the usage it kept: a single answer's usage is all of it; a multi-iteration result kept
 * only its shown answers' usage, so its cost is unknown.
 */
export function resultCost(result: Pick<SearchResult, "cost" | "models" | "iterationCount">, table: PriceTable): SearchCost {
  if (result.cost) return result.cost;
  const runs: Partial<Record<ProviderId, Partial<Pick<ModelResult, "cost" | "status">>[]>> = {};
  for (const id of providerIds) {
    const model = result.models[id];
    if (!model) continue;
    const cost = model.simulated ? SIMULATED_COST : result.iterationCount <= 1 ? (model.cost ?? answerCost(model, table)) : undefined;
    runs[id] = [{ status: model.status, ...(cost ? { cost } : {}) }];
  }
  return searchCost(runs);
}

/** The result with its cost, worked out where it was saved without one. */
export function withCost<T extends SearchResult>(result: T, table: PriceTable): T {
  return result.cost ? result : { ...result, cost: resultCost(result, table) };
}

const UNKNOWN_COST: Cost = { usd: null, searchTokensUsd: null, searchesUsd: null, readingUsd: null, simulated: false };

function costOf(searchTokens: number | null, searches: number | null, reading: number | null, simulated: boolean, unpriced: string[]): Cost {
  const usd = searchTokens === null || searches === null || reading === null ? null : searchTokens + searches + reading;
  return { usd, searchTokensUsd: searchTokens, searchesUsd: searches, readingUsd: reading, simulated, ...(unpriced.length ? { unpriced } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Words

/** "$0.061", "$1.24", "$0.0042"; "unknown" for an unknown amount. Halves round up ($10.085 is "$10.09"). */
export function formatUsd(usd: number | null): string {
  if (usd === null) return "unknown";
  if (usd === 0) return "$0.00";
  const places = (x: number) => (Math.abs(x) < 0.01 ? 4 : Math.abs(x) < 1 ? 3 : 2);
  // Places by the rounded amount too: 0.0099996 rounds to 0.0100 and reads "$0.010".
  const rounded = roundUsd(usd, places(usd));
  return `$${rounded.toFixed(places(rounded))}`;
}

/** A limit or a price as set, in dollars and cents: "$0.50", "$20.00". Halves round up, as formatUsd's. */
export function formatCents(usd: number): string {
  return `$${roundUsd(usd, 2).toFixed(2)}`;
}

/**
 * An amount rounded to `decimals` places, halves away from zero, on its decimal value: 10.085 is
 * held as 10.08499999… in binary, so toFixed and Math.round(x × 100) give 10.08. The amount is
 * first read to 12 significant digits (what a sum of prices can honestly claim), then shifted in
 * decimal notation, which is exact.
 */
export function roundUsd(usd: number, decimals: number): number {
  if (!Number.isFinite(usd) || usd === 0) return usd;
  const [digits, exponent] = Math.abs(usd).toPrecision(12).includes("e") ? Math.abs(usd).toExponential(11).split("e") : [Math.abs(usd).toPrecision(12), "0"];
  const shifted = Math.round(Number(`${digits}e${Number(exponent) + decimals}`));
  return Math.sign(usd) * Number(`${shifted}e-${decimals}`);
}

/** A cost as a person reads it: "$0.061", "unknown", "$0.00 (simulated)". */
export function formatCost(cost: Cost): string {
  if (cost.simulated) return "$0.00 (simulated)";
  return formatUsd(cost.usd);
}

/** What something should cost, before it runs: "about $1.20", "unknown", "$0.00 (simulated)". */
export function formatEstimate(usd: number | null, simulated: boolean): string {
  if (simulated) return "$0.00 (simulated)";
  return usd === null ? "unknown" : `about ${formatUsd(usd)}`;
}

/** Its parts, for the breakdown shown on hover and in the CLI. */
export function costParts(cost: Cost): Array<{ label: string; value: string }> {
  return [
    { label: "Search tokens", value: formatUsd(cost.searchTokensUsd) },
    { label: "Web searches", value: formatUsd(cost.searchesUsd) },
    { label: "Reading the answer", value: formatUsd(cost.readingUsd) },
    ...(cost.unpriced?.length ? [{ label: "No price for", value: cost.unpriced.join(", ") }] : []),
  ];
}

/** An amount for a file (exports): six decimals, "" when unknown. */
export function usdField(usd: number | null): string {
  return usd === null ? "" : String(roundUsd(usd, 6));
}

// ---------------------------------------------------------------------------------------------
// The estimate before a search runs

/**
 * What one answer typically uses, per provider, with web search on the default settings: the
 * search call (the pages it read come back as input tokens) and the call that reads the answer.
 * Round figures of the order the providers' usage fields report for a product question (ADR 041);
 * an estimate, not a quote.
 */
export const TYPICAL_USAGE: Record<ProviderId, { search: Usage; reading: Usage }> = {
  openai: { search: { inputTokens: 12_000, outputTokens: 1_500, searches: 2 }, reading: { inputTokens: 2_500, outputTokens: 400, searches: 0 } },
  anthropic: { search: { inputTokens: 20_000, outputTokens: 1_000, searches: 3 }, reading: { inputTokens: 2_500, outputTokens: 400, searches: 0 } },
  gemini: { search: { inputTokens: 500, outputTokens: 1_500, searches: 2 }, reading: { inputTokens: 2_500, outputTokens: 400, searches: 0 } },
  // The search results Sonar reads come back as input tokens, as at OpenAI.
  perplexity: { search: { inputTokens: 8_000, outputTokens: 800, searches: 2 }, reading: { inputTokens: 2_500, outputTokens: 400, searches: 0 } },
};

export const ESTIMATE_METHOD =
  "Each connected provider's typical usage per answer (its search call, web searches included, and the call that reads the answer) priced with the price table, times the iterations. Simulated providers cost $0.";

/** A provider as the estimate sees it: the model asked, the model that reads its answers, and whether it is simulated. */
export type EstimatedProvider = { id: ProviderId; model: string; extractionModel: string; simulated: boolean };

/** What a search of `iterations` should cost on these providers (ESTIMATE_METHOD). */
export function estimateCost(iterations: number, providers: readonly EstimatedProvider[], table: PriceTable): Cost {
  const perAnswer = providers.map((provider) => answerCost(typicalAnswer(provider), table));
  return sumCosts(perAnswer.flatMap((cost) => Array.from({ length: iterations }, () => cost)));
}

/** One typical answer of the provider (TYPICAL_USAGE), as the estimate prices it. */
function typicalAnswer(provider: EstimatedProvider): AnswerUsage {
  return {
    simulated: provider.simulated,
    status: "ok",
    modelVersion: provider.model,
    usage: TYPICAL_USAGE[provider.id].search,
    extractor: { provider: provider.id, model: provider.extractionModel },
    extractionUsage: TYPICAL_USAGE[provider.id].reading,
  };
}

/**
 * What a search of `iterations` is held and charged at when it is admitted (ADR 052): the estimate,
 * with models without a price at the ceiling (ceilingPrice). `unpriced` names those models.
 */
export function estimateCharge(iterations: number, providers: readonly EstimatedProvider[], table: PriceTable): { usd: number; unpriced: string[] } {
  const ceiling = ceilingPrice(table);
  const perAnswer = providers.map((provider) => costWith(typicalAnswer(provider), table, ceiling));
  return {
    usd: perAnswer.reduce((sum, cost) => sum + (cost.usd ?? 0), 0) * iterations,
    unpriced: [...new Set(perAnswer.flatMap((cost) => cost.unpriced ?? []))],
  };
}

/** "about $3.10 for 50 iterations"; "$0.00 (simulated)"; "unknown (no price for …)". */
export function estimateText(cost: Pick<Cost, "usd" | "simulated" | "unpriced">, iterations: number): string {
  const runs = `${iterations} iteration${iterations === 1 ? "" : "s"}`;
  if (cost.simulated) return `$0.00 for ${runs} (simulated)`;
  if (cost.usd === null) return `unknown for ${runs} (no price for ${cost.unpriced?.join(", ") ?? "a model"})`;
  return `about ${formatUsd(cost.usd)} for ${runs}`;
}

/** A listed search's cost (the history): "$0.00 (simulated)" when it cost nothing and was simulated. */
export function formatListedCost({ costUsd, simulated }: { costUsd: number | null; simulated: boolean }): string {
  return costUsd === 0 && simulated ? "$0.00 (simulated)" : formatUsd(costUsd);
}

/**
 * The warning before saving a tracker whose runs on a day would pass the account's daily spend
 * limit: "Every hour at minute 0 (UTC), this tracker costs about $150.00 a day; your limit is
 * $20.00." Null when it fits, when no limit is set (0) or the cost is unknown, and for simulated providers (free).
 */
export function dailySpendWarning({
  scheduleText,
  perRunUsd,
  day,
  limitUsd,
}: {
  scheduleText: string;
  perRunUsd: number | null;
  /** runsPerDay's answer (src/core/schedule.ts). */
  day: { runs: number; everyDay: boolean } | null;
  limitUsd: number | null;
}): string | null {
  if (perRunUsd === null || day === null || !limitUsd || limitUsd <= 0) return null;
  const usd = perRunUsd * day.runs;
  if (usd <= limitUsd) return null;
  return `${scheduleText}, this tracker costs about ${formatUsd(usd)} ${day.everyDay ? "a day" : "on each day it runs"}; your limit is ${formatCents(limitUsd)}.`;
}
