import ora from "ora";
import { colorEnabled } from "./output.ts";

export type Progress = {
  update(text: string): void;
  /** Ends with a ✔ line (or clears the spinner when no text). */
  succeed(text?: string): void;
  fail(text: string): void;
};

const silent: Progress = { update() {}, succeed() {}, fail() {} };

/**
 * A spinner on stderr; nothing at all when stderr is not a terminal or with --quiet. Nor on a
 * terminal that reports no width (a pty opened without a size): ora counts the lines to clear as
 * text width ÷ columns, and with 0 columns it would clear lines forever.
 */
export function startProgress(text: string, { quiet, stream = process.stderr }: { quiet: boolean; stream?: NodeJS.WriteStream }): Progress {
  if (quiet || !stream.isTTY || !(stream.columns > 0)) return silent;
  const spinner = ora({ text, stream, color: colorEnabled(stream) ? "cyan" : false, discardStdin: false }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    succeed: (done) => (done ? spinner.stopAndPersist({ symbol: "✔", text: done }) : spinner.stop()),
    fail: (why) => spinner.stopAndPersist({ symbol: "✖", text: why }),
  };
}
