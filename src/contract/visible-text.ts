/*
 * Which characters change how text reads without being seen: controls (Cc), format characters
 * (Cf: the right-to-left override U+202E, zero-width spaces, tag characters…) and the line and
 * paragraph separators (U+2028, U+2029). Names and questions refuse them (./visible-input.ts,
 * in the schemas the routes, the web's forms, the CLI and MCP all read their input with);
 * src/core/display-text.ts shows text stored before that (or reaching us from the providers) with
 * each of them made visible. No valibot here: the web's first page shows text through it.
 *
 * Kept, as writing needs them: the zero-width joiner that emoji are made of (👩‍💻), the
 * zero-width non-joiner Persian and the Indic scripts spell words with (می‌خواهم), and the tag
 * characters of a subdivision flag (🏴 England: U+1F3F4, tags "gbeng", U+E007F), which are at most a
 * region and subdivision code and so cannot carry hidden words.
 */

/** A subdivision flag: the black flag, a tag region (2 letters) and subdivision (1–3 letters or digits), the cancel tag. */
export const SUBDIVISION_FLAG = /\u{1F3F4}[\u{E0061}-\u{E007A}]{2}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,3}\u{E007F}/u;

/** One invisible character (see above), but the zero-width joiner and non-joiner. */
export const INVISIBLE_CHARACTER = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\u2028\u2029]/u;

const FLAGS = new RegExp(SUBDIVISION_FLAG.source, "gu");
const INVISIBLE = new RegExp(INVISIBLE_CHARACTER.source, "u");

/** The first invisible character of `text` (outside a subdivision flag), or undefined. */
export function firstInvisible(text: string): string | undefined {
  return INVISIBLE.exec(text.replace(FLAGS, "🏴"))?.[0];
}

/** Whether `text` holds a character that changes how it reads without being seen (inputs refuse it). */
export function hasInvisible(text: string): boolean {
  return firstInvisible(text) !== undefined;
}

/** A character as Unicode names its code point: "U+202E", "U+E0041". */
export function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** What an input with an invisible character is told: "name must not contain U+202E (an invisible control or format character)". */
export function invisibleMessage(field: string, text: string): string {
  return `${field} must not contain ${codePoint(firstInvisible(text) ?? "")} (an invisible control or format character)`;
}
