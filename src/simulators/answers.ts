/**
 * One simulated answer, provider-neutral: the category the query matches, a popularity-weighted
 * random pick of products in a slightly perturbed order, the searches run and pages retrieved,
 * prose split into segments (each citing zero or more pages), and the structured block.
 * The provider modules only re-shape this into their wire formats.
 */
import { catalogue, type CatalogueProduct, type Category, type SourcePage } from "./catalogue.ts";
import type { ProviderContext } from "./http.ts";
import { isProductName } from "./extract.ts";
import { hashString, type Rng } from "./random.ts";

export interface RankedProduct extends CatalogueProduct {
  rank: number;
}

export interface Segment {
  text: string;
  /** Pages this span cites; empty for uncited text. */
  sources: SourcePage[];
  /** The passage "quoted" from the cited page (Anthropic's cited_text). */
  citedText?: string;
}

export interface Search {
  query: string;
  results: SourcePage[];
}

export interface Answer {
  query: string;
  category: Category;
  /** Whether the query matched the category by keyword (false: hash-picked). */
  matched: boolean;
  products: RankedProduct[];
  companies: { name: string; products: string[] }[];
  searches: Search[];
  retrieved: SourcePage[];
  cited: SourcePage[];
  segments: Segment[];
  text: string;
}

export interface AnswerOptions {
  /** false: answer from "memory" (no searches, no citations). */
  search: boolean;
  /** false: prose only, no structured JSON block. */
  structured: boolean;
  /** true: the whole answer is the JSON object (structured-output mode). */
  jsonOnly?: boolean;
  searches: { min: number; max: number };
  /** Probability of an unusual structured block (unfenced, single-quoted, trailing text). */
  formatVariety: number;
}

/** The person's query: the prompt up to its first blank line. */
export function userQuery(prompt: string): string {
  const head = prompt.split("\n\n")[0]?.trim() ?? "";
  return head || prompt.trim();
}

export function matchCategory(query: string): { category: Category; matched: boolean } {
  const words = normalize(query);
  const haystack = ` ${words.join(" ")} `;
  let best: { category: Category; score: number } | undefined;
  for (const category of catalogue) {
    let score = 0;
    for (const keyword of category.keywords) {
      const phrase = normalize(keyword);
      if (phrase.length > 0 && haystack.includes(` ${phrase.join(" ")} `)) score += 1 + 2 * phrase.length;
    }
    if (score > 0 && (!best || score > best.score)) best = { category, score };
  }
  if (best) return { category: best.category, matched: true };
  const fallback = catalogue[hashString(query.toLowerCase()) % catalogue.length] ?? catalogue[0];
  if (!fallback) throw new Error("empty catalogue");
  return { category: fallback, matched: false };
}

/**
 * The answer to a search request as the provider's handler sees it: whether the request asked
 * for the search tool, and the faults that change what comes back (no_search, prose_only).
 */
export function answerRequest(context: Pick<ProviderContext, "rng" | "fault" | "formatVariety">, prompt: string, request: { searchTool: boolean; jsonOnly?: boolean; searches: AnswerOptions["searches"] }): Answer {
  return composeAnswer(context.rng, prompt, {
    search: request.searchTool && context.fault?.kind !== "no_search",
    structured: context.fault?.kind !== "prose_only",
    jsonOnly: request.jsonOnly,
    searches: request.searches,
    formatVariety: context.formatVariety,
  });
}

export function composeAnswer(rng: Rng, prompt: string, options: AnswerOptions): Answer {
  const query = userQuery(prompt);
  const { category, matched } = matchCategory(query);
  const products = pickProducts(rng, category.products);
  const companies = companiesOf(products);
  const { searches, retrieved, cited } = options.search ? runSearches(rng, query, category, options.searches) : { searches: [], retrieved: [], cited: [] };
  const structured = { products: products.map(({ name, rank, details }) => ({ name, rank, details })), companies };
  const segments = options.jsonOnly
    ? [{ text: JSON.stringify(structured, null, 2), sources: [] }]
    : [...prose(rng, query, category, matched, products, cited, options.search), ...(options.structured ? structuredBlock(rng, structured, options.formatVariety) : [])];
  return { query, category, matched, products, companies, searches, retrieved, cited, segments, text: segments.map((s) => s.text).join("") };
}

export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

// ---------------------------------------------------------------------------------------------

function normalize(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .split(" ")
    .filter(Boolean)
    .map((word) => (word.length > 3 && word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word));
}

/** A popularity-weighted subset, ranked by popularity with multiplicative noise. */
function pickProducts(rng: Rng, all: readonly CatalogueProduct[]): RankedProduct[] {
  const count = rng.int(Math.min(5, all.length), Math.min(9, all.length));
  return rng
    .weightedSample(all, (p) => Math.pow(p.popularity, 1.6), count)
    .map((product) => ({ product, score: product.popularity * Math.exp(0.35 * rng.normal()) }))
    .sort((a, b) => b.score - a.score)
    .map(({ product }, index) => ({ ...product, rank: index + 1 }));
}

function companiesOf(products: readonly RankedProduct[]): { name: string; products: string[] }[] {
  const companies = new Map<string, string[]>();
  for (const product of products) companies.set(product.company, [...(companies.get(product.company) ?? []), product.name]);
  return [...companies].map(([name, names]) => ({ name, products: names }));
}

function runSearches(rng: Rng, query: string, category: Category, range: { min: number; max: number }) {
  const weight = (page: SourcePage) => category.sources.length - category.sources.indexOf(page) + 2;
  const retrievedCount = rng.int(Math.min(6, category.sources.length), Math.min(12, category.sources.length));
  const retrieved = rng.weightedSample(category.sources, weight, retrievedCount);
  const cited = rng.weightedSample(retrieved, weight, rng.int(2, Math.min(5, retrieved.length - 1)));
  const queries = fanOut(rng, query, category, rng.int(Math.max(1, range.min), Math.max(1, range.min, range.max)));
  const searches = queries.map((q, i) => ({ query: q, results: retrieved.filter((_, j) => j % queries.length === i) }));
  return { searches: searches.filter((s) => s.results.length > 0), retrieved, cited };
}

function fanOut(rng: Rng, query: string, category: Category, count: number): string[] {
  const q = query.toLowerCase().replace(/[?!.]+$/, "").trim();
  const core = q.replace(/^(what are |what is |which )?(the )?(best|top|good)\s+/, "") || q;
  const year = new Date().getFullYear();
  const templates = [`best ${core} ${year}`, `${core} reviews`, `${core} comparison`, `top rated ${category.label} ${year}`, `${core} reddit recommendations`, `${category.label} buying guide`, `most popular ${category.label}`, `${core} expert picks`];
  return [q, ...rng.shuffle(templates)].slice(0, count);
}

function prose(rng: Rng, query: string, category: Category, matched: boolean, products: readonly RankedProduct[], cited: readonly SourcePage[], searched: boolean): Segment[] {
  const label = category.label;
  const intro = !matched
    ? `I couldn't find one definitive ranking for "${query}", but the closest coverage I found points to ${label}. These are the options reviewers mention most often:`
    : searched
      ? rng.pick([
          `Based on current reviews and buyer's guides, here are the ${label} that come up most often for "${query}":`,
          `Here's a roundup of the top ${label} for "${query}", drawing on recent expert testing and user reviews:`,
          `I looked through several recent reviews for "${query}". These ${label} are the most consistently recommended:`,
        ])
      : `Here are some of the most popular ${label} for "${query}", based on what reviewers have generally recommended:`;
  const citeFor = assignCitations(rng, products.length, cited);
  const bullet = rng.chance(0.7) ? (p: RankedProduct) => `${p.rank}. ` : () => "- ";
  const segments: Segment[] = [{ text: intro, sources: [] }];
  products.forEach((product, index) => {
    // A maker that is also a product's name ("HelloFresh") is left out, as it would read as that product.
    const maker = isProductName(product.company) ? "" : ` (${product.company})`;
    const head = `\n\n${bullet(product)}**${product.name}**${maker}: `;
    const claim = `${product.details}.`;
    const sources = citeFor[index] ?? [];
    if (sources.length === 0) segments.push({ text: head + claim, sources: [] });
    else segments.push({ text: head, sources: [] }, { text: claim, sources, citedText: `${product.name}: ${product.details}. ${sources[0]?.title ?? ""}`.slice(0, 150) });
  });
  const [first, second] = products;
  if (first && second) segments.push({ text: `\n\nOverall, ${first.name} is the most widely recommended pick, with ${second.name} a close second; the right choice depends on your budget and priorities.`, sources: [] });
  return segments;
}

/** Every cited page is used at least once; some product lines cite nothing. */
function assignCitations(rng: Rng, lines: number, cited: readonly SourcePage[]): SourcePage[][] {
  const out: SourcePage[][] = Array.from({ length: lines }, () => []);
  const order = rng.shuffle(out.map((_, i) => i));
  cited.forEach((page, i) => out[order[i % lines] ?? 0]?.push(page));
  for (const list of out) if (list.length > 0 && cited.length > 1 && rng.chance(0.2)) list.push(rng.pick(cited.filter((p) => !list.includes(p))));
  return out.map((list) => [...new Set(list)]);
}

type Structured = { products: { name: string; rank: number; details: string }[]; companies: { name: string; products: string[] }[] };

function structuredBlock(rng: Rng, structured: Structured, formatVariety: number): Segment[] {
  const json = JSON.stringify(structured, null, 2);
  const lead = rng.pick(["\n\nHere is the structured summary:\n\n", "\n\n", "\n\nStructured data:\n\n"]);
  if (!rng.chance(formatVariety)) return [{ text: `${lead}\`\`\`json\n${json}\n\`\`\``, sources: [] }];
  switch (rng.pick(["unfenced", "single_quoted", "trailing_text"] as const)) {
    case "unfenced":
      return [{ text: `${lead}${json}`, sources: [] }];
    case "single_quoted":
      return [{ text: `${lead}\`\`\`json\n${singleQuoted(structured)}\n\`\`\``, sources: [] }];
    case "trailing_text":
      return [{ text: `${lead}${JSON.stringify(structured)}\n\nLet me know if you'd like me to compare any of these in more detail.`, sources: [] }];
  }
}

/** Python-repr-like JSON with single-quoted strings. */
function singleQuoted(value: unknown): string {
  if (typeof value === "string") return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(singleQuoted).join(", ")}]`;
  if (value && typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${singleQuoted(k)}: ${singleQuoted(v)}`).join(", ")}}`;
  return String(value);
}
