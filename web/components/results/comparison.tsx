import { useMemo, type ReactNode } from "react";
import { perProvider, providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { modelOf, providersOf, type SearchResult } from "#src/contract/search-result.ts";
import { returnedCounts } from "#src/core/aggregate.ts";
import { normalizeUrl } from "#src/core/urls.ts";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { cn } from "#web/lib/utils.ts";
import { EmptyText, ListOrEmpty, Mark, ModelBadges, ResultCard, SimulatedMark, SourceLink, type SimulatedFlags } from "./shared.tsx";

const STATUS_TEXT = { ok: "Answered", error: "Error", off: "Not Connected" } as const;
const NO_COMMON_SOURCE = "No source was returned by more than one model";

/**
 * The ui Table's horizontal scroller, made focusable and named so keyboard users can scroll it
 * on narrow screens (axe scrollable-region-focusable).
 */
export function ScrollTable({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      data-slot="table-container"
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative w-full overflow-x-auto rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      <table data-slot="table" role="table" className={cn("w-full caption-bottom text-sm", className)}>
        {children}
      </table>
    </div>
  );
}

/** Spec §2: the products and sources more than one model returned, at a glance. */
export function CrossModelComparison({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const titles = useMemo(() => sourceTitles(result), [result]);
  return (
    <ResultCard title="Cross-Model Comparison" description="What more than one model returned." contentClassName="grid gap-6 md:grid-cols-2">
      <CommonList
        title="Common Products"
        empty="No product was returned by more than one model"
        items={result.commonProducts}
        itemKey={(p) => p.name}
        simulated={simulated}
      >
        {(product) => <span className="min-w-0 font-medium break-words">{product.name}</span>}
      </CommonList>
      <CommonList title="Common Sources" empty={NO_COMMON_SOURCE} items={result.commonSources} itemKey={(s) => s.url} simulated={simulated}>
        {(source) => <SourceLink source={withTitle(titles, source.url)} className="min-w-0" />}
      </CommonList>
    </ResultCard>
  );
}

/** One list of items more than one model returned, each with the models that did. */
function CommonList<T extends { models: ProviderId[] }>({
  title,
  empty,
  items,
  itemKey,
  simulated,
  children,
}: {
  title: string;
  empty: string;
  items: T[];
  itemKey: (item: T) => string;
  simulated: SimulatedFlags;
  children: (item: T) => ReactNode;
}) {
  return (
    <section className="min-w-0 space-y-2">
      <h4 className="text-sm font-semibold">{`${title} (${items.length})`}</h4>
      <ListOrEmpty items={items} empty={empty} className="space-y-2">
        {(item) => (
          <li key={itemKey(item)} className="flex min-w-0 flex-col gap-1 text-sm sm:flex-row sm:flex-wrap sm:items-center sm:justify-between sm:gap-2">
            {children(item)}
            <ModelBadges models={item.models} simulated={simulated} />
          </li>
        )}
      </ListOrEmpty>
    </section>
  );
}

export type ComparisonRow = { name: string; group?: string } & Record<ProviderId, boolean | string>;

/**
 * The model comparison rows: each model's basics, how many of the listed products, companies and
 * sources it returned (over every iteration, as the tabs list them: ADR 028), then the products
 * and companies it shares.
 */
export function comparisonRows(result: SearchResult): ComparisonRow[] {
  const per = (pick: (model: ReturnType<typeof modelOf>) => boolean | string) => perProvider((id) => pick(modelOf(result, id)));
  const shared = (group: string, items: SearchResult["commonProducts"]): ComparisonRow[] =>
    items.map((item) => ({ name: item.name, group, ...perProvider((id) => item.models.includes(id)) }));
  const counts = perProvider((id) => returnedCounts(result, id));
  const count = (kind: keyof (typeof counts)[ProviderId]) => perProvider((id) => String(counts[id][kind]));
  return [
    { name: "Model version", ...per((model) => model.modelVersion || "—") },
    { name: "Status", ...per((model) => STATUS_TEXT[model.status]) },
    { name: "Searched the web", ...per((model) => model.status === "ok" && model.searched) },
    { name: "Products", ...count("products") },
    { name: "Companies", ...count("companies") },
    { name: "Sources", ...count("sources") },
    ...shared("Common products", result.commonProducts),
    ...shared("Common companies", result.commonCompanies),
  ];
}

function ProviderHeads({ providers, simulated }: { providers: readonly ProviderId[]; simulated: SimulatedFlags }) {
  return (
    <>
      {providers.map((id) => (
        <TableHead key={id} scope="col" role="columnheader" className="text-center">
          <span className="inline-flex items-center gap-1">
            {providerCatalogue[id].column}
            {simulated[id] ? <SimulatedMark /> : null}
          </span>
        </TableHead>
      ))}
    </>
  );
}

/**
 * A provider-column table laid out for a phone (below `sm`): each row a block, its name across
 * the top and one cell per provider under it, labelled with the provider; the column headers
 * stay for screen readers. The roles are explicit because the rows are no longer CSS table rows.
 */
/** One phone column per provider the table shows, spelled out so that Tailwind sees each class. */
const PHONE_COLUMNS = ["max-sm:grid-cols-1", "max-sm:grid-cols-2", "max-sm:grid-cols-3", "max-sm:grid-cols-4", "max-sm:grid-cols-5", "max-sm:grid-cols-6"];

function phoneRow(providers: readonly ProviderId[]): string {
  return `max-sm:grid ${PHONE_COLUMNS[providers.length - 1] ?? "max-sm:grid-cols-6"} max-sm:gap-x-2 max-sm:py-2`;
}

const STACKED = {
  table: "max-sm:block",
  head: "max-sm:sr-only",
  body: "max-sm:block",
  group: "max-sm:block",
  name: "max-sm:col-span-full max-sm:h-auto max-sm:px-1 max-sm:pb-1 max-sm:font-medium",
  cell: "max-sm:flex max-sm:flex-col max-sm:items-center max-sm:gap-0.5 max-sm:px-1 max-sm:py-1",
} as const;

/** A provider's cell, with the provider's name above the value on a phone (where the column headers are hidden). */
function ProviderCell({ id, className, children }: { id: ProviderId; className?: string; children: ReactNode }) {
  return (
    <TableCell role="cell" className={cn("text-center", STACKED.cell, className)}>
      <span aria-hidden="true" className="text-xs text-muted-foreground sm:hidden">
        {providerCatalogue[id].column}
      </span>
      {children}
    </TableCell>
  );
}

/** Spec §2 comparison table of named items: ✗ for false, ✓ for true, or the string itself. */
export function ComparisonTable({ rows, providers, simulated }: { rows: ComparisonRow[]; providers: readonly ProviderId[]; simulated: SimulatedFlags }) {
  let lastGroup: string | undefined;
  return (
    <ResultCard title="Model Comparison" description="Each model's answer side by side, and the products and companies found by more than one.">
      <ScrollTable label="Model comparison table" className={STACKED.table}>
        <TableHeader role="rowgroup" className={STACKED.head}>
          <TableRow role="row">
            <TableHead scope="col" role="columnheader">
              Item
            </TableHead>
            <ProviderHeads providers={providers} simulated={simulated} />
          </TableRow>
        </TableHeader>
        <TableBody role="rowgroup" className={STACKED.body}>
          {rows.flatMap((row, index) => {
            const out = [];
            if (row.group && row.group !== lastGroup) {
              out.push(
                <TableRow key={`group-${row.group}`} role="row" className={cn("bg-muted/50 hover:bg-muted/50", STACKED.group)}>
                  <TableHead
                    scope="colgroup"
                    role="columnheader"
                    colSpan={providers.length + 1}
                    className="flex h-8 items-center text-xs tracking-wide text-muted-foreground uppercase sm:table-cell"
                  >
                    {row.group}
                  </TableHead>
                </TableRow>,
              );
            }
            lastGroup = row.group;
            out.push(
              <TableRow key={`${row.group ?? ""}-${row.name}-${index}`} role="row" className={phoneRow(providers)}>
                <TableHead scope="row" role="rowheader" className={cn("font-normal whitespace-normal break-words", STACKED.name)}>
                  {row.name}
                </TableHead>
                {providers.map((id) => (
                  // Version strings wrap at their hyphens, never inside a word.
                  <ProviderCell key={id} id={id} className="whitespace-normal">
                    <Mark value={row[id]} />
                  </ProviderCell>
                ))}
              </TableRow>,
            );
            return out;
          })}
        </TableBody>
      </ScrollTable>
    </ResultCard>
  );
}

/** Spec §2 'Common Sources Across Models': source URL with ✓ or ✗ per model. */
export function CommonSourcesTable({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const titles = useMemo(() => sourceTitles(result), [result]);
  const providers = providersOf(result);
  return (
    <ResultCard title="Common Sources Across Models">
      {result.commonSources.length === 0 ? (
        <EmptyText>{NO_COMMON_SOURCE}</EmptyText>
      ) : (
        <ScrollTable label="Common sources table" className={STACKED.table}>
          <TableHeader role="rowgroup" className={STACKED.head}>
            <TableRow role="row">
              <TableHead scope="col" role="columnheader">
                Source URL
              </TableHead>
              <ProviderHeads providers={providers} simulated={simulated} />
            </TableRow>
          </TableHeader>
          <TableBody role="rowgroup" className={STACKED.body}>
            {result.commonSources.map((source) => (
              <TableRow key={source.url} role="row" className={phoneRow(providers)}>
                <TableCell role="cell" className={STACKED.name}>
                  <div className="max-w-full sm:max-w-md">
                    <SourceLink source={withTitle(titles, source.url)} show="url" className="w-full" />
                  </div>
                </TableCell>
                {providers.map((id) => (
                  <ProviderCell key={id} id={id}>
                    <Mark value={source.models.includes(id)} />
                  </ProviderCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </ScrollTable>
      )}
    </ResultCard>
  );
}

// Common sources carry only the normalised URL; a title from any model's source helps the hover
// (and names an unresolved Gemini redirect).
export function sourceTitles(result: SearchResult): Map<string, string> {
  const titles = new Map<string, string>();
  for (const id of providerIds) {
    for (const source of modelOf(result, id).sources) {
      const title = source.title?.trim();
      const key = normalizeUrl(source.url);
      if (title && !titles.has(key)) titles.set(key, title);
    }
  }
  return titles;
}

function withTitle(titles: Map<string, string>, url: string): { url: string; title?: string } {
  const title = titles.get(url);
  return title ? { url, title } : { url };
}
