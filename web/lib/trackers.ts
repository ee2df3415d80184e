import type { TrackerRun, TrackerRunStatus } from "#src/contract/trackers.ts";
import { presetCron, presetOf, WEEKDAYS as PRESET_DAYS } from "#src/core/schedule.ts";
import { STATUS_WORD } from "#src/core/tracker-timing.ts";

/*
 * Pure helpers of the trackers' pages: the schedule presets written as cron and read
 * back, a run's status and progress in words. No React, no I/O.
 */

/** Under a run's results per question: what a brand figure's range covers (ADR 050). */
export const RUN_MENTIONS_NOTE =
  "Each range is a 95% band for the tracker's rate on that question, not only this run's answers: widened by how much its runs vary from run to run.";

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

/** What the form offers: a preset, or the person's own five cron fields. */
export type ScheduleChoice = { kind: "daily"; time: string } | { kind: "weekly"; day: number; time: string } | { kind: "custom"; cron: string };

export const DEFAULT_SCHEDULE: ScheduleChoice = { kind: "weekly", day: 1, time: "09:00" };

/** "09:30" → "30 9 * * *" (daily) or "30 9 * * 1" (weekly, Monday); a custom one as typed (src/core/schedule.ts writes presets). */
export function cronOf(choice: ScheduleChoice): string {
  if (choice.kind === "custom") return choice.cron;
  try {
    return presetCron(
      choice.kind === "daily" ? { kind: "daily", time: choice.time } : { kind: "weekly", day: PRESET_DAYS[choice.day] ?? "monday", time: choice.time },
    );
  } catch {
    // An unreadable time is left for the contract's cron check to name.
    return "";
  }
}

/** The preset a cron expression is, so the edit form shows it as chosen; any other is custom. */
export function choiceOf(cron: string): ScheduleChoice {
  const preset = presetOf(cron);
  if (!preset) return { kind: "custom", cron };
  return preset.kind === "daily" ? { kind: "daily", time: preset.time } : { kind: "weekly", day: PRESET_DAYS.indexOf(preset.day), time: preset.time };
}

// A month as the server counts a saved tracker's runs in its estimate: the next 30 days.
const DAYS_PER_MONTH = 30;

/** How many runs a preset makes in a month on average; null for a custom cron (the server counts those once saved). */
export function runsPerMonth(choice: ScheduleChoice): number | null {
  if (choice.kind === "daily") return DAYS_PER_MONTH;
  if (choice.kind === "weekly") return DAYS_PER_MONTH / 7;
  return null;
}

/** The browser's own IANA time zone (the form's default); UTC where it names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export function statusText(status: TrackerRunStatus): string {
  return STATUS_WORD[status];
}

/** A run still to finish: the page polls it. */
export function isLive(run: Pick<TrackerRun, "status"> | null | undefined): boolean {
  return run?.status === "queued" || run?.status === "running";
}

/** "12 of 30 answers" (", 2 failed" when some did). */
export function answersText({ expected, done, failed }: TrackerRun["answers"]): string {
  return `${done} of ${expected} answer${expected === 1 ? "" : "s"}${failed ? `, ${failed} failed` : ""}`;
}
