import { Elysia } from "elysia";
import { Health, HealthFailure } from "#src/contract/health.ts";
import type { DatabaseKind } from "#db/client.ts";
import { DATABASE_RETRY_AFTER_S, driverMessage } from "#src/server/http/errors.ts";

export type HealthDeps = {
  db: DatabaseKind;
  /** A small write (the instance renewing its lease): a full disk or a read-only server fails it. */
  write: () => Promise<void>;
};

/**
 * Health for load balancers and the Docker HEALTHCHECK: 200 only while the database accepts a
 * write, else 503 with Retry-After, naming the cause. A read would stay green on a full disk.
 */
export function healthRoutes({ db, write }: HealthDeps) {
  return new Elysia().get(
    "/healthz",
    async ({ set }) => {
      try {
        await write();
        return { ok: true as const, db };
      } catch (error) {
        set.status = 503;
        set.headers["retry-after"] = String(DATABASE_RETRY_AFTER_S);
        return { code: "DATABASE_UNAVAILABLE" as const, message: `The database does not accept writes: ${driverMessage(error)}` };
      }
    },
    {
      response: { 200: Health, 503: HealthFailure },
      detail: {
        tags: ["system"],
        summary: "Health",
        description:
          '`{ ok: true, db }` once the database has taken a small write; 503 `{ code: "DATABASE_UNAVAILABLE", message }` with Retry-After while it cannot (down, full disk, read-only).',
      },
    },
  );
}
