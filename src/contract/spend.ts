/* What searches cost an account, and what a search will cost before it runs (ADR 041). */
import * as v from "valibot";

import { Iterations } from "./search-request.ts";

/** GET /api/user/spend: the account's spend today and this month (UTC), and its daily limit. */
export const SpendSummary = v.object({ todayUsd: v.number(), monthUsd: v.number(), dailyLimitUsd: v.number() });
export type SpendSummary = v.InferOutput<typeof SpendSummary>;

/** GET /api/search/estimate?iterations=N */
export const EstimateQuery = v.object({ iterations: Iterations });

/**
 * What a search of N iterations should cost on the connected providers: null when a model has no
 * price; `simulated` when every provider is simulated ($0). `method` says how it is worked out.
 */
export const CostEstimate = v.object({
  iterations: v.number(),
  usd: v.nullable(v.number()),
  simulated: v.boolean(),
  unpriced: v.optional(v.array(v.string())),
  method: v.string(),
});
export type CostEstimate = v.InferOutput<typeof CostEstimate>;
