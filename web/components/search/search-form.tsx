import { Info, Lock, Search, X } from "lucide-react";
import { useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { useLocation } from "wouter";
import { FREE_ITERATIONS } from "#src/contract/search.ts";
import { Button } from "#web/components/ui/button.tsx";
import { Input } from "#web/components/ui/input.tsx";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select.tsx";
import { Tooltip, TooltipContent, TooltipTrigger } from "#web/components/ui/tooltip.tsx";
import { toast } from "#web/hooks/use-toast.ts";
import { rememberUpgradeIntent } from "#web/lib/upgrade-flag.ts";

const LOCKED_CHOICES = [5, 10, 25] as const;

export type SearchSubmit = { query: string; iterations: number };

type SearchFormProps = {
  onSearch: (search: SearchSubmit) => void;
  searching: boolean;
  disabled?: boolean;
  initialQuery?: string;
};

/** Spec §2 "Search form" for a free caller: one iteration, the larger counts locked behind Pro. */
export function SearchForm({ onSearch, searching, disabled = false, initialQuery = "" }: SearchFormProps) {
  const [query, setQuery] = useState(initialQuery);
  const [iterations, setIterations] = useState(FREE_ITERATIONS);
  const [, navigate] = useLocation();
  const inputId = useId();
  const hintId = useId();
  const locked = searching || disabled;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) {
      toast({ variant: "destructive", title: "Empty search query", description: "Please enter a search query to continue" });
      return;
    }
    onSearch({ query: query.trim(), iterations });
  };

  // Spec §4: Enter searches at once when the query is not blank; a blank query does nothing.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (query.trim() && !locked) onSearch({ query: query.trim(), iterations: FREE_ITERATIONS });
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Search">
      <div className="space-y-2">
        <label htmlFor={inputId} className="text-sm font-medium">
          What would you like to search?
        </label>
        <div className="relative">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            id={inputId}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onKeyDown}
            placeholder="e.g. best CRM for startups, top running shoes 2026, Notion vs Confluence"
            aria-describedby={hintId}
            disabled={locked}
            className="h-11 pr-10 pl-9"
          />
          {query ? (
            <button
              type="button"
              onClick={() => setQuery("")}
              disabled={locked}
              className="absolute top-1/2 right-2 -translate-y-1/2 rounded-sm p-1 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
              aria-label="Clear search"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          ) : null}
        </div>
        <p id={hintId} className="text-xs text-muted-foreground">
          Try specific product categories, company comparisons, or technical questions
        </p>
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-2">
          <div className="flex items-center gap-1.5">
            <span id={`${inputId}-iterations`} className="text-sm font-medium">
              Search Iterations
            </span>
            <Tooltip>
              <TooltipTrigger asChild>
                <button type="button" className="rounded-sm text-muted-foreground hover:text-foreground" aria-label="About search iterations">
                  <Info className="size-4" aria-hidden="true" />
                </button>
              </TooltipTrigger>
              <TooltipContent className="max-w-xs">
                AI models are non-deterministic, so running the same search multiple times provides a more complete view of possible results.
              </TooltipContent>
            </Tooltip>
          </div>
          <Select value={String(iterations)} onValueChange={(value) => setIterations(Number(value))} disabled={locked}>
            <SelectTrigger className="w-full sm:w-56" aria-labelledby={`${inputId}-iterations`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="1">1 iteration</SelectItem>
              {LOCKED_CHOICES.map((n) => (
                <div key={n} className="flex items-center justify-between gap-2 px-2 py-1.5 text-sm text-muted-foreground">
                  <span className="flex items-center gap-1.5">
                    <Lock className="size-3.5" aria-hidden="true" />
                    {n} iterations
                  </span>
                  <Button
                    type="button"
                    size="sm"
                    variant="link"
                    className="h-auto p-0"
                    onClick={() => {
                      rememberUpgradeIntent();
                      navigate("/auth?from=upgrade");
                    }}
                  >
                    Upgrade to Pro
                  </Button>
                </div>
              ))}
            </SelectContent>
          </Select>
        </div>
        <Button type="submit" className="h-10 sm:ml-auto sm:min-w-44" disabled={locked}>
          {searching ? (
            "Searching..."
          ) : (
            <>
              <span className="hidden sm:inline">Search All Models</span>
              <span className="sm:hidden">Search</span>
            </>
          )}
        </Button>
      </div>
    </form>
  );
}
