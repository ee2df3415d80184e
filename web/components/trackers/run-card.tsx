import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { ProviderId } from "#src/contract/providers.ts";
import type { SharedTrackerRun } from "#src/contract/shares.ts";
import type { TrackerRun, TrackerRunQuery } from "#src/contract/trackers.ts";
import { formatInZone } from "#src/core/tracker-timing.ts";
import { formatUsd } from "#src/core/cost.ts";
import { RunStatus } from "#web/components/trackers/run-status.tsx";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { useViewerZone } from "#web/hooks/use-viewer-zone.ts";
import { useTrackerSource } from "#web/hooks/use-tracker-source.ts";
import { answersText, isLive, RUN_MENTIONS_NOTE } from "#web/lib/trackers.ts";
import { formatRate } from "#web/lib/workbench.ts";
import { Card, CardContent, Progress, providerCatalogue, providerIds } from "#web/shared-chunk.ts";

type RunCardProps = {
  /** The owner's run, or a link's (which has no cost: the owner's spend is theirs). */
  run: SharedTrackerRun & Partial<Pick<TrackerRun, "cost">>;
  providers: ProviderId[];
  /** The run's per-question results start open (the newest run, whose run the server prefetches). */
  open: boolean;
  /** The first run of a new series segment (what the tracker asks or counts changed before it). */
  newSegment: boolean;
};

/**
 * One run: its status, when, answers done of expected, cost, and while queued or running its progress
 * (from the runs list the page polls). Below, per question, the saved search and the brand's mention
 * rate per provider.
 */
export function RunCard({ run: listed, providers, open: openFirst, newSegment }: RunCardProps) {
  const source = useTrackerSource();
  const [open, setOpen] = useState(openFirst);
  // A live run's progress comes with the polled runs list; its brand mentions are read once it has ended, when opened.
  const live = isLive(listed);
  const { data: read } = useQuery({ ...trackerQueries.run(source, listed.id), enabled: open && !live });
  // A read from while it ran (the page's prefetch) is not shown over the list's newer status.
  const run: RunCardProps["run"] = read && !live && !isLive(read) ? read : listed;

  // A saved search's "run of …" link opens the tracker at this run.
  useEffect(() => {
    if (window.location.hash === `#run-${run.id}`) document.getElementById(`run-${run.id}`)?.scrollIntoView();
  }, [run.id]);

  // Its time in the reader's zone once hydrated (UTC before, as the server writes it), the zone named.
  const zone = useViewerZone("UTC");
  const when = formatInZone(run.startedAt ?? run.scheduledFor, zone);

  const { answers } = run;
  // The tracker's providers, and any other this run's answers came from (an older segment's).
  const shown = providerIds.filter((provider) => providers.includes(provider) || run.queries.some((query) => query.brandMentions?.[provider]));
  return (
    <Card
      id={`run-${run.id}`}
      className="scroll-mt-4 gap-3 py-4"
      role="region"
      aria-label={`Run of ${formatInZone(run.scheduledFor, zone)}`}
      data-testid="tracker-run"
    >
      <CardContent className="space-y-3 px-4">
        {newSegment ? (
          <p className="rounded-md bg-muted px-3 py-1.5 text-xs text-foreground">
            A new series starts here: what the tracker asks or counts changed before this run.
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {/* Its status is announced when it changes; the count below is not, on every answer. */}
          <span aria-live="polite" className="inline-flex">
            <RunStatus status={run.status} />
          </span>
          <span data-testid="run-time">{when}</span>
          <span className="text-muted-foreground">{run.trigger === "manual" ? "Started by hand" : "Scheduled"}</span>
          <span className="tabular-nums" data-testid="run-answers">
            {answersText(answers)}
          </span>
          {run.cost ? (
            <span className="text-muted-foreground tabular-nums" data-testid="run-cost">
              {run.cost.simulated ? "$0.00 (simulated)" : formatUsd(run.cost.usd)}
            </span>
          ) : null}
        </div>
        {isLive(run) ? (
          <Progress
            value={answers.done + answers.failed}
            max={Math.max(answers.expected, 1)}
            aria-label="Answers received"
            aria-valuetext={answersText(answers)}
            data-testid="run-progress"
          />
        ) : null}
        {run.reason ? <p className="text-sm text-muted-foreground">{run.reason}</p> : null}
        {run.queries.length > 0 ? (
          <details open={open} onToggle={(event) => setOpen(event.currentTarget.open)} className="group">
            <summary className="cursor-pointer text-sm font-medium">{`Results per question (${run.queries.length})`}</summary>
            <QueryResults queries={run.queries} providers={shown} linksToSearches={source.linksToSearches} />
          </details>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** Per question: its saved search, its answers, and per provider how often they named the brand (with its 95% band for the tracker's rate). */
function QueryResults({ queries, providers, linksToSearches }: { queries: TrackerRunQuery[]; providers: ProviderId[]; linksToSearches: boolean }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <thead className="text-xs text-muted-foreground">
          <tr className="border-b">
            <th scope="col" className="py-2 pr-3 font-medium">
              Question
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Answers
            </th>
            {providers.map((provider) => (
              <th key={provider} scope="col" className="py-2 pr-3 font-medium">
                {`${providerCatalogue[provider].name}: brand named`}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {queries.map((query) => (
            <tr key={query.query} className="border-b last:border-0" data-testid="run-query">
              <th scope="row" className="max-w-72 py-2 pr-3 align-top font-normal break-words">
                {query.searchId && linksToSearches ? (
                  <Link href={`/search/${query.searchId}`} className="inline-flex items-start gap-1 underline-offset-4 hover:underline">
                    {query.query}
                    <ExternalLink className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
                    <span className="sr-only"> (open the saved search)</span>
                  </Link>
                ) : (
                  query.query
                )}
              </th>
              <td className="py-2 pr-3 align-top tabular-nums">{answersText(query)}</td>
              {providers.map((provider) => {
                const rate = query.brandMentions?.[provider];
                return (
                  <td key={provider} className="py-2 pr-3 align-top tabular-nums" data-testid={`mentions-${provider}`}>
                    {rate && rate.n > 0 ? (
                      <span title={`${rate.count} of ${rate.n} answers`}>{formatRate(rate)}</span>
                    ) : (
                      <span className="text-muted-foreground">—</span>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-muted-foreground">{RUN_MENTIONS_NOTE}</p>
    </div>
  );
}
