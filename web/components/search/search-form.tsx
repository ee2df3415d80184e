import { Lock, Search, X } from "lucide-react";
import { lazy, Suspense, useId, useState, type FormEvent, type KeyboardEvent } from "react";
import type { Location } from "#src/contract/location.ts";
import { NativeSelect, NativeSelectOption } from "#web/components/ui/native-select.tsx";
import { Button, FREE_ITERATIONS, InfoTip, Input, PRO_ITERATION_CHOICES, toast, useStartUpgrade, messages } from "#web/shared-chunk.ts";

// Only Pro users choosing several iterations see the estimate: it loads then, not with the first page.
const CostEstimate = lazy(() => import("./cost-estimate.tsx"));

/** Spec §2: free users see 5, 10 and 25 locked. */
const LOCKED_CHOICES = [5, 10, 25] as const;
const PRO_DEFAULT_ITERATIONS = 5;

export type SearchSubmit = { query: string; iterations: number; options: { location?: Location } };

/** What a free user is offered, locked beyond 1 — and a saved search's own count, locked too, when it is not among them. */
function freeChoices(current: number): number[] {
  const choices: number[] = [FREE_ITERATIONS, ...LOCKED_CHOICES];
  return choices.includes(current) ? choices : [...choices, current].sort((a, b) => a - b);
}

type SearchFormProps = {
  onSearch: (search: SearchSubmit) => void;
  searching: boolean;
  isPro: boolean;
  /** Free searches left today; null for Pro. */
  remaining: number | null;
  /** Read-only (a saved search): shown but not usable. */
  disabled?: boolean;
  initialQuery?: string;
  initialIterations?: number;
  /** The query box got focus: a search is likely, its code can start loading. */
  onFocusQuery?: () => void;
};

/** Spec §2 "Search form", with the free-tier checks of spec §4 and the texts of §5/§8. */
export function SearchForm({ onSearch, searching, isPro, remaining, disabled = false, initialQuery = "", initialIterations, onFocusQuery }: SearchFormProps) {
  const [query, setQuery] = useState(initialQuery);
  const [iterations, setIterations] = useState(initialIterations ?? (isPro ? PRO_DEFAULT_ITERATIONS : FREE_ITERATIONS));
  // Where the search is asked from; its fields load when the person asks from a place, not with the first page (ADR 006).
  const [location, setLocation] = useState<Location>();
  const [fields, setFields] = useState<typeof import("#web/components/search/location-fields.tsx")>();
  const upgrade = useStartUpgrade();
  const inputId = useId();
  const hintId = useId();
  const locked = searching || disabled;

  /**
   * Spec §4: at 0 free searches submission is blocked, by the button and by Enter alike: the
   * limit toast and off to checkout, and no request (the server would refuse it anyway).
   */
  const atLimit = () => {
    if (isPro || remaining !== 0) return false;
    toast(messages.dailyLimit);
    upgrade.toCheckout();
    return true;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!query.trim()) {
      toast(messages.emptyQuery);
      return;
    }
    if (atLimit()) return;
    if (!isPro && iterations > FREE_ITERATIONS) {
      toast(messages.proFeature);
      upgrade.toCheckout();
      return;
    }
    ask(iterations);
  };

  // Asking from a place is free: it costs the providers nothing more (ADR 042).
  const ask = (count: number) => onSearch({ query: query.trim(), iterations: count, options: { location } });

  // Spec §4: Enter searches at once when the query is not blank, a free user with 1 iteration.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (!query.trim() || locked || atLimit()) return;
    ask(isPro ? iterations : FREE_ITERATIONS);
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
            onFocus={onFocusQuery}
            placeholder="e.g. best CRM for startups, top running shoes 2026, Notion vs Confluence"
            aria-describedby={hintId}
            disabled={locked}
            className="h-11 pr-10 pl-9"
          />
          {query && !locked ? (
            <button
              type="button"
              onClick={() => setQuery("")}
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

      {fields ? (
        <fields.LocationFields onChange={setLocation} />
      ) : (
        <Button
          type="button"
          size="sm"
          variant="link"
          className="h-9 shrink-0 gap-1 px-0"
          onClick={() => import("#web/components/search/location-fields.tsx").then(setFields)}
          disabled={locked}
        >
          Ask from a place
        </Button>
      )}

      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="space-y-2">
          <div className="flex items-center gap-1.5">
            <span id={`${inputId}-iterations`} className="text-sm font-medium">
              Search Iterations
            </span>
            <InfoTip label="About search iterations">
              AI models are non-deterministic, so running the same search multiple times provides a more complete view of possible results.
            </InfoTip>
          </div>
          {/* The select and the locked choices' upgrade link share one line, at every width. */}
          <div className="flex items-center gap-3">
            <NativeSelect
              wrapperClassName="min-w-0 flex-1 sm:flex-none"
              id={`${inputId}-iterations-select`}
              value={String(iterations)}
              onChange={(event) => setIterations(Number(event.target.value))}
              disabled={locked}
              aria-labelledby={`${inputId}-iterations`}
              className="w-full sm:w-56"
            >
              {isPro
                ? PRO_ITERATION_CHOICES.map((n) => (
                    <NativeSelectOption key={n} value={n}>
                      {n === 1 ? "1 iteration" : `${n} iterations`}
                    </NativeSelectOption>
                  ))
                : freeChoices(iterations).map((n) => (
                    <NativeSelectOption key={n} value={n} disabled={n !== FREE_ITERATIONS}>
                      {n === 1 ? "1 iteration" : `${n} iterations · Pro`}
                    </NativeSelectOption>
                  ))}
            </NativeSelect>
            {isPro || disabled || !upgrade.offered ? null : (
              <Button type="button" size="sm" variant="link" className="h-9 shrink-0 gap-1 px-0" onClick={() => void upgrade.start()}>
                <Lock className="size-3.5" aria-hidden="true" />
                Upgrade to Pro
              </Button>
            )}
          </div>
          {isPro && iterations > 1 ? (
            <Suspense fallback={null}>
              <CostEstimate iterations={iterations} />
            </Suspense>
          ) : null}
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
