import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import type { ReactNode } from "react";
import { SearchResults } from "#web/components/results/search-results.tsx";
import type { PrefetchContext } from "#web/page.ts";
import { formatDate } from "#src/core/dates.ts";
import { workbenchQueries } from "#web/lib/workbench-queries.ts";
import { api, queries, Skeleton } from "#web/shared-chunk.ts";

/** The server renders `/?query=` with the caller's latest saved search of it. */
export async function prefetchLatestSearch({ queryClient, api: serverApi }: PrefetchContext, query: string): Promise<void> {
  const latest = await queryClient.fetchQuery(workbenchQueries.latestSearch(serverApi, query));
  if (latest) await queryClient.prefetchQuery(queries.search(serverApi, latest.id));
}

/**
 * Spec §2 `/?query={q}`: the signed-in caller's latest saved result for the query (any letter
 * case), or `fallback` when there is none. Nothing is searched on its own.
 */
export function LatestSearch({ query, isPro, fallback }: { query: string; isPro: boolean; fallback: ReactNode }) {
  const latest = useQuery(workbenchQueries.latestSearch(api, query));
  const id = latest.data?.id;
  const saved = useQuery({ ...queries.search(api, id ?? ""), enabled: id !== undefined });

  if (latest.isPending || (id !== undefined && saved.isPending))
    return <Skeleton className="h-96 w-full" aria-label="Loading your latest search of this query" />;
  if (!saved.data) return fallback;
  return (
    <div className="space-y-3">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <History className="size-4 shrink-0" aria-hidden="true" />
        {`Your latest search of this query, ${formatDate(saved.data.createdAt)}`}
      </p>
      <SearchResults result={saved.data} isPro={isPro} />
    </div>
  );
}

export default LatestSearch;
