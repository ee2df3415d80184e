/*
 * Names and questions as their writer wrote them, shown safely wherever they go (web, Slack,
 * e-mail, MCP, the CLI, CSV): what cannot be seen is made visible instead of acting. A line break
 * would start a new line in a one-line rendering (a Slack message, a Subject, a listing); a
 * right-to-left override or a zero-width character would make text read otherwise than it is.
 * Inputs refuse them (src/contract); text stored before that is shown through here.
 */

/** Controls (Cc) and format characters (Cf), but the zero-width joiner that emoji are made of. */
const INVISIBLE = /(?!\u200d)[\p{Cc}\p{Cf}]/gu;

/** Whether `text` holds a character that changes how it reads without being seen (input checks refuse it). */
export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/** The text on one line, as written: line breaks and tabs as one space, any other unseen character named ("⟨U+202E⟩"). */
export function visibleText(text: string): string {
  return text.replace(/[\r\n\t\v\f]+/g, " ").replace(INVISIBLE, (char) => `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
}
