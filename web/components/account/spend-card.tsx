import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ApiClient } from "#src/client/api.ts";
import { CircleDollarSign } from "lucide-react";
import { formatCents, formatUsd } from "#src/core/cost.ts";
import { api, Card, CardContent, CardDescription, CardHeader } from "#web/shared-chunk.ts";

/** The account's spend, prefetched with the profile and refetched whenever it is shown (searches finish elsewhere). */
export const spendQuery = (client: ApiClient) => queryOptions({ queryKey: ["spend"], queryFn: () => client.spend(), staleTime: 0 });

/** What the person's searches have cost the service today and this month (UTC), against the daily limit (ADR 041). */
export function SpendCard() {
  const { data } = useQuery(spendQuery(api));
  return (
    <Card role="region" aria-labelledby="spend-heading">
      <CardHeader>
        <h2 id="spend-heading" className="flex items-center gap-2 font-semibold">
          <CircleDollarSign className="size-4" aria-hidden="true" />
          What your searches cost
        </h2>
        <CardDescription>Provider charges for your searches, from each answer's usage and the price table (days in UTC).</CardDescription>
      </CardHeader>
      <CardContent>
        {data ? (
          <dl className="grid grid-cols-2 gap-3">
            <div className="rounded-lg bg-muted/50 px-3 py-2">
              <dt className="text-xs text-muted-foreground">Today</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatUsd(data.todayUsd)}</dd>
              <dd className="text-xs text-muted-foreground">{`of your ${formatCents(data.dailyLimitUsd)} daily limit`}</dd>
            </div>
            <div className="rounded-lg bg-muted/50 px-3 py-2">
              <dt className="text-xs text-muted-foreground">This month</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatUsd(data.monthUsd)}</dd>
            </div>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">Loading…</p>
        )}
      </CardContent>
    </Card>
  );
}
