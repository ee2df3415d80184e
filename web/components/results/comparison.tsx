import { useMemo, type ReactNode } from "react";
import { perProvider, providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import { modelOf, type SearchResult } from "#src/contract/search.ts";
import { dedupeSources, normalizeUrl } from "#src/core/urls.ts";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { EmptyText, ListOrEmpty, Mark, ModelBadges, ResultCard, SimulatedBadge, SourceLink, type SimulatedFlags } from "./shared.tsx";

const STATUS_TEXT = { ok: "Answered", error: "Error", off: "Not Connected" } as const;
const NO_COMMON_SOURCE = "No source was returned by more than one model";

/**
 * The ui Table's horizontal scroller, made focusable and named so keyboard users can scroll it
 * on narrow screens (axe scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div data-slot="table-container" role="region" aria-label={label} tabIndex={0} className="relative w-full overflow-x-auto rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      <table data-slot="table" className="w-full caption-bottom text-sm">
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
      <CommonList title="Common Products" empty="No product was returned by more than one model" items={result.commonProducts} itemKey={(p) => p.name} simulated={simulated}>
        {(product) => <span className="min-w-0 font-medium break-words">{product.name}</span>}
      </CommonList>
      <CommonList title="Common Sources" empty={NO_COMMON_SOURCE} items={result.commonSources} itemKey={(s) => s.url} simulated={simulated}>
        {(source) => <SourceLink source={withTitle(titles, source.url)} className="min-w-0" />}
      </CommonList>
    </ResultCard>
  );
}

/** One list of items more than one model returned, each with the models that did. */
function CommonList<T extends { models: ProviderId[] }>({ title, empty, items, itemKey, simulated, children }: { title: string; empty: string; items: T[]; itemKey: (item: T) => string; simulated: SimulatedFlags; children: (item: T) => ReactNode }) {
  return (
    <section className="min-w-0 space-y-2">
      <h4 className="text-sm font-semibold">{`${title} (${items.length})`}</h4>
      <ListOrEmpty items={items} empty={empty} className="space-y-2">
        {(item) => (
          <li key={itemKey(item)} className="flex min-w-0 flex-wrap items-center justify-between gap-2 text-sm">
            {children(item)}
            <ModelBadges models={item.models} simulated={simulated} />
          </li>
        )}
      </ListOrEmpty>
    </section>
  );
}

export type ComparisonRow = { name: string; group?: string } & Record<ProviderId, boolean | string>;

/** The model comparison rows: each model's basics, then the products and companies it shares. */
export function comparisonRows(result: SearchResult): ComparisonRow[] {
  const per = (pick: (model: ReturnType<typeof modelOf>) => boolean | string) => perProvider((id) => pick(modelOf(result, id)));
  const shared = (group: string, items: SearchResult["commonProducts"]): ComparisonRow[] => items.map((item) => ({ name: item.name, group, ...perProvider((id) => item.models.includes(id)) }));
  return [
    { name: "Model version", ...per((model) => model.modelVersion || "—") },
    { name: "Status", ...per((model) => STATUS_TEXT[model.status]) },
    { name: "Simulated", ...per((model) => model.simulated) },
    { name: "Searched the web", ...per((model) => model.status === "ok" && model.searched) },
    { name: "Products", ...per((model) => String(model.products.length)) },
    { name: "Companies", ...per((model) => String(model.companies.length)) },
    { name: "Sources", ...per((model) => String(dedupeSources(model.sources).length)) },
    ...shared("Common products", result.commonProducts),
    ...shared("Common companies", result.commonCompanies),
  ];
}

function ProviderHeads({ simulated }: { simulated: SimulatedFlags }) {
  return (
    <>
      {providerIds.map((id) => (
        <TableHead key={id} scope="col" className="text-center">
          <span className="inline-flex flex-col items-center gap-1">
            {providerCatalogue[id].column}
            {simulated[id] ? <SimulatedBadge /> : null}
          </span>
        </TableHead>
      ))}
    </>
  );
}

/** Spec §2 comparison table of named items: ✗ for false, ✓ for true, or the string itself. */
export function ComparisonTable({ rows, simulated }: { rows: ComparisonRow[]; simulated: SimulatedFlags }) {
  let lastGroup: string | undefined;
  return (
    <ResultCard title="Model Comparison" description="Each model's answer side by side, and the products and companies found by more than one.">
      <ScrollTable label="Model comparison table">
        <TableHeader>
          <TableRow>
            <TableHead scope="col">Item</TableHead>
            <ProviderHeads simulated={simulated} />
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.flatMap((row, index) => {
            const out = [];
            if (row.group && row.group !== lastGroup) {
              out.push(
                <TableRow key={`group-${row.group}`} className="bg-muted/50 hover:bg-muted/50">
                  <TableHead scope="colgroup" colSpan={providerIds.length + 1} className="h-8 text-xs tracking-wide text-muted-foreground uppercase">
                    {row.group}
                  </TableHead>
                </TableRow>,
              );
            }
            lastGroup = row.group;
            out.push(
              <TableRow key={`${row.group ?? ""}-${row.name}-${index}`}>
                <TableHead scope="row" className="font-normal whitespace-normal break-words">
                  {row.name}
                </TableHead>
                {providerIds.map((id) => (
                  <TableCell key={id} className="text-center whitespace-normal break-all">
                    <Mark value={row[id]} />
                  </TableCell>
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
  return (
    <ResultCard title="Common Sources Across Models">
      {result.commonSources.length === 0 ? (
        <EmptyText>{NO_COMMON_SOURCE}</EmptyText>
      ) : (
        <ScrollTable label="Common sources table">
          <TableHeader>
            <TableRow>
              <TableHead scope="col">Source URL</TableHead>
              <ProviderHeads simulated={simulated} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.commonSources.map((source) => (
              <TableRow key={source.url}>
                <TableCell>
                  <div className="max-w-[12rem] sm:max-w-md">
                    <SourceLink source={withTitle(titles, source.url)} show="url" className="w-full" />
                  </div>
                </TableCell>
                {providerIds.map((id) => (
                  <TableCell key={id} className="text-center">
                    <Mark value={source.models.includes(id)} />
                  </TableCell>
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
