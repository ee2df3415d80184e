import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { Building2, ChevronRight, CircleDollarSign, Clock, Link2, LoaderCircle, Package, Pencil, Repeat, Search, Trash2, type LucideIcon } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { Link } from "wouter";
import type { SavedSearchListItem } from "#src/contract/history.ts";
import { formatListedCost } from "#src/core/cost.ts";
import { visibleText } from "#src/core/display-text.ts";
import { DeleteDialog, RenameDialog } from "#web/components/account/history-dialogs.tsx";
import { HistoryFilterBar } from "#web/components/account/history-filter-bar.tsx";
import { RelativeTime } from "#web/components/account/relative-time.tsx";
import { useHideTrackerRuns } from "#web/hooks/use-hide-tracker-runs.ts";
import { EMPTY_HISTORY_FORM, historyFilters, isFiltered, searchName, type HistoryForm } from "#web/lib/history.ts";
import { Alert, AlertDescription, AlertTitle, api, Badge, Button, queries, Skeleton } from "#web/shared-chunk.ts";

/**
 * Spec §2 profile: the user's saved searches, each opening /search/{id}; more on request. Found
 * by text and narrowed by provider, iterations and dates; each can be renamed or deleted.
 */
export function SearchHistory() {
  const headingId = useId();
  const [typed, setTyped] = useState<HistoryForm>(EMPTY_HISTORY_FORM);
  // "Hide tracker runs" is remembered; until she chooses, it is on once the history holds tracker runs
  // (its unfiltered first page, which arrives with the page), which would otherwise bury her own searches.
  const [hideChoice, rememberHide] = useHideTrackerRuns();
  const firstPage = useInfiniteQuery({ ...queries.searches(api), enabled: hideChoice === null }).data?.pages[0];
  const form = { ...typed, hideTrackers: hideChoice ?? firstPage?.searches.some((search) => search.tracker) ?? false };
  const setForm = (next: HistoryForm) => {
    if (next.hideTrackers !== form.hideTrackers) rememberHide(next.hideTrackers);
    setTyped(next);
  };
  // "Clear filters" below the list starts the bar afresh (its text box keeps what is typed).
  const [resets, setResets] = useState(0);
  // The list of the previous filters stays on screen while the next one loads.
  const history = useInfiniteQuery({ ...queries.searches(api, historyFilters(form)), placeholderData: keepPreviousData });
  const searches = history.data?.pages.flatMap((page) => page.searches) ?? [];
  const filtered = isFiltered(form);

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <h2 id={headingId} className="text-xl font-semibold tracking-tight">
        Search History
      </h2>
      {filtered || searches.length > 0 ? <HistoryFilterBar key={resets} form={form} onChange={setForm} /> : null}
      {history.isPending ? (
        <div className="space-y-3" aria-busy="true" aria-label="Loading search history">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-20 w-full" />
          ))}
        </div>
      ) : history.isError && searches.length === 0 ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load your search history</AlertTitle>
          <AlertDescription>
            <p>{history.error.message}</p>
            <Button variant="outline" size="sm" onClick={() => void history.refetch()}>
              Try again
            </Button>
          </AlertDescription>
        </Alert>
      ) : searches.length === 0 ? (
        filtered ? (
          <NothingMatches
            onClear={() => {
              setForm(EMPTY_HISTORY_FORM);
              setResets((n) => n + 1);
            }}
          />
        ) : (
          <EmptyHistory />
        )
      ) : (
        <>
          <ul className="divide-y overflow-hidden rounded-xl border bg-card shadow-sm" aria-busy={history.isPlaceholderData || undefined}>
            {searches.map((search) => (
              <li key={search.id}>
                <HistoryEntry search={search} />
              </li>
            ))}
          </ul>
          {history.hasNextPage ? (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => void history.fetchNextPage()} disabled={history.isFetchingNextPage}>
                {history.isFetchingNextPage ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
                {history.isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** A search that stopped part-way says how (it holds what had finished). */
const STOPPED_LABEL = { interrupted: "Interrupted", cancelled: "Cancelled" } as const;

function HistoryEntry({ search }: { search: SavedSearchListItem }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const name = searchName(search);
  return (
    <div className="flex items-center gap-1 pr-2 sm:pr-3" data-testid="history-entry">
      <Link
        href={`/search/${encodeURIComponent(search.id)}`}
        className="group flex min-w-0 flex-1 items-center gap-3 px-4 py-3 outline-none transition-colors hover:bg-accent focus-visible:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:ring-inset sm:px-5 sm:py-4"
      >
        <div className="min-w-0 flex-1 space-y-1.5">
          <p className="font-medium break-words">{visibleText(name)}</p>
          {search.title ? (
            <p className="text-sm break-words text-muted-foreground" data-testid="history-query">{`Query: ${visibleText(search.query)}`}</p>
          ) : null}
          <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
            <Fact icon={Clock}>
              <RelativeTime value={search.timestamp} />
            </Fact>
            <Fact icon={Package}>{count(search.totalProducts, "product")}</Fact>
            <Fact icon={Building2}>{count(search.totalCompanies, "company", "companies")}</Fact>
            <Fact icon={Link2}>{count(search.totalLinks, "link")}</Fact>
            <Fact icon={CircleDollarSign}>{`Cost ${formatListedCost(search)}`}</Fact>
            {search.status === "completed" ? null : <Badge variant="outline">{STOPPED_LABEL[search.status]}</Badge>}
            {search.tracker ? <Badge variant="outline">{`Tracker: ${visibleText(search.tracker.name)}`}</Badge> : null}
            {search.iterationCount > 1 ? (
              <Badge variant="secondary">
                <Repeat aria-hidden="true" />
                {count(search.iterationCount, "iteration")}
              </Badge>
            ) : null}
          </p>
        </div>
        <ChevronRight className="size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
      </Link>
      <Button type="button" variant="ghost" size="icon" onClick={() => setRenaming(true)} title="Rename">
        <Pencil aria-hidden="true" />
        <span className="sr-only">{`Rename “${name}”`}</span>
      </Button>
      <Button type="button" variant="ghost" size="icon" onClick={() => setDeleting(true)} title="Delete">
        <Trash2 aria-hidden="true" />
        <span className="sr-only">{`Delete “${name}”`}</span>
      </Button>
      <RenameDialog search={search} open={renaming} onOpenChange={setRenaming} />
      <DeleteDialog search={search} open={deleting} onOpenChange={setDeleting} />
    </div>
  );
}

function Fact({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      {children}
    </span>
  );
}

function EmptyHistory() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center">
      <Search className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="text-muted-foreground">You haven't performed any searches yet</p>
      <Button asChild>
        <Link href="/">Start Searching</Link>
      </Button>
    </div>
  );
}

function NothingMatches({ onClear }: { onClear: () => void }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center">
      <Search className="size-8 text-muted-foreground" aria-hidden="true" />
      <p className="text-muted-foreground">No searches match these filters</p>
      <Button variant="outline" onClick={onClear}>
        Clear filters
      </Button>
    </div>
  );
}

function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
