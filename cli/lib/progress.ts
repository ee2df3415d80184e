import ora from "ora";
import { colorEnabled } from "./output.ts";

export type Progress = {
  update(text: string): void;
  /** Ends with a ✔ line (or clears the spinner when no text). */
  succeed(text?: string): void;
  fail(text: string): void;
};

const silent: Progress = { update() {}, succeed() {}, fail() {} };

/** A spinner on stderr; nothing at all when stderr is not a terminal or with --quiet. */
export function startProgress(text: string, { quiet }: { quiet: boolean }): Progress {
  if (quiet || !process.stderr.isTTY) return silent;
  const spinner = ora({ text, stream: process.stderr, color: colorEnabled(process.stderr) ? "cyan" : false, discardStdin: false }).start();
  return {
    update: (next) => {
      spinner.text = next;
    },
    succeed: (done) => (done ? spinner.stopAndPersist({ symbol: "✔", text: done }) : spinner.stop()),
    fail: (why) => spinner.stopAndPersist({ symbol: "✖", text: why }),
  };
}
