import { Elysia } from "elysia";
import { CostEstimate, EstimateQuery, SpendSummary } from "#src/contract/spend.ts";
import type { Guards } from "#src/server/http/guards.ts";
import { lastValues } from "#src/server/http/query-string.ts";
import { forTokens } from "#src/server/http/token-access.ts";
import type { SearchService } from "#src/server/services/search/index.ts";
import type { SpendService } from "#src/server/services/spend/index.ts";

/** What searches cost before they run (the estimate) and what they have cost an account (ADR 041). */
export function spendRoutes({ search, spend }: { search: SearchService; spend: SpendService }, guards: Guards) {
  return new Elysia()
    .use(guards)
    .get("/api/search/estimate", ({ query }) => search.estimate(query.iterations), {
      transform: lastValues,
      query: EstimateQuery,
      response: CostEstimate,
      detail: forTokens("public", {
        tags: ["search"],
        summary: "What a search of N iterations should cost",
        description:
          "`{ iterations, usd, simulated, method }`: each connected provider's typical usage per answer priced with the price table, times the iterations (`method` says so in words). " +
          "`usd` is null when a model has no price (`unpriced` names it); simulated providers cost $0. A search whose estimate would take today's spend past a daily limit is refused with 429 `SPEND_LIMIT`.",
      }),
    })
    .get("/api/user/spend", ({ userId }) => spend.summary(userId), {
      signedIn: true,
      response: SpendSummary,
      detail: forTokens("account:read", {
        tags: ["search"],
        summary: "What the caller's searches have cost",
        description:
          "`{ todayUsd, monthUsd, dailyLimitUsd }`: USD spent by the account's searches today and this month (UTC), and its daily limit (ACCOUNT_DAILY_SPEND_USD).",
      }),
    });
}
