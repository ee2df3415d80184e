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
