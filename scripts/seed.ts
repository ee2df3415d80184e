/**
 * Fills a database with saved searches for one user, for trying the history at scale and for
 * bench/history.ts. A few searches run for real (the app in this process, providers on the
 * loopback simulator, labelled Simulated like any simulated search); the rest are copies of them,
 * one a minute back in time, so the rows are what the app writes. The user is created if missing
 * (and made Pro, so the copies are not free searches) and signs in with the printed password.
 *
 *   bun run seed --searches 10000 [--user seed] [--password seed-password]
 *
 * With --tracker-days it seeds a tracker's history instead: the user's tracker of
 * --tracker-queries questions (default 50) × every provider × --iterations (default 10), run once for
 * real, then copied by SQL into one run a day going back (seedTracker below):
 *
 *   bun run seed --tracker-days 365 [--tracker-queries 50] [--iterations 10] [--user seed]
 *
 * It writes where the server would read: DATABASE_URL, or PGlite under DATA_DIR (default ./data).
 * On PGlite it takes DATA_DIR as the server does (ADR 024): while a server runs there it is refused
 * (exit 11, naming the server's pid); stop the server first.
 */
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq, sql } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { searches, subscriptions, trackerCalls, trackerRollups, trackerRunQueries, trackerRuns, trackerSourceRollups, users } from "#db/schema.ts";
import { createApiClient } from "#src/client/api.ts";
import { MAX_ITERATIONS } from "#src/contract/constants.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import { DEFAULT_MAX_TRACKER_RUN_ANSWERS } from "#src/server/env.ts";
import { MAX_TRACKER_QUERIES, type TrackerRun } from "#src/contract/trackers.ts";
import { assembleOrExit } from "#src/server/assemble.ts";
import { createOwnerOnly } from "#src/server/owner-only.ts";

/** Queries of different catalogue categories, so the copies are not all one answer. */
const QUERIES = [
  "best running shoes",
  "best project management software",
  "best noise cancelling headphones",
  "best password manager",
  "best espresso machine",
];

export type SeedOptions = { searches: number; username?: string; password?: string };

/**
 * Seeds `database` (migrated) with `searches` completed searches for one user; returns the user's
 * id and the ids of the searches. `handle` is the app the real searches run through.
 */
export async function seedSearches(database: Database, handle: typeof fetch, { searches: count, username = "seed", password = "seed-password" }: SeedOptions) {
  const { db } = database;
  const json = { "content-type": "application/json" };
  const auth = await handle("http://localhost/api/login", { method: "POST", headers: json, body: JSON.stringify({ username, password }) });
  const signedIn = auth.ok
    ? auth
    : await handle("http://localhost/api/register", {
        method: "POST",
        headers: json,
        body: JSON.stringify({ username, email: `${username}@example.com`, password }),
      });
  if (!signedIn.ok) throw new Error(`could not sign in or register ${username}: ${signedIn.status} ${await signedIn.text()}`);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (!user) throw new Error(`no user ${username}`);
  await db
    .insert(subscriptions)
    .values({ id: `sub_seed_${user.id}`, userId: user.id, stripeCustomerId: `cus_seed_${user.id}`, status: "active" })
    .onConflictDoNothing();
  const cookie = signedIn.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie } });

  const originals: string[] = [];
  for (const query of QUERIES.slice(0, Math.min(count, QUERIES.length))) originals.push((await api.search({ query, iterations: 1 })).result.id);
  const copies = count - originals.length;
  // Each copy: one of the real rows, created `n` minutes before now, so pages of history go back in time.
  for (let from = 1; from <= copies; from += 1000) {
    const to = Math.min(copies, from + 999);
    await db.execute(sql`
      insert into ${searches} (user_id, query, iterations, options, result, total_products, total_companies, total_links, iteration_count, status, simulated, created_at, completed_at)
      select s.user_id, s.query, s.iterations, s.options, s.result, s.total_products, s.total_companies, s.total_links, s.iteration_count, s.status, s.simulated,
             now() - make_interval(mins => n), now() - make_interval(mins => n)
      from generate_series(${from}::int, ${to}::int) as n
      join ${searches} s on s.id = (array[${sql.join(
        originals.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}])[1 + n % ${originals.length}]`);
  }
  return { userId: user.id, originals, cookie };
}

export type TrackerSeedOptions = {
  days: number;
  queries?: number;
  iterations?: number;
  /** Default: the catalogue's, as many as a run of its size may ask at the default MAX_TRACKER_RUN_ANSWERS (three for 50 × 10). */
  providers?: ProviderId[];
  username?: string;
  password?: string;
};

/** Its questions: one category (CRM), so that the brand and its competitors are named in the answers. */
const TRACKER_DEFINITION = {
  name: "Seeded CRM visibility",
  brand: { name: "HubSpot", domains: ["hubspot.com"] },
  competitors: [{ name: "Salesforce", domains: ["salesforce.com"] }, { name: "Pipedrive", domains: ["pipedrive.com"] }, { name: "Zoho CRM" }],
  schedule: { cron: "0 9 * * *", timezone: "UTC" },
};

/**
 * Seeds `database` (migrated) with a year (`days`) of a daily tracker's runs for one Pro user: the
 * tracker is made through the API and run once for real (Run now, on the simulator, through the
 * job queue); the `days - 1` days before it are copies of that run made by SQL, one a day going
 * back: its run row (completed, as a schedule's), its queries, their saved searches (marked with
 * the tracker and the copy's run) and its rollups (subjects' and cited sources'). The answers being the same, the rollups copied
 * equal what the run's end would write from the copied searches. The ledger of provider calls
 * (tracker_calls, the answers again) is not copied: nothing past a run's end reads it but the
 * run's page for its answer counts and cost, which show none for the copies.
 */
export async function seedTracker(
  database: Database,
  handle: typeof fetch,
  { days, queries = 50, iterations = 10, providers, username = "seed", password = "seed-password" }: TrackerSeedOptions,
) {
  const { db } = database;
  const { userId, cookie } = await seedSearches(database, handle, { searches: 0, username, password });
  const api = createApiClient({ baseUrl: "http://localhost", fetch: handle, headers: { cookie } });
  const tracker = await api.createTracker({
    ...TRACKER_DEFINITION,
    queries: Array.from({ length: queries }, (_, i) => `best crm for small teams, question ${i + 1}`),
    iterations,
    providers: providers ?? providerIds.slice(0, Math.max(1, Math.floor(DEFAULT_MAX_TRACKER_RUN_ANSWERS / (queries * iterations)))),
  });
  const started = performance.now();
  const { run } = await api.runTracker(tracker.id);
  let real: TrackerRun = run;
  while (real.status === "queued" || real.status === "running") {
    await Bun.sleep(50);
    real = await api.getTrackerRun(tracker.id, run.id);
  }
  if (real.status !== "completed") throw new Error(`the seed's run ended ${real.status}${real.reason ? `: ${real.reason}` : ""}`);

  const ran = performance.now();
  // Copies in chunks of days, so that no one statement holds a year of answers.
  for (let from = 1; from < days; from += 30) {
    const to = Math.min(days - 1, from + 29);
    await db.execute(sql`
      insert into ${trackerRuns} (tracker_id, status, trigger, segment, scheduled_for, started_at, finished_at, expected, definition, created_at)
      select r.tracker_id, 'completed', 'schedule', r.segment, r.scheduled_for - make_interval(days => d), r.started_at - make_interval(days => d),
             r.finished_at - make_interval(days => d), r.expected, r.definition, r.created_at - make_interval(days => d)
      from ${trackerRuns} r, generate_series(${from}::int, ${to}::int) as d
      where r.id = ${run.id}`);
    // This chunk's copies, with how far back each is from the real run.
    const copies = sql`
      select c.id, c.scheduled_for - r.scheduled_for as shift
      from ${trackerRuns} c join ${trackerRuns} r on r.id = ${run.id}
      where c.tracker_id = r.tracker_id and c.trigger = 'schedule'
        and c.scheduled_for between r.scheduled_for - make_interval(days => ${to}::int) and r.scheduled_for - make_interval(days => ${from}::int)`;
    // Each copy's queries, each with a new saved search copied from the real run's for that query.
    await db.execute(sql`
      with items as materialized (
        select gen_random_uuid() as search_id, c.id as run_id, c.shift, q.position, q.query, q.search_id as original, q.finished_at
        from (${copies}) c cross join ${trackerRunQueries} q
        where q.run_id = ${run.id} and q.search_id is not null
      ), saved as (
        insert into ${searches} (id, user_id, query, iterations, options, result, total_products, total_companies, total_links, iteration_count, status, simulated,
                                 cost_usd, tracker_id, run_id, created_at, completed_at)
        select i.search_id, s.user_id, s.query, s.iterations, s.options, s.result, s.total_products, s.total_companies, s.total_links, s.iteration_count, s.status,
               s.simulated, s.cost_usd, s.tracker_id, i.run_id, s.created_at + i.shift, s.completed_at + i.shift
        from items i join ${searches} s on s.id = i.original
      )
      insert into ${trackerRunQueries} (run_id, position, query, search_id, finished_at)
      select i.run_id, i.position, i.query, i.search_id, i.finished_at + i.shift from items i`);
    await db.execute(sql`
      insert into ${trackerRollups} (run_id, tracker_id, at, query, provider, subject, is_brand, answers, mentions, all_mentions, cited, ranked, position_sum,
                                     position_squares, co_mentions, mention_squares, model_version)
      select c.id, o.tracker_id, o.at + c.shift, o.query, o.provider, o.subject, o.is_brand, o.answers, o.mentions, o.all_mentions, o.cited, o.ranked,
             o.position_sum, o.position_squares, o.co_mentions, o.mention_squares, o.model_version
      from (${copies}) c cross join ${trackerRollups} o
      where o.run_id = ${run.id}`);
    // The run's ledger, so a copy's page counts its answers and cost as the real run's does (its answers are in the saved searches; a finished run's ledger needs none).
    await db.execute(sql`
      insert into ${trackerCalls} (run_id, position, provider, iteration, status, instance_id, attempts, cost_usd, simulated)
      select c.id, o.position, o.provider, o.iteration, o.status, o.instance_id, o.attempts, o.cost_usd, o.simulated
      from (${copies}) c cross join ${trackerCalls} o
      where o.run_id = ${run.id}`);
    await db.execute(sql`
      insert into ${trackerSourceRollups} (run_id, tracker_id, at, provider, domain, answers, with_brand, with_competitor)
      select c.id, o.tracker_id, o.at + c.shift, o.provider, o.domain, o.answers, o.with_brand, o.with_competitor
      from (${copies}) c cross join ${trackerSourceRollups} o
      where o.run_id = ${run.id}`);
  }

  const counts = {
    runs: await db.$count(trackerRuns, eq(trackerRuns.trackerId, tracker.id)),
    searches: await db.$count(searches, eq(searches.trackerId, tracker.id)),
    rollups: await db.$count(trackerRollups, eq(trackerRollups.trackerId, tracker.id)),
  };
  // Each copy holds the real run's answers.
  return {
    userId,
    cookie,
    trackerId: tracker.id,
    /** The providers it asks: every one connected, as a new tracker's default. */
    providers: tracker.providers,
    runId: run.id,
    counts: { ...counts, answers: real.answers.done * counts.runs },
    /** How long the real run took, and the copies, in seconds. */
    seconds: { run: (ran - started) / 1000, copies: (performance.now() - ran) / 1000 },
  };
}

if (import.meta.main) {
  createOwnerOnly();
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  // No pages while seeding: the app needs no client build, only an (empty) assets folder.
  const distDir = mkdtempSync(join(tmpdir(), "seed-assets-"));
  mkdirSync(join(distDir, "public"));
  const assembly = await assembleOrExit({
    env: { ...process.env, SIMULATE_PROVIDERS: "on" },
    renderer: () => () => Promise.resolve(new Response("no pages while seeding", { status: 404 })),
    distDir,
    simulate: { latency: { kind: "fixed", ms: 0 } },
  });
  const { app, database, env } = assembly;
  const handle = ((input: string | URL | Request, init?: RequestInit) => app.handle(new Request(input, init))) as typeof fetch;
  const username = arg("--user") ?? "seed";
  const password = arg("--password") ?? "seed-password";
  const where = database.kind === "pglite" ? `pglite in ${env.DATA_DIR}` : "DATABASE_URL";
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  const days = arg("--tracker-days");
  if (days !== undefined) {
    const whole = (name: string, value: string | undefined, fallback: number, max: number) => {
      const n = Number(value ?? fallback);
      if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} must be a whole number from 1 to ${max}`);
      return n;
    };
    const options = {
      days: whole("--tracker-days", days, 365, 3660),
      queries: whole("--tracker-queries", arg("--tracker-queries"), 50, MAX_TRACKER_QUERIES),
      iterations: whole("--iterations", arg("--iterations"), 10, MAX_ITERATIONS),
    };
    const seeded = await seedTracker(database, handle, { ...options, username, password });
    console.log(
      `seeded tracker ${seeded.trackerId} for ${username} (password ${password}): ${options.days} daily runs of ${options.queries} queries × ${seeded.providers.length} providers × ${options.iterations} iterations ` +
        `(${seeded.counts.answers} answers in ${seeded.counts.searches} saved searches, ${seeded.counts.rollups} rollup rows) in ${seconds()} s ` +
        `(the real run ${seeded.seconds.run.toFixed(1)} s, the copies ${seeded.seconds.copies.toFixed(1)} s) · db ${where}`,
    );
  } else {
    const count = Number(arg("--searches") ?? 10_000);
    if (!Number.isInteger(count) || count < 1) throw new Error("--searches must be a whole number of at least 1");
    await seedSearches(database, handle, { searches: count, username, password });
    console.log(`seeded ${count} searches for ${username} (password ${password}) in ${seconds()} s · db ${where}`);
  }
  await assembly.close();
  process.exit(0);
}
