import type { Company, Mention, Product } from "#src/contract/search-result.ts";
import { structuredSpan, type Span } from "./answer-block.ts";
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
 *
 * `block` is the answer's structured block if the caller has located it (structuredSpan), so
 * the text is scanned once. With `proseOnly` (grounding an extractor's names, see
 * readExtraction), a name the answer writes only inside its JSON block or a code block gets no
 * mention, and a name of ordinary words written as given (or a variant of it) counts at a
 * sentence start too: the extractor read it as a name there ("Linear is the fastest…").
 */
export function withMentions(
  extraction: { products: Product[]; companies: Company[] },
  text: string,
  { block = structuredSpan(text), proseOnly = false }: { block?: Span | null; proseOnly?: boolean } = {},
): { products: Product[]; companies: Company[] } {
  const skip = [...(block ? [block] : []), ...[...text.matchAll(/```[\s\S]*?(?:```|$)/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }))];
  const locate = (company: boolean) => (name: string) => firstMention(text, variantsOf(name, company), skip, proseOnly);
  return { products: ordered(extraction.products, locate(false)), companies: ordered(extraction.companies, locate(true)) };
}

function ordered<T extends { name: string }>(items: T[], locate: (name: string) => Span | undefined): (T & { mention?: Mention })[] {
  return renumbered(
    items.map((item) => {
      const span = locate(item.name);
      const { mention: _, ...rest } = item as T & { mention?: Mention };
      return (span ? { ...rest, mention: { ...span, order: 0 } } : rest) as T & { mention?: Mention };
    }),
  );
}

/** Each located item's `order`: its place in the order of first mention among `items`. */
export function renumbered<T extends { mention?: Mention }>(items: T[]): T[] {
  const starts = items.flatMap((item) => (item.mention ? [item.mention.start] : [])).sort((a, b) => a - b);
  return items.map((item) => (item.mention ? { ...item, mention: { ...item.mention, order: starts.indexOf(item.mention.start) + 1 } } : item));
}

// The prose first, every variant in turn; then the name as written in the JSON block, or
// (proseOnly) every variant again where a sentence starts.
function firstMention(text: string, variants: string[], skip: Span[], proseOnly: boolean): Span | undefined {
  const outside = (span: Span) => !skip.some((range) => span.start >= range.start && span.start < range.end);
  for (const variant of variants) {
    const found = occurrences(text, variant).find(outside);
    if (found) return found;
  }
  if (proseOnly) {
    for (const variant of variants) {
      const found = occurrences(text, variant, true).find(outside);
      if (found) return found;
    }
    return undefined;
  }
  return variants[0] === undefined ? undefined : occurrences(text, variants[0])[0];
}

function occurrences(text: string, name: string, anywhere = false): Span[] {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const plain = words.every((word) => /^[\p{L}'’-]+$/u.test(word) && isOrdinaryWord(word.replace(/['’]s$/, "")));
  const strict = plain || name.replace(/[^\p{L}\p{N}]/gu, "").length <= 3;
  const body = words.map((word) => `${escapeWord(word)}(?:['’]s)?[™®©]?`).join("\\s+");
  const spans = [...text.matchAll(wholeWords(body, strict ? "gu" : "giu"))].map((m) => ({ start: m.index, end: m.index + m[0].length }));
  return plain && !anywhere ? spans.filter((span) => emphasised(text, span) || !atSentenceStart(text, span.start)) : spans;
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
  "sportswear",
  "petcare",
  "sleep",
  "security",
  "bank",
  "rewards",
]);
