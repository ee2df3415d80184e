import { writeFileSync } from "node:fs";
import Table from "cli-table3";

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

/** The terminal's width, or 120 columns when stdout is not one. */
export function screenWidth(): number {
  return process.stdout.columns || 120;
}

/** One line (or block) on stdout. */
export function print(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** The one JSON document of `--json`. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
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
