import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { SourcesReport } from "#src/contract/trend.ts";
import { ChartCard } from "#web/components/trackers/chart-card.tsx";
import { seriesColorVar, TrendChart } from "#web/components/trackers/trend-chart.tsx";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { NO_GAP, providerSources, sourceTypeLabels, type ProviderSources } from "#web/lib/sources.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { Card, CardContent, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

/** The citation gap's rows shown: the domains most worth winning. */
export const GAP_ROWS = 20;

/**
 * Where the assistants' answers come from: per provider, the share of each type of
 * cited site per run (a chart with its table), and the citation gap, the sites that cite a
 * competitor more often than the brand.
 */
export function TrackerSources() {
  const sources = useQuery(trackerQueries.sources(useTrackerSource()));
  return (
    <section aria-labelledby="sources-heading" className="space-y-3 print:break-before-page">
      <h2 id="sources-heading" className="text-lg font-semibold">
        Sources by type
      </h2>
      <p className="text-sm text-muted-foreground">
        Each site the answers cite is typed from a documented list of well-known sites (Reddit, G2, Wikipedia, Amazon and the like), then by rules on its name
        (a “forum.” or “community.” host is user-generated, a “.edu” or “docs.” host is reference, a host with “review” or “news” is editorial, a “shop.” host
        is a retailer); your brand’s and your competitors’ domains come first, and what nothing places is “Other”.
      </p>
      <QueryState query={sources} what="sources" skeletonClassName="h-64 w-full">
        {(data) => <SourcesBody report={data} />}
      </QueryState>
    </section>
  );
}

function SourcesBody({ report }: { report: SourcesReport }) {
  const providers = useMemo(() => providerSources(report.byType, providerIds), [report.byType]);
  return (
    <div className="space-y-4">
      {providers.length === 0 ? (
        <p className="text-muted-foreground">No answer has cited a site yet.</p>
      ) : (
        providers.map((sources) => <ProviderSourcesChart key={sources.provider} sources={sources} />)
      )}
      <CitationGap gap={report.gap} />
    </div>
  );
}

function ProviderSourcesChart({ sources }: { sources: ProviderSources }) {
  const provider = providerCatalogue[sources.provider].name;
  const label = `Cited sources by type on ${provider} per run: each type’s share of the citations`;
  return (
    <ChartCard
      title={provider}
      regionLabel={`Sources on ${provider}`}
      testId="sources-provider"
      axis="Share of the citations (%)"
      chart={<TrendChart trend={sources.series} scale="percent" label={label} testId="sources-chart" />}
      table={
        <Table aria-label={label} data-testid="sources-table">
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Type</TableHead>
              <TableHead className="text-right">Share</TableHead>
              <TableHead className="text-right">Citations</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {sources.rows.map(({ key, cells: [date, type, share, citations] }) => (
              <TableRow key={key}>
                <TableCell>{date}</TableCell>
                <TableCell className="whitespace-normal">{type}</TableCell>
                <TableCell className="text-right tabular-nums">{share}</TableCell>
                <TableCell className="text-right tabular-nums">{citations}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      }
      legend={sources.series.subjects.map((subject, index) => ({ key: subject.name, colorVar: seriesColorVar(subject, index), text: subject.name }))}
    />
  );
}

function CitationGap({ gap }: { gap: SourcesReport["gap"] }) {
  return (
    <Card className="gap-3 py-4" role="region" aria-labelledby="gap-heading" data-testid="citation-gap">
      <CardContent className="space-y-3 px-4">
        <h3 id="gap-heading" className="font-medium">
          The citation gap
        </h3>
        <p className="text-sm text-muted-foreground">
          Sites cited in more answers that name a competitor than answers that name your brand (an answer naming both counts in both): the widest lead first
          {gap.length > GAP_ROWS ? ` (the top ${GAP_ROWS} of ${gap.length})` : ""}.
        </p>
        {gap.length === 0 ? (
          <p className="text-muted-foreground">{NO_GAP}</p>
        ) : (
          <Table aria-labelledby="gap-heading" data-testid="gap-table">
            <TableHeader>
              <TableRow>
                <TableHead>Site</TableHead>
                <TableHead>Type</TableHead>
                <TableHead className="text-right">Answers naming a competitor</TableHead>
                <TableHead className="text-right">Answers naming your brand</TableHead>
                <TableHead>Providers</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {gap.slice(0, GAP_ROWS).map((row) => (
                <TableRow key={row.domain}>
                  <TableCell className="break-all whitespace-normal">{row.domain}</TableCell>
                  <TableCell className="whitespace-normal">{sourceTypeLabels[row.type]}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.competitorAnswers}</TableCell>
                  <TableCell className="text-right tabular-nums">{row.brandAnswers}</TableCell>
                  <TableCell className="whitespace-normal">{row.providers.map((id) => providerCatalogue[id].name).join(", ")}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
