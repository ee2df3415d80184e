import { describe, expect, test } from "bun:test";
import { isOccurrence, nextOccurrence, occurrenceAt } from "#src/server/services/trackers/schedule.ts";

/*
 * The DST rule (README, Trackers; ADR 055): occurrences are wall-clock times in the tracker's zone.
 * A time that does not exist (spring forward) moves forward by the gap (02:30 → 03:30); a time that
 * occurs twice (fall back) counts once, at the first. So a daily tracker runs once each local day.
 */

/** The occurrences after `from`, `count` of them, as ISO instants. */
function walk(cron: string, timezone: string, from: string, count: number): string[] {
  const out: string[] = [];
  let at = Date.parse(from);
  for (let i = 0; i < count; i++) {
    const next = nextOccurrence({ cron, timezone }, at);
    if (next === null) break;
    out.push(new Date(next).toISOString());
    at = next;
  }
  return out;
}

/** A daily cron at a local time, "02:30" → "30 2 * * *". */
function cronAt(time: string): string {
  return `${Number(time.slice(3))} ${Number(time.slice(0, 2))} * * *`;
}

/** The local calendar day and time of an instant in a zone, "2026-03-08 03:30". */
function local(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat("sv-SE", { timeZone: timezone, dateStyle: "short", timeStyle: "short" }).format(new Date(iso));
}

// Each zone's two changes in 2026: the day before, the day, the day after.
const zones = [
  {
    timezone: "America/New_York",
    spring: "2026-03-07T12:00:00Z",
    fall: "2026-10-31T12:00:00Z",
    springDay: "2026-03-08",
    fallDay: "2026-11-01",
    gap: "02:30",
    repeated: "01:30",
  },
  {
    timezone: "Europe/Berlin",
    spring: "2026-03-28T12:00:00Z",
    fall: "2026-10-24T12:00:00Z",
    springDay: "2026-03-29",
    fallDay: "2026-10-25",
    gap: "02:30",
    repeated: "02:30",
  },
  // Southern hemisphere: clocks go forward in October and back in April.
  {
    timezone: "Australia/Sydney",
    spring: "2026-10-03T00:00:00Z",
    fall: "2026-04-04T00:00:00Z",
    springDay: "2026-10-04",
    fallDay: "2026-04-05",
    gap: "02:30",
    repeated: "02:30",
  },
];

describe("a daily tracker across daylight saving time", () => {
  for (const zone of zones) {
    test(`${zone.timezone}: a time that does not exist on the spring day runs once that day, an hour later (${zone.gap} → 03:30)`, () => {
      const runs = walk(cronAt(zone.gap), zone.timezone, zone.spring, 3).map((iso) => local(iso, zone.timezone));
      const day = (d: string, n: number) => new Date(Date.parse(`${d}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      // Walked from midday before the change: that day's 02:30 is past, so the change day's comes first.
      expect(runs).toEqual([`${zone.springDay} 03:30`, `${day(zone.springDay, 1)} ${zone.gap}`, `${day(zone.springDay, 2)} ${zone.gap}`]);
    });

    test(`${zone.timezone}: a time that occurs twice on the autumn day runs once, at the first`, () => {
      const runs = walk(cronAt(zone.repeated), zone.timezone, zone.fall, 3);
      const days = runs.map((iso) => local(iso, zone.timezone));
      expect(days.map((d) => d.slice(11))).toEqual([zone.repeated, zone.repeated, zone.repeated]);
      expect(new Set(days.map((d) => d.slice(0, 10))).size).toBe(3);
      expect(days[0]!.slice(0, 10)).toBe(zone.fallDay);
      // The first of the two: the second (an hour later in UTC) is not an occurrence.
      const first = Date.parse(runs[0]!);
      expect(isOccurrence({ cron: cronAt(zone.repeated), timezone: zone.timezone }, first)).toBe(true);
      expect(isOccurrence({ cron: cronAt(zone.repeated), timezone: zone.timezone }, first + 3_600_000)).toBe(false);
    });

    test(`${zone.timezone}: a daily tracker runs exactly once on every local day of both changes`, () => {
      for (const from of [zone.spring, zone.fall]) {
        for (const time of ["00:30", "01:30", "02:30", "03:30", "09:00"]) {
          const runs = walk(cronAt(time), zone.timezone, from, 5).map((iso) => local(iso, zone.timezone).slice(0, 10));
          expect(new Set(runs).size).toBe(5);
        }
      }
    });
  }

  test("a zone without daylight saving time is not moved (Asia/Tehran, the control)", () => {
    expect(walk("30 2 * * *", "Asia/Tehran", "2026-03-19T12:00:00Z", 3)).toEqual([
      "2026-03-19T23:00:00.000Z",
      "2026-03-20T23:00:00.000Z",
      "2026-03-21T23:00:00.000Z",
    ]);
  });
});

describe("the occurrence a tick sent without one stands for, across daylight saving time", () => {
  for (const zone of zones) {
    test(`${zone.timezone}: the latest occurrence by the dispatcher's rule, at every 10 minutes around both changes`, () => {
      for (const [from, time] of [
        [zone.spring, zone.gap],
        [zone.fall, zone.repeated],
      ] as const) {
        const schedule = { cron: cronAt(time), timezone: zone.timezone };
        const runs = walk(schedule.cron, schedule.timezone, from, 4).map(Date.parse);
        for (let at = runs[0]!; at < runs[3]!; at += 10 * 60_000) {
          const latest = runs.filter((run) => run <= at).at(-1)!;
          expect(occurrenceAt(schedule, new Date(at)).toISOString()).toBe(new Date(latest).toISOString());
        }
      }
    });

    test(`${zone.timezone}: just after the spring day's moved ${zone.gap} (03:30), it is that day's run, not the day before's`, () => {
      const schedule = { cron: cronAt(zone.gap), timezone: zone.timezone };
      const [moved] = walk(schedule.cron, schedule.timezone, zone.spring, 1);
      const at = new Date(Date.parse(moved!) + 10 * 60_000);
      expect(local(occurrenceAt(schedule, at).toISOString(), zone.timezone)).toBe(`${zone.springDay} 03:30`);
    });

    test(`${zone.timezone}: during the autumn day's second ${zone.repeated}, it is the first`, () => {
      const schedule = { cron: cronAt(zone.repeated), timezone: zone.timezone };
      const [first] = walk(schedule.cron, schedule.timezone, zone.fall, 1);
      const second = Date.parse(first!) + 3_600_000;
      expect(local(new Date(second).toISOString(), zone.timezone)).toBe(`${zone.fallDay} ${zone.repeated}`);
      expect(occurrenceAt(schedule, new Date(second + 10 * 60_000)).toISOString()).toBe(first!);
    });
  }
});

describe("any cron across daylight saving time", () => {
  test("every half hour in New York: the repeated hour counts once, the missing hour's times fall on the next valid ones", () => {
    // Autumn: 01:00 and 01:30 EDT, then 02:00 EST (01:00 and 01:30 EST are repeats).
    expect(walk("*/30 * * * *", "America/New_York", "2026-11-01T04:50:00Z", 4)).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T05:30:00.000Z",
      "2026-11-01T07:00:00.000Z",
      "2026-11-01T07:30:00.000Z",
    ]);
    // Spring: 01:30 EST, then 03:00 EDT (02:00 and 02:30 land on 03:00 and 03:30, counted once).
    expect(walk("*/30 * * * *", "America/New_York", "2026-03-08T06:20:00Z", 3)).toEqual([
      "2026-03-08T06:30:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-08T07:30:00.000Z",
    ]);
  });

  test("a tick sent without its time, every half hour in New York, stands for the latest occurrence the walk gives, at every 5 minutes of both changes", () => {
    const schedule = { cron: "*/30 * * * *", timezone: "America/New_York" };
    for (const from of ["2026-03-08T05:00:00Z", "2026-11-01T04:00:00Z"]) {
      const runs = walk(schedule.cron, schedule.timezone, from, 10).map(Date.parse);
      for (let at = runs[0]!; at < runs[9]!; at += 5 * 60_000) {
        expect(occurrenceAt(schedule, new Date(at)).getTime()).toBe(runs.filter((run) => run <= at).at(-1)!);
      }
    }
  });

  test("a missing time moved onto another occurrence counts once; one moved past a later one keeps the order", () => {
    expect(walk("50 2,3 * * *", "America/New_York", "2026-03-07T12:00:00Z", 3)).toEqual([
      "2026-03-08T07:50:00.000Z",
      "2026-03-09T06:50:00.000Z",
      "2026-03-09T07:50:00.000Z",
    ]);
    // 02:10 and 02:50 move to 03:10 and 03:50 EDT: the same as the day's own 03:10 and 03:50, once each.
    expect(walk("10,50 2,3 * * *", "America/New_York", "2026-03-08T06:00:00Z", 4)).toEqual([
      "2026-03-08T07:10:00.000Z",
      "2026-03-08T07:50:00.000Z",
      "2026-03-09T06:10:00.000Z",
      "2026-03-09T06:50:00.000Z",
    ]);
  });

  test("weekly and monthly schedules read the local calendar day", () => {
    // Monday 09:00 in Sydney is Sunday 22:00 or 23:00 UTC.
    expect(walk("0 9 * * 1", "Australia/Sydney", "2026-04-01T00:00:00Z", 2)).toEqual(["2026-04-05T23:00:00.000Z", "2026-04-12T23:00:00.000Z"]);
    expect(walk("0 0 1 * *", "Europe/Berlin", "2026-03-15T00:00:00Z", 2)).toEqual(["2026-03-31T22:00:00.000Z", "2026-04-30T22:00:00.000Z"]);
  });
});
