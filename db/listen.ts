// LISTEN/NOTIFY on the app's own connection, PGlite or postgres.js: the job queue's wake-ups and
// the search cancel channel both go through here, so neither needs a second driver.
import type { PGlite } from "@electric-sql/pglite";
import { sql as query } from "drizzle-orm";
import type { Sql } from "postgres";
import { clientOf, type Database, type Db } from "./client.ts";

export type Listener = { close(): Promise<void> };

/**
 * Calls `onNotify` with each payload sent on `channel`, and `onListen` each time the listener is
 * (re)subscribed. PGlite: its one in-process session, subscribed once (there is never a
 * reconnect). postgres.js: its own listener connection, which re-listens after a drop.
 */
export async function listen(database: Database, channel: string, onNotify: (payload: string) => void, onListen: () => void = () => {}): Promise<Listener> {
  if (database.kind === "pglite") {
    const unlisten = await clientOf<PGlite>(database).listen(channel, onNotify);
    onListen();
    return { close: () => unlisten() };
  }
  const { unlisten } = await clientOf<Sql>(database).listen(channel, onNotify, onListen);
  return { close: () => unlisten() };
}

/** Sends `payload` to every session listening on `channel` (the sender's own included). */
export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await db.execute(query`select pg_notify(${channel}, ${payload})`);
}
