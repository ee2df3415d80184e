import { useMemo } from "react";
import type { SearchResult } from "#src/contract/search.ts";
import { aggregateCompanies, aggregateProducts, aggregateSources, type AggregatedSource } from "#src/core/aggregate.ts";
import { domainCounts, hostOf } from "#src/core/urls.ts";
import { EmptyText, ModelBadges, SourceLink, plural, type SimulatedFlags } from "./shared.tsx";
import { Badge, Card, CardContent, CardDescription, CardHeader } from "#web/kit.ts";

/** Spec §9: Top Domains shows 10. */
export const TOP_DOMAINS = 10;

function CardHeading({ children }: { children: string }) {
  return (
    <h3 data-slot="card-title" className="leading-none font-semibold">
      {children}
    </h3>
  );
}

/** Spec §2 'All Products (N)', merged and sorted per §4, each with the models that returned it. */
export function ProductsTab({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const products = useMemo(() => aggregateProducts(result), [result]);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>{`All Products (${products.length})`}</CardHeading>
        <CardDescription>Merged across models; the ones more models returned come first, then by rank.</CardDescription>
      </CardHeader>
      <CardContent>
        {products.length === 0 ? (
          <EmptyText>No products found in search results</EmptyText>
        ) : (
          <ol className="divide-y" aria-label="All products">
            {products.map((product) => (
              <li key={product.name} className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="aggregated-product">
                <div className="min-w-0">
                  <p className="font-medium break-words">
                    {product.name}
                    {product.rank !== undefined ? <span className="ml-2 text-xs font-normal text-muted-foreground">{`best rank #${product.rank}`}</span> : null}
                  </p>
                  {product.details ? <p className="mt-0.5 text-sm break-words text-muted-foreground">{product.details}</p> : null}
                </div>
                <div className="flex shrink-0 flex-col gap-1 sm:items-end">
                  <span className="text-xs text-muted-foreground">{`${product.count} of 3 models`}</span>
                  <ModelBadges models={product.models} simulated={simulated} />
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Spec §2 'All Companies (N)', merged across models, with their products and models. */
export function CompaniesTab({ result, simulated }: { result: SearchResult; simulated: SimulatedFlags }) {
  const companies = useMemo(() => aggregateCompanies(result), [result]);
  return (
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>{`All Companies (${companies.length})`}</CardHeading>
        <CardDescription>Merged across models; the ones more models mentioned come first.</CardDescription>
      </CardHeader>
      <CardContent>
        {companies.length === 0 ? (
          <EmptyText>No companies found in search results</EmptyText>
        ) : (
          <ul className="divide-y" aria-label="All companies">
            {companies.map((company) => (
              <li key={company.name} className="flex min-w-0 flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
                <div className="min-w-0">
                  <p className="font-medium break-words">{company.name}</p>
                  {company.products.length > 0 ? <p className="mt-0.5 text-sm break-words text-muted-foreground">{`Products: ${company.products.join(", ")}`}</p> : null}
                </div>
                <div className="flex shrink-0 flex-col gap-1 sm:items-end">
                  <span className="text-xs text-muted-foreground">{`${company.count} of 3 models`}</span>
                  <ModelBadges models={company.models} simulated={simulated} />
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

type DomainGroup = { domain: string | null; sources: AggregatedSource[] };

/** Links grouped by host name in Top Domains order; invalid URLs last, under no domain. */
function groupByDomain(sources: AggregatedSource[], domains: { domain: string }[]): DomainGroup[] {
  const byDomain = new Map<string | null, AggregatedSource[]>();
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
  const sources = useMemo(() => aggregateSources(result), [result]);
  const domains = useMemo(() => domainCounts(sources.map((s) => s.url)), [sources]);
  const groups = useMemo(() => groupByDomain(sources, domains), [sources, domains]);

  return (
    <Card className="gap-4">
      <CardHeader>
        <CardHeading>{`All Sources (${sources.length} links from ${domains.length} domains)`}</CardHeading>
        <CardDescription>Every distinct link any model returned, grouped by domain.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
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
                      <li key={source.url} className="flex min-w-0 flex-col gap-1 rounded-md border p-2 text-sm sm:flex-row sm:items-center sm:justify-between">
                        <div className="min-w-0">
                          {source.title ? <p className="font-medium break-words">{source.title}</p> : null}
                          <SourceLink source={source} show="url" className="w-full text-xs" />
                        </div>
                        <ModelBadges models={source.models} simulated={simulated} />
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </section>
          </>
        )}
      </CardContent>
    </Card>
  );
}
