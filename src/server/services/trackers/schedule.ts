import { CronExpressionParser, type CronExpression } from "cron-parser";
import { cronMessage, readCron, type CronRefusal } from "#src/contract/cron.ts";
import type { Schedule } from "#src/contract/trackers.ts";
import { describeSchedule, formatMinutes } from "#src/core/schedule.ts";
import { DomainError } from "../errors.ts";

// The schedule in words is pure, and the web words a draft's schedule with it too.
export { describeSchedule, formatMinutes };

/*
 * A tracker's schedule read with cron-parser, the parser pg-boss's own cron pass uses: what is
 * accepted here is what pg-boss will fire. Only fixed fields are kept (src/contract/cron.ts): an
 * expression that reads differently each time it is parsed (H) could not be checked at all.
 */

/** Occurrences are walked for at least this long after the first, to find the shortest interval: every weekday's pattern, and the night between two days. */
const DAY_MS = 24 * 3600 * 1000;
const WALK_MS = 7 * DAY_MS;
/** The most occurrences walked: a minutely schedule's week (a schedule refused stops at its first short interval). */
const WALK_MAX = 7 * 1440 + 1;
/** Occurrences counted for a month's runs before extrapolating. */
const SAMPLE = 200;
const MONTH_MS = 30 * 24 * 3600 * 1000;

/** Why a schedule is not kept: its cron is refused (or does not parse), or it fires more often than the minimum. */
export type ScheduleRefusal = { kind: "cron"; message: string; refused?: CronRefusal } | { kind: "interval"; message: string; everyMinutes: number };

/**
 * The schedule as it is kept (its cron with single spaces), or INVALID_INPUT naming schedule.cron:
 * a token or character refused, a cron that does not parse or never fires, or one firing more often than `minMinutes`.
 */
export function checkSchedule(schedule: Schedule, minMinutes: number): Schedule {
  const refusal = scheduleRefusal(schedule, minMinutes);
  if (refusal) throw new DomainError("INVALID_INPUT", refusal.message);
  return { ...schedule, cron: normalCron(schedule.cron) };
}

/** What checkSchedule refuses, or null; for a schedule already kept too (the check at start, ./schedules-check.ts). */
export function scheduleRefusal(schedule: Schedule, minMinutes: number, from: Date = new Date()): ScheduleRefusal | null {
  const read = readCron(schedule.cron);
  if (!("cron" in read)) return { kind: "cron", message: cronMessage(schedule.cron, read), ...("refused" in read ? { refused: read.refused } : {}) };
  const kept = { ...schedule, cron: read.cron };
  let expression: CronExpression;
  try {
    expression = parse(kept, from);
  } catch (error) {
    return { kind: "cron", message: notValid(schedule.cron, error) };
  }
  if (!expression.hasNext()) return { kind: "cron", message: `schedule.cron ${JSON.stringify(schedule.cron)} never fires` };
  // A five-field cron never fires twice in a minute: under a one-minute minimum every schedule that fires is kept.
  if (minMinutes <= 1) return null;
  const shortest = shortestInterval(expression, minMinutes);
  if (shortest === null || shortest >= minMinutes) return null;
  return {
    kind: "interval",
    everyMinutes: shortest,
    message: `schedule.cron ${JSON.stringify(schedule.cron)} runs every ${formatMinutes(shortest)}: trackers may run at most every ${formatMinutes(minMinutes)} here (TRACKER_MIN_INTERVAL_MINUTES)`,
  };
}

/** The cron with single spaces between its fields (what is kept; a cron already kept is unchanged). */
export function normalCron(cron: string): string {
  return cron.trim().split(/\s+/).join(" ");
}

/**
 * The shortest interval in minutes between occurrences over a week from the first (null: it fires
 * once), walked with the expression itself. Once one is under `stopUnder` the schedule is refused,
 * so the walk goes on a day at most, to name the shortest whatever minute it started from ("0,1 * * * *"
 * runs every minute, read at 12:00 or at 12:30).
 */
function shortestInterval(expression: CronExpression, stopUnder: number): number | null {
  let previous = expression.next().getTime();
  const first = previous;
  let shortest: number | null = null;
  let underSince: number | null = null;
  for (let walked = 1; walked < WALK_MAX && expression.hasNext(); walked++) {
    const next = expression.next().getTime();
    const minutes = (next - previous) / 60_000;
    shortest = shortest === null ? minutes : Math.min(shortest, minutes);
    if (shortest < stopUnder) underSince ??= next;
    if (shortest <= 1 || next - first >= WALK_MS || (underSince !== null && next - underSince >= DAY_MS)) break;
    previous = next;
  }
  return shortest;
}

/** The next tick after `from`, or null for a schedule that never fires again. */
export function nextRun(schedule: Schedule, from: Date): Date | null {
  const next = nextOccurrence(schedule, from.getTime());
  return next === null ? null : new Date(next);
}

/** A nonexistent wall-clock time is moved forward by its gap: DST gaps are at most an hour (Lord Howe's half hour), so two cover them. */
const GAP_MARGIN_MS = 2 * 3600_000;
/** UTC offsets lie within ±14 h: the offsets in force around a wall-clock time are found within this of it. */
const OFFSET_SPAN_MS = 14 * 3600_000;
/** The most wall-clock occurrences walked to find the nearest instant (a minutely schedule's two-hour margin, twice). */
const NEXT_WALK_MAX = 500;

/**
 * The first occurrence after `after` (ms), or null. Occurrences are wall-clock times in the
 * schedule's zone (the cron read on the local calendar and clock), each made an instant: a time
 * that occurs twice (autumn) counts once, at the first; a time that does not exist (spring) moves
 * forward by the gap, as clocks do (02:30 → 03:30), and counts once if another occurrence is
 * already there. So a daily schedule runs exactly once each local day.
 */
export function nextOccurrence(schedule: Schedule, after: number): number | null {
  return nearestOccurrence(schedule, after, 1);
}

/**
 * The occurrence nearest `from` on one side of it: the first after it (`direction` 1) or the
 * latest not after it (-1). Wall-clock times are walked from a little on the other side of `from`,
 * since a gap moves a time forward and a repeated hour takes its first instant: either can carry
 * a wall-clock time across `from`.
 */
function nearestOccurrence({ cron, timezone }: Schedule, from: number, direction: 1 | -1): number | null {
  const localFrom = from + offsetAt(timezone, from);
  // prev() is strict: a millisecond on lets the walk back reach a time at the margin itself.
  const start = direction === 1 ? localFrom - GAP_MARGIN_MS : localFrom + GAP_MARGIN_MS + 1;
  const walk = CronExpressionParser.parse(cron, { tz: "UTC", currentDate: new Date(start), strict: false });
  let best: { at: number; local: number } | null = null;
  for (let walked = 0; walked < NEXT_WALK_MAX && (direction === 1 ? walk.hasNext() : walk.hasPrev()); walked++) {
    const local = (direction === 1 ? walk.next() : walk.prev()).getTime();
    if (best && direction * (local - best.local) > GAP_MARGIN_MS) break;
    const { at, steady } = instantOf(timezone, local);
    const beyond = direction === 1 ? at > from : at <= from;
    if (!beyond || (best && direction * (at - best.at) >= 0)) continue;
    best = { at, local };
    // No offset change within a day of it: no wall-clock time further on can land nearer `from`.
    if (steady) break;
  }
  return best?.at ?? null;
}

/** Whether `at` is one of the schedule's occurrences (the instant its next occurrence from just before is). */
export function isOccurrence(schedule: Schedule, at: number): boolean {
  return nextOccurrence(schedule, at - 1) === at;
}

/** The instant a wall-clock time (as UTC ms) stands for in `timezone`: the first of two, or moved past a gap; `steady` when no offset changes near it. */
function instantOf(timezone: string, local: number): { at: number; steady: boolean } {
  const offsets = [...new Set([offsetAt(timezone, local - OFFSET_SPAN_MS), offsetAt(timezone, local), offsetAt(timezone, local + OFFSET_SPAN_MS)])];
  if (offsets.length === 1) return { at: local - offsets[0]!, steady: true };
  const valid = offsets.map((offset) => local - offset).filter((at) => offsetAt(timezone, at) === local - at);
  // In a gap the clock jumps forward: read with the offset before the jump (the smaller), the time lands past it by the gap.
  return { at: valid.length ? Math.min(...valid) : local - Math.min(...offsets), steady: false };
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at an instant, in ms (wall clock minus UTC). */
function offsetAt(timezone: string, at: number): number {
  let format = zoneFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(timezone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(at)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(at / 1000) * 1000;
}

/**
 * The schedule's occurrence a tick handled at `at` stands for: the latest one not after it, by the
 * dispatcher's DST rule (nextOccurrence). A tick handled later than the next occurrence stands for
 * that one (a late tick is merged with the next, never doubled).
 */
export function occurrenceAt(schedule: Schedule, at: Date): Date {
  const latest = nearestOccurrence(schedule, at.getTime(), -1);
  // A kept schedule always has one (a cron that never fires is refused, and has no year field to run out of).
  if (latest === null) throw new Error(`schedule.cron ${JSON.stringify(schedule.cron)} has no occurrence before ${at.toISOString()}`);
  return new Date(latest);
}

/** Ticks in the 30 days after `from` (counted up to SAMPLE of them, then extrapolated: a minutely schedule is not walked 43,200 times). */
export function runsPerMonth(schedule: Schedule, from: Date): number {
  const times = occurrences(schedule, from, SAMPLE, from.getTime() + MONTH_MS);
  if (times.length < SAMPLE) return times.length;
  const span = times.at(-1)! - from.getTime();
  return Math.round((times.length * MONTH_MS) / span);
}

function occurrences(schedule: Schedule, from: Date, count: number, until?: number): number[] {
  let expression: CronExpression;
  try {
    expression = parse(schedule, from);
  } catch (error) {
    throw new DomainError("INVALID_INPUT", notValid(schedule.cron, error));
  }
  const times: number[] = [];
  while (times.length < count && expression.hasNext()) {
    const next = expression.next().getTime();
    if (until !== undefined && next > until) break;
    times.push(next);
  }
  return times;
}

function parse({ cron, timezone }: Schedule, from: Date): CronExpression {
  return CronExpressionParser.parse(cron, { tz: timezone, currentDate: from, strict: false });
}

function notValid(cron: string, error: unknown): string {
  return `schedule.cron ${JSON.stringify(cron)} is not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`;
}
