import type { BrandEntry } from "#src/contract/lens.ts";
import type { RunRecord } from "#src/contract/search-result.ts";
import { nameKey } from "./names.ts";
import { mentions, notFoundSubjects } from "./extraction/not-found.ts";
import { escapeRegExp, wholeWords } from "./extraction/whole-words.ts";
import { CALENDAR_WORDS, isOrdinaryWord } from "./extraction/words.ts";

/*
 * Whether an answer names a brand: names and aliases as whole words, short names only in capitals,
 * ordinary words only where written as a name, never in a "could not find"; the text decides, whatever the extraction returned (an extracted name
 * only vouches for a capitalised occurrence the rules doubt). The cases: tests/unit/mentions.test.ts.
 */

export type BrandMatcher = {
  /** Whether a product or company name names the brand. */
  inName(name: string): boolean;
  /** Whether the answer's text names the brand, outside its "could not find" statements. */
  inText(text: string | AnswerText): boolean;
  /** Whether an answer's text names the brand, or writes it where its products or companies say it is the brand. */
  inAnswer(answer: Pick<RunRecord, "products" | "companies"> & { text: string | AnswerText }): boolean;
};

/** An answer's text folded once for matching, with the stretches that say "not found". */
export type AnswerText = { folded: string; notFound: Array<{ start: number; end: number; subject: string }> };

/**
 * Read sentence by sentence, so that "I couldn't find Zorblax, but Zorblax fans…" takes back
 * only the first: each subject stands where its sentence first has it.
 */
export function answerText(text: string): AnswerText {
  const folded = fold(text);
  const notFound: AnswerText["notFound"] = [];
  let start = 0;
  for (const end of [...[...folded.matchAll(/[.!?](?=\s)|\n/g)].map((match) => match.index + 1), folded.length]) {
    const sentence = folded.slice(start, end);
    for (const subject of notFoundSubjects(sentence)) {
      const at = sentence.indexOf(subject);
      if (at !== -1) notFound.push({ start: start + at, end: start + at + subject.length, subject });
    }
    start = end;
  }
  return { folded, notFound };
}

export function brandMatcher(entry: BrandEntry): BrandMatcher {
  const vocabulary = brandVocabulary(entry);
  const terms = termsOf(entry);
  const inName = (name: string) => {
    const folded = fold(name);
    return terms.some((term) => occurrences(folded, term).some((at) => countsInName(folded, at, term, vocabulary)));
  };
  const named = (text: AnswerText, counts: (at: Occurrence, term: Term) => boolean) =>
    terms.some((term) => occurrences(text.folded, term).some((at) => !saysNotFound(text, at, term) && counts(at, term)));
  const inText = (input: string | AnswerText) => {
    const text = prepared(input);
    return named(text, (at, term) => countsInText(text.folded, at, term, vocabulary));
  };
  return {
    inName,
    inText,
    inAnswer: (answer) => {
      const text = prepared(answer.text);
      if (inText(text)) return true;
      return (
        (answer.products.some(inName) || answer.companies.some(inName)) &&
        named(text, (at, term) => term.kind !== "ordinary" || capitalisedAsBrand(at.text, term))
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------

function prepared(input: string | AnswerText): AnswerText {
  return typeof input === "string" ? answerText(input) : input;
}

/**
 * distinct: any case. short: capitals only. ordinary: common words, where capitalisation is the
 * evidence; `calendar` marks a weekday or month, `capitalOnlyFirst` a name whose only capital
 * is its first letter, which the start of a sentence gives any word.
 */
type Term = {
  text: string;
  pattern: RegExp;
  kind: "distinct" | "short" | "ordinary";
  capitals: boolean[];
  capitalOnlyFirst: boolean;
  calendar: boolean;
};
type Occurrence = { start: number; end: number; text: string };

function termsOf(entry: BrandEntry): Term[] {
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (const raw of [entry.name, ...entry.aliases, ...entry.domains]) {
    const text = fold(raw).replace(/\s+/g, " ").trim();
    const key = nameKey(text);
    if (text === "" || seen.has(key)) continue;
    seen.add(key);
    terms.push(term(text));
  }
  return terms;
}

function term(text: string): Term {
  const words = text.split(" ");
  const ordinary = words.every((word) => /^[\p{L}'-]+$/u.test(word) && isOrdinaryWord(word));
  const alphanumerics = text.replace(/[^\p{L}\p{N}]/gu, "").length;
  const kind = ordinary ? "ordinary" : alphanumerics <= 3 ? "short" : "distinct";
  // A short name typed in lower case is still written in capitals ("hp" means HP).
  const written = kind === "short" && !/\p{Lu}/u.test(text) ? text.toUpperCase() : text;
  const body = escapeRegExp(written).replace(/ /g, "\\s+");
  const capitals = words.map((word, index) => index === 0 || /^\p{Lu}/u.test(word));
  return {
    text: written,
    pattern: wholeWords(body, kind === "short" ? "gu" : "giu"),
    kind,
    capitals,
    capitalOnlyFirst: capitals.filter(Boolean).length === 1,
    calendar: words.length === 1 && CALENDAR_WORDS.has(text.toLowerCase()),
  };
}

function occurrences(folded: string, term: Term): Occurrence[] {
  return [...folded.matchAll(term.pattern)].map((match) => ({ start: match.index, end: match.index + match[0].length, text: match[0] }));
}

function countsInName(name: string, at: Occurrence, term: Term, vocabulary: ReadonlySet<string>): boolean {
  return term.kind !== "ordinary" || followedByBrandWord(name, at.end, vocabulary) || capitalisedAsBrand(at.text, term);
}

function countsInText(text: string, at: Occurrence, term: Term, vocabulary: ReadonlySet<string>): boolean {
  if (term.kind !== "ordinary" || followedByBrandWord(text, at.end, vocabulary)) return true;
  if (!capitalisedAsBrand(at.text, term)) return false;
  if (term.calendar && inDateContext(text, at)) return false;
  if (afterCapitalisedWord(text, at.start) || inTitleCaseLine(text, at)) return false;
  return !(term.capitalOnlyFirst && atSentenceStart(text, at.start));
}

// Each word the brand writes with a capital (the first word always) starts with one here.
function capitalisedAsBrand(occurrence: string, term: Term): boolean {
  return occurrence.split(/\s+/).every((word, index) => !term.capitals[index] || /^\p{Lu}/u.test(word));
}

/** A domain ending (".com") or one of the brand's own words, capitalised ("Work Management"), right after it. */
function followedByBrandWord(text: string, end: number, vocabulary: ReadonlySet<string>): boolean {
  const after = text.slice(end, end + 60);
  if (DOMAIN_ENDING.test(after)) return true;
  const next = /^[^\S\n]+([\p{Lu}\p{N}][\p{L}\p{N}&+-]*)/u.exec(after)?.[1];
  return next !== undefined && vocabulary.has(next.toLowerCase());
}

// The words of the brand's names that are not glue, e.g. "work", "management" of "monday Work Management".
function brandVocabulary(entry: BrandEntry): Set<string> {
  const words = [entry.name, ...entry.aliases].flatMap((name) => nameKey(name).split(/[^\p{L}\p{N}&+]+/u));
  return new Set(words.filter((word) => word.length > 1 && !GLUE_WORDS.has(word)));
}

function saysNotFound(text: AnswerText, at: Occurrence, term: Term): boolean {
  return text.notFound.some((range) => range.start < at.end && at.start < range.end && mentions(range.subject, term.text, false));
}

/** First in its sentence, line, list item or heading, where every word is capitalised. */
function atSentenceStart(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 200), index).replace(SENTENCE_LEAD, "");
  if (before === "" || before.endsWith("\n")) return true;
  if (ABBREVIATION_END.test(before)) return false;
  return /[.!?:…]$/.test(before);
}

// "near Times Square": a capitalised word just before, itself not first in its sentence, makes it part of another name.
function afterCapitalisedWord(text: string, index: number): boolean {
  const previous = /(\p{Lu}[\p{L}'-]*)[^\S\n]+$/u.exec(text.slice(Math.max(0, index - 60), index));
  if (!previous) return false;
  return previous[1] !== "I" && !atSentenceStart(text, index - previous[0].length);
}

// A heading or title in Title Case capitalises every word, so a capital there says nothing.
function inTitleCaseLine(text: string, at: Occurrence): boolean {
  const start = Math.max(text.lastIndexOf("\n", at.start - 1), ...[".", "!", "?", ":"].map((mark) => text.lastIndexOf(`${mark} `, at.start - 1))) + 1;
  const endMatch = /[\n.!?:](?:\s|$)|\n/.exec(text.slice(at.end));
  const clause = text.slice(start, at.start) + " " + text.slice(at.end, endMatch ? at.end + endMatch.index : undefined);
  // The clause's first word is capitalised in any sentence.
  const words = (clause.match(/\p{L}[\p{L}'-]*/gu) ?? []).slice(1).filter((word) => word.length >= 4);
  return words.length >= 2 && words.every((word) => /^\p{Lu}/u.test(word));
}

// "on Monday", "every Monday", "March 2026", "Monday morning", "Monday to Friday".
function inDateContext(text: string, at: Occurrence): boolean {
  const before = /([\p{L}]+)[^\p{L}\p{N}\n]+$/u.exec(text.slice(Math.max(0, at.start - 40), at.start))?.[1]?.toLowerCase();
  const after = /^[^\p{L}\p{N}\n]+([\p{L}\p{N}]+)/u.exec(text.slice(at.end, at.end + 40))?.[1]?.toLowerCase();
  if (before !== undefined && (DATE_WORDS_BEFORE.has(before) || CALENDAR_WORDS.has(before))) return true;
  return after !== undefined && (/^\d/.test(after) || DATE_WORDS_AFTER.has(after) || CALENDAR_WORDS.has(after));
}

/** NFKC and one apostrophe; every position in this module is in the folded text. */
function fold(text: string): string {
  return text.normalize("NFKC").replace(/[’‘`´]/g, "'");
}

/** Markup, quotes, list markers and spaces that may stand between a sentence's start and its first word. */
const SENTENCE_LEAD = /(?:[^\S\n]|[*_#>"“'(\[|~•·–—-]|\d{1,3}[.)](?=[^\S\n]))+$/u;
const ABBREVIATION_END = /(?:^|[^\p{L}])(?:e\.g|i\.e|vs|incl|approx|cf|viz|ca)\.$/iu;
const DOMAIN_ENDING = /^\.(?:com|net|org|io|ai|app|co|us|so|dev|tv|me|gg|uk|de)(?![\p{L}\p{N}])/iu;
const GLUE_WORDS = new Set(["the", "a", "an", "and", "of", "for", "by", "to", "in", "on", "with", "&", "com", "www"]);

const DATE_WORDS_BEFORE = new Set([
  "on",
  "by",
  "until",
  "till",
  "from",
  "every",
  "next",
  "last",
  "this",
  "each",
  "since",
  "before",
  "after",
  "through",
  "thru",
  "during",
  "early",
  "late",
  "mid",
  "in",
  "following",
  "previous",
  "coming",
  "past",
]);
const DATE_WORDS_AFTER = new Set([
  "morning",
  "mornings",
  "afternoon",
  "afternoons",
  "evening",
  "evenings",
  "night",
  "nights",
  "to",
  "through",
  "thru",
  "until",
  "till",
]);
