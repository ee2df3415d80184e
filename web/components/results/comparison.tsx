import { useMemo, type ReactNode } from "react";
import { providerIds, type CommonItem, type ProviderId, type SearchResult } from "#src/contract/search.ts";
import { providerLabels } from "#src/core/export.ts";
import { dedupeSources, normalizeUrl } from "#src/core/urls.ts";
import { TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { EmptyText, Mark, ModelBadges, SimulatedBadge, SourceLink, type SimulatedFlags } from "./shared.tsx";
import { Card, CardContent, CardDescription, CardHeader } from "#web/kit.ts";

const STATUS_TEXT = { ok: "Answered", error: "Error", off: "Not Connected" } as const;

function CardHeading({ children }: { children: string }) {
  return (
    <h3 data-slot="card-title" className="leading-none font-semibold">
      {children}
    </h3>
  );
}

/**
 * The ui Table's horizontal scroller, made focusable and named so keyboard users can scroll it
 * on narrow screens (axe scrollable-region-focusable).
 */
function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div data-slot="table-container" role="region" aria-label={label} tabIndex={0} className="relative w-full overflow-x-auto rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
      <table data-slot="table" className="w-full caption-bottom text-sm">
        {children}
      </table>
    </div>
  );
}

function modelsOf(item: Record<ProviderId, boolean>): ProviderId[] {
  return providerIds.filter((id) => item[id]);
}

/** Spec §2: the products and sources more than one model returned, at a glance. */
export function CrossModelComparison({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const titles = useMemo(() => sourceTitles(result), [result]);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>Cross-Model Comparison</CardHeading>
        <CardDescription>What more than one model returned.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-2">
        <section className="min-w-0 space-y-2">
          <h4 className="text-sm font-semibold">{`Common Products (${result.commonProducts.length})`}</h4>
          {result.commonProducts.length === 0 ? (
            <EmptyText>No product was returned by more than one model</EmptyText>
          ) : (
            <ul className="space-y-2">
              {result.commonProducts.map((product) => (
                <li key={product.name} className="flex min-w-0 flex-wrap items-center justify-between gap-2 text-sm">
                  <span className="min-w-0 font-medium break-words">{product.name}</span>
                  <ModelBadges models={modelsOf(product)} simulated={simulated} />
                </li>
              ))}
            </ul>
          )}
        </section>
        <section className="min-w-0 space-y-2">
          <h4 className="text-sm font-semibold">{`Common Sources (${result.commonSources.length})`}</h4>
          {result.commonSources.length === 0 ? (
            <EmptyText>No source was returned by more than one model</EmptyText>
          ) : (
            <ul className="space-y-2">
              {result.commonSources.map((source) => (
                <li key={source.url} className="flex min-w-0 flex-wrap items-center justify-between gap-2 text-sm">
                  <SourceLink source={withTitle(titles, source.url)} className="min-w-0" />
                  <ModelBadges models={modelsOf(source)} simulated={simulated} />
                </li>
              ))}
            </ul>
          )}
        </section>
      </CardContent>
    </Card>
  );
}

export type ComparisonRow = { name: string; group?: string } & Record<ProviderId, boolean | string>;

/** The model comparison rows: each model's basics, then the products and companies it shares. */
export function comparisonRows(result: SearchResult): ComparisonRow[] {
  const per = <T extends boolean | string>(pick: (id: ProviderId) => T) => ({ openai: pick("openai"), anthropic: pick("anthropic"), gemini: pick("gemini") });
  const shared = (group: string, items: CommonItem[]): ComparisonRow[] => items.map((item) => ({ name: item.name, group, ...per((id) => item[id]) }));
  return [
    { name: "Model version", ...per((id) => result[id].modelVersion || "—") },
    { name: "Status", ...per((id) => STATUS_TEXT[result[id].status]) },
    { name: "Simulated", ...per((id) => result[id].simulated) },
    { name: "Searched the web", ...per((id) => result[id].status === "ok" && result[id].searched) },
    { name: "Products", ...per((id) => String(result[id].products.length)) },
    { name: "Companies", ...per((id) => String(result[id].companies.length)) },
    { name: "Sources", ...per((id) => String(dedupeSources(result[id].sources).length)) },
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
            {providerLabels[id].column}
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
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>Model Comparison</CardHeading>
        <CardDescription>Each model&apos;s answer side by side, and the products and companies found by more than one.</CardDescription>
      </CardHeader>
      <CardContent>
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
                    <TableHead scope="colgroup" colSpan={4} className="h-8 text-xs tracking-wide text-muted-foreground uppercase">
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
      </CardContent>
    </Card>
  );
}

/** Spec §2 'Common Sources Across Models': source URL with ✓ or ✗ per model. */
export function CommonSourcesTable({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const titles = useMemo(() => sourceTitles(result), [result]);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>Common Sources Across Models</CardHeading>
      </CardHeader>
      <CardContent>
        {result.commonSources.length === 0 ? (
          <EmptyText>No source was returned by more than one model</EmptyText>
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
                      <Mark value={source[id]} />
                    </TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </ScrollTable>
        )}
      </CardContent>
    </Card>
  );
}

// Common sources carry only the normalised URL; a title from any model's source helps the hover
// (and names an unresolved Gemini redirect).
export function sourceTitles(result: SearchResult): Map<string, string> {
  const titles = new Map<string, string>();
  for (const id of providerIds) {
    for (const source of result[id].sources) {
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
