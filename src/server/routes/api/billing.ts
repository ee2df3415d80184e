import { Elysia } from "elysia";
import { ProStatus } from "#src/contract/billing.ts";
import type { identity } from "#src/server/http/identity.ts";
import type { Billing } from "#src/server/services/billing/index.ts";

/** Pro status (spec §7). */
export function billingRoutes(billing: Billing, who: ReturnType<typeof identity>) {
  return new Elysia().use(who).get("/api/pro-status", async ({ owner }) => ({ isPro: await billing.isPro(owner.userId) }), {
    response: ProStatus,
    detail: {
      tags: ["billing"],
      summary: "Whether the caller is Pro",
      description: "`{ isPro }`: true while the user has an active or trialing subscription; false for anonymous callers.",
    },
  });
}
