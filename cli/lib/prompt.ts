import { createInterface } from "node:readline/promises";
import { CliError } from "./exit.ts";

/** Asks on the terminal (the question on stderr, so stdout stays clean). */
export async function ask(question: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  try {
    return (await lines.question(question)).trim();
  } catch (error) {
    // Ctrl-C at the prompt rejects the question (the terminal is in raw mode: no SIGINT).
    throw error instanceof Error && error.name === "AbortError" ? new CliError("interrupted", "Cancelled") : error;
  } finally {
    lines.close();
  }
}

/**
 * Whether to delete: yes with --yes; otherwise asked on the terminal (`question` is built only
 * then: it may call the server to name what goes), and refused (exit 1) when there is none to ask on.
 */
export async function confirmDeletion(yes: boolean, what: string, question: () => Promise<string>): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) throw new CliError("usage", `Deleting ${what} asks for confirmation and there is no terminal to ask on: add --yes`);
  return /^y(es)?$/i.test(await ask(`${await question()} This cannot be undone. [y/N] `));
}

/** Asks without echoing what is typed (raw mode); Ctrl-C stops the command. */
export function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding("utf8");
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = (end: () => void) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      end();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return finish(() => resolve(typed));
        if (char === "\u0003") return finish(() => reject(new CliError("interrupted", "Cancelled")));
        typed = char === "\u007f" || char === "\b" ? typed.slice(0, -1) : typed + char;
      }
    };
    stdin.on("data", onData);
  });
}

/** The first line of standard input (for --password-stdin). */
export async function readStdinLine(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) text += String(chunk);
  return text.split(/\r?\n/)[0] ?? "";
}
