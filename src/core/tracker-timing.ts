import type { Tracker, TrackerRun, TrackerStall } from "#src/contract/trackers.ts";
import { relativeTime, type DateInput } from "./dates.ts";

/*
 * When a tracker runs next, how its last run ended and whether its schedule has stalled, in words:
 * the tracker list and page and `aisc track list`/`show` say them alike. Times are written in the
 * tracker's own time zone, the one its schedule is read in ("Dec 7, 2026, 09:00 (Europe/Berlin)"):
 * Intl with a fixed locale and zone writes the same text on the server and in the browser.
 */

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

type Parts = { year: number; month: number; day: number; hour: string; minute: string };

const formats = new Map<string, Intl.DateTimeFormat>();

function partsIn(date: Date, timeZone: string): Parts {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formats.set(timeZone, format);
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => format.formatToParts(date).find((part) => part.type === type)?.value ?? "";
  return { year: Number(get("year")), month: Number(get("month")) - 1, day: Number(get("day")), hour: get("hour"), minute: get("minute") };
}

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Dec 7, 2026, 09:00 (Europe/Berlin)"; with `zone: false`, without the zone. */
export function formatInZone(value: DateInput, timeZone: string, { zone = true }: { zone?: boolean } = {}): string {
  const date = toDate(value);
  if (!date) return "Not available";
  const p = partsIn(date, timeZone);
  return `${MONTHS[p.month]} ${p.day}, ${p.year}, ${p.hour}:${p.minute}${zone ? ` (${timeZone})` : ""}`;
}

/** "09:00" when `value` falls on the same day as `now` in the zone, else "Dec 6, 09:00" (the year too when it differs). */
export function shortInZone(value: DateInput, timeZone: string, now: DateInput = new Date()): string {
  const date = toDate(value);
  const reference = toDate(now) ?? new Date();
  if (!date) return "Not available";
  const p = partsIn(date, timeZone);
  const r = partsIn(reference, timeZone);
  const time = `${p.hour}:${p.minute}`;
  if (p.year === r.year && p.month === r.month && p.day === r.day) return time;
  return `${MONTHS[p.month]} ${p.day}${p.year === r.year ? "" : `, ${p.year}`}, ${time}`;
}

/** A span in words, rounded down: "40 minutes", "3 hours", "2 days". */
export function durationText(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  if (minutes < 60) return unit(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return unit(hours, "hour");
  return unit(Math.floor(hours / 24), "day");
}

/** "in 3 hours", "in 5 minutes", "due now"; a time past reads as relativeTime does ("5 minutes ago"). */
export function fromNow(value: DateInput, now: DateInput = new Date()): string {
  const date = toDate(value);
  const reference = toDate(now) ?? new Date();
  if (!date) return "Unknown date";
  const ms = date.getTime() - reference.getTime();
  if (ms < -45_000) return relativeTime(date, reference);
  if (ms < 60_000) return "due now";
  return `in ${durationText(ms)}`;
}

/** "Dec 7, 2026, 09:00 (Europe/Berlin) · in 3 hours"; a paused tracker's "Paused" (its reason when it has one). */
export function nextRunText(
  tracker: Pick<Tracker, "nextRunAt" | "paused" | "schedule"> & { pausedReason?: string },
  now: DateInput = new Date(),
  timeZone: string = tracker.schedule.timezone,
): string {
  if (tracker.paused) return tracker.pausedReason ? `None while paused: ${tracker.pausedReason}` : "None while paused";
  if (!tracker.nextRunAt) return "None: the schedule does not fire again";
  return `${formatInZone(tracker.nextRunAt, timeZone)} · ${fromNow(tracker.nextRunAt, now)}`;
}

/** A run's status as one word, wherever it is shown (web, CLI). */
export const STATUS_WORD: Record<TrackerRun["status"], string> = {
  queued: "Queued",
  running: "Running",
  completed: "Completed",
  partial: "Partial",
  failed: "Failed",
  skipped: "Skipped",
};

type LastRun = Pick<TrackerRun, "status" | "scheduledFor" | "startedAt" | "finishedAt" | "reason">;

/**
 * When the last run ended and why it did not complete, or since when it has not ended, after its
 * status: "Dec 7, 2026, 09:04 (UTC) · 2 hours ago", "…: the reason" for a skipped or failed run (the
 * reason only when given: a share link's skipped runs have none), "since Dec 7, 2026, 09:00 (UTC) · 3 hours ago".
 */
export function lastRunDetail(run: LastRun, timeZone: string, now: DateInput = new Date()): string {
  if (run.status === "queued" || run.status === "running") {
    const since = run.status === "running" ? (run.startedAt ?? run.scheduledFor) : run.scheduledFor;
    return `since ${formatInZone(since, timeZone)} · ${relativeTime(since, now)}`;
  }
  const ended = run.finishedAt ?? run.startedAt ?? run.scheduledFor;
  const why = run.reason && (run.status === "skipped" || run.status === "failed") ? `: ${run.reason}` : "";
  return `${formatInZone(ended, timeZone)} · ${relativeTime(ended, now)}${why}`;
}

/** "Completed Dec 7, 2026, 09:04 (UTC) · 2 hours ago", "Skipped …: why", "Running since …", "Queued since …"; "Not run yet". */
export function lastRunText(run: LastRun | null, timeZone: string, now: DateInput = new Date()): string {
  return run ? `${STATUS_WORD[run.status]} ${lastRunDetail(run, timeZone, now)}` : "Not run yet";
}

/** The stall in one plain sentence: "The run due at 09:00 did not happen", "This run has been going for 3 hours". */
export function stallText(stall: TrackerStall, timeZone: string, now: DateInput = new Date()): string {
  const reference = toDate(now) ?? new Date();
  if (stall.kind === "missed") return `The run due at ${shortInZone(stall.dueAt, timeZone, reference)} (${timeZone}) did not happen.`;
  const span = durationText(reference.getTime() - new Date(stall.since).getTime());
  if (stall.kind === "queued") return `This run has been waiting to start for ${span}.`;
  return `This run has been going for ${span}, longer than a run of this tracker can take.`;
}

function unit(n: number, name: string): string {
  return `${n} ${name}${n === 1 ? "" : "s"}`;
}
