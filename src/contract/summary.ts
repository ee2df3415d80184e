import * as v from "valibot";
import { FROM_AFTER_TO, HistoryDate, historyRange, inOrder } from "./history.ts";
import { ProviderId } from "./provider-schemas.ts";

/*
 * A tracker's headline for a period: the brand's mention rate with its interval, its rank among
 * the tracked brands (the brand and its competitors), its share of voice, and whether it moved
 * against the period before, per provider and across them. Rates are in percent (0–100), as the
 * trend and the alerts give them.
 */

/** The periods a client may name: the newest run that answered (against the one before it), or the last 7 or 30 days ending now. */
export const summaryPeriods = ["run", "7d", "30d"] as const;
export type SummaryPeriodName = (typeof summaryPeriods)[number];

/** The longest range a summary reads, in days: a year and a day, so a year against the year before stays in reach. */
export const MAX_SUMMARY_DAYS = 366;

export const SummaryQuery = v.pipe(
  v.object({
    /** Without it, and without `from` and `to`: 7d. */
    period: v.optional(v.picklist(summaryPeriods, `period must be one of ${summaryPeriods.join(", ")}`)),
    /** Runs scheduled from this day (its start, UTC) or moment on; without `to`, up to now. */
    from: v.optional(HistoryDate("from")),
    /** Runs scheduled up to this day (its end, UTC) or moment; without `from`, the 7 days before it. */
    to: v.optional(HistoryDate("to")),
  }),
  v.forward(
    v.check(({ from, to }) => inOrder({ from, to }), FROM_AFTER_TO),
    ["from"],
  ),
  v.forward(
    v.check(({ period, from, to }) => !(period && (from || to)), "period and from/to ask for different things: give one"),
    ["period"],
  ),
  v.forward(
    v.check(({ from, to }) => withinBound(historyRange({ from, to })), `from and to must be at most ${MAX_SUMMARY_DAYS} days apart`),
    ["from"],
  ),
);
export type SummaryQuery = v.InferInput<typeof SummaryQuery>;

/** Whether a range (either end may be open) spans no more than MAX_SUMMARY_DAYS. */
export function withinBound({ from, until }: { from?: Date; until?: Date }): boolean {
  return !from || !until || until.getTime() - from.getTime() <= MAX_SUMMARY_DAYS * 86_400_000;
}

export const summaryVerdicts = ["rose", "fell", "no clear change"] as const;
export type SummaryVerdict = (typeof summaryVerdicts)[number];

/**
 * Against the period before: the two rates the test compared (in percent; over the questions both
 * periods asked, the earlier weighted as the later asks them, which is each period's own rate when
 * the questions did not change), and the verdict of the alerts' test. `from` is null when the
 * period before has no answers: there is nothing to compare.
 */
export const SummaryChange = v.object({ from: v.nullable(v.number()), to: v.nullable(v.number()), verdict: v.picklist(summaryVerdicts) });
export type SummaryChange = v.InferOutput<typeof SummaryChange>;

/** The brand's figures over a set of answers: null figures when the period has no answers. */
const figures = {
  /** Answers in the period, and how many named the brand. */
  n: v.number(),
  k: v.number(),
  /** k of n in percent, and its 95% interval, widened by how much the tracker's runs vary (as the trend's). */
  rate: v.nullable(v.number()),
  low: v.nullable(v.number()),
  high: v.nullable(v.number()),
  /** 1 + how many tracked brands were named in more answers; `of`: how many tracked brands there are. */
  rank: v.nullable(v.number()),
  of: v.number(),
  /** The brand's mentions, of every tracked brand's mentions in the same answers, in percent. */
  sov: v.nullable(v.number()),
  change: SummaryChange,
};

export const SummaryFigures = v.object(figures);
export type SummaryFigures = v.InferOutput<typeof SummaryFigures>;

export const ProviderSummary = v.object({ provider: ProviderId, ...figures });
export type ProviderSummary = v.InferOutput<typeof ProviderSummary>;

/** A span of runs: runs scheduled at or after `from` and before `to` (a run period: both are that run's time). */
export const SummarySpan = v.object({ from: v.string(), to: v.string(), runs: v.number() });
export type SummarySpan = v.InferOutput<typeof SummarySpan>;

export const SummaryPeriod = v.object({
  /** `range`: from `from` and `to` as asked. */
  kind: v.picklist([...summaryPeriods, "range"]),
  ...SummarySpan.entries,
  /** The period of the same length just before (run: the run before), which the change is told against. */
  previous: SummarySpan,
});
export type SummaryPeriod = v.InferOutput<typeof SummaryPeriod>;

/** GET /api/trackers/{id}/summary. */
export const TrackerSummary = v.object({
  period: SummaryPeriod,
  /** Across providers: every provider's answers together. */
  brand: v.object({ name: v.string(), ...figures }),
  /** The same per provider, in the catalogue's order. */
  providers: v.array(ProviderSummary),
  /** The headline in one sentence a person can paste. */
  sentence: v.string(),
});
export type TrackerSummary = v.InferOutput<typeof TrackerSummary>;
