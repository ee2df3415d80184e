import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { ProviderId } from "#src/contract/providers.ts";
import type { SummaryFigures, SummaryPeriodName } from "#src/contract/summary.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { changeCell, rateCell, rankCell, sovCell, summaryPeriodLabels } from "#src/core/summary-text.ts";
import { QueryState } from "#web/components/trackers/query-state.tsx";
import { SimulatedMark, SimulatedProvidersNote } from "#web/components/results/shared.tsx";
import { api, Button, providerCatalogue, queries } from "#web/shared-chunk.ts";

/**
 * The tracker's headline, first on its page, its share link and its printed report: the
 * sentence to paste, and per provider the brand's rate with its interval, rank, share of voice and
 * change against the period before (told only when the alerts' test tells it).
 */
export function TrackerSummary() {
  const source = useTrackerSource();
  const [period, setPeriod] = useState<SummaryPeriodName>("7d");
  const summary = useQuery(trackerQueries.summary(source, period));
  // Honesty rule: the providers this server answers from its simulator (the trend's rows carry no flag).
  const { data: status } = useQuery(queries.status(api));
  const simulated = (id: ProviderId) => status?.modes[id] === "simulated";
  return (
    <section aria-labelledby="summary-heading" className="space-y-3 rounded-xl border bg-card p-4 shadow-sm sm:p-6" data-testid="tracker-summary">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="summary-heading" className="text-lg font-semibold">
          Headline
          {/* On paper the buttons are gone: the period is said. */}
          <span className="hidden font-normal text-muted-foreground print:inline">{` · ${summaryPeriodLabels[period]}`}</span>
        </h2>
        <div role="group" aria-label="Period" className="flex flex-wrap gap-1 print:hidden">
          {(Object.keys(summaryPeriodLabels) as SummaryPeriodName[]).map((id) => (
            <Button key={id} type="button" size="sm" variant={id === period ? "default" : "outline"} aria-pressed={id === period} onClick={() => setPeriod(id)}>
              {summaryPeriodLabels[id]}
            </Button>
          ))}
        </div>
      </div>
      <QueryState query={summary} what="headline" skeletonClassName="h-24 w-full">
        {(headline) => (
          <>
            <p className="text-base font-medium break-words" data-testid="tracker-summary-sentence">
              {headline.sentence}
            </p>
            {headline.providers.length > 0 ? (
              <div className="overflow-x-auto">
                <table className="w-full min-w-[32rem] text-left text-sm tabular-nums">
                  <thead className="text-xs text-muted-foreground">
                    <tr className="border-b">
                      {["Provider", "Named in", "Rank", "Share of voice", "Change"].map((label) => (
                        <th key={label} scope="col" className="py-2 pr-3 font-medium">
                          {label}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {headline.providers.map((row) => (
                      <Row key={row.provider} label={providerCatalogue[row.provider].name} figures={row} simulated={simulated(row.provider)} />
                    ))}
                    <Row label="All providers" figures={headline.brand} strong />
                  </tbody>
                </table>
              </div>
            ) : null}
            <SimulatedProvidersNote ids={headline.providers.map((row) => row.provider).filter(simulated)} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function Row({ label, figures, strong = false, simulated = false }: { label: string; figures: SummaryFigures; strong?: boolean; simulated?: boolean }) {
  return (
    <tr className={strong ? "font-medium" : "border-b"} data-testid="tracker-summary-row">
      <th scope="row" className="py-2 pr-3 font-normal">
        {label}
        {simulated ? <SimulatedMark className="ml-1 align-middle" /> : null}
      </th>
      <td className="py-2 pr-3">{rateCell(figures)}</td>
      <td className="py-2 pr-3">{rankCell(figures)}</td>
      <td className="py-2 pr-3">{sovCell(figures)}</td>
      <td className="py-2 pr-3">{changeCell(figures.change)}</td>
    </tr>
  );
}
