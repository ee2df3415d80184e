import * as v from "valibot";
import { hasInvisible, invisibleMessage } from "./visible-text.ts";

/**
 * The check every name and question of a request takes after it is trimmed: one with an invisible
 * character (./visible-text.ts) is refused, naming the field and the character ("name must not
 * contain U+202E (an invisible control or format character)"). A line break at either end is
 * trimmed before, not refused. What is read back is never checked: text stored before the rule is
 * shown visibly (src/core/display-text.ts), not refused.
 */
export function visibleOnly(field: string) {
  return v.check<string, (issue: v.CheckIssue<string>) => string>(
    (text) => !hasInvisible(text),
    (issue) => invisibleMessage(field, issue.input),
  );
}
