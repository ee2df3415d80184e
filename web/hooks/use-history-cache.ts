import { useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { SavedSearchList, SavedSearchListItem } from "#src/contract/history.ts";

/** Every page of every history list in the cache, changed by `change` (which drops an entry by returning null). */
export function useHistoryCache() {
  const queryClient = useQueryClient();
  return (change: (search: SavedSearchListItem) => SavedSearchListItem | null) => {
    queryClient.setQueriesData<InfiniteData<SavedSearchList>>({ queryKey: ["searches"] }, (data) =>
      data ? { ...data, pages: data.pages.map((page) => ({ ...page, searches: page.searches.flatMap((item) => change(item) ?? []) })) } : data,
    );
    // Filters match titles too: the lists are read again for what now belongs in them.
    void queryClient.invalidateQueries({ queryKey: ["searches"] });
  };
}
