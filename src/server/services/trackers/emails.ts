import { and, asc, eq, gte } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { trackerRollups, trackers, users } from "#db/schema.ts";
import { providerCatalogue, type ProviderId } from "#src/contract/providers.ts";
import type { TrackerAlert } from "#src/contract/trend.ts";
import { metricOf } from "#src/core/trend.ts";
import type { JobQueue } from "../job-queue.ts";
import type { Mailer, MailMessage } from "../mail/index.ts";
import type { Alerts } from "./alerts.ts";
import { describeSchedule } from "./schedule.ts";
import { alertInWords } from "./words.ts";

/** One e-mail, retried with backoff while the SMTP server refuses it. */
const SEND = "tracker-email";
/** The weekly digest: one pg-boss schedule for the deployment. */
const DIGEST = "tracker-digest";
const DIGEST_CRON = "0 8 * * 1";
const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Trackers' e-mails (issue 26), for the users who asked for them: each alert as it comes, and a
 * weekly digest (Mondays, 08:00 UTC) of every tracker's brand mentions per provider, the latest run
 * against the first of the week, with the week's alerts. Sent through SMTP_URL; none without it.
 */
export function createTrackerEmails({
  db,
  queue,
  mailer,
  alerts,
  clock = () => new Date(),
}: {
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  alerts: Pick<Alerts, "list">;
  clock?: () => Date;
}) {
  queue.work<MailMessage>(SEND, { concurrency: 2 }, (message) => mailer.send(message));
  queue.work<Record<string, never>>(DIGEST, { concurrency: 1 }, () => digest());
  let scheduled = false;

  return {
    /** The digest's schedule, made (once, idempotently) when a tracker is saved on a server that sends e-mail. */
    async ensureDigest(): Promise<void> {
      if (scheduled || !mailer.configured) return;
      await queue.schedule(DIGEST, DIGEST_CRON, {}, { timezone: "UTC", key: "weekly" });
      scheduled = true;
    },

    /** A run's new alerts, to the tracker's owner if they asked for alert e-mails. */
    async alerted(trackerId: string, found: readonly TrackerAlert[]): Promise<void> {
      if (!mailer.configured || found.length === 0) return;
      const [owner] = await db
        .select({ email: users.email, wanted: users.alertEmails, name: trackers.name })
        .from(trackers)
        .innerJoin(users, eq(users.id, trackers.userId))
        .where(eq(trackers.id, trackerId))
        .limit(1);
      if (!owner?.wanted) return;
      for (const alert of found)
        await send({
          to: owner.email,
          subject: `${owner.name}: ${alert.kind === "model-changed" ? "a model changed" : `${alert.subject} ${alert.kind}`}`,
          text: `${alertInWords(owner.name, alert)}\n`,
        });
    },

    /** Sends every digest now: what the schedule does each Monday. */
    digest,
  };

  async function send(message: MailMessage): Promise<void> {
    await queue.send(SEND, message, { retryLimit: 6, retryDelaySeconds: 30, retryBackoff: true });
  }

  async function digest(): Promise<void> {
    if (!mailer.configured) return;
    const since = new Date(clock().getTime() - WEEK_MS);
    const owners = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.digestEmails, true));
    for (const owner of owners) {
      const theirs = await db.select().from(trackers).where(eq(trackers.userId, owner.id)).orderBy(asc(trackers.createdAt));
      if (theirs.length === 0) continue;
      const sections: string[] = [];
      for (const tracker of theirs) sections.push(await section(tracker, since));
      await send({ to: owner.email, subject: `Your trackers this week (${theirs.length})`, text: `${sections.join("\n\n")}\n` });
    }
  }

  /** A tracker's week: per provider, the brand's mention rate in the latest run against the first of the week; then its alerts. */
  async function section(tracker: typeof trackers.$inferSelect, since: Date): Promise<string> {
    const lines = [`${tracker.name} — ${describeSchedule({ cron: tracker.cron, timezone: tracker.timezone })}`];
    const rows = await db
      .select()
      .from(trackerRollups)
      .where(and(eq(trackerRollups.trackerId, tracker.id), eq(trackerRollups.query, ""), eq(trackerRollups.isBrand, true), gte(trackerRollups.at, since)))
      .orderBy(asc(trackerRollups.at));
    const providers = [...new Set(rows.map((row) => row.provider as ProviderId))];
    if (providers.length === 0) lines.push("  No run this week.");
    for (const provider of providers) {
      const runs = rows.filter((row) => row.provider === provider);
      const first = runs[0]!;
      const last = runs.at(-1)!;
      const rate = (row: typeof first) => {
        const { rate: value, low, high, n } = metricOf("mention", row);
        return value === null ? "no answers" : `${value}% (${low}–${high}%, n=${n})`;
      };
      const change = runs.length > 1 ? `, from ${rate(first)} in the week's first run` : "";
      lines.push(`  ${providerCatalogue[provider].name}: ${last.subject} named in ${rate(last)} of answers in the latest run${change}.`);
    }
    const week = (await alerts.list(tracker.id)).filter((alert) => new Date(alert.at) >= since);
    lines.push(week.length === 0 ? "  No alert this week." : `  Alerts this week (${week.length}):`);
    for (const alert of week) lines.push(`    ${alertInWords(tracker.name, alert)}`);
    return lines.join("\n");
  }
}

export type TrackerEmails = ReturnType<typeof createTrackerEmails>;
