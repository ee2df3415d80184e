import { codePoint, INVISIBLE_CHARACTER, SUBDIVISION_FLAG } from "#src/contract/visible-text.ts";

/*
 * Names and questions as their writer wrote them, shown safely wherever they go (web, Slack,
 * e-mail, MCP, the CLI, CSV): what cannot be seen is made visible instead of acting. A line break
 * would start a new line in a one-line rendering (a Slack message, a Subject, a listing); a
 * right-to-left override or a zero-width character would make text read otherwise than it is.
 * Inputs refuse them (src/contract/visible-text.ts, which says which characters they are); text
 * stored before that is shown through here.
 */

export { hasInvisible } from "#src/contract/visible-text.ts";

/** Line breaks and tabs of every kind: CR, LF, tab, vertical tab, form feed, NEL, the line and paragraph separators. */
const BREAKS = /[\r\n\t\v\f\u0085\u2028\u2029]+/g;
/** A subdivision flag (kept whole), or one invisible character (named). */
const FLAG_OR_INVISIBLE = new RegExp(`(${SUBDIVISION_FLAG.source})|${INVISIBLE_CHARACTER.source}`, "gu");

/** The text on one line, as written: line breaks and tabs as one space, any other unseen character named ("⟨U+202E⟩"). */
export function visibleText(text: string): string {
  return text.replace(BREAKS, " ").replace(FLAG_OR_INVISIBLE, (char, flag: string | undefined) => flag ?? `⟨${codePoint(char)}⟩`);
}

/**
 * Text a model wrote, made fit to be kept as a person's input (a variant it suggests, which the
 * person may run or save as theirs): line breaks and tabs as one space, any other invisible
 * character left out, as the inputs would refuse it.
 */
export function withoutInvisible(text: string): string {
  return text.replace(BREAKS, " ").replace(FLAG_OR_INVISIBLE, (_, flag: string | undefined) => flag ?? "");
}

/** As FLAG_OR_INVISIBLE, but JSON's own whitespace between values (a tab, CR or LF there is layout, not text). */
const FLAG_OR_INVISIBLE_IN_JSON = new RegExp(`(${SUBDIVISION_FLAG.source})|(?![\\t\\n\\r])${INVISIBLE_CHARACTER.source}`, "gu");

/**
 * A JSON text (JSON.stringify's) with every invisible character of its strings written as its
 * escape ("\u202e"): the same value when parsed, but seen where it is printed (MCP's answer,
 * `--json`, the export). JSON.stringify escapes the controls U+0000–U+001F itself, not the others.
 */
export function visibleJson(json: string): string {
  return json.replace(FLAG_OR_INVISIBLE_IN_JSON, (char, flag: string | undefined) => flag ?? escaped(char));
}

/** "\u202e"; a character beyond the BMP as its two UTF-16 escapes ("\udb40\udc41"), as JSON writes it. */
function escaped(char: string): string {
  return Array.from({ length: char.length }, (_, i) => `\\u${char.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");
}
