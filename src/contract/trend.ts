import * as v from "valibot";
import { FROM_AFTER_TO, HistoryDate, inOrder } from "./history.ts";
import { ProviderId } from "./provider-schemas.ts";
import { TAG_MAX_LENGTH } from "./constants.ts";

/*
 * A tracker's trend: per run, per provider, for the brand and each competitor, read
 * from the counts written when the run ended. These names are the contract the web, the CLI, MCP
 * and the exports share.
 */

export const trendMetrics = ["mention", "sov", "citation", "position"] as const;
/**
 * mention: answers naming the subject, of the answers; sov (share of voice): its mentions, of the
 * mentions of every subject; citation: answers citing the subject's own domains, of the answers;
 * position: its mean position among an answer's products (1 = first), over the answers ranking it.
 */
export const TrendMetric = v.picklist(trendMetrics, `metric must be one of ${trendMetrics.join(", ")}`);
export type TrendMetric = v.InferOutput<typeof TrendMetric>;

export const TrendQuery = v.pipe(
  v.object({
    metric: v.optional(TrendMetric, "mention"),
    provider: v.optional(ProviderId),
    /** One of the tracker's queries (as written); without it, each run's figures over all its queries. */
    query: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, "query must not be empty"))),
    /** One of the tracker's tags (ADR 068): each run's figures over the questions carrying it, pooled. */
    tag: v.optional(
      v.pipe(v.string(), v.trim(), v.minLength(1, "tag must not be empty"), v.maxLength(TAG_MAX_LENGTH, `tag must be at most ${TAG_MAX_LENGTH} characters`)),
    ),
    /** The brand's or a competitor's name; without it, every subject. */
    subject: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, "subject must not be empty"))),
    /** Runs scheduled from this day (its start, UTC) or moment on. */
    from: v.optional(HistoryDate("from")),
    /** Runs scheduled up to this day (its end, UTC) or moment. */
    to: v.optional(HistoryDate("to")),
    /** "true": every query's points, each with its `query` (the page's small multiples), instead of the runs over all of them. */
    perQuery: v.optional(
      v.pipe(
        v.picklist(["true", "false"], "perQuery must be true or false"),
        v.transform((value) => value === "true"),
      ),
    ),
  }),
  v.forward(
    v.check(({ from, to }) => inOrder({ from, to }), FROM_AFTER_TO),
    ["from"],
  ),
  v.forward(
    v.check(({ query, perQuery }) => !(query && perQuery), "query and perQuery ask for different things: give one"),
    ["perQuery"],
  ),
  v.forward(
    v.check(({ tag, query, perQuery }) => !(tag && (query || perQuery)), "tag pools several questions, query or perQuery asks for one each: give one"),
    ["tag"],
  ),
);
export type TrendQuery = v.InferInput<typeof TrendQuery>;
/** What a client sends (the query string's text, or its parsed form: a boolean reads as "true" or "false"). */
export type TrendParams = Omit<TrendQuery, "perQuery"> & { perQuery?: boolean | "true" | "false" };

export const TrendPoint = v.object({
  runId: v.string(),
  /** When the run was scheduled for (Run now: when it was asked). */
  at: v.string(),
  provider: ProviderId,
  /** The query, when the trend was asked for one or per query. */
  query: v.optional(v.string()),
  subject: v.string(),
  /** Whether the subject is the tracker's brand (else a competitor). */
  isBrand: v.boolean(),
  /** The denominator and the count: answers (mention, citation), all subjects' mentions (sov), answers ranking the subject (position: k of n answers). */
  n: v.number(),
  k: v.number(),
  /**
   * In percent for the rates, the mean position for position; `low`–`high` its 95% interval for
   * the tracker's rate (ADR 050): widened by how much the provider's runs vary, not only by this
   * run's answers. Null when n (or, for position, k) is 0; position's interval also under 2 answers ranking it.
   */
  rate: v.nullable(v.number()),
  low: v.nullable(v.number()),
  high: v.nullable(v.number()),
  /** The model version(s) that answered in this run (", " between several). */
  modelVersion: v.string(),
});
export type TrendPoint = v.InferOutput<typeof TrendPoint>;

/**
 * How much a provider's runs vary beyond their answers' coin flips on the metric (ADR 050): each
 * point's interval is widened by it, so that it covers the tracker's rate, not only the run's
 * answers. `phi` 1 is answers as independent; `df` the degrees of freedom behind the estimate.
 */
export const TrendDispersion = v.object({ provider: ProviderId, phi: v.number(), df: v.number() });
export type TrendDispersion = v.InferOutput<typeof TrendDispersion>;

/** GET /api/trackers/{id}/trend: oldest first, with the dispersion each provider's intervals counted with. */
export const Trend = v.object({ metric: TrendMetric, points: v.array(TrendPoint), dispersion: v.optional(v.array(TrendDispersion), []) });
export type Trend = v.InferOutput<typeof Trend>;

/** One window of an alert: `k` of `n` answers, the rate in percent with its 95% interval (rule 2: clustered by run, ADR 050; rule 1: Wilson's on the answers). */
export const AlertSide = v.object({ k: v.number(), n: v.number(), rate: v.number(), low: v.number(), high: v.number() });
export type AlertSide = v.InferOutput<typeof AlertSide>;

export const trackerAlertKinds = ["rose", "fell", "model-changed"] as const;

/**
 * What moved (ADR 045). A rise or a fall: the metric, provider, subject and query
 * (absent: over all the tracker's queries), both windows, Fisher's p and its Benjamini–Hochberg q.
 * A model change: the provider and its versions before and after, in place of a rise or a fall.
 */
export const TrackerAlert = v.object({
  id: v.string(),
  kind: v.picklist(trackerAlertKinds),
  metric: v.optional(v.picklist(["mention", "citation"])),
  provider: ProviderId,
  subject: v.optional(v.string()),
  query: v.optional(v.string()),
  before: v.optional(AlertSide),
  after: v.optional(AlertSide),
  modelVersions: v.optional(v.object({ before: v.string(), after: v.string() })),
  p: v.optional(v.number()),
  q: v.optional(v.number()),
  /**
   * The rule that decided it: 2, the latest runs against a baseline of the runs before them,
   * counted with the dispersion the tracker's runs show (ADR 050); 1, ADR 045's rule, which took
   * a run's answers as independent (alerts decided by it keep their record).
   */
  rule: v.optional(v.number(), 1),
  /** Rule 2: the dispersion its test counted with (φ, and the degrees of freedom behind it). */
  dispersion: v.optional(v.object({ phi: v.number(), df: v.number() })),
  /** Rule 2: the runs of its baseline, oldest first. */
  baselineRuns: v.optional(v.array(v.string())),
  /** The run that found it, and when it was scheduled for. */
  runId: v.string(),
  at: v.string(),
  /** The saved searches of the window after the change (each opens at /search/{id}). */
  searchIds: v.array(v.string()),
});
export type TrackerAlert = v.InferOutput<typeof TrackerAlert>;

/** GET /api/trackers/{id}/alerts: newest first. */
export const TrackerAlertList = v.object({ alerts: v.array(TrackerAlert) });
export type TrackerAlertList = v.InferOutput<typeof TrackerAlertList>;

export const sourceTypes = ["own", "competitor", "ugc", "editorial", "reference", "retail", "other"] as const;
/**
 * What kind of site a cited domain is (src/core/sources.ts): the brand's own, a competitor's,
 * user-generated (forums, Reddit, Q&A, video), editorial or review, reference (encyclopedias, docs),
 * retailer or marketplace, or other.
 */
export const SourceType = v.picklist(sourceTypes);
export type SourceType = v.InferOutput<typeof SourceType>;

export const SourcesQuery = v.pipe(
  v.object({
    provider: v.optional(ProviderId),
    from: v.optional(HistoryDate("from")),
    to: v.optional(HistoryDate("to")),
  }),
  v.forward(
    v.check(({ from, to }) => inOrder({ from, to }), FROM_AFTER_TO),
    ["from"],
  ),
);
export type SourcesQuery = v.InferInput<typeof SourcesQuery>;

/** GET /api/trackers/{id}/sources. */
export const SourcesReport = v.object({
  /** Per run (oldest first) and provider, the cited domains by type: citations (an answer citing a domain counts once) and their share in percent. */
  byType: v.array(v.object({ runId: v.string(), at: v.string(), provider: ProviderId, type: SourceType, citations: v.number(), share: v.number() })),
  /**
   * The citation gap over the runs asked for: domains cited in more answers naming a competitor
   * than answers naming the brand (an answer naming both counts in both), neither's own site; the
   * widest lead first. `providers`: those whose answers cited it beside a competitor.
   */
  gap: v.array(v.object({ domain: v.string(), type: SourceType, competitorAnswers: v.number(), brandAnswers: v.number(), providers: v.array(ProviderId) })),
});
export type SourcesReport = v.InferOutput<typeof SourcesReport>;
