import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { trackers } from "#db/schema.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { createAgent } from "#tests/support/agent.ts";
import { createProAgent } from "#tests/support/accounts.ts";
import { createTestApp } from "#tests/support/app.ts";
import { describeEachDatabase } from "#tests/support/databases.ts";
import { selectRows } from "#db/client.ts";

/*
 * A tracker's cron is five fixed fields, and TRACKER_MIN_INTERVAL_MINUTES holds for every tracker:
 * H (which cron-parser draws anew at each parse, so pg-boss's cron pass fired `H * * * *` up to 44
 * times a day, a minute apart), L, W, # and ?, and any blank but a space, are refused naming the
 * token and why; and when the minimum rises, the trackers kept under the old one are paused at the
 * next start, saying why, until their owner gives them a schedule that passes.
 */

const tracker = (cron: string) => ({
  name: "CRM visibility",
  queries: ["best crm for startups"],
  brand: { name: "HubSpot" },
  iterations: 1,
  schedule: { cron, timezone: "UTC" },
});

/** Fire more often than hourly: the probe's expressions refused at the default minimum of 60 (the first seven named in its report), and more of their kind. */
const TOO_OFTEN = [
  "*/30 * * * *",
  "0,1 * * * *",
  "*/59 * * * *",
  "0,59 0,23 * * *",
  "0-1 9 * * *",
  "* * 29 2 *",
  "0/30 * * * *",
  "* * * * *",
  "*/1 * * * *",
  "*/2 * * * *",
  "*/5 * * * *",
  "*/10 * * * *",
  "*/15 * * * *",
  "*/20 * * * *",
  "*/45 * * * *",
  "0,30 * * * *",
  "15,45 * * * *",
  "0-59 * * * *",
  "0,59 * * * *",
  "1-2 9 * * 1",
  "0,1 9 * * 1-5",
  "* 9 * * *",
  "58,59 23 31 12 *",
];

/** Each refused token or character, and the words that must say which and why. */
const REFUSED: Array<[string, string[]]> = [
  ["H * * * *", ['"H" is refused', "H draws a new minute each time the schedule is read"]],
  ["H(18-21) * * * *", ['"H" is refused', "H draws a new minute each time the schedule is read"]],
  ["0 H * * *", ['"H" is refused', "H draws a new hour each time the schedule is read"]],
  ["0 9 L * *", ['"L" is refused', "L (the last day)"]],
  ["0 9 * * 5L", ['"L" is refused', "L (the last day)"]],
  ["0 9 15W * *", ['"W" is refused', "W (the nearest weekday)"]],
  ["0 9 * * 1#2", ['"#" is refused', "nth weekday"]],
  ["0 9 ? * *", ['"?" is refused', "write * instead"]],
  ["0\t9 * * 1", ["a tab (U+0009) is refused", "separated by spaces"]],
  ["0 9 * *\n1", ["a newline (U+000A) is refused"]],
  ["0 9\v* * 1", ["a vertical tab (U+000B) is refused"]],
  ["0 9 * * 1\f", ["a form feed (U+000C) is refused"]],
  ["0 9 * * 1\u200b", ["the character U+200B is refused"]],
  ["0 9 * * MONDAY", ['"MONDAY" is refused']],
  ["MON 9 * * *", ['"MON" is refused', "the minute is a number"]],
  ["0 9 * * 1%2", ['"%" is refused']],
  ["@hourly 9 * * *", ['"@" is refused']],
];

describeEachDatabase("trackers: the cron rule", (getDb) => {
  test("H, L, W, # and ?, and blanks other than spaces, are refused naming the token and why; expressions firing more often than the minimum still are; a cron is kept with single spaces", async () => {
    const { app, queue } = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "60" } });
    try {
      const { agent } = await createProAgent(app, getDb());
      for (const [cron, words] of REFUSED) {
        const answer = await agent.request("POST", "/api/trackers", tracker(cron));
        const message = (answer.json as { message: string }).message;
        expect({ cron, status: answer.status }).toEqual({ cron, status: 400 });
        for (const word of ["schedule.cron", ...words]) expect({ cron, message }).toEqual({ cron, message: expect.stringContaining(word) });
      }
      for (const cron of TOO_OFTEN) {
        const answer = await agent.request("POST", "/api/trackers", tracker(cron));
        expect({ cron, status: answer.status }).toEqual({ cron, status: 400 });
        expect((answer.json as { message: string }).message).toContain("TRACKER_MIN_INTERVAL_MINUTES");
      }
      expect(((await agent.request("POST", "/api/trackers", tracker("0,1 * * * *"))).json as { message: string }).message).toContain("runs every minute");
      for (const cron of ["60 * * * *", "0 24 * * *", "0 0 30 2 *"])
        expect(await agent.request("POST", "/api/trackers", tracker(cron))).toMatchObject({
          status: 400,
          json: { message: expect.stringContaining("schedule.cron") },
        });
      // Nothing refused was kept.
      expect((await getDb().db.select().from(trackers)).length).toBe(0);

      for (const cron of ["0 * * * *", "59 * * * *", "17 */2 * * *", "0 9 * * MON-FRI", "30 18 * * 0", "0 0 1 * *", "0 9 * JAN,JUL 1"])
        expect({ cron, status: (await agent.request("POST", "/api/trackers", tracker(cron))).status }).toEqual({ cron, status: 201 });
      // Runs of spaces are one; the cron is kept as pg-boss is given it.
      const spaced = (await agent.request("POST", "/api/trackers", tracker("  30   9 * *  1 "))).json as Tracker;
      expect(spaced.schedule.cron).toBe("30 9 * * 1");
      expect(spaced.scheduleText).toBe("Every Monday at 09:30 (UTC)");
      // An edit is held to the same rule.
      const edit = await agent.request("PATCH", `/api/trackers/${spaced.id}`, { schedule: { cron: "H(18-21) * * * *", timezone: "UTC" } });
      expect(edit).toMatchObject({ status: 400, json: { message: expect.stringContaining("H draws a new minute each time the schedule is read") } });
      const [kept] = await getDb().db.select({ cron: trackers.cron }).from(trackers).where(eq(trackers.id, spaced.id));
      expect(kept?.cron).toBe("30 9 * * 1");
    } finally {
      await queue.stop();
    }
  });

  test("raising TRACKER_MIN_INTERVAL_MINUTES pauses, at the next start, the trackers that fire more often or hold a token now refused, saying why; resuming takes a schedule that passes", async () => {
    const jar = new Map<string, string>();
    const first = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "1" } });
    const made: Record<string, Tracker> = {};
    try {
      const { agent } = await createProAgent(first.app, getDb(), { jar });
      for (const [name, cron] of [
        ["minutely", "* * * * *"],
        ["half-hourly", "*/30 * * * *"],
        ["weekly", "0 9 * * 1"],
        ["hashed", "0 9 * * 2"],
        ["tabbed", "0 9 * * 3"],
        ["owner-paused", "*/5 * * * *"],
      ] as const) {
        const created = await agent.request("POST", "/api/trackers", { ...tracker(cron), name });
        expect({ name, status: created.status }).toEqual({ name, status: 201 });
        made[name] = created.json as Tracker;
      }
      await agent.api.updateTracker(made["owner-paused"]!.id, { paused: true });
      // Kept by an earlier version, which took H and tabs: written as it kept them.
      await getDb().db.update(trackers).set({ cron: "H * * * *" }).where(eq(trackers.id, made.hashed!.id));
      await getDb().db.update(trackers).set({ cron: "0\t9 * * 3" }).where(eq(trackers.id, made.tabbed!.id));
      expect(await scheduled()).toEqual(new Set([made.minutely!.id, made["half-hourly"]!.id, made.weekly!.id, made.hashed!.id, made.tabbed!.id]));
    } finally {
      await first.queue.stop();
    }

    // The same database, started again with the minimum raised to an hour.
    const second = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "60" } });
    try {
      const agent = createAgent(second.app, { jar });
      const read = async (name: string) => agent.api.getTracker(made[name]!.id);
      for (const name of ["minutely", "half-hourly"]) {
        const paused = await read(name);
        expect(paused).toMatchObject({ paused: true, nextRunAt: null });
        expect(paused.pausedReason).toContain("TRACKER_MIN_INTERVAL_MINUTES is now 60");
        expect(paused.pausedReason).toContain(`runs every ${name === "minutely" ? "minute" : "30 minutes"}`);
        expect(paused.pausedReason).toContain("then resume it");
      }
      const hashed = await read("hashed");
      expect(hashed).toMatchObject({ paused: true, nextRunAt: null });
      expect(hashed.pausedReason).toContain("H draws a new minute each time the schedule is read");
      // Untouched: a schedule that passes, one respaced, and one its owner had paused (no reason of ours; resuming is refused below).
      expect(await read("weekly")).toMatchObject({ paused: false });
      expect(await read("tabbed")).toMatchObject({ paused: false, schedule: { cron: "0 9 * * 3" }, scheduleText: "Every Wednesday at 09:00 (UTC)" });
      const ownerPaused = await read("owner-paused");
      expect(ownerPaused.paused).toBe(true);
      expect(ownerPaused.pausedReason).toBeUndefined();
      // The owner's list says why too; and the paused ones have no next run.
      const listed = (await agent.api.listTrackers()).trackers.find((t) => t.id === made.minutely!.id);
      expect(listed?.pausedReason).toContain("TRACKER_MIN_INTERVAL_MINUTES");
      expect(await scheduled()).toEqual(new Set([made.weekly!.id, made.tabbed!.id]));
      expect((await rowsOf(sql`select cron from trackers where id = ${made.tabbed!.id}`))[0]?.cron).toBe("0 9 * * 3");

      // Resuming with the schedule it has is refused, saying what to do; so is resuming the owner's own pause.
      for (const name of ["minutely", "hashed", "owner-paused"]) {
        const resumed = await agent.request("PATCH", `/api/trackers/${made[name]!.id}`, { paused: false });
        expect({ name, status: resumed.status }).toEqual({ name, status: 400 });
        expect((resumed.json as { message: string }).message).toContain("To resume this tracker, give it a schedule allowed here: schedule.cron");
      }
      // A schedule that passes lifts the reason; resuming is the owner's, and it runs on its new schedule.
      const rescheduled = await agent.api.updateTracker(made.minutely!.id, { schedule: { cron: "0 * * * *", timezone: "UTC" } });
      expect(rescheduled.paused).toBe(true);
      expect(rescheduled.pausedReason).toBeUndefined();
      expect(await agent.api.updateTracker(made.minutely!.id, { paused: false })).toMatchObject({
        paused: false,
        scheduleText: "Every hour at minute 0 (UTC)",
      });
      // Both at once, as the web's form and a script would.
      expect(await agent.api.updateTracker(made.hashed!.id, { paused: false, schedule: { cron: "17 9 * * 2", timezone: "UTC" } })).toMatchObject({
        paused: false,
      });
      expect(await scheduled()).toEqual(new Set([made.weekly!.id, made.tabbed!.id, made.minutely!.id, made.hashed!.id]));
    } finally {
      await second.queue.stop();
    }

    // A start with nothing to change changes nothing.
    const third = await createTestApp(getDb(), { env: { TRACKER_MIN_INTERVAL_MINUTES: "60" } });
    try {
      expect(await createAgent(third.app, { jar }).api.getTracker(made.minutely!.id)).toMatchObject({ paused: false });
    } finally {
      await third.queue.stop();
    }

    /** The trackers of this test with a next run (the dispatcher's schedule: next_run_at). */
    async function scheduled(): Promise<Set<string>> {
      const ours = new Set(Object.values(made).map((t) => t.id));
      return new Set((await rowsOf(sql`select id from trackers where next_run_at is not null`)).map((row) => String(row.id)).filter((id) => ours.has(id)));
    }
  });

  async function rowsOf(query: ReturnType<typeof sql>): Promise<Array<Record<string, unknown>>> {
    return selectRows(getDb().db, query);
  }
});
