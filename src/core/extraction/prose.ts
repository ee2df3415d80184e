import type { Company, Product } from "#src/contract/search-result.ts";
import { nameKey } from "../names.ts";
import { structuredSpan } from "./answer-block.ts";
import { readExtraction } from "./extract.ts";
import { cleanName } from "./noise.ts";
import { escapeRegExp, wholeWordPattern } from "./whole-words.ts";
import { isOrdinaryWord } from "./words.ts";

/**
 * What an answer recommends, read from its prose alone: for when the extraction call fails or
 * times out, so a search never fails because extraction did. The names are where answers put
 * them — the heads of list items ("1. **Sony WH-1000XM5** – …", "- Bose QC Ultra: …"), the first
 * cells of table rows (not the header), bold names and headings ("### 1. Sony WH-1000XM5") —
 * then the noise rules, positions and grounding of readExtraction. Labels that stand where
 * names do ("Best overall", "Budget pick", "Why we like it") are not names. A company only where
 * the prose says so: "X by Y" or "from Y", "Y's X", a Brand/Company/Maker column, a bold name
 * that starts other names ("**Sony**" beside "Sony WH-1000XM5"), a product's first word that the
 * prose also writes alone ("Sony's app"). Precision before recall: a plain sentence's names are
 * not read, nor a lower-case brand ("eufy").
 */
export function readProse(answerText: string, { cut }: { cut: boolean }): { products: Product[]; companies: Company[] } {
  const candidates: Candidate[] = [];
  const lines = proseLines(answerText, cut);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (TABLE_ROW.test(line)) i = readTable(lines, i, candidates) - 1;
    else readLine(line, candidates);
  }
  const { products, companies } = asExtraction(candidates, lines.join("\n"));
  const read = readExtraction({ products, companies }, answerText, { cut });
  return { products: read.products, companies: read.companies };
}

/** A name where answers put names; `owner` when its company is only the possessive before it ("Herman Miller's Embody"). */
type Candidate = { name: string; rank?: number; company?: string; owner?: boolean };

// ---------------------------------------------------------------------------------------------

// The answer's lines outside its JSON block and code fences; in a cut answer, not the unfinished last line.
function proseLines(text: string, cut: boolean): string[] {
  const block = structuredSpan(text);
  let prose = block ? text.slice(0, block.start) + text.slice(block.end) : text;
  prose = prose.replace(/```[\s\S]*?(?:```|$)/g, "\n");
  const lines = prose.split(/\r?\n/);
  if (cut && !/\n\s*$/.test(text)) lines.pop();
  return lines;
}

function readLine(line: string, out: Candidate[]): void {
  const heading = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
  const item = /^\s*(?:[-*+•]|(\d{1,2})[.)])\s+(.+)$/.exec(line);
  if (heading) head(heading[1] ?? "", out, true);
  else if (item) head(item[2] ?? "", out, false, item[1] ? Number(item[1]) : undefined);
  for (const match of line.matchAll(BOLD)) bold(line, match.index, match[0], match[1] ?? match[2] ?? "", out);
}

// The name a list item or heading starts with: its bold part, or the words before the first
// separator (" – ", ": ", " (", ", "); after a label ("Best overall: Sony WH-1000XM5 – …"), the name after it.
function head(raw: string, out: Candidate[], isHeading: boolean, listRank?: number): void {
  const numbered = /^(?:#?(\d{1,2})[.)]?\s+)(?=\S)/.exec(raw);
  const rank = listRank ?? (isHeading && numbered ? Number(numbered[1]) : undefined);
  const text = isHeading && numbered ? raw.slice(numbered[0].length) : raw;
  const bolded = /^(?:\*\*|__)(.+?)(?:\*\*|__)/.exec(text);
  const first = bolded ? (bolded[1] ?? "") : text.slice(0, SEPARATOR.exec(text)?.index);
  const name = cleanName(first);
  if (isLabel(name)) {
    const rest = text.slice(bolded ? bolded[0].length : first.length).replace(/^\s*[:–—-]\s*/, "");
    if (rest && rest !== text) head(rest, out, false, rank);
    return;
  }
  // A bold name or a heading is a name as written; a plain list head only when every word is capitalised.
  if (bolded || isHeading ? !startsAsName(name) : !titled(name)) return;
  add(out, name, rank, text.slice(first.length));
}

function bold(line: string, index: number, whole: string, inner: string, out: Candidate[]): void {
  const name = cleanName(afterLabel(inner));
  if (!startsAsName(name) || isLabel(name)) return;
  // "**Note:** …" opening a paragraph is a label however it is worded.
  if (/:\s*$/.test(inner) && line.slice(0, index).trim() === "" && name.split(" ").every((word) => isOrdinaryWord(word))) return;
  add(out, name, undefined, line.slice(index + whole.length));
}

// "Best overall: Roborock Saros 10R", "If you're mostly engineers: Linear." in one bold run: the name after the label.
function afterLabel(inner: string): string {
  const split = /^([^:]+):\s+(.+?)\.?$/.exec(inner.trim());
  if (!split) return inner;
  const [label, name] = [cleanName(split[1] ?? ""), split[2] ?? ""];
  const labelled = isLabel(label) || LABEL_WORDS.has(label.split(" ")[0]?.toLowerCase() ?? "") || /^\p{Lu}\p{Ll}*(?: [\p{Ll}'’]+)+$/u.test(label);
  return labelled && startsAsName(cleanName(name)) ? name : inner;
}

function add(out: Candidate[], rawName: string, rank: number | undefined, after: string): void {
  // "Simplifi by Quicken", "The Platinum Card from American Express": the name says who makes it.
  const inName = / (?:by|from) ((?:\p{Lu}[\p{L}\p{N}&'.+-]*\s?){1,3})$/u.exec(rawName);
  const following = /^\s*(?:\*\*|__)?\s*(?:,\s*)?(?:by|from)\s+((?:\p{Lu}[\p{L}\p{N}&'.+-]*(?:\s|$)){1,3})/u.exec(after);
  // "Herman Miller's Embody": the owner of a possessive name.
  const owner = /^((?:\p{Lu}[\p{L}\p{N}&.+'’-]*\s){0,2}\p{Lu}[\p{L}\p{N}&.+'’-]*?)['’]s\s/u.exec(rawName);
  const company = (inName?.[1] ?? following?.[1] ?? owner?.[1])?.trim();
  const byOwner = !inName && !following && Boolean(owner);
  out.push({ name: rawName, ...(rank !== undefined ? { rank } : {}), ...(company ? { company, ...(byOwner ? { owner: true } : {}) } : {}) });
}

// A table's rows: the first cell that is no rank is the name (the header row is skipped); a
// Brand, Company or Maker column names the company. Returns the index of the line after it.
function readTable(lines: string[], start: number, out: Candidate[]): number {
  let end = start;
  while (end < lines.length && TABLE_ROW.test(lines[end] ?? "")) end++;
  const rows = lines.slice(start, end).map(cells);
  const separator = rows.findIndex((row) => row.every((cell) => /^:?-{2,}:?$/.test(cell) || cell === ""));
  const header = separator > 0 ? (rows[separator - 1] ?? []).map((cell) => cleanName(cell).toLowerCase()) : [];
  const body = separator >= 0 ? rows.slice(separator + 1) : rows;
  const companyColumn = header.findIndex((cell) => COMPANY_HEADERS.test(cell));
  const nameColumn = header.length ? header.findIndex((cell, index) => index !== companyColumn && !RANK_HEADERS.test(cell)) : 0;
  for (const row of body) {
    const name = cleanName(row[nameColumn] ?? "");
    if (!name || !startsAsName(name) || isLabel(name)) continue;
    const company = companyColumn >= 0 ? cleanName((row[companyColumn] ?? "").replace(/\s*\([^)]*\)$/, "")) : "";
    out.push({ name, ...(company && startsAsName(company) ? { company } : {}) });
  }
  return end;
}

function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());
}

// Candidates as the extractor's reply: a word that starts other names is their maker, a longer
// name that does is one of them cut short, and one that ends another or is it without a
// bracketed tail ("Hisense U8" beside "Hisense U8 (2025)") is that name again.
function asExtraction(candidates: Candidate[], text: string): { products: unknown[]; companies: unknown[] } {
  const keys = candidates.map((candidate) => nameKey(candidate.name.replace(/\s*\([^)]*\)$/, "")));
  const products: unknown[] = [];
  const companies = new Map<string, { name: string; products: string[] }>();
  const companyOf = (name: string, product?: string) => {
    const seen = companies.get(nameKey(name)) ?? { name, products: [] };
    if (product) seen.products.push(product);
    companies.set(nameKey(name), seen);
  };
  candidates.forEach((candidate, index) => {
    const key = keys[index] ?? "";
    const first = keys.indexOf(key);
    if (first < index) {
      if (candidate.company && !candidate.owner) companyOf(candidate.company, candidates[first]?.name);
      return;
    }
    if (keys.some((other) => other.startsWith(`${key} `))) return /\s/.test(key) ? undefined : companyOf(candidate.name);
    if (keys.some((other) => other.endsWith(` ${key}`))) return;
    products.push({ name: candidate.name, ...(candidate.rank !== undefined ? { rank: candidate.rank } : {}) });
    const company = candidate.company && (!candidate.owner || trustedOwner(text, candidate.company)) ? candidate.company : brandBefore(text, candidate.name);
    if (company) companyOf(company, candidate.name);
  });
  return { products, companies: [...companies.values()] };
}

// "Sony" of "Sony WH-1000XM5" where the prose also names Sony alone ("Sony's app", "Sony makes…"),
// with no other name after it: the name's first word, or its first two when the first is an
// ordinary word ("New Balance", not "The North").
function brandBefore(text: string, name: string): string | undefined {
  if (/ (?:by|from) /.test(name)) return undefined;
  const words = name.replace(/\s*\([^)]*\)$/, "").split(" ");
  const first = words[0] ?? "";
  const prefix = !isOrdinaryWord(first)
    ? first
    : words.length > 2 && !ARTICLES.test(first) && titled(words.slice(0, 2).join(" "))
      ? words.slice(0, 2).join(" ")
      : "";
  if (!prefix || prefix.split(" ").length >= words.length) return undefined;
  const alone = wholeWordPattern(`${escapeRegExp(prefix)}(?!\\s+[\\p{Lu}\\p{N}&+]|[-.&][\\p{L}\\p{N}])`, "gu");
  return alone.test(text) ? prefix : undefined;
}

// "Herman Miller's Embody" is Herman Miller's; "Hill's Science Diet" is a brand of its own: an
// owner of ordinary words ("Hill", "The Farmer") needs the prose to write it alone elsewhere.
function trustedOwner(text: string, owner: string): boolean {
  return !owner.split(" ").every((word) => isOrdinaryWord(word)) || writtenAsName(text, owner);
}

function writtenAsName(text: string, name: string): boolean {
  return wholeWordPattern(`(?<=\\p{Ll}[,;]?\\s+(?:\\*\\*|__|\\*|_)?)${escapeRegExp(name)}(?!['’]s)`, "gu").test(text);
}

/**
 * A heading or bold phrase that labels rather than names: made of ordinary words, and either
 * lower case after its first word ("Best overall", "Why we like it", "Key features") or with a
 * word that labels ("Top Recommendations", "Budget Option", "Pros", "Verdict").
 */
function isLabel(name: string): boolean {
  const words = name.split(/[\s/]+/).filter(Boolean);
  if (words.length === 0) return true;
  const ordinary = words.every((word) => /^[\p{L}'’-]+$/u.test(word) && word.split("-").every((part) => isOrdinaryWord(part.replace(/['’]s$/, ""))));
  if (!ordinary) return false;
  if (words.some((word) => LABEL_WORDS.has(word.toLowerCase()))) return true;
  return words.length > 1 && words.slice(1).every((word) => !/^\p{Lu}/u.test(word));
}

// Every word capitalised (or a digit, or camel case: iPhone), short words that join names aside.
function titled(name: string): boolean {
  const words = name.split(" ");
  return words.length <= 6 && words.every((word) => /^[\p{Lu}\p{N}]|^\p{Ll}+\p{Lu}/u.test(word) || JOINERS.has(word));
}

// A capital, a digit, camel case (iPhone) or a domain (monday.com) first; "Down vs. synthetic" compares, it names nothing.
function startsAsName(name: string): boolean {
  return (
    name.split(" ").length <= 12 &&
    /^[\p{Lu}\p{N}]|^\p{Ll}+\p{Lu}|^\p{Ll}[\p{L}\p{N}-]*\.(?:com|io|ai|app|co)\b/u.test(name) &&
    !/\s(?:vs\.?|versus)\s/i.test(name)
  );
}

const ARTICLES = /^(?:the|a|an)\b/i;
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const BOLD = /\*\*([^*\n]{2,80}?)\*\*|__([^_\n]{2,80}?)__/g;
const SEPARATOR = /\s+[–—-]\s+|:\s|:$|\s+\(|,\s|\.\s/;
const COMPANY_HEADERS = /^(?:brand|company|maker|manufacturer|made by|vendor|issuer|provider)$/;
const RANK_HEADERS = /^(?:#|rank|no\.?|place|position|)$/;
const JOINERS = new Set(["by", "from", "of", "and", "&", "for", "the", "de", "+", "-", "–", "it"]);
const LABEL_WORDS = new Set([
  "best",
  "top",
  "budget",
  "overall",
  "pick",
  "picks",
  "option",
  "options",
  "choice",
  "choices",
  "alternative",
  "alternatives",
  "recommendation",
  "recommendations",
  "recommended",
  "runner-up",
  "runners-up",
  "honorable",
  "honourable",
  "mention",
  "mentions",
  "feature",
  "features",
  "pros",
  "cons",
  "verdict",
  "summary",
  "overview",
  "conclusion",
  "tip",
  "tips",
  "price",
  "pricing",
  "cost",
  "why",
  "what",
  "how",
  "which",
  "who",
  "key",
  "bottom",
  "short",
  "answer",
  "takeaway",
  "takeaways",
  "considerations",
  "comparison",
  "important",
  "warning",
  "caveat",
  "caveats",
  "update",
  "upgrade",
  "value",
  "ideal",
  "great",
  "good",
  "also",
  "other",
  "more",
]);
