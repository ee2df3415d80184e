import { useQuery } from "@tanstack/react-query";
import { Calculator, Eye } from "lucide-react";
import type { ApiStatus } from "#src/contract/status.ts";
import type { Tracker } from "#src/contract/trackers.ts";
import { dailySpendWarning, formatEstimate } from "#src/core/cost.ts";
import { describeSchedule, runsPerDay } from "#src/core/schedule.ts";
import { spendQuery } from "#web/components/account/spend-card.tsx";
import { useDebounced } from "#web/hooks/use-debounced.ts";
import { detectabilityMethod, detectabilityWords, draftShape, queryLines, shapeKey, type TrackerDraft } from "#web/lib/tracker-form.ts";
import { trackerQueries } from "#web/lib/tracker-queries.ts";
import { cronOf, runsPerMonth } from "#web/lib/trackers.ts";
import { api, InfoTip, providerIds, queries } from "#web/shared-chunk.ts";

/**
 * What a run and a month of runs should cost, before saving: the server's estimate of one question
 * at these iterations on the connected providers (ADR 041), times the questions, times the runs a
 * preset makes in a month. A saved tracker's own estimate (the server's, on its schedule) shows too.
 */
export function TrackerEstimate({ draft, status, saved }: { draft: TrackerDraft; status: ApiStatus | undefined; saved?: Tracker | undefined }) {
  const iterations = Number(draft.iterations);
  const readable = Number.isInteger(iterations) && iterations >= 1 && iterations <= 100;
  const { data: estimate } = useQuery({ ...queries.estimate(api, readable ? iterations : 1), enabled: readable });
  const questions = queryLines(draft.queries).length;
  const connected = providerIds.filter((id) => status?.modes[id] !== "off");
  const fewer = draft.providers.length < connected.length;

  const perRun = estimate && questions > 0 ? formatEstimate(estimate.usd === null ? null : estimate.usd * questions, estimate.simulated) : null;
  const runs = runsPerMonth(draft.schedule);
  const perMonth =
    estimate && questions > 0 && runs !== null ? formatEstimate(estimate.usd === null ? null : estimate.usd * questions * runs, estimate.simulated) : null;
  // Before saving: a schedule whose runs on a day would pass the account's daily limit (simulated providers cost nothing).
  const { data: spend } = useQuery(spendQuery(api));
  const cron = cronOf(draft.schedule);
  const warning =
    estimate && !estimate.simulated && questions > 0
      ? dailySpendWarning({
          scheduleText: describeSchedule({ cron, timezone: draft.timezone }),
          perRunUsd: estimate.usd === null ? null : estimate.usd * questions,
          day: runsPerDay(cron),
          limitUsd: spend?.dailyLimitUsd ?? null,
        })
      : null;

  return (
    <section aria-label="Estimated cost" className="space-y-2 rounded-xl border bg-muted/40 p-4 text-sm" data-testid="tracker-estimate">
      <h2 className="flex items-center gap-2 font-semibold">
        <Calculator className="size-4" aria-hidden="true" />
        Estimated cost
        {estimate ? <InfoTip label="How the cost is estimated">{estimate.method}</InfoTip> : null}
      </h2>
      {questions === 0 || !readable ? (
        <p className="text-muted-foreground">Add questions and a number of iterations to see what a run costs.</p>
      ) : (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">Per run</dt>
          <dd data-testid="estimate-per-run">{perRun ?? "…"}</dd>
          <dt className="text-muted-foreground">Per month</dt>
          <dd data-testid="estimate-per-month">{runs === null ? "shown once saved (the server counts a custom schedule's runs)" : (perMonth ?? "…")}</dd>
        </dl>
      )}
      {warning ? (
        <p
          role="alert"
          className="rounded-md border border-amber-500 bg-amber-50 p-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          data-testid="spend-warning"
        >
          {`${warning} Runs past the limit are skipped: choose a sparser schedule, fewer questions or fewer iterations.`}
        </p>
      ) : null}
      {fewer ? <p className="text-xs text-muted-foreground">Priced for every connected provider: with fewer chosen, a run costs less.</p> : null}
      {estimate?.usd === null ? (
        <p className="text-xs text-muted-foreground">{`No price is known for ${estimate.unpriced?.join(", ") ?? "a model"}.`}</p>
      ) : null}
      {saved ? (
        <p className="text-xs text-muted-foreground" data-testid="saved-estimate">
          {`As saved, at today's prices: ${formatEstimate(saved.estimate.perRunUsd, saved.estimate.simulated)} per run, ${formatEstimate(saved.estimate.perMonthUsd, saved.estimate.simulated)} per month.`}
        </p>
      ) : null}
    </section>
  );
}

/** How long the draft's shape must hold still before the server is asked again. */
const DEBOUNCE_MS = 400;

/**
 * What change a tracker of the draft's shape can tell: the server's sentence for its
 * questions, iterations, providers and competitors, asked once the fields hold still (a shape not
 * seen before takes the server a moment to simulate). A sentence is shown only for the shape on
 * the form: while another is worked out, a quiet line says so.
 */
export function TrackerDetectability({ draft }: { draft: TrackerDraft }) {
  const shape = draftShape(draft);
  const key = shapeKey(shape);
  const settled = useDebounced(shape, DEBOUNCE_MS, key);
  const { data, isError } = useQuery({ ...trackerQueries.detectability(api, settled ?? EMPTY), enabled: settled !== null });
  const current = data && shape && shapeKey(data) === key ? data : undefined;
  const busy = shape !== null && !current && !(isError && shapeKey(settled) === key);

  return (
    <section aria-label="What it can see" aria-busy={busy} className="space-y-2 rounded-xl border bg-muted/40 p-4 text-sm" data-testid="tracker-detectability">
      <h2 className="flex items-center gap-2 font-semibold">
        <Eye className="size-4" aria-hidden="true" />
        What it can see
        {current ? <InfoTip label="How this is worked out">{detectabilityMethod(current)}</InfoTip> : null}
      </h2>
      <p className={current ? undefined : "text-muted-foreground"} data-testid="detectability-sentence" aria-live="polite">
        {shape === null ? detectabilityWords.missing : current ? current.sentence : busy ? detectabilityWords.loading : detectabilityWords.failed}
      </p>
      <p className="text-xs text-muted-foreground">{detectabilityWords.hint}</p>
    </section>
  );
}

// A query's options need a shape even while disabled.
const EMPTY = { questions: 1, iterations: 1, providers: 1, competitors: 0 };
