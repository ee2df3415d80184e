/*
 * A tracker's cron: five fixed fields (minute hour day-of-month month day-of-week), read the same
 * each time. cron-parser (pg-boss's parser) also takes H, which draws a new random value each time
 * the expression is parsed (pg-boss parses it every 30 seconds), and L, W, # and ?, which mean
 * different things in different crons. None of them is kept: a schedule is numbers, ranges, lists,
 * steps and *, and the names of the months and weekdays, separated by spaces.
 */

/** What a field is called in a refusal, and what H would draw in it. */
const FIELDS = ["minute", "hour", "day of the month", "month", "day of the week"] as const;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

/** The longest cron kept (cron-parser's own limit; every value of every field listed takes about half). */
export const MAX_CRON_LENGTH = 1024;

export const CRON_FIELDS_MESSAGE = "schedule.cron must have five fields: minute hour day-of-month month day-of-week, e.g. 0 9 * * 1";

/** A refused cron: what is at fault (`"H"`, `a tab (U+0009)`) and why, in words that complete `<what> is refused: …`. */
export type CronRefusal = { what: string; why: string };

/** The cron as kept (single spaces between its five fields), or what is refused in it. */
export function readCron(text: string): { cron: string } | { refused: CronRefusal } | { malformed: string } {
  if (text.length > MAX_CRON_LENGTH) return { malformed: `schedule.cron is too long: at most ${MAX_CRON_LENGTH} characters` };
  // Spaces alone separate the fields: a tab, a newline or any other blank or control character is refused, wherever it is.
  for (const character of text)
    if (character !== " " && (/\s/u.test(character) || /[\p{Cc}\p{Cf}\p{Z}]/u.test(character)))
      return { refused: { what: characterName(character), why: "fields are separated by spaces, and a schedule holds no other blank or control character" } };
  const fields = text.trim().split(/ +/);
  if (fields.length !== 5 || fields[0] === "") return { malformed: CRON_FIELDS_MESSAGE };
  for (const [index, field] of fields.entries()) {
    const refused = refusalIn(field, index);
    if (refused) return { refused };
  }
  return { cron: fields.join(" ") };
}

/** The sentence a 400 says for a cron `readCron` does not keep. */
export function cronMessage(text: string, read: { refused: CronRefusal } | { malformed: string }): string {
  if ("malformed" in read) return read.malformed;
  return `schedule.cron ${JSON.stringify(text)}: ${read.refused.what} is refused: ${read.refused.why}`;
}

const FIXED = "a schedule holds fixed values only: numbers, ranges (1-5), lists (1,15), steps (*/2) and *";

/** The first token of a field that is not kept, or null. */
function refusalIn(field: string, index: number): CronRefusal | null {
  const refuse = (token: string, why: string): CronRefusal => ({ what: JSON.stringify(token), why });
  const unit = FIELDS[index]!;
  const names = index === 3 ? MONTHS : index === 4 ? WEEKDAYS : [];
  for (const [token] of field.matchAll(/[A-Za-z]+|\d+|[^A-Za-z\d]/g)) {
    if (/^\d+$/.test(token) || token === "*" || token === "," || token === "-" || token === "/") continue;
    if (/^[A-Za-z]+$/.test(token)) {
      if (names.includes(token.toLowerCase())) continue;
      if (/^H$/i.test(token))
        return refuse(
          token,
          `H draws a new ${unit} each time the schedule is read (pg-boss reads it every 30 seconds), so runs would come at random times, more often than planned: write a fixed ${unit}`,
        );
      if (/^(L|W|LW)$/i.test(token) && (index === 2 || index === 4))
        return refuse(
          token,
          `${token.toUpperCase() === "W" ? "W (the nearest weekday)" : "L (the last day)"} is an extension other crons read differently: ${FIXED}`,
        );
      return refuse(
        token,
        names.length
          ? `it is not a ${unit === "month" ? "month (JAN to DEC)" : "day of the week (SUN to SAT)"}, nor a number`
          : `the ${unit} is a number: names are for the month (JAN to DEC) and the day of the week (SUN to SAT) only`,
      );
    }
    if (token === "#") return refuse(token, `# (the nth weekday of the month) is an extension other crons read differently: ${FIXED}`);
    if (token === "?") return refuse(token, "write * instead");
    return refuse(token, `it is not part of a cron field: ${FIXED}, with the names JAN to DEC and SUN to SAT`);
  }
  // Each comma-separated item: *, a value or a range, then perhaps a step.
  const value = names.length ? "(?:\\d+|[A-Za-z]{3})" : "\\d+";
  const item = new RegExp(`^(?:\\*|${value}(?:-${value})?)(?:/\\d+)?$`);
  const bad = field.split(",").find((part) => !item.test(part));
  if (bad !== undefined) return refuse(bad || field, `it is not a ${unit} field: ${FIXED}`);
  return null;
}

const CHARACTER_NAMES: Record<string, string> = {
  "\t": "tab",
  "\n": "newline",
  "\v": "vertical tab",
  "\f": "form feed",
  "\r": "carriage return",
  "\u00a0": "no-break space",
};

function characterName(character: string): string {
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = CHARACTER_NAMES[character];
  return name ? `a ${name} (${code})` : `the character ${code}`;
}
