import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { Cron } from "#src/contract/trackers.ts";
import { parseTimeOfDay, parseWeekday, presetCron, presetOf, WEEKDAYS } from "#src/core/schedule.ts";
import { checkSchedule, describeSchedule, occurrenceAt, scheduleRefusal } from "#src/server/services/trackers/schedule.ts";

/* A tracker's presets written as the cron the API keeps, and read back, as the web and the CLI share them. */

describe("a preset as cron", () => {
  test("daily at a time is that minute and hour of every day", () => {
    expect(presetCron({ kind: "daily", time: "09:00" })).toBe("0 9 * * *");
    expect(presetCron({ kind: "daily", time: "9:05" })).toBe("5 9 * * *");
    expect(presetCron({ kind: "daily", time: "00:00" })).toBe("0 0 * * *");
    expect(presetCron({ kind: "daily", time: "23:59" })).toBe("59 23 * * *");
  });

  test("weekly on a day counts the days from Sunday = 0, as cron does", () => {
    expect(presetCron({ kind: "weekly", day: "monday", time: "09:00" })).toBe("0 9 * * 1");
    expect(presetCron({ kind: "weekly", day: "sunday", time: "18:30" })).toBe("30 18 * * 0");
    expect(presetCron({ kind: "weekly", day: "saturday", time: "07:15" })).toBe("15 7 * * 6");
    expect(WEEKDAYS.map((day) => presetCron({ kind: "weekly", day, time: "12:00" }))).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => `0 12 * * ${n}`));
  });

  test("every preset's cron is one the contract takes", () => {
    for (const cron of [presetCron({ kind: "daily", time: "08:00" }), presetCron({ kind: "weekly", day: "friday", time: "17:45" })])
      expect(v.safeParse(Cron, cron).success).toBe(true);
  });

  test("a time that is not one is refused, never written as a cron that would run at another time", () => {
    for (const time of ["24:00", "9", "09:60", "9am", "", "12:5"]) {
      expect(parseTimeOfDay(time)).toBeUndefined();
      expect(() => presetCron({ kind: "daily", time })).toThrow(RangeError);
    }
  });

  test("days by name or their first three letters, in any case", () => {
    expect(parseWeekday("mon")).toBe("monday");
    expect(parseWeekday("Tue")).toBe("tuesday");
    expect(parseWeekday("WEDNESDAY")).toBe("wednesday");
    for (const text of ["mo", "x", "", "mondays"]) expect(parseWeekday(text)).toBeUndefined();
  });
});

describe("a cron read back", () => {
  test("a preset's cron gives the preset back (the form edits it as such); other crons are not presets", () => {
    expect(presetOf("0 9 * * *")).toEqual({ kind: "daily", time: "09:00" });
    expect(presetOf("30 18 * * 0")).toEqual({ kind: "weekly", day: "sunday", time: "18:30" });
    expect(presetOf("30 18 * * 7")).toEqual({ kind: "weekly", day: "sunday", time: "18:30" });
    for (const cron of ["*/15 * * * *", "0 9 1 * *", "0 9 * * 1-5", "0 9,17 * * *"]) expect(presetOf(cron)).toBeUndefined();
  });
});

describe("the occurrence a tick stands for", () => {
  const daily = { cron: "0 9 * * *", timezone: "Europe/Paris" };

  test("is the schedule's latest occurrence, however late in its interval the tick is handled", () => {
    // 09:00 in Paris in winter is 08:00 UTC.
    expect(occurrenceAt(daily, new Date("2026-01-15T08:00:00.000Z")).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(occurrenceAt(daily, new Date("2026-01-15T08:00:42.500Z")).toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(occurrenceAt(daily, new Date("2026-01-16T07:59:59.999Z")).toISOString()).toBe("2026-01-15T08:00:00.000Z");
  });

  test("two ticks of a one-minute schedule handled in the same minute are the same occurrence; in the next, the next", () => {
    const minutely = { cron: "* * * * *", timezone: "UTC" };
    const at = (iso: string) => occurrenceAt(minutely, new Date(iso)).toISOString();
    expect(at("2026-01-15T10:04:01.000Z")).toBe(at("2026-01-15T10:04:59.000Z"));
    expect(at("2026-01-15T10:05:00.000Z")).toBe("2026-01-15T10:05:00.000Z");
  });

  test("follows the schedule's time zone across a change of daylight saving time", () => {
    // Paris moves to summer time on 29 March 2026: 09:00 there is then 07:00 UTC.
    expect(occurrenceAt(daily, new Date("2026-03-30T07:30:00.000Z")).toISOString()).toBe("2026-03-30T07:00:00.000Z");
  });
});

describe("the schedule kept", () => {
  const utc = (cron: string) => ({ cron, timezone: "UTC" });

  test("the shortest interval counts the night between two days, one night a week too, not only a day's runs", () => {
    // 23:00 and 00:00 the next day: an hour apart, though every day's two runs are 23 hours apart.
    expect(scheduleRefusal(utc("0 0,23 * * *"), 120)).toMatchObject({ kind: "interval", everyMinutes: 60 });
    // Saturday 23:00 and Sunday 00:00: an hour apart one night a week.
    expect(scheduleRefusal(utc("0 0,23 * * 0,6"), 120)).toMatchObject({ kind: "interval", everyMinutes: 60 });
    expect(scheduleRefusal(utc("0 0,12 * * *"), 720)).toBeNull();
  });

  test("a cron kept by an earlier version is read by the same rule: H, L, # and blanks are refused, spaces are made single", () => {
    expect(scheduleRefusal(utc("H * * * *"), 60)).toMatchObject({ kind: "cron", refused: { what: '"H"' } });
    expect(scheduleRefusal(utc("0 9 L * *"), 60)).toMatchObject({ kind: "cron", refused: { what: '"L"' } });
    expect(scheduleRefusal(utc("0 9 * * 1#1"), 60)).toMatchObject({ kind: "cron", refused: { what: '"#"' } });
    expect(scheduleRefusal(utc("0\t9 * * 1"), 60)).toMatchObject({ kind: "cron", refused: { what: "a tab (U+0009)" } });
    expect(checkSchedule(utc(" 0   9 * * 1 "), 60)).toEqual(utc("0 9 * * 1"));
  });

  test("under a one-minute minimum, every cron that parses and fires is kept", () => {
    expect(scheduleRefusal(utc("* * * * *"), 1)).toBeNull();
    expect(scheduleRefusal(utc("0 0 30 2 *"), 1)).toMatchObject({ kind: "cron" });
  });
});

describe("the schedule in words", () => {
  const words = (cron: string) => describeSchedule({ cron, timezone: "Europe/Paris" });

  test("weekdays written by name read as the days they are, in any case", () => {
    expect(words("0 9 * * MON")).toBe("Every Monday at 09:00 (Europe/Paris)");
    expect(words("30 7 * * sun")).toBe("Every Sunday at 07:30 (Europe/Paris)");
    expect(words("0 9 * * Mon-Fri")).toBe("Every weekday at 09:00 (Europe/Paris)");
    expect(words("0 9 * * 1-5")).toBe("Every weekday at 09:00 (Europe/Paris)");
  });

  test("a cron with no sentence of its own is quoted as written", () => {
    expect(words("0 9 * JAN MON")).toBe('On the schedule "0 9 * JAN MON" (Europe/Paris)');
    expect(words("0 9 * * MON,WED")).toBe('On the schedule "0 9 * * MON,WED" (Europe/Paris)');
  });
});

describe("an interval under the minimum", () => {
  test("is named as the shortest the schedule has, whatever minute it is read at", () => {
    for (const at of ["2026-12-07T12:00:30Z", "2026-12-07T12:30:00Z", "2026-12-07T23:59:30Z"]) {
      const refused = scheduleRefusal({ cron: "0,1 * * * *", timezone: "UTC" }, 60, new Date(at));
      expect({ at, everyMinutes: refused?.kind === "interval" ? refused.everyMinutes : null }).toEqual({ at, everyMinutes: 1 });
    }
    const twice = scheduleRefusal({ cron: "0 9,10 * * 1", timezone: "UTC" }, 120, new Date("2026-12-08T12:00:00Z"));
    expect(twice?.message).toContain("runs every hour");
  });
});
