/**
 * What a /metrics scrape costs on a busy deployment: a throwaway PostgreSQL 15 cluster holding
 * 10,000 hourly trackers and `--runs` of their runs (100 hours of them by default, each tracker's
 * latest still running), `--jobs` finished query jobs in pg-boss and 100,000 spend rows; then 20
 * scrapes, timed, and the plans of the queries over the big tables.
 *
 *   bun bench/metrics-scrape.ts [--runs 1000000] [--jobs 200000]
 */
import { sql } from "drizzle-orm";
import { selectRows } from "#db/client.ts";
import { createMetrics } from "#src/server/metrics/index.ts";
import { createSpend } from "#src/server/services/spend/index.ts";
import { createJobQueue } from "#src/server/jobs/queue.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg("runs", 1_000_000);
const JOBS = arg("jobs", 200_000);
const TRACKERS = 10_000;

const database = await openTestDatabase("postgres");
const { db } = database;
try {
  const queue = createJobQueue(database);
  // pg-boss installs its schema at start; a job per queue makes the queues the scrape lists.
  for (const name of ["tracker-tick", "tracker-run", "tracker-query"]) await queue.send(name, {});
  await queue.stop();

  const started = performance.now();
  await db.execute(sql`insert into users (username, email, password_hash, first_name, last_name) values ('bench', 'bench@example.com', 'x', 'B', 'B')`);
  await db.execute(sql`
    insert into trackers (user_id, name, queries, brand, providers, iterations, cron, timezone)
    select (select id from users limit 1), 'T' || n, '["q"]', '{"name":"B"}', array['openai'], 1, '0 * * * *', 'UTC' from generate_series(1, ${TRACKERS}) n`);
  // Hourly runs going back in time; every tracker's latest one still running.
  await db.execute(sql`
    insert into tracker_runs (tracker_id, trigger, segment, scheduled_for, status, created_at)
    select t.id, 'schedule', 1, now() - (k || ' hours')::interval, case when k = 0 then 'running' else 'completed' end, now() - (k || ' hours')::interval
    from (select id, row_number() over () as i from trackers) t, generate_series(0, ${Math.ceil(RUNS / TRACKERS) - 1}) k`);
  await db.execute(sql`
    insert into pgboss.job (name, data, state, retry_count, start_after, created_on, completed_on)
    select 'tracker-query', '{}', 'completed', n % 3, now() - (n || ' seconds')::interval, now() - (n || ' seconds')::interval, now()
    from generate_series(1, ${JOBS}) n`);
  await db.execute(
    sql`insert into spend (user_id, usd, source, at) select (select id from users limit 1), 0.001, 'tracker', now() - (n || ' seconds')::interval from generate_series(1, 100000) n`,
  );
  await db.execute(sql`analyze`);
  const [counts] = await selectRows<{ runs: string; jobs: string }>(
    db,
    sql`select (select count(*) from tracker_runs) as runs, (select count(*) from pgboss.job) as jobs`,
  );
  console.log(`loaded ${counts?.runs} runs, ${counts?.jobs} jobs, 100000 spend rows in ${Math.round(performance.now() - started)} ms`);

  const spend = createSpend({ db, limits: { account: 20, deployment: 200, trackerShare: 0.5 } });
  const metrics = createMetrics({ db, spend });
  await metrics.render();
  const timeScrapes = async (what: string) => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await metrics.render();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    console.log(`scrape, ${what}: median ${times[10]?.toFixed(1)} ms, max ${times[19]?.toFixed(1)} ms (20 scrapes)`);
  };
  await timeScrapes("with tracker_runs_created_idx");
  for (const query of [
    sql`explain analyze select status, count(*) as count from tracker_runs where created_at > now() - interval '24 hours' group by status`,
    sql`explain analyze select count(*) filter (where status = 'queued') as queued, min(scheduled_for) from tracker_runs where status in ('queued', 'running')`,
    sql`explain analyze select state::text as state, sum(retry_count) as retries from pgboss.job where name = 'tracker-query' and created_on > now() - interval '24 hours' group by state`,
  ]) {
    const plan = await selectRows<{ "QUERY PLAN": string }>(db, query);
    console.log(plan.map((row) => row["QUERY PLAN"]).join("\n"), "\n");
  }
  await db.execute(sql`drop index tracker_runs_created_idx`);
  await timeScrapes("without it");
} finally {
  await database.close();
}
