import { and, eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers } from "#db/schema.ts";
import type { TrackerEngine } from "./engine.ts";
import { formatMinutes, normalCron, scheduleRefusal, type ScheduleRefusal } from "./schedule.ts";

/** How a pause made by this check begins: a schedule change that passes lifts the reason (./index.ts). */
export const SCHEDULE_PAUSE = "Paused when the server started:";

export type SchedulesCheckDeps = {
  db: Db;
  engine: Pick<TrackerEngine, "schedule" | "unschedule" | "needsSchedule">;
  /** TRACKER_MIN_INTERVAL_MINUTES. */
  minIntervalMinutes: number;
  clock?: () => Date;
};

/** What a check at start did: trackers paused (their schedule refused now), crons kept again with single spaces, next runs repaired. */
export type SchedulesChecked = { paused: string[]; respaced: string[]; repaired: string[] };

/**
 * Every tracker's schedule checked again at start, by whichever instance starts, against the rules
 * in force now (ADR 043): a raised TRACKER_MIN_INTERVAL_MINUTES, or a cron token no longer kept
 * (H, L, W, #, ?). A running tracker whose schedule is refused is paused, with the reason in words
 * its owner sees, and its pg-boss schedule removed; resuming it takes a schedule that passes. A
 * tracker already paused by its owner is left so: resuming it is refused the same way. A cron kept
 * with tabs or newlines between its fields (accepted before) is kept again with single spaces.
 * A tracker's next run (`next_run_at`, the schedule itself: ADR 055) missing, left while paused,
 * or not an occurrence of its schedule (edited by hand) is computed again.
 * Running it twice, or on two instances at once, changes nothing more.
 */
export function createSchedulesCheck({ db, engine, minIntervalMinutes, clock = () => new Date() }: SchedulesCheckDeps) {
  return async function checkSchedules(): Promise<SchedulesChecked> {
    const rows = await db
      .select({
        id: trackers.id,
        cron: trackers.cron,
        timezone: trackers.timezone,
        paused: trackers.paused,
        pausedReason: trackers.pausedReason,
        nextRunAt: trackers.nextRunAt,
      })
      .from(trackers);
    const checked: SchedulesChecked = { paused: [], respaced: [], repaired: [] };
    // Trackers on one schedule mostly share their next run: each is checked once.
    const repairs = new Map<string, boolean>();
    // Most trackers share a few schedules (the web's presets): each is walked once.
    const refusals = new Map<string, ScheduleRefusal | null>();
    for (const row of rows) {
      const cron = normalCron(row.cron);
      const key = `${row.timezone} ${cron}`;
      if (!refusals.has(key)) refusals.set(key, scheduleRefusal({ cron, timezone: row.timezone }, minIntervalMinutes));
      const refusal = refusals.get(key) ?? null;
      if (refusal) {
        if (row.paused) continue;
        // Only the row as read: an owner's edit made meanwhile is theirs to keep.
        const [paused] = await db
          .update(trackers)
          .set({ paused: true, pausedReason: pauseReason(row.cron, refusal, minIntervalMinutes), updatedAt: clock() })
          .where(and(eq(trackers.id, row.id), eq(trackers.cron, row.cron), eq(trackers.paused, false)))
          .returning({ id: trackers.id });
        if (!paused) continue;
        await engine.unschedule(row.id);
        checked.paused.push(row.id);
      } else if (cron !== row.cron) {
        const [respaced] = await db
          .update(trackers)
          .set({ cron })
          .where(and(eq(trackers.id, row.id), eq(trackers.cron, row.cron)))
          .returning();
        if (!respaced) continue;
        await engine.schedule(respaced);
        checked.respaced.push(row.id);
      } else {
        const key = `${row.timezone} ${row.cron} ${row.paused} ${row.pausedReason !== null} ${row.nextRunAt?.getTime()}`;
        if (!repairs.has(key)) repairs.set(key, engine.needsSchedule(row));
        if (!repairs.get(key)) continue;
        await engine.schedule({ ...row, nextRunAt: null });
        checked.repaired.push(row.id);
      }
    }
    return checked;
  };
}

/** Why the check paused a tracker, naming the rule (and the variable with its value) and what to do. */
export function pauseReason(cron: string, refusal: ScheduleRefusal, minIntervalMinutes: number): string {
  const schedule = `its schedule ${JSON.stringify(cron)}`;
  if (refusal.kind === "interval")
    return (
      `${SCHEDULE_PAUSE} ${schedule} runs every ${formatMinutes(refusal.everyMinutes)}, and TRACKER_MIN_INTERVAL_MINUTES is now ${minIntervalMinutes}: ` +
      `trackers may run at most every ${formatMinutes(minIntervalMinutes)} here. Give it a schedule that does, then resume it.`
    );
  const why = refusal.refused ? `${refusal.refused.what} is refused: ${refusal.refused.why}` : refusal.message;
  return `${SCHEDULE_PAUSE} ${schedule} is no longer accepted: ${why}. Give it another schedule, then resume it.`;
}
