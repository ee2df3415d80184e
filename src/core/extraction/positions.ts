import type { Company, Mention, Product } from "#src/contract/search-result.ts";
import { structuredSpan, type Span } from "./answer-block.ts";
import { escapeRegExp, wholeWords } from "./whole-words.ts";
import { isDistinctive, isOrdinaryWord } from "./words.ts";

/**
 * Where the answer first names each product and company (saved as `mention`, so the full
 * response can show where it says so, and the brand lens can tell who came first), and each
 * one's place in the order of first mention among its kind. The prose is read before the JSON
 * block, which only repeats the names. A name is found as written (any case, "'s" or ™ after a
 * word, any dash), else without a bracketed tail ("(2nd Gen)"), else without its leading brand
 * words while what is left is still distinctive ("Roomba Combo 10 Max"), else, for a company,
 * without a corporate tail ("Notion" for "Notion Labs"); in grounding (`proseOnly`) a shorter name
 * counts only where the answer writes the words it drops, else a company is renamed to the name
 * the answer gives and a product is not found. A name of ordinary words (On, Close,
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
  // Grounding takes a product's shorter name only where the answer writes the words it leaves
  // out too: "Portola" does not vouch for "RideUp Portola", nor "Mid GTX" for "Salomon X Ultra 5
  // Mid GTX"; a product the answer writes as "Roomba Combo 10 Max" and whose maker it names
  // ("iRobot") still grounds "iRobot Roomba Combo 10 Max". A company the answer names only by a
  // shorter name ("Purina" for "Nestlé Purina", "HelloFresh" for "HelloFresh SE") is kept under
  // the name the answer gives.
  const vouched = (variant: Variant) => !proseOnly || variant.dropped.every((word) => writes(text, word));
  const locate =
    (company: boolean) =>
    (name: string): { span: Span; name: string } | undefined => {
      const variants = variantsOf(name, company);
      if (!company || !proseOnly) {
        const span = firstMention(text, variants.filter(vouched), skip, proseOnly);
        return span && { span, name };
      }
      const span = firstMention(
        text,
        variants.filter((variant) => variant.dropped.length === 0),
        skip,
        proseOnly,
      );
      if (span) return { span, name };
      for (const variant of variants.filter((variant) => variant.dropped.length > 0)) {
        const shorter = firstMention(text, [variant], skip, proseOnly);
        if (shorter) return { span: shorter, name: variant.name };
      }
      return undefined;
    };
  return { products: ordered(extraction.products, locate(false)), companies: ordered(extraction.companies, locate(true)) };
}

/**
 * Every place the answer writes `name` (as given, or without a bracketed tail), wherever it is:
 * for telling a piece of a name from a name (readExtraction).
 */
export function spansOf(text: string, name: string): Span[] {
  return variantsOf(name, false)
    .filter((variant) => variant.dropped.length === 0)
    .flatMap((variant) => occurrences(text, variant.name, true));
}

function ordered<T extends { name: string }>(items: T[], locate: (name: string) => { span: Span; name: string } | undefined): (T & { mention?: Mention })[] {
  return renumbered(
    items.map((item) => {
      const found = locate(item.name);
      const { mention: _, ...rest } = item as T & { mention?: Mention };
      return (found ? { ...rest, name: found.name, mention: { ...found.span, order: 0 } } : rest) as T & { mention?: Mention };
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
function firstMention(text: string, variants: Variant[], skip: Span[], proseOnly: boolean): Span | undefined {
  const outside = (span: Span) => !skip.some((range) => span.start >= range.start && span.start < range.end);
  // In grounding, a name without its leading words is not the end of another name ("Carry-On
  // Spinner" in "Travelpro Platinum Elite Carry-On Spinner" is not Samsonite's).
  const fits = (variant: Variant) => (span: Span) => outside(span) && !(proseOnly && variant.tail && continuesName(text, span.start));
  for (const variant of variants) {
    const found = occurrences(text, variant.name).find(fits(variant));
    if (found) return found;
  }
  if (proseOnly) {
    for (const variant of variants) {
      const found = occurrences(text, variant.name, true).find(fits(variant));
      if (found) return found;
    }
    return undefined;
  }
  return variants[0] === undefined ? undefined : occurrences(text, variants[0].name)[0];
}

// Whether the word before `index` is part of a name: capitalised where no sentence starts, or
// with a digit or an inner capital.
function continuesName(text: string, index: number): boolean {
  const before = /([\p{L}\p{N}+'’-]+)[^\S\n]+$/u.exec(text.slice(Math.max(0, index - 60), index));
  if (!before?.[1]) return false;
  const word = before[1];
  if (/\d|^.+\p{Lu}/u.test(word)) return true;
  return /^\p{Lu}/u.test(word) && !atSentenceStart(text, index - before[0].length);
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

// The name, then shorter ways an answer may write it, each with the words it leaves out.
type Variant = { name: string; dropped: string[]; tail?: boolean };

function variantsOf(name: string, company: boolean): Variant[] {
  const variants: Variant[] = [{ name, dropped: [] }];
  const bare = name.replace(/\s*\([^)]*\)$/, "").trim();
  if (bare !== name && bare) variants.push({ name: bare, dropped: [] });
  const words = bare.split(" ");
  for (let i = 1; i < words.length; i++) {
    const rest = words.slice(i);
    if (rest.some(isDistinctive)) variants.push({ name: rest.join(" "), dropped: words.slice(0, i), tail: true });
  }
  if (company) {
    let end = words.length;
    while (end > 1 && CORPORATE.has((words[end - 1] ?? "").toLowerCase().replace(/\.$/, ""))) end--;
    if (end < words.length) variants.push({ name: words.slice(0, end).join(" "), dropped: words.slice(end) });
  }
  return variants;
}

// Whether the answer writes `word` anywhere as a whole word, any case ("&" and "by" count as written).
function writes(text: string, word: string): boolean {
  const bare = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
  return bare === "" || text.search(wholeWords(escapeWord(bare), "giu")) >= 0; // search: the shared pattern's lastIndex stays put
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
