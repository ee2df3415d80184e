import { ArrowDown, ArrowUp, Search } from "lucide-react";
import { useId, useMemo, useState, type ReactNode } from "react";
import { Link } from "wouter";
import type { ComparedItem, ComparedSearch, CompareReport } from "#src/contract/compare.ts";
import { listModels, providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { rate } from "#src/core/stats.ts";
import { ScrollTable } from "#web/components/results/comparison.tsx";
import { CardHeading, EmptyText, ListOrEmpty, Mark, SimulatedMark, SimulatedProvidersNote, SourceLink, plural } from "#web/components/results/shared.tsx";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs.tsx";
import { formatDate } from "#src/core/dates.ts";
import { baseAndOthers, dashboardHref, fanOutDifference, formatPValue, formatRate, itemsOfPair, pooledRuns, type FanOutQuery } from "#web/lib/workbench.ts";
import { RateBar } from "./rate-bar.tsx";
import { Badge, Card, CardContent, CardDescription, CardHeader, NativeSelect, NativeSelectOption } from "#web/shared-chunk.ts";

type Kind = "products" | "companies" | "sources";
const KINDS: { kind: Kind; label: string; one: string }[] = [
  { kind: "products", label: "Products", one: "Product" },
  { kind: "companies", label: "Companies", one: "Company" },
  { kind: "sources", label: "Sources", one: "Source" },
];

/**
 * Spec §2 compare: tabs Summary, Products (n), Companies (n), Sources (n); then what the models
 * searched for. Every tab is in the page, so that each prints (on screen only the open one shows).
 * `readOnly` (a share link's page): no links to the owner's saved searches or to run a query.
 */
export function CompareView({ report, readOnly = false }: { report: CompareReport; readOnly?: boolean }) {
  const { base, others } = baseAndOthers(report.searches);
  const [chosen, setChosen] = useState(others[0]?.id);
  const selected = others.find((search) => search.id === chosen) ?? others[0];
  if (!base) return null;
  const pair: Pair = { base, selected, others, choose: setChosen };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <Tabs defaultValue="summary" className="min-w-0 gap-4">
        <TabsList aria-label="Comparison views" className="flex h-auto w-full flex-wrap justify-start group-data-[orientation=horizontal]/tabs:h-auto">
          <TabsTrigger value="summary" className="flex-none">
            Summary
          </TabsTrigger>
          {KINDS.map(({ kind, label }) => (
            <TabsTrigger key={kind} value={kind} className="flex-none">
              {`${label} (${report[kind].length})`}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="summary" forceMount className="min-w-0">
          <Summary report={report} readOnly={readOnly} />
        </TabsContent>
        {KINDS.map(({ kind, label, one }) => (
          <TabsContent key={kind} value={kind} forceMount className="min-w-0 print:break-before-page">
            <h3 className="hidden text-lg font-semibold print:block">{`${label} (${report[kind].length})`}</h3>
            <ItemsTab items={report[kind]} kind={kind} label={label} one={one} pair={pair} />
          </TabsContent>
        ))}
      </Tabs>
      {selected ? (
        <div className="print:break-before-page">
          <FanOut report={report} pair={pair} />
        </div>
      ) : null}
    </div>
  );
}

/** The original, the variant chosen beside it, and the others; each search says which of its providers were simulated. */
type Pair = { base: ComparedSearch; selected: ComparedSearch | undefined; others: ComparedSearch[]; choose: (id: string) => void };

function roleLabel(search: ComparedSearch): string {
  return search.role === "original" ? "Original" : "Variant";
}

// ---------------------------------------------------------------------------------------------

function Summary({ report, readOnly }: { report: CompareReport; readOnly: boolean }) {
  const { summary, searches } = report;
  const tops: { title: string; items: CompareReport["summary"]["topProducts"]; empty: string; source?: boolean }[] = [
    { title: "Top Products", items: summary.topProducts, empty: "No products found" },
    { title: "Top Companies", items: summary.topCompanies, empty: "No companies found" },
    { title: "Top Sources", items: summary.topSources, empty: "No sources found", source: true },
  ];
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {[
          ["Unique Products", summary.uniqueProducts],
          ["Unique Companies", summary.uniqueCompanies],
          ["Unique Sources", summary.uniqueSources],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border bg-card px-4 py-3 shadow-sm">
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid min-w-0 gap-4 lg:grid-cols-3">
        {tops.map(({ title, items, empty, source }) => (
          <Card key={title} className="min-w-0 gap-3">
            <CardHeader>
              <CardHeading>{title}</CardHeading>
              <CardDescription>{`By the number of the ${searches.length} searches that returned each`}</CardDescription>
            </CardHeader>
            <CardContent>
              <ListOrEmpty items={items} empty={empty} ordered className="space-y-2" label={title}>
                {(item) => (
                  <li key={item.name} className="flex min-w-0 items-baseline justify-between gap-2 text-sm">
                    {source ? (
                      <SourceLink source={{ url: item.name }} className="min-w-0 font-medium" />
                    ) : (
                      <span className="min-w-0 font-medium break-words">{item.name}</span>
                    )}
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{`${item.searches} of ${searches.length}`}</span>
                  </li>
                )}
              </ListOrEmpty>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card className="min-w-0 gap-3">
        <CardHeader>
          <CardHeading>Searches compared</CardHeading>
          <CardDescription>
            {readOnly ? "Each query's latest saved search when the comparison was shared." : "Each query's latest saved search of yours."}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <ul className="divide-y" aria-label="Searches compared">
            {searches.map((search) => (
              <li key={search.id} className="flex min-w-0 flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <Badge variant={search.role === "original" ? "default" : "secondary"} className="mr-2">
                    {roleLabel(search)}
                  </Badge>
                  {readOnly ? (
                    <span className="font-medium break-words">{search.query}</span>
                  ) : (
                    <Link href={`/search/${encodeURIComponent(search.id)}`} className="font-medium break-words underline-offset-2 hover:underline">
                      {search.query}
                    </Link>
                  )}
                </div>
                <span className="shrink-0 text-xs text-muted-foreground">{`${formatDate(search.createdAt)} · ${plural(search.iterationCount, "iteration")}`}</span>
              </li>
            ))}
          </ul>
          <Missing missing={report.missing} readOnly={readOnly} />
        </CardContent>
      </Card>
    </div>
  );
}

/** Queries asked for that have no saved search: said plainly, with the way to run each. */
export function Missing({ missing, readOnly = false }: { missing: string[]; readOnly?: boolean }) {
  if (missing.length === 0) return null;
  return (
    <div className="space-y-2 rounded-lg border border-dashed p-3">
      <h4 className="text-sm font-semibold">Not searched yet</h4>
      <ul className="space-y-1 text-sm" aria-label="Not searched yet">
        {missing.map((query) => (
          <li key={query} className="flex min-w-0 flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 break-words">{query}</span>
            {readOnly ? null : (
              <Link
                href={dashboardHref(query)}
                aria-label={`Search it: ${query}`}
                className="inline-flex shrink-0 items-center gap-1 text-blue-700 underline-offset-2 hover:underline dark:text-blue-300"
              >
                <Search className="size-3.5" aria-hidden="true" />
                Search it
              </Link>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function VariantSelect({ pair }: { pair: Pair }) {
  const id = useId();
  if (!pair.selected) return <p className="text-sm text-muted-foreground">{`Only “${pair.base.query}” has a saved search: nothing to compare it with yet.`}</p>;
  return (
    <div className="flex min-w-0 flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <label htmlFor={id} className="shrink-0 text-sm font-medium">
        {`Compare ${pair.base.role === "original" ? "the original" : `“${pair.base.query}”`} with`}
      </label>
      <NativeSelect id={id} value={pair.selected.id} onChange={(event) => pair.choose(event.target.value)} className="max-w-full sm:min-w-72">
        {pair.others.map((search) => (
          <NativeSelectOption key={search.id} value={search.id}>
            {search.query}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </div>
  );
}

/** One kind's table: the original and the chosen variant side by side, per provider, and how often over the iterations. */
function ItemsTab({ items, kind, label, one, pair }: { items: ComparedItem[]; kind: Kind; label: string; one: string; pair: Pair }) {
  const { base, selected } = pair;
  const rows = useMemo(() => itemsOfPair(items, base.id, selected?.id), [items, base.id, selected?.id]);
  const shown = selected ? [base, selected] : [base];
  // The providers either search asked: one the other did not ask reads "not asked" there, never a dash.
  const providers = providerIds.filter((id) => shown.some((search) => search.providers.includes(id)));
  const notAsked = shown.some((search) => providers.some((id) => !search.providers.includes(id)));
  const runs = shown.map((search) => pooledRuns(items, search.id));
  const withFrequencies = runs.every((n) => n !== undefined);

  return (
    <Card className="min-w-0 gap-4">
      <CardHeader className="gap-3">
        <CardHeading>{`${label} compared`}</CardHeading>
        <VariantSelect pair={pair} />
        <SimulatedNote searches={shown} />
      </CardHeader>
      <CardContent className="min-w-0 space-y-3">
        {rows.length === 0 ? (
          <EmptyText>{`No ${label.toLowerCase()} found in these searches`}</EmptyText>
        ) : (
          <ScrollTable label={`${label} in the original and the variant`}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col" rowSpan={2} className="align-bottom">
                  {one}
                </TableHead>
                {shown.map((search) => (
                  <TableHead key={search.id} scope="colgroup" colSpan={providers.length} className="border-l text-center whitespace-normal">
                    <span className="block text-xs font-normal text-muted-foreground">{roleLabel(search)}</span>
                    <span className="line-clamp-2 max-w-56 break-words">{search.query}</span>
                  </TableHead>
                ))}
                {withFrequencies ? (
                  <TableHead scope="colgroup" colSpan={shown.length + (selected ? 1 : 0)} className="border-l text-center">
                    Share of iterations
                  </TableHead>
                ) : null}
              </TableRow>
              <TableRow>
                {shown.map((search) =>
                  providers.map((id, i) => (
                    <TableHead key={`${search.id}-${id}`} scope="col" className={i === 0 ? "border-l text-center" : "text-center"}>
                      <span className="inline-flex items-center gap-1">
                        {providerCatalogue[id].column}
                        {search.simulated[id] ? <SimulatedMark /> : null}
                      </span>
                    </TableHead>
                  )),
                )}
                {withFrequencies
                  ? shown.map((search, i) => (
                      <TableHead key={`f-${search.id}`} scope="col" className={i === 0 ? "border-l" : undefined}>
                        {roleLabel(search)}
                      </TableHead>
                    ))
                  : null}
                {withFrequencies && selected ? <TableHead scope="col">Difference</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((item) => (
                <TableRow key={item.name}>
                  <TableHead scope="row" className="max-w-56 min-w-36 font-normal whitespace-normal break-words">
                    {kind === "sources" ? <SourceLink source={{ url: item.name }} className="w-full" /> : item.name}
                  </TableHead>
                  {shown.map((search) =>
                    providers.map((id, i) => {
                      const often = item.in[search.id]?.returned?.[id];
                      return (
                        <TableCell
                          key={`${search.id}-${id}`}
                          className={i === 0 ? "border-l text-center" : "text-center"}
                          title={often && often.n > 1 ? `In ${often.count} of its ${often.n} iterations` : undefined}
                        >
                          {/* Spec §2 compare: a tick or a dash (how often, on hover; the share of iterations is beside). */}
                          {search.providers.includes(id) ? <Mark value={item.in[search.id]?.providers.includes(id) ?? false} no="–" /> : <NotAsked />}
                        </TableCell>
                      );
                    }),
                  )}
                  {withFrequencies
                    ? shown.map((search, i) => (
                        <TableCell key={`f-${search.id}`} className={i === 0 ? "border-l" : undefined}>
                          <FrequencyCell item={item} searchId={search.id} n={runs[i] ?? 0} label={`${item.name} in the ${roleLabel(search).toLowerCase()}`} />
                        </TableCell>
                      ))
                    : null}
                  {withFrequencies && selected ? (
                    <TableCell>
                      <DifferenceCell item={item} base={base.id} variant={selected.id} />
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
        <p className="text-xs text-muted-foreground">
          {withFrequencies
            ? "✓: the provider returned it in at least one iteration (hover it for how often). Share of iterations: in how many of all providers' iterations together it came back, with its 95% interval (Wilson). A difference is marked significant when Fisher's exact test (two-sided) gives p < 0.05; hover it for the p-value."
            : "✓: the provider returned it (in at least one iteration, when there were several). Shares of iterations and significance appear when both searches ran several iterations."}
          {notAsked ? ` ${NOT_ASKED_NOTE}` : null}
        </p>
      </CardContent>
    </Card>
  );
}

const NOT_ASKED_NOTE = "Not asked: that search did not ask the provider (it was saved before the provider was added, or the provider was off).";

/** A provider the search did not ask: no answer, so neither a tick nor a dash. */
function NotAsked() {
  return <span className="text-xs whitespace-nowrap text-muted-foreground">Not asked</span>;
}

/** Honesty rule: which providers' answers in the compared searches come from the simulator. */
function SimulatedNote({ searches }: { searches: ComparedSearch[] }) {
  return <SimulatedProvidersNote ids={providerIds.filter((id) => searches.some((search) => search.simulated[id]))} />;
}

function FrequencyCell({ item, searchId, n, label }: { item: ComparedItem; searchId: string; n: number; label: string }) {
  const share = item.in[searchId]?.frequency ?? rate(0, n);
  return (
    <div className="w-28 space-y-1" title={`${share.count} of ${share.n} iterations`}>
      <span className="text-xs tabular-nums">{formatRate(share)}</span>
      <RateBar rate={share} label={label} />
    </div>
  );
}

function DifferenceCell({ item, base, variant }: { item: ComparedItem; base: string; variant: string }) {
  const difference = item.difference[variant];
  if (!difference) return <span className="text-muted-foreground">–</span>;
  const p = `${formatPValue(difference.pValue)}, Fisher's exact test`;
  if (!difference.significant) {
    return (
      <span className="text-xs text-muted-foreground" title={p}>
        Not significant<span className="sr-only">{` (${p})`}</span>
      </span>
    );
  }
  const higher = (item.in[variant]?.frequency?.percentage ?? 0) > (item.in[base]?.frequency?.percentage ?? 0);
  const Arrow = higher ? ArrowUp : ArrowDown;
  return (
    <Badge variant="outline" className="border-amber-600 text-amber-900 dark:text-amber-100" title={p} data-testid="significant">
      <Arrow aria-hidden="true" />
      {higher ? "Significant: more" : "Significant: less"}
      <span className="sr-only">{` (${p})`}</span>
    </Badge>
  );
}

// ---------------------------------------------------------------------------------------------

/** Beyond the spec: how the web searches the models issued differ between the original and the chosen variant. */
function FanOut({ report, pair }: { report: CompareReport; pair: Pair }) {
  const { base, selected } = pair;
  const diff = useMemo(() => (selected ? fanOutDifference(report.fanOut, base.id, selected.id) : null), [report.fanOut, base.id, selected]);
  if (!diff || !selected) return null;
  const columns: { title: string; items: FanOutQuery[]; count: (q: FanOutQuery) => ReactNode }[] = [
    { title: `Only for the ${roleLabel(base).toLowerCase()}`, items: diff.onlyOriginal, count: (q) => plural(q.original, "time") },
    {
      title: "For both",
      items: diff.both,
      count: (q) => (
        <span
          title={`${plural(q.original, "time")} for the ${roleLabel(base).toLowerCase()}, ${plural(q.variant, "time")} for the ${roleLabel(selected).toLowerCase()}`}
        >{`${q.original} / ${q.variant}`}</span>
      ),
    },
    { title: `Only for the ${roleLabel(selected).toLowerCase()}`, items: diff.onlyVariant, count: (q) => plural(q.variant, "time") },
  ];
  return (
    <Card className="min-w-0 gap-4">
      <CardHeader className="gap-3">
        <h2 className="text-lg leading-none font-semibold">What the models searched for</h2>
        <CardDescription>{`The web searches the models issued for “${base.query}” and “${selected.query}”, with how many iterations issued each.`}</CardDescription>
        <VariantSelect pair={pair} />
      </CardHeader>
      <CardContent className="grid min-w-0 gap-4 md:grid-cols-3">
        {columns.map(({ title, items, count }) => (
          <section key={title} className="min-w-0 space-y-2">
            <h3 className="text-sm font-semibold">{`${title} (${items.length})`}</h3>
            <ListOrEmpty items={items} empty="None" className="space-y-1.5" label={title}>
              {(item) => (
                <li key={item.query} className="flex min-w-0 items-baseline justify-between gap-2 text-sm">
                  <span className="min-w-0 break-words">{item.query}</span>
                  <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{count(item)}</span>
                </li>
              )}
            </ListOrEmpty>
          </section>
        ))}
      </CardContent>
    </Card>
  );
}
