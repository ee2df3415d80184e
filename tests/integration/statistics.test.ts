import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type Database, selectRows } from "#db/client.ts";
import { users } from "#db/schema.ts";
import { refreshStatistics, startStatistics } from "#db/statistics.ts";
import { openTestDatabase } from "#tests/support/databases.ts";

/*
 * PGlite has no autovacuum: without the app's own pass its planner never learns a table grew, and
 * the history's first page read every one of the user's searches instead of the 21 it shows.
 */

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase("pglite");
});
afterAll(async () => {
  await database.close();
});

/** The plan PostgreSQL picks for the history's first page (its WHERE and ORDER BY). */
async function historyPlan(userId: string): Promise<string> {
  const rows = await selectRows<Record<string, string>>(
    database.db,
    sql`
    explain select id from searches
    where user_id = ${userId} and status in ('completed', 'interrupted')
    order by created_at desc limit 21`,
  );
  return rows.map((row) => row["QUERY PLAN"]).join("\n");
}

test("a table that grew is analyzed, after which the history's first page reads the index in order; a table that did not is left alone", async () => {
  const [user] = await database.db
    .insert(users)
    .values({ username: "grower", email: "grower@example.com", passwordHash: "x", firstName: "G", lastName: "R" })
    .returning({ id: users.id });
  await database.db.execute(sql`
    insert into searches (user_id, query, iterations, status, created_at)
    select ${user!.id}, 'best crm ' || n, 1, 'completed', now() - make_interval(mins => n) from generate_series(1, 20000) as n`);
  // What the planner believed before: a table as small as at migration time, read whole.
  expect(await historyPlan(user!.id)).not.toContain("Index Scan using searches_user_created_idx");

  expect(await refreshStatistics(database)).toContain("searches");
  expect(await historyPlan(user!.id)).toContain("Index Scan using searches_user_created_idx");
  // Nothing moved since: no table is analyzed again.
  expect(await refreshStatistics(database)).not.toContain("searches");
});

test("the server's pass runs at once on PGlite, and stops cleanly", async () => {
  await database.db.execute(
    sql`insert into users (username, email, password_hash, first_name, last_name) select 'u' || n, 'u' || n || '@example.com', 'x', 'U', 'N' from generate_series(1, 5000) as n`,
  );
  const errors: unknown[] = [];
  const statistics = startStatistics(database, (error) => errors.push(error));
  await statistics.stop();
  expect(errors).toEqual([]);
  expect(await refreshStatistics(database)).not.toContain("users");
});
