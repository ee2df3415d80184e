import { useMemo, type ReactNode } from "react";
import type { ProviderId } from "#src/contract/providers.ts";
import { providersOf, type SearchResult } from "#src/contract/search-result.ts";
import { listedCompanies, listedProducts, listedSources, type ListedSource, type ReturnedBy } from "#src/core/aggregate.ts";
import { domainCounts, hostOf, sourceLabel } from "#src/core/urls.ts";
import { EmptyText, ListOrEmpty, ModelBadges, ResultCard, SourceLink, plural, type SimulatedFlags } from "./shared.tsx";
import { Badge } from "#web/shared-chunk.ts";

/** Spec §9: Top Domains shows 10. */
export const TOP_DOMAINS = 10;

/** Spec §2 'All Products (N)', merged and sorted per §4, each with the models that returned it. */
export function ProductsTab({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const products = useMemo(() => listedProducts(result), [result]);
  return (
    <ResultCard
      title={`All Products (${products.length})`}
      description={`${everyIteration(result, "Every product any model returned")}; the ones more models returned come first, then by rank.`}
    >
      <ListOrEmpty items={products} empty="No products found in search results" ordered className="divide-y" label="All products">
        {(product) => (
          <li key={product.name} className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="aggregated-product">
            <div className="min-w-0">
              <p className="font-medium break-words">
                {product.name}
                {product.rank !== undefined ? (
                  <span className="ml-2 text-xs font-normal text-muted-foreground">
                    {result.iterationCount > 1 ? `rank #${product.rank} in the shown answer` : `best rank #${product.rank}`}
                  </span>
                ) : null}
              </p>
              {product.details ? <p className="mt-0.5 text-sm break-words text-muted-foreground">{product.details}</p> : null}
            </div>
            <ReturnedByModels item={product} of={providersOf(result).length} simulated={simulated} />
          </li>
        )}
      </ListOrEmpty>
    </ResultCard>
  );
}

/** Spec §2 'All Companies (N)', merged across models, with their products and models. */
export function CompaniesTab({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const companies = useMemo(() => listedCompanies(result), [result]);
  return (
    <ResultCard
      title={`All Companies (${companies.length})`}
      description={`${everyIteration(result, "Every company any model mentioned")}; the ones more models mentioned come first.`}
    >
      <ListOrEmpty items={companies} empty="No companies found in search results" className="divide-y" label="All companies">
        {(company) => (
          <li key={company.name} className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="aggregated-company">
            <div className="min-w-0">
              <p className="font-medium break-words">{company.name}</p>
              {company.products.length > 0 ? (
                <p className="mt-0.5 text-sm break-words text-muted-foreground">{`Products: ${company.products.join(", ")}`}</p>
              ) : null}
            </div>
            <ReturnedByModels item={company} of={providersOf(result).length} simulated={simulated} />
          </li>
        )}
      </ListOrEmpty>
    </ResultCard>
  );
}

/** What a list holds (ADR 028): with several iterations, every one of them, and how often is beside each model. */
function everyIteration(result: SearchResult, what: string): string {
  return result.iterationCount > 1 ? `${what} in any of the ${result.iterationCount} iterations, with how often beside each model` : what;
}

/** "2 of 4 models" (of those the result asked) and which ones (over several iterations, how often each). */
function ReturnedByModels({ item, of, simulated }: { item: ReturnedBy & { models: ProviderId[] }; of: number; simulated: SimulatedFlags }): ReactNode {
  return (
    <div className="flex shrink-0 flex-col gap-1 sm:items-end">
      <span className="text-xs text-muted-foreground">{`${item.models.length} of ${of} models`}</span>
      <ModelBadges models={item.models} simulated={simulated} returned={item.returned} />
    </div>
  );
}

type DomainGroup = { domain: string | null; sources: ListedSource[] };

/** Links grouped by host name in Top Domains order; invalid URLs last, under no domain. */
function groupByDomain(sources: ListedSource[], domains: { domain: string }[]): DomainGroup[] {
  const byDomain = new Map<string | null, ListedSource[]>();
  for (const source of sources) {
    const domain = hostOf(source.url);
    const list = byDomain.get(domain);
    if (list) list.push(source);
    else byDomain.set(domain, [source]);
  }
  const groups: DomainGroup[] = domains.map(({ domain }) => ({ domain, sources: byDomain.get(domain) ?? [] }));
  const invalid = byDomain.get(null);
  if (invalid) groups.push({ domain: null, sources: invalid });
  return groups;
}

/** Spec §2 'All Sources (N links from M domains)' with 'Top Domains' (10) and every link. */
export function LinksTab({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const sources = useMemo(() => listedSources(result), [result]);
  const domains = useMemo(() => domainCounts(sources.map((s) => s.url)), [sources]);
  const groups = useMemo(() => groupByDomain(sources, domains), [sources, domains]);

  return (
    <ResultCard
      title={`All Sources (${sources.length} links from ${domains.length} domains)`}
      description={`${everyIteration(result, "Every distinct link any model returned")}, grouped by domain.`}
      contentClassName="space-y-6"
    >
      {sources.length === 0 ? (
        <EmptyText>No sources found in search results</EmptyText>
      ) : (
        <>
          <section className="space-y-2">
            <h4 className="text-sm font-semibold">Top Domains</h4>
            <ol className="grid gap-1.5 sm:grid-cols-2">
              {domains.slice(0, TOP_DOMAINS).map(({ domain, count }) => (
                <li key={domain} className="flex min-w-0 items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm">
                  <span className="truncate" title={domain}>
                    {domain}
                  </span>
                  <Badge variant="secondary">{plural(count, "link")}</Badge>
                </li>
              ))}
            </ol>
          </section>
          <section className="space-y-4">
            <h4 className="text-sm font-semibold">Links</h4>
            {groups.map((group) => (
              <div key={group.domain ?? "\u0000invalid"} className="min-w-0 space-y-1.5">
                <h5 className="text-xs font-semibold tracking-wide break-all text-muted-foreground uppercase">{group.domain ?? "Not a valid URL"}</h5>
                <ul className="space-y-2">
                  {group.sources.map((source) => (
                    <li
                      key={source.url}
                      className="flex min-w-0 flex-col gap-1 rounded-md border p-2 text-sm sm:flex-row sm:items-center sm:justify-between"
                      data-testid="aggregated-source"
                    >
                      <div className="min-w-0">
                        <p className="font-medium break-words">{sourceLabel(source, { preferTitle: true })}</p>
                        <SourceLink source={source} show="url" className="w-full text-xs" />
                      </div>
                      <ModelBadges models={source.models} simulated={simulated} returned={source.returned} />
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </section>
        </>
      )}
    </ResultCard>
  );
}
