// pg-boss talks to the database through one small interface, `{ executeSql(text, values) }` (its
// `db` option). This file answers it from the app's own connection, PGlite or postgres.js, so the
// queue needs no second driver and no second pool (pg-boss's bundled `pg` is never opened).
//
// What pg-boss sends, read from its source (12.x):
// - one statement with `$n` values (send, fetch with FOR UPDATE SKIP LOCKED, complete, fail...);
//   values are strings, numbers, booleans, null, arrays for `$n::uuid[]`/`text[]` parameters, and
//   now and then a Date or a plain object (node-pg sends those as an ISO timestamp and as JSON;
//   postgres.js's `unsafe` would choke on a Date, so `parameter()` does what node-pg does);
// - parameterless text, either one statement or a script `BEGIN; SET LOCAL ...;
//   SELECT pg_advisory_xact_lock(...); ...; COMMIT;` (schema install and migrations, createQueue,
//   maintenance), whose RETURNING rows may sit before the trailing COMMIT;
// - it reads only `rows` (never rowCount), for a script the rows of all its statements in order
//   (as node-pg's array of results unwrapped), and an error's `code` (SQLSTATE: 23505, 22012,
//   25001 are control flow for it);
// - LISTEN through `listen(channel, onNotification, onReconnect)` when useListenNotify is on.
//
// PGlite: `query(text, values)` for a statement with values, `exec(text)` (simple protocol, one
// result per statement) for parameterless text, timestamps read as Dates as node-pg reads them
// (PGLITE_DATES: the instance keeps them as text for drizzle). A BEGIN script runs inside PGlite's own
// `transaction()`: PGlite has one session, and a script that fails half-way leaves it inside an
// aborted transaction; under `transaction()` the ROLLBACK happens before the next query in the
// queue, where a ROLLBACK sent afterwards would let an app query land in the aborted block first
// (pg-boss's own fromPglite does that). The nested BEGIN/COMMIT only draw warnings, which PGlite
// keeps quiet. PGlite serialises every call, so nothing here holds the session across an await.
//
// postgres.js: `unsafe(text, values, { prepare: false })` (unnamed statements, as node-pg sends
// them; no per-connection cache of pg-boss's many texts); parameterless text goes through the
// simple protocol, so scripts run whole. A BEGIN script runs on a reserved connection
// (postgres.js refuses BEGIN on a pooled one: the next statement could land elsewhere), rolled back
// there if it fails before the connection goes back to the pool. LISTEN uses postgres.js's own
// listener connection, which re-listens after a drop and calls onReconnect (both in db/listen.ts).
import type { PGlite } from "@electric-sql/pglite";
import type { Db as PgBossDb } from "pg-boss";
import type { Sql } from "postgres";
import { clientOf, PGLITE_DATES, type Database } from "#db/client.ts";
import { listen } from "#db/listen.ts";

type Rows = { rows: unknown[] };

/** A parameterless script that opens its own transaction (pg-boss's plans.transaction/locked). */
const STARTS_TRANSACTION = /^\s*BEGIN\b/i;

/** pg-boss's `db` adapter over the app's open database; the app keeps owning (and closes) it. */
export function pgBossDb(database: Database): PgBossDb {
  const executeSql = database.kind === "pglite" ? pgliteSql(clientOf<PGlite>(database)) : postgresSql(clientOf<Sql>(database));
  return { executeSql, listen: (channel, onNotification, onReconnect) => listen(database, channel, onNotification, onReconnect) };
}

function pgliteSql(pglite: PGlite): PgBossDb["executeSql"] {
  return async (text, values) => {
    if (values?.length) return { rows: (await pglite.query(text, values.map(parameter), PGLITE_DATES)).rows };
    const results = STARTS_TRANSACTION.test(text) ? await pglite.transaction((tx) => tx.exec(text, PGLITE_DATES)) : await pglite.exec(text, PGLITE_DATES);
    return { rows: results.flatMap((result) => result.rows) };
  };
}

function postgresSql(sql: Sql): PgBossDb["executeSql"] {
  return async (text, values) => {
    if (values?.length) return rowsOf(await sql.unsafe(text, values.map(parameter) as never[], { prepare: false }));
    if (!STARTS_TRANSACTION.test(text)) return rowsOf(await sql.unsafe(text));
    const connection = await sql.reserve();
    try {
      return rowsOf(await connection.unsafe(text));
    } catch (error) {
      await connection.unsafe("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      connection.release();
    }
  };
}

/** A value as node-pg would bind it: Dates as ISO timestamps, plain objects as JSON. */
function parameter(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(parameter);
  if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value)) return JSON.stringify(value);
  return value;
}

/** postgres.js answers a script with one row array per statement, a single statement with its rows. */
function rowsOf(result: unknown[]): Rows {
  return { rows: result.some(Array.isArray) ? (result as unknown[][]).flat() : [...result] };
}
