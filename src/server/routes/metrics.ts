import { createHash, timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import * as v from "valibot";
import { refuse } from "#src/server/http/errors.ts";
import type { Metrics } from "#src/server/metrics/index.ts";

/** The credentials of `Authorization: Bearer <token>`, or nothing. */
const BearerHeader = v.pipe(
  v.string(),
  v.regex(/^Bearer\s+\S+\s*$/i),
  v.transform((header) => header.trim().replace(/^Bearer\s+/i, "")),
);

/**
 * GET /metrics for Prometheus, only when METRICS_TOKEN is set (else the path does not exist), to a
 * caller sending it as a bearer token. Left out of the API reference: it is for operators, not users.
 */
export function metricsRoutes(metrics: Pick<Metrics, "render" | "contentType">, token: string) {
  const expected = digest(token);
  return new Elysia().get(
    "/metrics",
    async ({ request, set }) => {
      const sent = v.safeParse(BearerHeader, request.headers.get("authorization") ?? "");
      // Digests of equal length, compared in constant time: how much of the token matched never shows in the timing.
      if (!sent.success || !timingSafeEqual(digest(sent.output), expected)) {
        set.headers["www-authenticate"] = 'Bearer realm="metrics"';
        return refuse(set, "NOT_SIGNED_IN", "GET /metrics needs Authorization: Bearer with the METRICS_TOKEN of this deployment");
      }
      return new Response(await metrics.render(), { headers: { "content-type": metrics.contentType, "cache-control": "no-store" } });
    },
    { detail: { hide: true } },
  );
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}
