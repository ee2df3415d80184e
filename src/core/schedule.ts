/*
 * A tracker's schedule as people set and read it: the presets the web's form and the
 * CLI offer ("daily at 09:00", "weekly on Monday at 09:00") are written as 5-field cron, which is
 * what the API keeps, and read back from it for a form that edits them. (The schedule in words is
 * the server's: each tracker carries its `scheduleText`.) Pure: no clock, no time-zone database.
 */

export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A time of day, "HH:MM" (24-hour; "9:05" is taken too). */
export type TimeOfDay = string;

export type SchedulePreset = { kind: "daily"; time: TimeOfDay } | { kind: "weekly"; day: Weekday; time: TimeOfDay };

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

/** "09:30" as hour and minute; undefined when it is not a time of day. */
export function parseTimeOfDay(text: string): { hour: number; minute: number } | undefined {
  const match = TIME.exec(text.trim());
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : undefined;
}

/** A day by its name or first three letters, any case ("mon", "Monday"); undefined otherwise. */
export function parseWeekday(text: string): Weekday | undefined {
  const name = text.trim().toLowerCase();
  return name.length >= 3 ? WEEKDAYS.find((day) => day.startsWith(name)) : undefined;
}

/** The preset as the cron the API keeps: daily 09:30 → "30 9 * * *", weekly Monday 09:00 → "0 9 * * 1". */
export function presetCron(preset: SchedulePreset): string {
  const time = parseTimeOfDay(preset.time);
  if (!time) throw new RangeError(`not a time of day (HH:MM): ${JSON.stringify(preset.time)}`);
  const dayOfWeek = preset.kind === "weekly" ? String(WEEKDAYS.indexOf(preset.day)) : "*";
  return `${time.minute} ${time.hour} * * ${dayOfWeek}`;
}

/** The preset a cron was written from, for a form that edits it; undefined for any other cron. */
export function presetOf(cron: string): SchedulePreset | undefined {
  const [minute, hour, dayOfMonth, month, dayOfWeek, ...rest] = cron.trim().split(/\s+/);
  if (rest.length || dayOfMonth !== "*" || month !== "*" || !isNumber(minute, 0, 59) || !isNumber(hour, 0, 23)) return undefined;
  const time = `${pad2(Number(hour))}:${pad2(Number(minute))}`;
  if (dayOfWeek === "*") return { kind: "daily", time };
  // Cron counts Sunday as 0 and as 7.
  if (!isNumber(dayOfWeek, 0, 7)) return undefined;
  return { kind: "weekly", day: WEEKDAYS[Number(dayOfWeek) % 7] ?? "sunday", time };
}

function isNumber(field: string | undefined, min: number, max: number): field is string {
  return field !== undefined && /^\d{1,2}$/.test(field) && Number(field) >= min && Number(field) <= max;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

const MONTH_NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY_NAMES = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
/** The days runsPerDay looks at: four whole years (a leap year's February, every weekday alike often). */
const DAYS_FROM = Date.UTC(2024, 0, 1);
const DAYS_LOOKED_AT = 1461;

/**
 * How many times a five-field cron fires on a day it fires at all (its minutes times its hours:
 * what a daily spend limit meets), and whether that is every day (else some days of the month, of
 * the week or months only; with both days restricted, either, as cron reads them). Null for a cron
 * it cannot read (the contract names why) or one that never fires. Wall-clock: a DST day's extra or
 * missing hour is not counted.
 */
export function runsPerDay(cron: string): { runs: number; everyDay: boolean } | null {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  const minutes = expand(minute, 0, 59);
  const hours = expand(hour, 0, 23);
  const days = expand(dayOfMonth, 1, 31);
  const months = expand(month, 1, 12, MONTH_NAMES, 1);
  const weekdays = expand(dayOfWeek, 0, 7, DAY_NAMES);
  if (!minutes || !hours || !days || !months || !weekdays) return null;
  const either = !dayOfMonth.startsWith("*") && !dayOfWeek.startsWith("*");
  let firing = 0;
  for (let day = 0; day < DAYS_LOOKED_AT; day++) {
    const date = new Date(DAYS_FROM + day * 86_400_000);
    if (!months.has(date.getUTCMonth() + 1)) continue;
    const byDate = days.has(date.getUTCDate());
    const byWeekday = weekdays.has(date.getUTCDay()) || (date.getUTCDay() === 0 && weekdays.has(7));
    if (either ? byDate || byWeekday : byDate && byWeekday) firing++;
  }
  return firing === 0 ? null : { runs: minutes.size * hours.size, everyDay: firing === DAYS_LOOKED_AT };
}

/** A cron field's values: *, numbers or names, ranges, lists and steps; null when unreadable or out of range. */
function expand(field: string, min: number, max: number, names: readonly string[] = [], firstName = 0): Set<number> | null {
  const value = (text: string) => {
    const named = names.indexOf(text.toLowerCase());
    const number = named !== -1 ? named + firstName : /^\d+$/.test(text) ? Number(text) : Number.NaN;
    return number >= min && number <= max ? number : null;
  };
  const values = new Set<number>();
  for (const part of field.split(",")) {
    const match = /^(\*|[a-z\d]+(?:-[a-z\d]+)?)(?:\/(\d+))?$/i.exec(part);
    if (!match) return null;
    const [, range, stepText] = match as unknown as [string, string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) return null;
    let from = min;
    let to = max;
    if (range !== "*") {
      const [a, b] = range.split("-");
      const start = value(a!);
      const end = b === undefined ? (stepText === undefined ? start : max) : value(b);
      if (start === null || end === null || end < start) return null;
      from = start;
      to = end;
    }
    for (let at = from; at <= to; at += step) values.add(at);
  }
  return values;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The schedule in words: the web's presets read as such, anything else as its cron. */
export function describeSchedule({ cron, timezone }: { cron: string; timezone: string }): string {
  const [minute, hour, dayOfMonth, month, written] = cron.split(/\s+/) as [string, string, string, string, string];
  // A weekday may be written by name (MON, fri): read as its number, so "0 9 * * MON" is "Every Monday".
  const dayOfWeek = written.replace(/[a-z]{3}/gi, (name) => String(DAYS.findIndex((day) => day.slice(0, 3).toLowerCase() === name.toLowerCase())));
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

/** A number of minutes in words: "minute", "15 minutes", "hour", "2 days". */
export function formatMinutes(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? "day" : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "hour" : `${minutes / 60} hours`;
  return minutes === 1 ? "minute" : `${minutes} minutes`;
}
