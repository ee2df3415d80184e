import { ChartNoAxesColumn, Lock } from "lucide-react";
import { Link } from "wouter";
import { providerCatalogue, providerIds, type ProviderId } from "#src/contract/providers.ts";
import type { AggregatedStats, Frequency, SearchResult } from "#src/contract/search-result.ts";
import { stabilitySummary } from "#src/core/aggregate.ts";
import { intervalText } from "#src/core/stats.ts";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#web/components/ui/tabs.tsx";
import { sourceLabel } from "#src/core/urls.ts";
import { formatPercent } from "#web/lib/format.ts";
import { CardHeading, EmptyText, SimulatedBadge, SimulatedMark, plural, type SimulatedFlags } from "./shared.tsx";
import { Button, Card, CardContent, CardHeader, InfoTip, Progress } from "#web/shared-chunk.ts";

type Kind = "product" | "company" | "source";

/** The providers that have frequency stats, in card order. */
export function providersWithStats(result: SearchResult): { id: ProviderId; stats: AggregatedStats }[] {
  return providerIds.flatMap((id) => {
    const stats = result.stats[id];
    return stats ? [{ id, stats }] : [];
  });
}

/**
 * Spec §2 Frequency Analysis: per provider, how often each item came back over the iterations.
 * `printAll`: every provider's in the page (each prints); `forLink`: read through a share link, by
 * someone whose search it is not (no advice on their own searches' options).
 */
export function FrequencyAnalysis({
  result,
  simulated,
  isPro,
  printAll = false,
  forLink = false,
}: {
  result: SearchResult;
  simulated: SimulatedFlags;
  isPro: boolean;
  printAll?: boolean;
  forLink?: boolean;
}) {
  const withStats = providersWithStats(result);
  const first = withStats[0];

  if (!(result.iterationCount > 1) || !first) {
    return (
      <Card className="items-center gap-2 py-10 text-center">
        <ChartNoAxesColumn className="size-8 text-muted-foreground" aria-hidden="true" />
        <h3 className="text-lg font-semibold">No Aggregated Results Available</h3>
        {forLink ? (
          <p className="max-w-md px-6 text-sm text-muted-foreground">This search was run once: how often each item comes back needs several iterations.</p>
        ) : isPro ? (
          <p className="max-w-md px-6 text-sm text-muted-foreground">
            Set Search Iterations above 1 to run the same search several times and see how often each product, company and source comes back.
          </p>
        ) : (
          // Spec §2 says to set iterations above 1; a free user cannot, so it says whose option that is.
          <>
            <p className="max-w-md px-6 text-sm text-muted-foreground">
              Setting Search Iterations above 1, to run the same search several times and see how often each product, company and source comes back, is a Pro
              feature.
            </p>
            <Button asChild size="sm">
              <Link href="/upgrade">
                <Lock aria-hidden="true" />
                Upgrade to Pro
              </Link>
            </Button>
          </>
        )}
      </Card>
    );
  }

  return (
    <Tabs defaultValue={first.id} className="gap-4">
      <TabsList aria-label="Provider" className="flex h-auto w-full flex-wrap justify-start group-data-[orientation=horizontal]/tabs:h-auto sm:w-fit">
        {withStats.map(({ id }) => (
          <TabsTrigger key={id} value={id} className="flex-none gap-1.5">
            {providerCatalogue[id].model}
            {simulated[id] ? <SimulatedMark /> : null}
          </TabsTrigger>
        ))}
      </TabsList>
      {withStats.map(({ id, stats }) => (
        <TabsContent key={id} value={id} forceMount={printAll || undefined} className="space-y-4">
          <ProviderFrequencies provider={id} stats={stats} simulated={simulated[id]} />
        </TabsContent>
      ))}
    </Tabs>
  );
}

function ProviderFrequencies({ provider, stats, simulated }: { provider: ProviderId; stats: AggregatedStats; simulated: boolean }) {
  const stability = stabilitySummary(stats);
  const model = providerCatalogue[provider].model;
  return (
    <>
      <div className="flex flex-col gap-1 rounded-lg border bg-muted/40 px-4 py-3 text-sm">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-medium">{`${model}: top 3 products identical in ${stability.identicalTop3} of ${stability.runs} runs`}</span>
          {simulated ? <SimulatedBadge /> : null}
        </p>
        {stability.identicalTop3 > 1 && stability.mostCommonTop3.length > 0 ? (
          <p className="break-words text-muted-foreground">{`Most common top 3: ${stability.mostCommonTop3.join(", ")}`}</p>
        ) : null}
        {stats.stability ? (
          <p className="flex items-start gap-1.5 text-muted-foreground">
            <span data-testid="stability">{stabilityText(stats.stability)}</span>
            <InfoTip label="About run-to-run stability" className="mt-0.5">
              {STABILITY_HELP}
            </InfoTip>
          </p>
        ) : null}
        <p className="text-muted-foreground">
          {`Percentages are over ${plural(stats.iterations, "completed iteration")}`}
          {stats.failedIterations > 0
            ? `; ${plural(stats.failedIterations, "iteration")} failed and ${stats.failedIterations === 1 ? "is" : "are"} not counted`
            : ""}
          {". The whisker on each bar is the 95% interval."}
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        <FrequencyCard title="Product Frequency" model={model} items={stats.productFrequencies} runs={stats.iterations} kind="product" />
        <FrequencyCard title="Company Frequency" model={model} items={stats.companyFrequencies} runs={stats.iterations} kind="company" />
        <FrequencyCard title="Source Frequency" model={model} items={stats.sourceFrequencies} runs={stats.iterations} kind="source" />
      </div>
    </>
  );
}

const STABILITY_HELP =
  "How alike this model's runs are, from 0 (nothing in common) to 1 (identical). Top-3 overlap: the share of the top 3 products two runs have in common (Jaccard: shared ÷ all named), averaged over every pair of runs. Rank-biased overlap: the whole ranked lists compared, the top places weighing most (p = 0.9).";

/** "Run-to-run stability: top-3 overlap 0.72 (Jaccard), rank-biased overlap 0.81, over 10 pairs of runs". */
export function stabilityText(stability: NonNullable<AggregatedStats["stability"]>): string {
  return `Run-to-run stability: top-${stability.k} overlap ${stability.jaccard.toFixed(2)} (Jaccard), rank-biased overlap ${stability.rbo.toFixed(2)}, over ${plural(stability.pairs, "pair")} of runs`;
}

function FrequencyCard({ title, model, items, runs, kind }: { title: string; model: string; items: Frequency[]; runs: number; kind: Kind }) {
  return (
    <Card className="min-w-0 gap-3">
      <CardHeader>
        <CardHeading>{title}</CardHeading>
      </CardHeader>
      <CardContent>
        {items.length === 0 ? (
          <EmptyText>No data available</EmptyText>
        ) : (
          // Focusable so keyboard users can scroll it (axe scrollable-region-focusable).
          <div
            tabIndex={0}
            role="region"
            aria-label={`${title} for ${model}`}
            className="max-h-[400px] overflow-auto rounded-sm pr-1 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <ul className="space-y-3">
              {items.map((item) => (
                <FrequencyRow key={item.name} item={item} runs={runs} kind={kind} />
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function FrequencyRow({ item, runs, kind }: { item: Frequency; runs: number; kind: Kind }) {
  const name = kind === "source" ? sourceLabel({ url: item.name }) : item.name;
  const low = clamp(item.low);
  const high = clamp(item.high);
  const interval = `95% interval ${intervalText(low, high)}%`;
  return (
    <li className="min-w-0 space-y-1">
      <div className="flex min-w-0 items-baseline justify-between gap-2 text-sm">
        <span className="min-w-0 truncate font-medium" title={item.name}>
          {name}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground tabular-nums">
          <span title={`Came back in ${item.count} of ${runs} runs`}>{`${item.count}/${runs}`}</span>
          {` · ${formatPercent(item.percentage)}`}
        </span>
      </div>
      <div className="relative py-1">
        <Progress
          value={clamp(item.percentage)}
          aria-label={`${name}: ${formatPercent(item.percentage)} of runs`}
          aria-valuetext={`${formatPercent(item.percentage)}, ${interval}`}
        />
        <span
          className="absolute top-1/2 h-3 -translate-y-1/2 border-x-2 border-foreground/70"
          style={{ left: `${low}%`, width: `${Math.max(high - low, 0)}%` }}
          title={interval}
          aria-hidden="true"
        >
          <span className="absolute top-1/2 left-0 h-px w-full -translate-y-1/2 bg-foreground/70" />
        </span>
        <span className="sr-only">{interval}</span>
      </div>
    </li>
  );
}

function clamp(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}
