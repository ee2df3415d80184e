/**
 * One simulated answer, provider-neutral: what the query asks (intent.ts), what the answer will
 * recommend and which pages a search finds (plan.ts, searches.ts), the prose in cited segments
 * (prose.ts) and, only when the prompt asks for one, the structured block (json-block.ts). A
 * plain question (the query as typed) gets prose alone, as a person asking an assistant sees it.
 * Now and then, at the `noise` rate, it carries one of the quirks real models have, each
 * provider with its own habits. The provider modules only re-shape this into their wire formats.
 */
import type { ProviderId } from "#src/contract/providers.ts";
import { publisherDomain, type CatalogueProduct, type SourcePage } from "./catalogue.ts";
import type { ProviderContext } from "./http.ts";
import { readIntent, type Intent } from "./intent.ts";
import { blockStyle, jsonBlock, type Structured } from "./json-block.ts";
import { localNote, type AskedFrom } from "./location.ts";
import { planAnswer, type RankedProduct, type Taste } from "./plan.ts";
import { writeProse, type ListShape, type Segment, type Style } from "./prose.ts";
import { userQuery } from "./query.ts";
import { hashString, type Rng } from "./random.ts";
import type { Effect } from "./run-effects.ts";
import { NO_SEARCH, runSearches, type Search } from "./searches.ts";

export type { Segment } from "./prose.ts";
export type { Search } from "./searches.ts";

/**
 * The quirks of real answers the extraction must survive: no JSON block, messy JSON, a table, a
 * cut-off answer, "Acme's Rocket 3", a category in bold, a "couldn't find" about one fact or about
 * a product that does not exist, markdown links in the text, a citation on a sentence naming nothing.
 */
export type NoiseKind =
  | "no_json"
  | "messy_json"
  | "table"
  | "truncated"
  | "possessive"
  | "category_heading"
  | "fact_not_found"
  | "missing_product"
  | "inline_links"
  | "stray_citation";

export interface Answer {
  query: string;
  intent: Intent["kind"];
  products: RankedProduct[];
  companies: { name: string; products: string[] }[];
  searches: Search[];
  retrieved: SourcePage[];
  cited: SourcePage[];
  segments: Segment[];
  text: string;
  /** Cut off at the output limit, which the provider's finish signal reports. */
  truncated: boolean;
  noise?: NoiseKind;
}

export interface AnswerOptions {
  provider: ProviderId;
  /** false: answer from "memory" (no searches, no citations). */
  search: boolean;
  /** true: the prompt asks for a JSON block at the end (the old method), and it gets one. */
  structured: boolean;
  /** true: the whole answer is the JSON object (structured-output mode). */
  jsonOnly?: boolean;
  searches: { min: number; max: number };
  /**
   * Probability of an unusual format: with a block asked for, an unusual block (unfenced,
   * single-quoted, trailing text); in prose alone, the picks as headings, bold-led paragraphs or a table.
   */
  formatVariety: number;
  /** Probability that the answer carries one of its provider's noise classes. */
  noise: number;
  /** Where the search tool was told the person is: the answer says so (location.ts). */
  location?: AskedFrom;
  /** The run's lean (run-effects.ts): each product's weight and each page's is scaled by exp(effect). Absent: none. */
  effect?: Effect;
}

/**
 * The answer to a search request as the provider's handler sees it: whether the request asked
 * for the search tool, whether the prompt asks for a JSON block, and the faults that change what
 * comes back (no_search; prose_only, no block even when asked).
 */
export function answerRequest(
  context: Pick<ProviderContext, "rng" | "fault" | "formatVariety" | "noise" | "effect">,
  prompt: string,
  request: { provider: ProviderId; searchTool: boolean; jsonOnly?: boolean; searches: AnswerOptions["searches"]; location?: AskedFrom },
): Answer {
  return composeAnswer(context.rng, prompt, {
    provider: request.provider,
    search: request.searchTool && context.fault?.kind !== "no_search",
    structured: asksForBlock(prompt) && context.fault?.kind !== "prose_only",
    jsonOnly: request.jsonOnly,
    searches: request.searches,
    formatVariety: context.formatVariety,
    noise: context.noise,
    location: request.searchTool ? request.location : undefined,
    effect: context.effect,
  });
}

export function composeAnswer(rng: Rng, prompt: string, options: AnswerOptions): Answer {
  const query = userQuery(prompt);
  const { need, intent } = readIntent(query);
  const plan = planAnswer(rng, need, intent, leaning(tasteOf(options.provider), options.effect));
  const { products } = plan;
  const companies = companiesOf(products);
  const structured: Structured = { products: products.map(({ name, rank, details }) => ({ name, rank, details })), companies };
  const run = options.search ? runSearches(rng, query, plan, options.searches, options.effect) : NO_SEARCH;
  const base = { query, intent: intent.kind, products, companies, ...run, truncated: false };
  if (options.jsonOnly) {
    const segments = [{ text: JSON.stringify(structured, null, 2), sources: [] }];
    return { ...base, segments, text: segments[0]?.text ?? "" };
  }
  // Without a block asked for, a block's quirks cannot happen: the provider's other habits remain.
  const habits = options.structured ? HABITS[options.provider] : HABITS[options.provider].filter((kind) => !BLOCK_NOISE.has(kind));
  const noise = products.length > 0 && rng.chance(options.noise) ? rng.pick(habits) : undefined;
  const shape: ListShape = noise === "table" ? "table" : !options.structured && rng.chance(options.formatVariety) ? rng.pick(PROSE_VARIETY) : "list";
  const style: Style = { shape, nameOf: noise === "possessive" ? possessive : (p) => p.name };
  const { segments, notesAt } = writeProse(rng, query, intent, plan, run.cited, style);
  const local = localNote(options.location);
  segments.splice(
    notesAt,
    0,
    ...notes(rng, noise, { products, cited: run.cited, label: plan.category?.label, provider: options.provider }),
    ...(local ? [plain(local)] : []),
  );
  if (noise === "category_heading" && plan.category) segments.splice(1, 0, { text: `\n\n**${sentenceCase(plan.category.label)}**`, sources: [] });
  // Asked for a block, a model adds one even when it lists nothing (empty lists).
  if (options.structured && noise !== "no_json") {
    segments.push(jsonBlock(rng, structured, blockStyle(rng, options.formatVariety, noise === "messy_json")));
  }
  const kept = noise === "truncated" ? cutOff(rng, segments) : segments;
  return { ...base, segments: kept, text: kept.map((s) => s.text).join(""), truncated: noise === "truncated", ...(noise ? { noise } : {}) };
}

/**
 * Whether the prompt asks for a JSON block: something after the query (its first paragraph)
 * mentions JSON, as the old method's instructions do. The query as typed never does.
 */
export function asksForBlock(prompt: string): boolean {
  const query = userQuery(prompt);
  return /\bjson\b/i.test(prompt.slice(prompt.indexOf(query) + query.length));
}

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

// ---------------------------------------------------------------------------------------------

/** The quirks of a JSON block, which only an answer asked for a block can have. */
const BLOCK_NOISE: ReadonlySet<NoiseKind> = new Set(["no_json", "messy_json"]);

/** The unusual shapes `formatVariety` draws from for the picks of an answer in prose alone. */
const PROSE_VARIETY: readonly ListShape[] = ["headings", "paragraphs", "table"];

/** Each provider's quirks, as often as listed (drawn uniformly from the list). */
const HABITS: Record<ProviderId, readonly NoiseKind[]> = {
  openai: [
    "inline_links",
    "inline_links",
    "inline_links",
    "messy_json",
    "table",
    "fact_not_found",
    "truncated",
    "category_heading",
    "possessive",
    "no_json",
    "missing_product",
  ],
  anthropic: [
    "fact_not_found",
    "fact_not_found",
    "possessive",
    "possessive",
    "no_json",
    "no_json",
    "category_heading",
    "missing_product",
    "table",
    "messy_json",
    "truncated",
  ],
  gemini: [
    "table",
    "table",
    "table",
    "messy_json",
    "messy_json",
    "category_heading",
    "category_heading",
    "stray_citation",
    "stray_citation",
    "truncated",
    "no_json",
    "inline_links",
  ],
  perplexity: [
    "table",
    "table",
    "category_heading",
    "category_heading",
    "fact_not_found",
    "stray_citation",
    "possessive",
    "truncated",
    "no_json",
    "messy_json",
  ],
};

/**
 * A provider's lasting preferences: each product's weight scaled by 0.75–1.35, fixed per
 * provider and product, so frequencies over many runs differ between providers as they do for real.
 */
function tasteOf(provider: ProviderId): Taste {
  return (product: CatalogueProduct) => Math.exp(0.3 * ((hashString(`${provider}|${product.name}`) / 0x1_0000_0000) * 2 - 1));
}

/** The provider's taste with the run's lean on top; the taste itself when there is none (the same weights, bit for bit). */
function leaning(taste: Taste, effect: Effect | undefined): Taste {
  return effect ? (product) => taste(product) * Math.exp(effect(product.name)) : taste;
}

function companiesOf(products: readonly RankedProduct[]): { name: string; products: string[] }[] {
  const companies = new Map<string, string[]>();
  for (const product of products) companies.set(product.company, [...(companies.get(product.company) ?? []), product.name]);
  return [...companies].map(([name, names]) => ({ name, products: names }));
}

/** Remarks a noise class adds before the closing line. */
function notes(
  rng: Rng,
  noise: NoiseKind | undefined,
  answer: { products: readonly RankedProduct[]; cited: readonly SourcePage[]; label?: string; provider: ProviderId },
): Segment[] {
  const product = rng.pick(answer.products.length > 0 ? answer.products : [undefined]);
  switch (noise) {
    case "fact_not_found":
      return product ? [plain(`\n\nI couldn't find current stock levels for ${product.name}, but it is usually easy to find at major retailers.`)] : [];
    case "missing_product": {
      if (!product) return [];
      const ghost = `${product.name} ${rng.pick(["Pro Max", "Ultra 2", "Lite X", "Plus Edition"])}`;
      return [plain(`\n\nSome forums mention a "${ghost}", but I couldn't find any reliable information about it, so I've left it out.`)];
    }
    case "inline_links": {
      if (answer.cited.length === 0) return [];
      const tag = answer.provider === "openai" ? "?utm_source=openai" : "";
      return [plain(`\n\nSources: ${answer.cited.map((page) => `[${publisherDomain(page.url)}](${page.url}${tag})`).join(", ")}`)];
    }
    case "stray_citation": {
      const [page] = answer.cited;
      return page ? [{ text: "\n\nPrices and availability change often, so check current deals before you buy.", sources: [page], citedText: page.title }] : [];
    }
    default:
      return [];
  }
}

/** The answer as it stood when the output limit hit: somewhere in its last 40%, mid-word. */
function cutOff(rng: Rng, segments: readonly Segment[]): Segment[] {
  const total = segments.reduce((sum, s) => sum + s.text.length, 0);
  let left = Math.floor(total * (0.6 + 0.35 * rng.next()));
  const kept: Segment[] = [];
  for (const segment of segments) {
    if (left <= 0) break;
    if (segment.text.length <= left) kept.push(segment);
    else kept.push({ ...segment, text: segment.text.slice(0, left), ...(segment.citedText ? { citedText: segment.citedText.slice(0, left) } : {}) });
    left -= segment.text.length;
  }
  return kept;
}

/** "Acme Rocket 3" → "Acme's Rocket 3"; other names as they are. */
function possessive(product: RankedProduct): string {
  return product.name.startsWith(`${product.company} `) ? `${product.company}'s ${product.name.slice(product.company.length + 1)}` : product.name;
}

function sentenceCase(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function plain(text: string): Segment {
  return { text, sources: [] };
}
