import { escapeRegExp, wholeWords } from "./whole-words.ts";
import { isOrdinaryWord } from "./words.ts";

/*
 * Rule e: what the answer says it found nothing about is not something it recommends. Only a
 * statement about the thing itself counts ("I couldn't find any information about X", "X does
 * not appear to exist"); one about a single fact of it ("I couldn't find current stock levels
 * for X", "…independent audits of X") leaves X standing.
 */

/**
 * Rule e, per entry: details that say the model found nothing about the item ("No information
 * found", "Could not find any listing", "This product does not appear to exist"). Only a leading
 * statement counts, and only about the item itself: "I couldn't find reliable reviews of it" and
 * "Great battery; no information on 2026 pricing" keep their product.
 */
export function detailsSayNotFound(details: string): boolean {
  const text = details.trim().replace(/[’‘]/g, "'");
  const lead = NOT_FOUND_DETAILS_START.exec(text);
  if (lead) return !startsWithFact(stripWords(text.slice(lead[0].length), DETAILS_FILLER));
  return NOT_FOUND_DETAILS_ANYWHERE.test(text);
}

/**
 * Rule e, from the answer: the things the answer says it found nothing about, e.g. "Zorblax Pro
 * 9" from "I couldn't find any information about the Zorblax Pro 9 headphones, but…", "Zorblax
 * CRM" from `…about "Zorblax CRM"` or `…about **Zorblax CRM**` (quoted and emphasised names are
 * the subject), or "Zorblax" from "Zorblax does not appear to exist". A statement about one fact
 * ("…find pricing for X") has no subject.
 */
export function notFoundSubjects(answerText: string): string[] {
  const text = answerText.replace(/[’‘]/g, "'");
  const subjects: string[] = [];
  for (const match of text.matchAll(NOT_FOUND_LEAD)) {
    if (/^(?:but|and|yet)\s/i.test(match[0]) && !FIRST_PERSON.test(sentenceBefore(text, match.index))) continue;
    const after = text.slice(match.index + match[0].length, match.index + match[0].length + 300);
    const found = subjectsOf(after);
    // "…couldn't find anything about it": the thing is the name the sentence (or the one before) gave.
    const referent = found.length === 0 && PRONOUN.test(stripWords(after, FILLER)) ? referentBefore(text.slice(0, match.index)) : undefined;
    subjects.push(...found, ...(referent ? [referent] : []));
  }
  for (const match of text.matchAll(DOES_NOT_EXIST)) {
    const before = text.slice(Math.max(0, match.index - 200), match.index);
    const boundary = Math.max(...[...before.matchAll(/[,;:!?()[\]{}"“”\n]|\.\s/g)].map((m) => m.index + m[0].length), 0);
    const subject = before.slice(boundary).replace(/[*_`]/g, "").trim();
    if (subject) subjects.push(subject);
  }
  return subjects;
}

/**
 * Whether `name` occurs in `subject` as whole words, case-insensitively, and not as a possessive
 * ("Sony's 2026 lineup" is not about Sony). strict also refuses an occurrence that continues
 * with a capitalised word or a number, i.e. is only part of a longer name ("Notion" in "Notion
 * Plus").
 */
export function mentions(subject: string, name: string, strict: boolean): boolean {
  const haystack = subject.replace(/[’‘]/g, "'").replace(/\s+/g, " ");
  const needle = name.replace(/[’‘]/g, "'").replace(/\s+/g, " ").trim();
  if (needle === "") return false;
  for (const match of haystack.matchAll(wholeWords(escapeRegExp(needle), "giu"))) {
    const after = haystack.slice(match.index + match[0].length);
    if (/^'s(?![\p{L}\p{N}])/u.test(after)) continue;
    if (strict && /^ (?:\p{Lu}|\p{N})/u.test(after)) continue;
    return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------

// What follows a "could not find": filler words, then the thing (a name, maybe quoted) or a fact
// about it, and any more names joined to it ("nothing on *X* or **Y**", "about X, Y and Z").
function subjectsOf(after: string): string[] {
  let rest = stripWords(after, FILLER);
  // "any listing or reviews for X": no listing means no X, whatever else is joined to it.
  const joined = rest !== after.trimStart() ? JOINED_FACTS.exec(rest) : null;
  if (joined) rest = stripWords(rest.slice(joined[0].length), FILLER);
  const named = CALLED.exec(rest.slice(0, 80));
  if (named) rest = rest.slice(named.index + named[0].length);
  const subjects: string[] = [];
  for (;;) {
    const next = subjectAt(rest);
    // A joined name counts only where the statement ends with it: in "…about X, and the Y is
    // better" Y starts a clause of its own.
    if (!next.subject || (subjects.length > 0 && !LIST_END.test(next.rest))) return subjects;
    subjects.push(next.subject);
    const joined = LIST_JOIN.exec(next.rest);
    if (!joined) return subjects;
    rest = stripWords(next.rest.slice(joined[0].length), ARTICLE);
  }
}

function sentenceBefore(text: string, index: number): string {
  return (
    text
      .slice(0, index)
      .split(/(?<=[.!?])\s+|\n+/)
      .at(-1) ?? ""
  );
}

// The last name written in the sentence that ends `before`, else in the sentence before it: a
// run of capitalised words or numbers ("I searched for the Zorblax Halo ring but" → "Zorblax
// Halo"), not "I" nor one ordinary word that only starts a sentence ("The", "If").
function referentBefore(before: string): string | undefined {
  const sentences = before
    .split(/(?<=[.!?])\s+|\n+/)
    .slice(-2)
    .reverse();
  for (const sentence of sentences) {
    const runs = [...sentence.replace(/[*_`]/g, "").matchAll(NAME_RUN)].map((m) => m[0].replace(/^(?:The|A|An)\s+/, "").replace(/[.'’-]+$/, ""));
    const named = runs.filter((run) => run !== "I" && !(run.split(" ").length === 1 && isOrdinaryWord(run.replace(/'s$/, ""))));
    if (named.length > 0) return named.at(-1);
  }
  return undefined;
}

// One name at the start of `text`, and the text after it.
function subjectAt(text: string): { subject: string; rest: string } {
  const marked = markedName(text);
  if (marked !== undefined) return marked;
  const words: string[] = [];
  let consumed = 0;
  for (const token of text.matchAll(/\s*(\S+)/g)) {
    const raw = token[1] ?? "";
    const word = raw.replace(/[*_`]/g, "");
    const bare = word.replace(/[,;:!?()[\]{}"“”]+$|\.$/, "");
    const glue = words.length > 0 && INNER_GLUE.has(bare);
    if (!bare || (!glue && !isNameWord(bare))) break;
    words.push(bare);
    consumed = token.index + token[0].length;
    if (bare !== word || CLAUSE_MARK.test(raw)) {
      consumed -= raw.length - raw.indexOf(bare) - bare.length;
      break;
    }
  }
  // A trailing "and"/"or" joins the next name rather than being part of this one.
  while (words.length > 0 && INNER_GLUE.has(words.at(-1) ?? "")) {
    const glue = words.pop() ?? "";
    consumed = text.lastIndexOf(glue, consumed);
  }
  return { subject: words.join(" "), rest: text.slice(consumed) };
}

// `"X"`, `“X”`, `'X'`, `*X*`, `**X**`, `_X_`: the marked span is the name.
function markedName(text: string): { subject: string; rest: string } | undefined {
  const open = /^(\*\*|__|\*|_|`|["“'‘])/.exec(text)?.[1];
  if (open === undefined) return undefined;
  const closers = MARK_CLOSERS[open] ?? [open];
  const body = text.slice(open.length);
  const ends = closers.flatMap((closer) => {
    const at = body.indexOf(closer);
    return at > 0 ? [{ at, length: closer.length }] : [];
  });
  const end = ends.sort((a, b) => a.at - b.at)[0];
  if (!end) return undefined;
  const inner = body.slice(0, end.at).trim();
  return inner.length > 0 && inner.length <= 80 ? { subject: inner, rest: body.slice(end.at + end.length) } : undefined;
}

// A word that can be part of a name: capitalised, with a digit, or not an ordinary English word ("zorblax", "monday.com").
function isNameWord(word: string): boolean {
  if (/^[\p{Lu}\p{N}]/u.test(word)) return true;
  const letters = word.replace(/'s$/, "");
  return !/^[\p{Ll}'-]+$/u.test(letters) || !letters.split("-").every((part) => part === "" || isOrdinaryWord(part));
}

// Nothing, a place ("in the US"), or a name left after the filler: the thing itself. An ordinary word: one fact of it.
function startsWithFact(rest: string): boolean {
  const word = /^[\p{L}\p{N}'-]+/u.exec(rest.trim())?.[0];
  if (word === undefined || PLACE_WORDS.has(word.toLowerCase())) return false;
  return /^\p{Ll}/u.test(word) && isOrdinaryWord(word.replace(/'s$/, ""));
}

function stripWords(text: string, filler: RegExp): string {
  let rest = text.trimStart();
  for (;;) {
    const next = rest.replace(filler, "");
    if (next === rest) return rest;
    rest = next;
  }
}

const NOT_FOUND_DETAILS_START =
  /^(?:note:\s*)?(?:(?:i|we|the search|search(?:es)?|web search|searching)\s+)?(?:(?:was|were)\s+)?(?:no (?:information|info|results?|reliable|data|details|mentions?|evidence)|could\s?n['’]?o?t find|can['’]t find|cannot find|not found|unable to find|(?:was|were)\s?n['’]?o?t able to find|did\s?n['’]?o?t find|found nothing|nothing (?:was )?found)/i;
const NOT_FOUND_DETAILS_ANYWHERE =
  /(?:does not|doesn['’]t|did not|didn['’]t) (?:appear|seem) to exist|no (?:reliable |verifiable )?information (?:was |is )?(?:found|available)|could not be (?:found|verified)|not found in (?:the )?(?:search|web)/i;
// What may stand between "could not find" and the item in a product's details.
const DETAILS_FILLER =
  /^(?:any|anything|much|reliable|specific|credible|verifiable|public|information|info|details|data|results?|evidence|records?|listings?|mentions?|trace|found|available|was|were|is|are|about|on|for|of|regarding|concerning|the|a|an|this|that|it|its|such|product|model|brand|company|item|yet|(?:19|20)\d\d)\b\s*/i;
const PLACE_WORDS = new Set(["in", "at", "from", "online", "anywhere", "on", "by", "under", "with"]);

// "I couldn't find …", "my searches turned up nothing about …", "No results for …". The finder
// must be first person or the search, so "you won't find a better tool than Notion" is no lead.
const FINDER = String.raw`\b(?:I(?:'m|'ve)?|we(?:'ve)?|(?:my|our|the|web) search(?:es)?|search(?:es| results)?)\s+(?:(?:also|still|really|unfortunately|just|simply)\s+)?`;
// "I searched for X but couldn't find…": the finder is the sentence's "I"/"we" (checked where it is used).
const JOINED_FINDER = String.raw`\b(?:but|and|yet)\s+`;
const NEGATED_FIND = String.raw`(?:could\s?n[o']?t|can'?t|cannot|can not|(?:am|was|were|are)\s+not able to|(?:was|were)n't able to|(?:am|was|were|are)?\s*unable to|did\s?n[o']?t|do\s?n[o']?t|failed to|ha(?:ve|s)\s?n[o']?t(?:\s+been able to)?)\s+(?:find|found|locate|identify|turn up|turned up|return|surface)`;
const NOUNS = String.raw`(?:information|info|results?|details|data|mentions?|evidence|records?|trace)\b`;
const FOUND_NOTHING = String.raw`(?:found|find|turned up|returned|yielded|surfaced)\s+(?:nothing|no(?=\s+(?:\w+\s+)?${NOUNS}))`;
const NOT_FOUND_LEAD = new RegExp(
  String.raw`${FINDER}(?:${NEGATED_FIND}|${FOUND_NOTHING})|${JOINED_FINDER}${NEGATED_FIND}|\b(?:there\s+(?:is|was|are|were)\s+)?no\s+(?=(?:(?:reliable|specific|credible|verifiable|public|current|recent|relevant)\s+)?${NOUNS})`,
  "gi",
);
const DOES_NOT_EXIST = /\b(?:does not|doesn't|did not|didn't)\s+(?:appear|seem)\s+to\s+exist|\b(?:is|was)\s*n[o']?t\s+a\s+real\s+(?:product|brand|company)/gi;
// Lower-case only: "On Cloudmonster" after "information on" is a name, not filler. Reviews,
// prices and stock are facts about a thing, not the thing, so they are not filler.
const FILLER =
  /^(?:any|anything|much|reliable|specific|credible|verifiable|public|current|recent|relevant|up-to-date|detailed|further|additional|information|info|details|data|results?|evidence|records?|trace|listings?|mentions?|mentioning|that|called|named|matching|about|on|for|from|by|regarding|concerning|related|to|of|the|a|an|such|products?|brands?|company|companies|models?)\b\s*/;
// After a whole-thing noun ("listing", "information"): "or reviews for ", "and prices of ".
const JOINED_FACTS = /^(?:or|and|nor)\s+(?:[\p{Ll}-]+\s+){1,3}?(?:for|about|on|of|regarding|concerning)\s+/u;
// "a budgeting app called X": what follows "called" is the name.
const CALLED = /^(?:[\p{Ll}-]+\s+){0,3}(?:called|named)\s+/u;
const INNER_GLUE = new Set(["&", "+", "and", "of", "de", "by", "for", "-"]);
const CLAUSE_MARK = /[,;:!?()[\]{}"“”]|\.$/;
// Between two names of one not-found statement: "X or Y", "X, Y and Z", "X nor Y" (not ", but").
const LIST_JOIN = /^\s*(?:,?\s*(?:and|or|nor)\s+|,\s*(?=[*_"“'‘]))/;
const LIST_END = /^\s*(?:$|[,;:!?)\]]|\.(?:\s|$)|(?:and|or|nor)\s)/;
const ARTICLE = /^(?:the|a|an)\s+/;
const FIRST_PERSON = /\b(?:I|[Ww]e)\b/;
// A pronoun where the thing not found would be: "…anything about it", "…about them".
const PRONOUN = /^(?:it|them|this|that|these|those|this one|that one)(?![\p{L}\p{N}])/u;
// Capitalised words or numbers in a row: a name in prose.
const NAME_RUN = /(?:\p{Lu}[\p{L}\p{N}'+.-]*|\p{N}[\p{L}\p{N}+]*)(?:\s+(?:\p{Lu}[\p{L}\p{N}'+.-]*|\p{N}[\p{L}\p{N}+]*))*/gu;
const MARK_CLOSERS: Record<string, string[]> = { '"': ['"', "”"], "“": ["”", '"'], "'": ["'"], "‘": ["'", "’"] };
