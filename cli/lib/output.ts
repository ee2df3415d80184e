import { writeFileSync } from "node:fs";
import Table from "cli-table3";
import * as v from "valibot";
import { visibleJson } from "#src/core/display-text.ts";

/** Colour only on a terminal, and never with NO_COLOR set (https://no-color.org). */
export function colorEnabled(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !process.env.NO_COLOR;
}

const ansi = (open: number, close: number) => (text: string) => (colorEnabled() ? `\u001b[${open}m${text}\u001b[${close}m` : text);
export const bold = ansi(1, 22);
export const dim = ansi(2, 22);

/** A table for stdout: cli-table3 with its colours off; headings bold only where colour is on. */
export function table(head: string[], rows: string[][], options: { colWidths?: Array<number | null> } = {}): string {
  const t = new Table({
    head: head.map((cell) => bold(cell)),
    style: { head: [], border: [] },
    wordWrap: true,
    ...(options.colWidths ? { colWidths: options.colWidths } : {}),
  });
  t.push(...rows);
  return t.toString();
}

// COLUMNS as shells export it: a whole number of columns; anything else is ignored.
const Columns = v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number), v.minValue(1));

/** The width tables fit in: COLUMNS, else the terminal's, else 80 (stdout is a file or a pipe). */
export function screenWidth(env: NodeJS.ProcessEnv = process.env): number {
  const columns = v.safeParse(Columns, env.COLUMNS);
  return columns.success ? columns.output : process.stdout.columns || 80;
}

/** One line (or block) on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** The one JSON document of `--json`: an invisible character in its text escaped ("\u202e"), the same value to a script. */
export function printJson(value: unknown): void {
  process.stdout.write(`${visibleJson(JSON.stringify(value, null, 2))}\n`);
}

/** A note for the person on stderr (not with --quiet). */
export function note(quiet: boolean, text: string): void {
  if (!quiet) process.stderr.write(`${text}\n`);
}

/** Writes a document to a file, or to stdout for "-". */
export function writeDocument(file: string, text: string): void {
  if (file === "-") process.stdout.write(text);
  else writeFileSync(file, text);
}
