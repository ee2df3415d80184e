import { Ban, Braces, CalendarPlus, CircleDollarSign, FileSpreadsheet, FlaskConical, Lock, MapPin, Repeat, WandSparkles, type LucideIcon } from "lucide-react";
import { useCallback, useId, useMemo, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { listModels, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { simulatedOf, type LensReport } from "#src/contract/lens.ts";
import { modelOf, providersOf, type SearchResult, type StoppedStatus } from "#src/contract/search-result.ts";
import { exportFilename, resultToCsvFile, resultToJson } from "#src/core/export.ts";
import { visibleText } from "#src/core/display-text.ts";
import { cancelledNote } from "#src/core/progress.ts";
import { API_ANSWERS_NOTE } from "#src/core/method.ts";
import { LensTab, type LensControl } from "#web/components/lens/lens-panel.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs.tsx";
import { formatDate } from "#src/core/dates.ts";
import { locationLabel } from "#src/core/location.ts";
import { formatSeconds } from "#web/lib/format.ts";
import { trackerPrefillHref } from "#web/lib/tracker-prefill.ts";
import { cn } from "#web/lib/utils.ts";
import { CompaniesTab, LinksTab, ProductsTab } from "./aggregate-tabs.tsx";
import { CommonSourcesTable, ComparisonTable, CrossModelComparison, comparisonRows } from "./comparison.tsx";
import { downloadText } from "./download.ts";
import { FrequencyAnalysis } from "./frequency-analysis.tsx";
import CostLabel from "./cost.tsx";
import { ModelCard } from "./model-card.tsx";
import type { SimulatedFlags } from "./shared.tsx";
import { Alert, AlertDescription, AlertTitle, api, Badge, Button, toast } from "#web/shared-chunk.ts";

export type ResultsTab = "side-by-side" | "products" | "companies" | "links" | "frequency" | "lens";

export type SearchResultsProps = {
  /** `status` when it stopped part-way: a cancelled one says how far it had come. */
  result: SearchResult & { status?: StoppedStatus };
  /** Pro callers get an active Generate Variants link; others a muted one leading to /upgrade. */
  isPro: boolean;
  /** A saved search (/search/{id}, a share link): hides the Generate Variants action (exports stay), and every tab prints. */
  readOnly?: boolean;
  /** The tab shown first (default "side-by-side"). */
  defaultTab?: ResultsTab;
  /** Read through a share link, by someone whose search it is not: no Brand Lens (the viewer's own brand), no Pro offers. */
  forLink?: boolean;
  className?: string;
};

/** `printAll`: a saved search's report, whose every tab (and every panel within one) is in the page, to print; `forLink`: a share link's. */
type TabProps = { result: SearchResult; simulated: SimulatedFlags; isPro: boolean; lens: LensControl; printAll: boolean; forLink: boolean };

/** Spec §2 tabs, in order: each its label and what it shows. */
const TABS: { value: ResultsTab; label: string; className: string; render: (props: TabProps) => ReactNode }[] = [
  { value: "side-by-side", label: "Side by Side", className: "flex min-w-0 flex-col gap-6", render: (props) => <SideBySide {...props} /> },
  { value: "products", label: "Products", className: "min-w-0", render: (props) => <ProductsTab {...props} /> },
  { value: "companies", label: "Companies", className: "min-w-0", render: (props) => <CompaniesTab {...props} /> },
  { value: "links", label: "All Links", className: "min-w-0", render: (props) => <LinksTab {...props} /> },
  { value: "frequency", label: "Frequency Analysis", className: "min-w-0", render: (props) => <FrequencyAnalysis {...props} /> },
  // Beyond the spec (Pro): the person's brand through the answers of a saved search.
  {
    value: "lens",
    label: "Brand Lens",
    className: "min-w-0",
    render: ({ result, isPro, lens }) => <LensTab searchId={result.id} isPro={isPro} control={lens} />,
  },
];

/** Spec §2 "Results view": what a visitor sees once a search is done. */
export function SearchResults({ result, isPro, readOnly = false, defaultTab = "side-by-side", forLink = false, className }: SearchResultsProps) {
  const simulated = useMemo(() => simulatedOf(result), [result]);
  const headingId = useId();
  // The lens is loaded by its tab; the exports include the one shown.
  const [override, setOverride] = useState<string | null>(null);
  const [shown, setShown] = useState<{ searchId: string | undefined; lens: LensReport | null }>({ searchId: undefined, lens: null });
  const onLens = useCallback((lens: LensReport | null) => setShown({ searchId: result.id, lens }), [result.id]);
  const lensControl = useMemo(() => ({ override, setOverride, onLens }), [override, onLens]);
  const lens = shown.searchId === result.id ? shown.lens : null;
  const tabs = forLink ? TABS.filter((tab) => tab.value !== "lens") : TABS;

  return (
    <section className={cn("flex min-w-0 flex-col gap-6", className)} aria-labelledby={headingId}>
      <ResultsHeader result={result} isPro={isPro} readOnly={readOnly} forLink={forLink} headingId={headingId} lens={lens} />
      {result.status === "cancelled" ? <CancelledNotice result={result} /> : null}
      {result.spendLimit ? (
        <Alert role="note" className="border-amber-500 text-amber-900 dark:text-amber-100">
          <CircleDollarSign aria-hidden="true" />
          <AlertTitle>Spend limit reached</AlertTitle>
          <AlertDescription>{result.spendLimit}</AlertDescription>
        </Alert>
      ) : null}
      <SimulatedNotice simulated={simulated} />

      <Tabs defaultValue={defaultTab} className="min-w-0 gap-4">
        <TabsList aria-label="Result views" className="flex h-auto w-full flex-wrap justify-start group-data-[orientation=horizontal]/tabs:h-auto">
          {tabs.map((tab) => (
            <TabsTrigger key={tab.value} value={tab.value} className="flex-none">
              {tab.label}
            </TabsTrigger>
          ))}
        </TabsList>

        {/* A saved search's report: every tab is in the page, so that every tab prints, each from a new sheet under its name (app.css shows only the open one on screen); the lens, read on demand, only when open. */}
        {tabs.map((tab, index) => (
          <TabsContent
            key={tab.value}
            value={tab.value}
            forceMount={readOnly && tab.value !== "lens" ? true : undefined}
            className={cn(tab.className, index > 0 && "print:break-before-page")}
          >
            <h3 className="hidden text-lg font-semibold print:block">{tab.label}</h3>
            {tab.render({ result, simulated, isPro, lens: lensControl, printAll: readOnly, forLink })}
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}

/** The model cards, then what they have in common. */
function SideBySide({ result, simulated }: TabProps) {
  const rows = useMemo(() => comparisonRows(result), [result]);
  return (
    <>
      {result.iterationCount > 1 ? (
        // ADR 028: the cards are answers; the result's lists are every iteration's.
        <p className="text-sm text-muted-foreground">{`Each card shows one answer, its model's first completed iteration of ${result.iterationCount}. The Products, Companies and All Links tabs list what every iteration returned, with how often.`}</p>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        {providersOf(result).map((id) => (
          <ModelCard key={id} provider={id} model={modelOf(result, id)} cost={costOf(result, id)} />
        ))}
      </div>
      <CrossModelComparison result={result} simulated={simulated} />
      <ComparisonTable rows={rows} providers={providersOf(result)} simulated={simulated} />
      <CommonSourcesTable result={result} simulated={simulated} />
    </>
  );
}

export default SearchResults;

/** A card's cost label: what the provider's iterations cost, when it took part. */
function costOf(result: SearchResult, id: ProviderId): ReactNode {
  const cost = result.cost?.providers[id];
  return cost && modelOf(result, id).status !== "off" ? <CostLabel cost={cost} /> : null;
}

function ResultsHeader({
  result,
  isPro,
  readOnly,
  forLink,
  headingId,
  lens,
}: {
  result: SearchResult;
  isPro: boolean;
  readOnly: boolean;
  forLink: boolean;
  headingId: string;
  lens: LensReport | null;
}) {
  const stats = [
    { label: "Search Time", value: formatSeconds(result.executionTimeMs) },
    { label: "Total Links", value: String(result.totalLinks) },
    { label: "Products Found", value: String(result.totalProducts) },
    { label: "Companies Mentioned", value: String(result.totalCompanies) },
  ];

  // A saved search's report heading names the query and its date above this card: on paper, and on
  // a share link's page on screen too. The card does not say them again (its title stays for screen readers).
  const title = forLink ? "sr-only" : readOnly ? "print:hidden" : undefined;
  const searched = forLink ? "hidden" : readOnly ? "print:hidden" : undefined;
  return (
    <header className="flex flex-col gap-4 rounded-xl border bg-card p-4 shadow-sm sm:p-6">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1">
          <p className={cn("text-sm text-muted-foreground", title)}>Results for</p>
          <h2 id={headingId} className={cn("text-xl font-semibold tracking-tight break-words sm:text-2xl", title)}>
            {visibleText(result.query)}
          </h2>
          <div className="flex flex-wrap items-center gap-2 pt-1">
            {result.iterationCount > 1 ? (
              <Badge variant="secondary">
                <Repeat aria-hidden="true" />
                {`${result.iterationCount} iterations`}
              </Badge>
            ) : null}
            {result.options?.location ? (
              // ADR 042: where the providers that take a location were told the person is.
              <Badge variant="secondary">
                <MapPin aria-hidden="true" />
                {`Asked from ${locationLabel(result.options.location)}`}
              </Badge>
            ) : null}
            {result.createdAt ? <span className={cn("text-xs text-muted-foreground", searched)}>{`Searched ${formatDate(result.createdAt)}`}</span> : null}
            {result.cost ? <CostLabel cost={result.cost.total} perProvider={result.cost.providers} /> : null}
          </div>
          {/* A saved search's report heading says it (on screen and on paper); a search just run has none. */}
          {readOnly ? null : <p className="pt-1 text-xs text-muted-foreground">{API_ANSWERS_NOTE}</p>}
        </div>
        <ResultActions result={result} isPro={isPro} readOnly={readOnly} forLink={forLink} lens={lens} />
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {stats.map((stat) => (
          <div key={stat.label} className="min-w-0 rounded-lg bg-muted/50 px-3 py-2">
            <dt className="text-xs text-muted-foreground">{stat.label}</dt>
            <dd className="text-lg font-semibold tabular-nums">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

function ResultActions({
  result,
  isPro,
  readOnly,
  forLink,
  lens,
}: {
  result: SearchResult;
  isPro: boolean;
  readOnly: boolean;
  forLink: boolean;
  lens: LensReport | null;
}) {
  const save = async (kind: "json" | "csv") => {
    try {
      const filename = exportFilename(result.query, new Date(), kind);
      // With the brand lens (Pro): the one its tab shows, else the saved one, as the CLI and MCP
      // export it (one lens everywhere), whether or not the tab was opened.
      const shown = lens ?? (isPro && result.id ? (await api.searchLens(result.id)).lens : null);
      const extras = shown ? { lens: shown } : {};
      if (kind === "json") downloadText(resultToJson(result, extras), filename, "application/json");
      else downloadText(resultToCsvFile(result, extras), filename, "text/csv;charset=utf-8");
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Export failed",
        description: error instanceof Error && error.message ? error.message : "The file could not be created.",
      });
    }
  };
  const variantsHref = `/variants?query=${encodeURIComponent(result.query)}&iterations=${result.iterationCount}`;
  // The lens the Brand Lens tab shows (the profile's, or one asked there); without it the form starts from the profile's.
  const trackHref = trackerPrefillHref({
    queries: [result.query],
    brand: lens?.brand.name,
    competitors: lens?.competitors.map((competitor) => competitor.name) ?? [],
  });

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Result actions">
      <Button type="button" variant="outline" size="sm" onClick={() => void save("json")}>
        <Braces aria-hidden="true" />
        <span className="sr-only">Export as </span>JSON
      </Button>
      <Button type="button" variant="outline" size="sm" onClick={() => void save("csv")}>
        <FileSpreadsheet aria-hidden="true" />
        <span className="sr-only">Export as </span>CSV
      </Button>
      {readOnly ? null : <ProAction isPro={isPro} href={variantsHref} icon={WandSparkles} label="Generate Variants" primary />}
      {forLink ? null : <ProAction isPro={isPro} href={trackHref} icon={CalendarPlus} label="Track these questions every week" />}
    </div>
  );
}

/**
 * A Pro action: a link for Pro callers. Spec §2 (Generate Variants): for others it looks disabled
 * (grey, dashed, locked) but stays a working link to /upgrade. Grey text rather than opacity, which
 * would fail AA contrast.
 */
function ProAction({ isPro, href, icon: Icon, label, primary = false }: { isPro: boolean; href: string; icon: LucideIcon; label: string; primary?: boolean }) {
  if (isPro) {
    return (
      <Button asChild size="sm" variant={primary ? "default" : "outline"}>
        <Link href={href}>
          <Icon aria-hidden="true" />
          {label}
        </Link>
      </Button>
    );
  }
  return (
    <Button asChild size="sm" variant="outline" className="border-dashed text-muted-foreground shadow-none hover:text-foreground">
      <Link href="/upgrade" title="Upgrade to Pro to use this feature">
        <Lock aria-hidden="true" />
        {label}
        <span className="sr-only"> (Pro feature: upgrade to use it)</span>
      </Link>
    </Button>
  );
}

/** A cancelled search keeps what had finished (ADR 030): said once, above it. */
function CancelledNotice({ result }: { result: SearchResult }) {
  return (
    <Alert role="note" data-testid="cancelled-note">
      <Ban aria-hidden="true" />
      <AlertTitle>{cancelledNote(result)}</AlertTitle>
      <AlertDescription>What had finished when the search was cancelled is shown below, and saved with it.</AlertDescription>
    </Alert>
  );
}

/** Honesty rule: say up front which answers come from the simulator. */
function SimulatedNotice({ simulated }: { simulated: SimulatedFlags }) {
  const ids = providerIds.filter((id) => simulated[id]);
  if (ids.length === 0) return null;
  const names = listModels(ids);
  return (
    <Alert role="note" className="border-amber-500 text-amber-900 dark:text-amber-100">
      <FlaskConical aria-hidden="true" />
      <AlertTitle>Simulated answers</AlertTitle>
      <AlertDescription className="text-amber-900 dark:text-amber-100">{`${names} ${ids.length === 1 ? "is" : "are"} simulated: ${ids.length === 1 ? "its" : "their"} results come from our simulator, not from the live provider.`}</AlertDescription>
    </Alert>
  );
}
