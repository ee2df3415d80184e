// PGlite runs no autovacuum (it has no background workers), so on it nothing ever ANALYZEs the
// tables: the planner keeps the row counts it saw when the migrations built the indexes (none),
// and on a history of 100,000 searches it chose a bitmap scan of every row over the index that
// reads the first page's 21 (63 ms against 1 ms). The app does autovacuum's analyze pass itself:
// a table whose size moved by a tenth since its last ANALYZE is analyzed again (ADR 044).
// PostgreSQL's own autovacuum does this there, so the pass runs on PGlite only.
import { sql } from "drizzle-orm";
import { type Database, selectRows } from "./client.ts";

/** How often the server looks (cheap: one catalogue query; an ANALYZE only where a table moved). */
export const STATISTICS_INTERVAL_MS = 10 * 60_000;

type TableSize = { name: string; relpages: number; reltuples: number; pages: number };

/** Analyzes the app's and the job queue's tables that were never analyzed or whose size moved by a tenth since; returns their names. */
export async function refreshStatistics(database: Database): Promise<string[]> {
  const tables = await selectRows<TableSize>(
    database.db,
    sql`
    select c.oid::regclass::text as name, c.relpages, c.reltuples,
           pg_relation_size(c.oid) / current_setting('block_size')::int as pages
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname in ('public', 'pgboss')`,
  );
  const stale = tables.filter((table) => moved(Number(table.relpages), Number(table.reltuples), Number(table.pages))).map((table) => table.name);
  // One statement per table: the names come from the catalogue, quoted by regclass's own output.
  for (const name of stale) await database.db.execute(sql.raw(`analyze ${name}`));
  return stale;
}

/** autovacuum's rule in pages: 8 pages plus a tenth of what the last ANALYZE saw (PostgreSQL's threshold is 50 rows plus a tenth). */
function moved(relpages: number, reltuples: number, pages: number): boolean {
  if (reltuples < 0) return pages > 0;
  return Math.abs(pages - relpages) > 8 + relpages / 10;
}

/** On PGlite, refreshes the statistics now and every STATISTICS_INTERVAL_MS until stopped; on PostgreSQL, nothing (autovacuum does it). */
export function startStatistics(database: Database, onError: (error: unknown) => void): { stop(): Promise<void> } {
  if (database.kind !== "pglite") return { stop: async () => {} };
  let running: Promise<unknown> = Promise.resolve();
  const pass = () => {
    running = refreshStatistics(database).catch(onError);
  };
  pass();
  const timer = setInterval(pass, STATISTICS_INTERVAL_MS);
  timer.unref();
  return {
    // After the pass in flight: the database closes after this.
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
