import { asc, eq } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackers, users } from "#db/schema.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { visibleText } from "#src/core/display-text.ts";
import type { JobQueue } from "../job-queue.ts";
import type { Outbox } from "../mail/outbox.ts";
import type { Alerts } from "./alerts.ts";
import type { Rollups } from "./rollups.ts";
import { describeSchedule } from "./schedule.ts";
import { alertInWords, missedInWords } from "./words.ts";

/** The weekly digest: one pg-boss schedule for the deployment. */
const DIGEST = "tracker-digest";
const DIGEST_CRON = "0 8 * * 1";
const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Trackers' e-mails (ADR 053), for the users who asked for them and proved their
 * address, through the outbox (its daily cap and unsubscribe links): one e-mail per run that found
 * alerts, with all of them, and a weekly digest (Mondays, 08:00 UTC) of every tracker's brand
 * mentions per provider in its latest run, whether the week told a change of it, and the week's
 * alerts. What users wrote (names, brands, questions) is shown through `visibleText`, on one line
 * each, an invisible character named; none of it is in a Subject. Sent through SMTP_URL; none without it.
 */
export function createTrackerEmails({
  db,
  queue,
  outbox,
  alerts,
  rollups,
  clock = () => new Date(),
}: {
  db: Db;
  queue: JobQueue;
  outbox: Pick<Outbox, "configured" | "deliver" | "publicUrl">;
  alerts: Pick<Alerts, "list">;
  rollups: Pick<Rollups, "trend">;
  clock?: () => Date;
}) {
  queue.work<Record<string, never>>(DIGEST, { concurrency: 1 }, () => digest());
  let scheduled = false;

  return {
    /** The digest's schedule, made (once, idempotently) when a tracker is saved on a server that sends e-mail. */
    async ensureDigest(): Promise<void> {
      if (scheduled || !outbox.configured) return;
      await queue.schedule(DIGEST, DIGEST_CRON, {}, { timezone: "UTC", key: "weekly" });
      scheduled = true;
    },

    /**
     * A run's new alerts, in one e-mail to the tracker's owner if they asked for alert e-mails. Its
     * Subject says only how many ("Your tracker has 3 new alerts"): the tracker's name is the
     * first line of the text.
     */
    async alerted(trackerId: string, found: readonly TrackerAlert[]): Promise<void> {
      if (!outbox.configured || found.length === 0) return;
      const [tracker] = await db.select({ userId: trackers.userId, name: trackers.name }).from(trackers).where(eq(trackers.id, trackerId)).limit(1);
      if (!tracker) return;
      await outbox.deliver(tracker.userId, "alerts", () => {
        const name = visibleText(tracker.name);
        const count = found.length === 1 ? "1 new alert" : `${found.length} new alerts`;
        return {
          subject: `Your tracker has ${count}`,
          text: [
            `${name}: ${count} from its latest run.`,
            "",
            ...found.map((alert) => `- ${alertLine(name, alert)}`),
            "",
            `The tracker: ${outbox.publicUrl}/trackers/${trackerId}`,
          ].join("\n"),
        };
      });
    },

    /**
     * A due run that did not happen (./missed.ts tells each once, and e-mails once a stall), to the
     * tracker's owner if they asked for alert e-mails. The Subject holds nothing a user wrote.
     * `mailId` is the miss's own, so that its teller, retried, sends it once.
     */
    async missed(trackerId: string, { dueAt, reason }: { dueAt: Date; reason: string }, mailId: string): Promise<void> {
      if (!outbox.configured) return;
      const [tracker] = await db
        .select({ userId: trackers.userId, name: trackers.name, timezone: trackers.timezone })
        .from(trackers)
        .where(eq(trackers.id, trackerId))
        .limit(1);
      if (!tracker) return;
      await outbox.deliver(
        tracker.userId,
        "alerts",
        () => ({
          subject: "A scheduled run of your tracker did not happen",
          text: [
            visibleText(missedInWords(tracker.name, { dueAt: dueAt.toISOString(), reason }, tracker.timezone)),
            "",
            "Its trend has no point for that time. The next run is on schedule; Run now on the tracker's page fills the gap today.",
            "Until a run happens again, a later miss of this tracker is shown in the bell and sent to its webhook, not e-mailed.",
            "",
            `The tracker: ${outbox.publicUrl}/trackers/${trackerId}`,
          ].join("\n"),
        }),
        { id: mailId },
      );
    },

    /** Sends every digest now: what the schedule does each Monday. */
    digest,
  };

  async function digest(): Promise<void> {
    if (!outbox.configured) return;
    const since = new Date(clock().getTime() - WEEK_MS);
    const owners = await db.select({ id: users.id }).from(users).where(eq(users.digestEmails, true));
    for (const owner of owners) {
      const theirs = await db.select().from(trackers).where(eq(trackers.userId, owner.id)).orderBy(asc(trackers.createdAt));
      if (theirs.length === 0) continue;
      const sections: string[] = [];
      for (const tracker of theirs) sections.push(await section(tracker, since));
      await outbox.deliver(owner.id, "digest", () => ({ subject: `Your trackers this week (${theirs.length})`, text: sections.join("\n\n") }));
    }
  }

  /**
   * A tracker's week: per provider, the brand's mention rate in the latest run with its band for
   * the tracker's rate (ADR 050), and whether the week told a rise or a fall of it (the alerts'
   * test: a run-to-run difference alone is not a change); then the week's alerts.
   */
  async function section(tracker: typeof trackers.$inferSelect, since: Date): Promise<string> {
    const name = visibleText(tracker.name);
    const lines = [`${name} — ${visibleText(describeSchedule({ cron: tracker.cron, timezone: tracker.timezone }))}`];
    const { points } = await rollups.trend(tracker.id, { metric: "mention", from: since.toISOString() });
    const week = (await alerts.list(tracker.id)).filter((alert) => new Date(alert.at) >= since);
    const brand = points.filter((point) => point.isBrand);
    const providers = providerIds.filter((id) => brand.some((point) => point.provider === id));
    if (providers.length === 0) lines.push("  No run this week.");
    for (const provider of providers) {
      const last = brand.filter((point) => point.provider === provider).at(-1)!;
      const rate = last.rate === null ? "no answers" : `${last.rate}% (${last.low}–${last.high}%, n=${last.n})`;
      const told = week.filter(
        (alert) => alert.provider === provider && alert.metric === "mention" && !alert.query && alert.subject?.toLowerCase() === last.subject.toLowerCase(),
      );
      const change =
        told.length > 0 ? told.map((alert) => `${alert.kind} (${alert.before?.rate}% → ${alert.after?.rate}%)`).join(", then ") : "no clear change";
      lines.push(`  ${providerCatalogue[provider].name}: ${visibleText(last.subject)} named in ${rate} of answers in the latest run; this week: ${change}.`);
    }
    lines.push(week.length === 0 ? "  No alert this week." : `  Alerts this week (${week.length}):`);
    for (const alert of week) lines.push(`    ${alertLine(name, alert)}`);
    return lines.join("\n");
  }
}

export type TrackerEmails = ReturnType<typeof createTrackerEmails>;

/** An alert in the words the Slack text uses, with what users wrote in it (its brand or competitor, its question) on one line, as written. */
export function alertLine(name: string, alert: TrackerAlert): string {
  return visibleText(
    alertInWords(name, {
      ...alert,
      ...(alert.subject ? { subject: visibleText(alert.subject) } : {}),
      ...(alert.query ? { query: visibleText(alert.query) } : {}),
    }),
  );
}
