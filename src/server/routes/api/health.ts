import { sql } from "drizzle-orm";
import { Elysia } from "elysia";
import type { Database } from "#db/client.ts";
import { Health } from "#src/contract/health.ts";

/** Liveness that proves the database answers: load balancers and the Docker HEALTHCHECK use it. */
export function healthRoutes(database: Database) {
  return new Elysia().get(
    "/healthz",
    async () => {
      await database.db.execute(sql`select 1`);
      return { ok: true as const, db: database.kind };
    },
    { response: Health, detail: { tags: ["system"], summary: "Liveness", description: "`{ ok: true, db }` once the database has answered a query." } },
  );
}
