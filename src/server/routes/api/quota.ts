import { Elysia } from "elysia";
import { FREE_DAILY_SEARCHES, QuotaStatus } from "#src/contract/quota.ts";
import type { identity } from "#src/server/http/identity.ts";
import { reportQuota } from "#src/server/http/quota-report.ts";
import type { QuotaService } from "#src/server/services/quota/index.ts";
import { forTokens } from "#src/server/http/token-access.ts";

/** GET /api/quota, for the quota alert before any search has been made in this browser. */
export function quotaRoutes(quota: QuotaService, identityPlugin: ReturnType<typeof identity>, { trustProxy }: { trustProxy: number }) {
  return new Elysia().use(identityPlugin).get(
    "/api/quota",
    async (context) => {
      const standing = await quota.standing(context.caller);
      reportQuota(context, standing, trustProxy);
      return standing.isPro
        ? { isPro: true, day: standing.day, used: null, limit: null, remaining: null }
        : { isPro: false, day: standing.day, used: standing.used, limit: FREE_DAILY_SEARCHES, remaining: standing.remaining };
    },
    {
      response: QuotaStatus,
      detail: forTokens("account:read", {
        tags: ["quota"],
        summary: "The caller's free searches today",
        description:
          `Free callers get ${FREE_DAILY_SEARCHES} searches per UTC day, counted by account, or for anonymous visitors by anonymous id and network. ` +
          "Also refreshes the `daily_searches` cookie and the `X-Searches-Remaining` header. `used`, `limit` and `remaining` are null for Pro.",
      }),
    },
  );
}
