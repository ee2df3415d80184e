import { CronExpressionParser } from "cron-parser";
import type { Schedule } from "#src/contract/trackers.ts";
import { DomainError } from "../errors.ts";

/*
 * A tracker's schedule read with cron-parser, the parser pg-boss's own cron pass uses: what is
 * accepted here is what pg-boss will fire.
 */

/** Occurrences looked at to find the shortest interval: enough to see a step in any field. */
const SAMPLE = 200;
const MONTH_MS = 30 * 24 * 3600 * 1000;

/** Throws INVALID_INPUT naming the field when the cron does not parse, or fires more often than `minMinutes`. */
export function checkSchedule(schedule: Schedule, minMinutes: number): void {
  const times = occurrences(schedule, new Date(), SAMPLE);
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) shortest = Math.min(shortest, (times[i]! - times[i - 1]!) / 60_000);
  if (times.length === 0) throw new DomainError("INVALID_INPUT", `schedule.cron ${JSON.stringify(schedule.cron)} never fires`);
  if (shortest < minMinutes)
    throw new DomainError(
      "INVALID_INPUT",
      `schedule.cron ${JSON.stringify(schedule.cron)} runs every ${formatMinutes(shortest)}: trackers may run at most every ${formatMinutes(minMinutes)} here (TRACKER_MIN_INTERVAL_MINUTES)`,
    );
}

/** The next tick after `from`, or null for a schedule that never fires again. */
export function nextRun(schedule: Schedule, from: Date): Date | null {
  const [next] = occurrences(schedule, from, 1);
  return next === undefined ? null : new Date(next);
}

/**
 * The schedule's occurrence a tick handled at `at` stands for: the latest one not after it. A tick
 * handled later than the next occurrence stands for that one (a late tick is merged with the next, never doubled).
 */
export function occurrenceAt({ cron, timezone }: Schedule, at: Date): Date {
  // prev() is strict, and occurrences fall on whole minutes: a millisecond on counts `at` itself.
  const expression = CronExpressionParser.parse(cron, { tz: timezone, currentDate: new Date(at.getTime() + 1), strict: false });
  return expression.prev().toDate();
}

/** Ticks in the 30 days after `from` (counted up to SAMPLE of them, then extrapolated: a minutely schedule is not walked 43,200 times). */
export function runsPerMonth(schedule: Schedule, from: Date): number {
  const times = occurrences(schedule, from, SAMPLE, from.getTime() + MONTH_MS);
  if (times.length < SAMPLE) return times.length;
  const span = times.at(-1)! - from.getTime();
  return Math.round((times.length * MONTH_MS) / span);
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The schedule in words: the web's presets read as such, anything else as its cron. */
export function describeSchedule({ cron, timezone }: Schedule): string {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = cron.split(/\s+/) as [string, string, string, string, string];
  const at = /^\d+$/.test(minute) && /^\d+$/.test(hour) ? `${hour.padStart(2, "0")}:${minute.padStart(2, "0")}` : null;
  const zone = `(${timezone})`;
  if (at && dayOfMonth === "*" && month === "*") {
    if (dayOfWeek === "*") return `Every day at ${at} ${zone}`;
    if (dayOfWeek === "1-5") return `Every weekday at ${at} ${zone}`;
    if (/^[0-7]$/.test(dayOfWeek)) return `Every ${DAYS[Number(dayOfWeek) % 7]} at ${at} ${zone}`;
  }
  if (at && /^\d+$/.test(dayOfMonth) && month === "*" && dayOfWeek === "*") return `On day ${dayOfMonth} of every month at ${at} ${zone}`;
  if (/^\d+$/.test(minute) && hour === "*" && dayOfMonth === "*" && month === "*" && dayOfWeek === "*") return `Every hour at minute ${minute} ${zone}`;
  const every = /^\*\/(\d+)$/.exec(minute);
  if (every && hour === "*" && dayOfMonth === "*" && month === "*" && dayOfWeek === "*") return `Every ${formatMinutes(Number(every[1]))}`;
  if (minute === "*" && hour === "*" && dayOfMonth === "*" && month === "*" && dayOfWeek === "*") return "Every minute";
  return `On the schedule "${cron}" ${zone}`;
}

function occurrences({ cron, timezone }: Schedule, from: Date, count: number, until?: number): number[] {
  let expression: ReturnType<typeof CronExpressionParser.parse>;
  try {
    expression = CronExpressionParser.parse(cron, { tz: timezone, currentDate: from, strict: false });
  } catch (error) {
    throw new DomainError(
      "INVALID_INPUT",
      `schedule.cron ${JSON.stringify(cron)} is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const times: number[] = [];
  while (times.length < count && expression.hasNext()) {
    const next = expression.next().getTime();
    if (until !== undefined && next > until) break;
    times.push(next);
  }
  return times;
}

function formatMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? "day" : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "minute" : `${minutes} minutes`;
}
