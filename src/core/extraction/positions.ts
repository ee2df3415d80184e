import type { Company, Mention, Product } from "#src/contract/search-result.ts";
import { structuredSpan } from "./answer-block.ts";
import { escapeRegExp, wholeWords } from "./whole-words.ts";
import { isOrdinaryWord } from "./words.ts";

/**
 * Where the answer first names each product and company (saved as `mention`, so the full
 * response can show where it says so, and the brand lens can tell who came first), and each
 * one's place in the order of first mention among its kind. The prose is read before the JSON
 * block, which only repeats the names. A name is found as written (any case, "'s" or ™ after a
 * word, any dash), else without a bracketed tail ("(2nd Gen)"), else without its leading brand
 * words while what is left is still distinctive ("Roomba Combo 10 Max"), else, for a company,
 * without a corporate tail ("Notion" for "Notion Labs"). A name of ordinary words (On, Close,
 * Kit) counts only as written and not where a sentence starts, unless it is emphasised.
 */
export function withMentions(extraction: { products: Product[]; companies: Company[] }, text: string): { products: Product[]; companies: Company[] } {
  const json = structuredSpan(text);
  const skip = [...(json ? [json] : []), ...[...text.matchAll(/```[\s\S]*?(?:```|$)/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }))];
  return {
    products: ordered(extraction.products, (name) => firstMention(text, variantsOf(name, false), skip)),
    companies: ordered(extraction.companies, (name) => firstMention(text, variantsOf(name, true), skip)),
  };
}

type Span = { start: number; end: number };

function ordered<T extends { name: string }>(items: T[], locate: (name: string) => Span | undefined): (T & { mention?: Mention })[] {
  const spans = items.map((item) => locate(item.name));
  const starts = spans.flatMap((span) => (span ? [span.start] : [])).sort((a, b) => a - b);
  return items.map((item, index) => {
    const span = spans[index];
    const { mention: _, ...rest } = item as T & { mention?: Mention };
    return (span ? { ...rest, mention: { ...span, order: starts.indexOf(span.start) + 1 } } : rest) as T & { mention?: Mention };
  });
}

// The prose first, every variant in turn; then the JSON block for the name as written.
function firstMention(text: string, variants: string[], skip: Span[]): Span | undefined {
  for (const variant of variants) {
    const found = occurrences(text, variant).find((span) => !skip.some((range) => span.start >= range.start && span.start < range.end));
    if (found) return found;
  }
  return variants[0] === undefined ? undefined : occurrences(text, variants[0])[0];
}

function occurrences(text: string, name: string): Span[] {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const plain = words.every((word) => /^[\p{L}'’-]+$/u.test(word) && isOrdinaryWord(word.replace(/['’]s$/, "")));
  const strict = plain || name.replace(/[^\p{L}\p{N}]/gu, "").length <= 3;
  const body = words.map((word) => `${escapeWord(word)}(?:['’]s)?[™®©]?`).join("\\s+");
  const spans = [...text.matchAll(wholeWords(body, strict ? "gu" : "giu"))].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  return plain ? spans.filter((span) => emphasised(text, span) || !atSentenceStart(text, span.start)) : spans;
}

function variantsOf(name: string, company: boolean): string[] {
  const variants = [name];
  const bare = name.replace(/\s*\([^)]*\)$/, "").trim();
  if (bare !== name && bare) variants.push(bare);
  const words = bare.split(" ");
  for (let i = 1; i < words.length; i++) {
    const rest = words.slice(i);
    const distinctive = (word: string) => /\d|^.+\p{Lu}/u.test(word) || (/\p{L}/u.test(word) && !isOrdinaryWord(word.replace(/[^\p{L}]/gu, "")));
    if (rest.some(distinctive)) variants.push(rest.join(" "));
  }
  if (company) {
    let end = words.length;
    while (end > 1 && CORPORATE.has((words[end - 1] ?? "").toLowerCase().replace(/\.$/, ""))) end--;
    if (end < words.length) variants.push(words.slice(0, end).join(" "));
  }
  return variants;
}

function escapeWord(word: string): string {
  return escapeRegExp(word.replace(/['’]s$/, ""))
    .replace(/['’]/g, "['’]")
    .replace(/[-‐‑‒–—]/g, "[-‐‑‒–—]");
}

function emphasised(text: string, span: Span): boolean {
  return /(?:\*\*|__)$/.test(text.slice(Math.max(0, span.start - 2), span.start));
}

function atSentenceStart(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 80), index).replace(/(?:[^\S\n]|[*_#>"“'(\[|•·–—-]|\d{1,3}[.)](?=[^\S\n]))+$/u, "");
  return before === "" || before.endsWith("\n") || /[.!?:]$/.test(before);
}

/** Words that end a company's legal or group name, or describe its trade, not its brand. */
const CORPORATE = new Set([
  "inc",
  "ltd",
  "llc",
  "plc",
  "corp",
  "corporation",
  "co",
  "company",
  "companies",
  "group",
  "holdings",
  "labs",
  "technologies",
  "technology",
  "innovations",
  "se",
  "ag",
  "ab",
  "gmbh",
  "sa",
  "nv",
  "bv",
  "financial",
  "brands",
  "international",
  // What a maker adds to its brand in its company name ("Brooks Running", "Hill's Pet Nutrition").
  "running",
  "sports",
  "audio",
  "electronics",
  "software",
  "systems",
  "motors",
  "foods",
  "nutrition",
  "pet",
  "industries",
  "enterprises",
  "health",
  "mobile",
]);
