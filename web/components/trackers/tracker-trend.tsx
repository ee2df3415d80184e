import { useQuery } from "@tanstack/react-query";
import { Braces, FileSpreadsheet } from "lucide-react";
import { useMemo, useState } from "react";
import type { SharedTracker } from "#src/contract/shares.ts";
import { trendMetrics, type Trend, type TrendMetric } from "#src/contract/trend.ts";
import { formatDate } from "#src/core/dates.ts";
import { UTF8_BOM } from "#src/core/export.ts";
import { trendToCsv } from "#src/core/trend-export.ts";
import { downloadText } from "#web/components/results/download.ts";
import { ChartCard } from "#web/components/trackers/chart-card.tsx";
import { seriesColorVar, TrendChart } from "#web/components/trackers/trend-chart.tsx";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "#web/components/ui/table.tsx";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import {
  bandsCaption,
  brandLegend,
  chartLabel,
  countHeader,
  countText,
  figureHeader,
  formatPoint,
  metricAxis,
  providerTrends,
  queryTrends,
  runCount,
  runTimes,
  trendExportFilename,
  type ProviderTrend,
} from "#web/lib/trend.ts";
import { metricLabels } from "#web/lib/alert-words.ts";
import type { ProviderId } from "#src/contract/providers.ts";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { Button, NativeSelect, NativeSelectOption, providerCatalogue, providerIds } from "#web/shared-chunk.ts";
import { tagsOf } from "#src/contract/trackers.ts";

/** The runs read for the trend's "questions edited" markers (the API's largest page). */
const SEGMENT_RUNS = 100;

/** The providers' names as the page writes them. */
const providerNames = Object.fromEntries(providerIds.map((id) => [id, providerCatalogue[id].name])) as Record<ProviderId, string>;

/**
 * The tracker's trend: per provider, the brand's line with its band and the
 * competitors', for the metric chosen; each chart with a table of the same figures. Under them, in
 * words, what a band covers: the tracker's figure, widened by how much each provider's runs vary (ADR 050).
 */
export function TrackerTrend({ tracker }: { tracker: SharedTracker }) {
  const source = useTrackerSource();
  const [metric, setMetric] = useState<TrendMetric>("mention");
  const tags = tagsOf(tracker.questionTags, tracker.queries);
  // "" is every question; a tag no longer on the tracker falls back to it.
  const [chosenTag, setTag] = useState("");
  const tag = tags.includes(chosenTag) ? chosenTag : "";
  const trend = useQuery(trackerQueries.trend(source, metric, tag || undefined));
  const runs = useQuery(trackerQueries.runs(source, SEGMENT_RUNS));
  const segments = useMemo(() => new Map((runs.data?.runs ?? []).map((run) => [run.id, run.segment])), [runs.data]);
  const points = trend.data?.points ?? [];
  const trends = useMemo(() => providerTrends(points, providerIds, segments), [points, segments]);
  const enough = runCount(points) >= 2;

  return (
    <section aria-labelledby="trend-heading" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="trend-heading" className="text-lg font-semibold">
          Trend
        </h2>
        {tags.length > 0 ? <TagSelect tags={tags} tag={tag} onTag={setTag} /> : null}
        {enough ? (
          <div role="group" aria-label="Metric" className="flex flex-wrap gap-1">
            {trendMetrics.map((id) => (
              <Button
                key={id}
                type="button"
                size="sm"
                variant={id === metric ? "default" : "outline"}
                aria-pressed={id === metric}
                onClick={() => setMetric(id)}
              >
                {metricLabels[id]}
              </Button>
            ))}
          </div>
        ) : null}
      </div>
      <QueryState query={trend} what="trend" skeletonClassName="h-64 w-full">
        {(data) =>
          !enough ? (
            <p className="text-muted-foreground">The trend appears after the tracker’s second run.</p>
          ) : (
            <div className="space-y-4" aria-busy={trend.isPlaceholderData}>
              <TrendDownloads trend={data} trackerName={tracker.name} />
              {trends.map((providerTrend) => (
                <ProviderChart key={providerTrend.provider} trend={providerTrend} metric={data.metric} />
              ))}
              <p className="text-xs text-muted-foreground" data-testid="trend-bands">
                {bandsCaption(data.metric, data.dispersion, providerIds, providerNames)}
              </p>
              {tracker.queries.length > 1 ? <PerQuestion tracker={tracker} metric={data.metric} /> : null}
            </div>
          )
        }
      </QueryState>
    </section>
  );
}

/** Which questions the trend pools: every one, or those of one tag. */
function TagSelect({ tags, tag, onTag }: { tags: string[]; tag: string; onTag: (tag: string) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-muted-foreground">Questions</span>
      <NativeSelect value={tag} onChange={(event) => onTag(event.target.value)} aria-label="Questions in the trend" data-testid="trend-tag">
        <NativeSelectOption value="">All questions</NativeSelectOption>
        {tags.map((one) => (
          <NativeSelectOption key={one} value={one}>
            {`Tagged ${one}`}
          </NativeSelectOption>
        ))}
      </NativeSelect>
    </label>
  );
}

/** The trend as shown (its metric, every provider) as a file: the CSV the CLI prints, or the API's JSON. */
function TrendDownloads({ trend, trackerName }: { trend: Trend; trackerName: string }) {
  return (
    <div role="group" aria-label="Download the trend" className="flex flex-wrap gap-2">
      <Button
        type="button"
        size="sm"
        variant="outline"
        onClick={() => downloadText(UTF8_BOM + trendToCsv(trend), trendExportFilename(trackerName, trend.metric, "csv"), "text/csv;charset=utf-8")}
      >
        <FileSpreadsheet aria-hidden="true" />
        Download CSV
      </Button>
      <Button
        type="button"
        size="sm"
        variant="outline"
        onClick={() => downloadText(`${JSON.stringify(trend, null, 2)}\n`, trendExportFilename(trackerName, trend.metric, "json"), "application/json")}
      >
        <Braces aria-hidden="true" />
        Download JSON
      </Button>
    </div>
  );
}

function ProviderChart({ trend, metric }: { trend: ProviderTrend; metric: TrendMetric }) {
  const provider = providerCatalogue[trend.provider].name;
  const brand = trend.subjects.find((subject) => subject.isBrand)?.name;
  const label = chartLabel(metric, provider, brand, trend.subjects.length > 1);
  return (
    <ChartCard
      title={provider}
      regionLabel={`${metricLabels[metric]} on ${provider}`}
      testId="trend-provider"
      axis={metricAxis[metric]}
      chart={<TrendChart trend={trend} scale={metric === "position" ? "position" : "percent"} label={label} />}
      table={<TrendTable trend={trend} metric={metric} label={label} />}
      legend={trend.subjects.map((subject, index) => ({
        key: subject.name,
        colorVar: seriesColorVar(subject, index),
        text: subject.isBrand ? brandLegend(subject.name, metric) : subject.name,
      }))}
    >
      {trend.markers.length > 0 ? (
        <ul className="space-y-0.5 text-xs text-muted-foreground" aria-label="Marked on the chart" data-testid="trend-markers">
          {trend.markers.map((marker) => (
            <li key={`${marker.kind}-${marker.at}`}>
              {marker.kind === "model" ? "Solid rule: " : "Dashed rule: "}
              {marker.text}
            </li>
          ))}
        </ul>
      ) : null}
    </ChartCard>
  );
}

/** Small multiples: per question, the brand's figure on each provider, a line per provider. */
function PerQuestion({ tracker, metric }: { tracker: SharedTracker; metric: TrendMetric }) {
  const perQuery = useQuery(trackerQueries.trendPerQuery(useTrackerSource(), metric));
  const names = providerNames;
  const charts = useMemo(() => queryTrends(perQuery.data?.points ?? [], tracker.queries, providerIds, names), [perQuery.data, tracker.queries]);
  const brand = tracker.brand.name;
  return (
    <section aria-labelledby="per-question-heading" className="space-y-3">
      <h3 id="per-question-heading" className="font-semibold">
        {`${metricLabels[metric]} of ${brand}, per question`}
      </h3>
      <QueryState query={perQuery} what="trend per question" skeletonClassName="h-40 w-full">
        {() => (
          <div className="grid gap-3 md:grid-cols-2" data-testid="per-question">
            {charts.map(({ query, series, points }) => {
              const ats = series.runs.map((run) => run.at);
              const times = new Map(runTimes(ats).map((time, index) => [ats[index], time]));
              const label = `${metricLabels[metric]} of ${brand} for “${query}” per run, a line per provider`;
              return (
                <ChartCard
                  key={query}
                  title={query}
                  regionLabel={`${metricLabels[metric]} of ${brand} for “${query}”`}
                  testId="trend-question"
                  axis={metricAxis[metric]}
                  chart={
                    <TrendChart trend={series} scale={metric === "position" ? "position" : "percent"} label={label} height={140} testId="question-chart" />
                  }
                  // Half the page wide: the small table wraps its cells rather than scroll (a scrolling region needs a keyboard stop).
                  table={
                    <Table aria-label={label} data-testid="question-table" className="text-xs [&_td]:whitespace-normal [&_th]:whitespace-normal">
                      <TableHeader>
                        <TableRow>
                          <TableHead>Date</TableHead>
                          <TableHead>Provider</TableHead>
                          <TableHead>{figureHeader(metric)}</TableHead>
                          <TableHead className="text-right">{countHeader(metric)}</TableHead>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {points.map((point) => (
                          <TableRow key={`${point.runId}-${point.provider}`}>
                            <TableCell>{times.get(point.at) ?? formatDate(point.at)}</TableCell>
                            <TableCell>{names[point.provider]}</TableCell>
                            <TableCell className="tabular-nums">{formatPoint(point, metric)}</TableCell>
                            <TableCell className="text-right tabular-nums">{countText(point, metric)}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  }
                  legend={series.subjects.map((subject, index) => ({ key: subject.name, colorVar: seriesColorVar(subject, index), text: subject.name }))}
                />
              );
            })}
          </div>
        )}
      </QueryState>
    </section>
  );
}

function TrendTable({ trend, metric, label }: { trend: ProviderTrend; metric: TrendMetric; label: string }) {
  const times = runTimes(trend.runs.map((run) => run.at));
  return (
    <Table aria-label={label} data-testid="trend-table">
      <TableHeader>
        <TableRow>
          <TableHead>Date</TableHead>
          <TableHead>Subject</TableHead>
          <TableHead>{figureHeader(metric)}</TableHead>
          <TableHead className="text-right">{countHeader(metric)}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {trend.runs.flatMap((run, index) =>
          trend.subjects.map((subject) => {
            const point = run.bySubject.get(subject.name);
            return point ? (
              <TableRow key={`${run.runId}-${subject.name}`}>
                <TableCell>{times[index]}</TableCell>
                <TableCell>{subject.name}</TableCell>
                <TableCell className="tabular-nums">{formatPoint(point, metric)}</TableCell>
                <TableCell className="text-right tabular-nums">{countText(point, metric)}</TableCell>
              </TableRow>
            ) : null;
          }),
        )}
      </TableBody>
    </Table>
  );
}
