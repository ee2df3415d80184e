import { expect, test } from "bun:test";
import { startProgress } from "#cli/lib/progress.ts";

/** A terminal stream that records what is written to it. */
function terminal(columns: number) {
  const written: string[] = [];
  const stream = {
    isTTY: true,
    columns,
    write: (chunk: string) => written.push(String(chunk)) > 0,
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    on: () => stream,
    once: () => stream,
    off: () => stream,
    removeListener: () => stream,
  };
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

test("a terminal that reports 0 columns (a pty without a size) gets no spinner, rather than endless line clearing", () => {
  const { stream, written } = terminal(0);
  const progress = startProgress('Searching "best crm"', { quiet: false, stream });
  progress.update("ChatGPT 1/5 · Claude 0/5 · Gemini 0/5");
  progress.succeed("done");
  expect(written).toEqual([]);
});

test("a terminal with a width shows the spinner and its last line, bounded", () => {
  const { stream, written } = terminal(80);
  const progress = startProgress('Searching "best crm"', { quiet: false, stream });
  progress.update("ChatGPT 1/5 · Claude 0/5 · Gemini 0/5");
  progress.succeed("Searched");
  const out = written.join("");
  expect(out).toContain("Searched");
  expect(out.length).toBeLessThan(2_000);
});
