import { expect, test } from "bun:test";
import { formatDate } from "#src/core/dates.ts";
import { asOfText } from "#web/lib/report.ts";

const run = (status: "queued" | "running" | "completed" | "partial" | "failed", at: string) => ({
  status,
  scheduledFor: at,
  startedAt: at,
  finishedAt: status === "queued" || status === "running" ? null : at,
});

test("a report is as of the newest run that finished, not one still going", () => {
  const finished = "2026-12-07T03:18:00.000Z";
  expect(asOfText([run("running", "2026-12-07T03:19:00.000Z"), run("completed", finished)])).toBe(`As of the run of ${formatDate(finished)}`);
  expect(asOfText([run("partial", finished)])).toBe(`As of the run of ${formatDate(finished)}`);
  expect(asOfText([run("queued", "2026-12-07T03:19:00.000Z")])).toBe("No run has finished yet");
  expect(asOfText([])).toBe("No runs yet");
});
