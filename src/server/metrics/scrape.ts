import { sql } from "drizzle-orm";
import { type Db, selectRows } from "#db/client.ts";
import type { SpendService } from "#src/server/services/spend/index.ts";

/** One gauge as read now: its samples, each with its labels. */
export type GaugeReading = { name: string; help: string; labelNames: string[]; samples: Array<{ labels: Record<string, string>; value: number }> };

/** Gauges read from the database at scrape time, together: one failing read leaves all of its gauges out. */
export type ScrapeFamily = { name: string; read(): Promise<GaugeReading[]> };

const SAME_EVERYWHERE = "Read from the database at scrape time: the same on every instance, not to be summed across them.";

/**
 * The deployment's state, read at each scrape. Every query is bounded by an index: tracker_runs by
 * its partial index of active runs and by created_at; pg-boss's job table by its index of live jobs
 * by queue and its index of jobs by queue and creation time; provider_slots holds at most
 * PROVIDER_CONCURRENCY_TOTAL rows a provider; spend and spend_holds by their time indexes.
 */
export function scrapeFamilies({ db, spend }: { db: Db; spend: Pick<SpendService, "today"> }): ScrapeFamily[] {
  const rows = <T>(query: ReturnType<typeof sql>) => selectRows<T>(db, query);
  return [
    {
      name: "aisc_tracker_runs",
      async read() {
        const recent = await rows<{ status: string; count: number | string }>(
          sql`select status, count(*) as count from tracker_runs where created_at > now() - interval '24 hours' group by status`,
        );
        const [active] = await rows<{ queued: number | string; running: number | string; oldest: number | string | null }>(
          sql`select count(*) filter (where status = 'queued') as queued, count(*) filter (where status = 'running') as running,
                extract(epoch from now() - min(scheduled_for) filter (where status = 'queued')) as oldest
              from tracker_runs where status in ('queued', 'running')`,
        );
        return [
          {
            name: "aisc_tracker_runs_last_24h",
            help: `Trackers' runs made in the last 24 hours, by status (queued, running, completed, partial, failed, skipped). ${SAME_EVERYWHERE}`,
            labelNames: ["status"],
            samples: recent.map((row) => ({ labels: { status: row.status }, value: Number(row.count) })),
          },
          {
            name: "aisc_tracker_runs_active",
            help: `Trackers' runs queued or running now, whenever made: a run that stays here is stuck. ${SAME_EVERYWHERE}`,
            labelNames: ["status"],
            samples: [
              { labels: { status: "queued" }, value: Number(active?.queued ?? 0) },
              { labels: { status: "running" }, value: Number(active?.running ?? 0) },
            ],
          },
          {
            name: "aisc_tracker_oldest_queued_run_seconds",
            help: `Seconds since the schedule time of the oldest run still queued (not started); 0 when none is. ${SAME_EVERYWHERE}`,
            labelNames: [],
            samples: [{ labels: {}, value: Math.max(0, Number(active?.oldest ?? 0)) }],
          },
        ];
      },
    },
    {
      name: "aisc_job_queues",
      async read() {
        // Every queue, empty ones at 0: due jobs are those waiting (created or to retry) whose start time has come.
        const queues = await rows<{ name: string; depth: number | string; oldest: number | string | null }>(
          sql`select q.name, count(j.id) as depth, extract(epoch from now() - min(j.start_after)) as oldest
              from pgboss.queue q
              left join pgboss.job j on j.name = q.name and j.state in ('created', 'retry') and j.start_after <= now()
              group by q.name`,
        );
        const retries = await rows<{ state: string; retries: number | string }>(
          sql`select state::text as state, sum(retry_count) as retries from pgboss.job
              where name = 'tracker-query' and created_on > now() - interval '24 hours' group by state`,
        );
        return [
          {
            name: "aisc_job_queue_depth",
            help: `Jobs due and not yet taken (pg-boss states created and retry, start time passed), by queue. ${SAME_EVERYWHERE}`,
            labelNames: ["queue"],
            samples: queues.map((row) => ({ labels: { queue: row.name }, value: Number(row.depth) })),
          },
          {
            name: "aisc_job_queue_oldest_due_seconds",
            help: `Seconds the oldest due job of each queue has waited since its start time; 0 when none is due. ${SAME_EVERYWHERE}`,
            labelNames: ["queue"],
            samples: queues.map((row) => ({ labels: { queue: row.name }, value: Math.max(0, Number(row.oldest ?? 0)) })),
          },
          {
            name: "aisc_tracker_query_job_retries_last_24h",
            help: `Retries of trackers' query jobs created in the last 24 hours (the sum of pg-boss's retry_count: an instance died, the database was away, the job expired), by the job's state now. ${SAME_EVERYWHERE}`,
            labelNames: ["state"],
            samples: retries.map((row) => ({ labels: { state: row.state }, value: Number(row.retries ?? 0) })),
          },
        ];
      },
    },
    {
      name: "aisc_provider_slots",
      async read() {
        const slots = await rows<{ provider: string; count: number | string }>(sql`select provider, count(*) as count from provider_slots group by provider`);
        return [
          {
            name: "aisc_provider_slots_in_use",
            help: `Slots of PROVIDER_CONCURRENCY_TOTAL held now by trackers' calls on every instance (rows of provider_slots, a dead instance's until taken over), by provider. ${SAME_EVERYWHERE}`,
            labelNames: ["provider"],
            samples: slots.map((row) => ({ labels: { provider: row.provider }, value: Number(row.count) })),
          },
        ];
      },
    },
    {
      name: "aisc_spend",
      async read() {
        const { recorded, held } = await spend.today();
        const bySource = (totals: Record<string, number>) => Object.entries(totals).map(([source, usd]) => ({ labels: { source }, value: Math.max(0, usd) }));
        return [
          {
            name: "aisc_spend_today_usd",
            help: `USD recorded today (UTC) for provider answers, by source (search: people's searches, the CLI, MCP, variant batches; tracker: trackers' runs), as the daily limits count it. ${SAME_EVERYWHERE}`,
            labelNames: ["source"],
            samples: bySource(recorded),
          },
          {
            name: "aisc_spend_held_usd",
            help: `USD held now by admitted searches and runs still going (their estimates, less what they have recorded), by source. ${SAME_EVERYWHERE}`,
            labelNames: ["source"],
            samples: bySource(held),
          },
        ];
      },
    },
  ];
}
