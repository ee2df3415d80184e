import * as v from "valibot";
import { MAX_ITERATIONS, MAX_TRACKER_TAGS, TAG_MAX_LENGTH } from "./constants.ts";
import { cronMessage, readCron } from "./cron.ts";
import { BrandEntry, BrandInput, CompetitorInput } from "./lens.ts";
import { isTimeZone, Location, LocationInput } from "./location.ts";
import { ProviderId } from "./provider-schemas.ts";
import { providerIds } from "./providers.ts";
import { SearchQuery } from "./search-request.ts";
import { visibleOnly } from "./visible-input.ts";

/*
 * Trackers: a set of questions asked on a schedule, run durably on pg-boss by whichever
 * instances are up. These names are the contract the server, the web, the CLI and MCP share.
 */

export const MAX_TRACKER_QUERIES = 50;
export const MAX_TRACKER_COMPETITORS = 10;
export const DEFAULT_TRACKER_ITERATIONS = 5;
export const TRACKER_NAME_MAX_LENGTH = 80;
export { MAX_TRACKER_TAGS, TAG_MAX_LENGTH } from "./constants.ts";

const TrackerName = v.pipe(
  v.string("name must be text"),
  v.trim(),
  v.minLength(1, "name is required"),
  v.maxLength(TRACKER_NAME_MAX_LENGTH, `name must be at most ${TRACKER_NAME_MAX_LENGTH} characters`),
  visibleOnly("name"),
);

/**
 * Five fixed cron fields (minute hour day-of-month month day-of-week), as pg-boss schedules them,
 * kept with single spaces between them (./cron.ts: no H, L, W, # or ?, no tab or other blank).
 * Whether it parses and how often it fires (TRACKER_MIN_INTERVAL_MINUTES) the server checks, with
 * the same parser pg-boss uses.
 */
export const Cron = v.pipe(
  v.string("schedule.cron must be text"),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const read = readCron(dataset.value);
    if ("cron" in read) return read.cron;
    addIssue({ message: cronMessage(dataset.value, read) });
    return NEVER;
  }),
);

/** An IANA time zone ("Europe/Berlin"), kept in its canonical spelling. */
const ScheduleTimeZone = v.pipe(
  v.string("schedule.timezone must be an IANA time zone, such as Europe/Berlin"),
  v.trim(),
  v.check(isTimeZone, (issue) => `schedule.timezone must be an IANA time zone, such as Europe/Berlin, not ${JSON.stringify(issue.input)}`),
  v.transform((zone) => new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone),
);

/** When a tracker runs: a cron expression read in a time zone (the web's presets are written as cron). */
export const Schedule = v.object({ cron: Cron, timezone: ScheduleTimeZone }, "schedule must be an object with cron and timezone");
export type Schedule = v.InferOutput<typeof Schedule>;

/**
 * A schedule as a tracker keeps it, read back as it is: one kept by an earlier version may hold what
 * the rules in force refuse (its tracker is then paused saying why), and must still be readable.
 */
const KeptSchedule = v.object({ cron: v.string(), timezone: v.string() });

const Queries = v.pipe(
  v.array(SearchQuery, "queries must be a list of questions"),
  v.minLength(1, "queries must hold at least one question"),
  v.maxLength(MAX_TRACKER_QUERIES, `queries may hold at most ${MAX_TRACKER_QUERIES} questions`),
  v.check((queries) => new Set(queries.map((query) => query.toLowerCase())).size === queries.length, "queries must not repeat a question"),
);

const Tag = v.pipe(
  v.string("each tag must be text"),
  v.trim(),
  v.minLength(1, "a tag must not be empty"),
  v.maxLength(TAG_MAX_LENGTH, `a tag must be at most ${TAG_MAX_LENGTH} characters`),
  visibleOnly("tag"),
);

/**
 * A tag per question, keyed by the question as written in `queries` (ADR 068): tags group questions
 * into a trend of their own. A question without a tag is simply absent.
 */
const QuestionTags = v.pipe(
  v.record(v.string(), Tag, "questionTags must be an object mapping questions to tags"),
  v.check(
    (tags) => new Set(Object.values(tags).map((tag) => tag.toLowerCase())).size <= MAX_TRACKER_TAGS,
    `questionTags may use at most ${MAX_TRACKER_TAGS} different tags`,
  ),
);

/** The first key of `tags` that is not one of `queries`, if any. */
export function untaggableQuestion(tags: Record<string, string>, queries: readonly string[]): string | undefined {
  const asked = new Set(queries);
  return Object.keys(tags).find((question) => !asked.has(question));
}

/** The different tags of a tracker's questions, in the order its questions first use them. */
export function tagsOf(questionTags: Record<string, string> | undefined, queries: readonly string[]): string[] {
  const tags = new Map<string, string>();
  for (const query of queries) {
    const tag = questionTags?.[query];
    if (tag && !tags.has(tag.toLowerCase())) tags.set(tag.toLowerCase(), tag);
  }
  return [...tags.values()];
}

/** The questions carrying `tag` (any letter case). */
export function questionsTagged(questionTags: Record<string, string>, queries: readonly string[], tag: string): string[] {
  return queries.filter((query) => questionTags[query]?.toLowerCase() === tag.toLowerCase());
}

/** A tag set naming a question that is not asked is refused, naming it. */
const notAsked = (tags: Record<string, string>, queries: readonly string[]) =>
  `questionTags names ${JSON.stringify(untaggableQuestion(tags, queries))}, which is not one of the queries`;

const Competitors = v.pipe(
  v.array(CompetitorInput, "competitors must be a list of brands"),
  v.maxLength(MAX_TRACKER_COMPETITORS, `competitors may hold at most ${MAX_TRACKER_COMPETITORS} brands`),
);

const Providers = v.pipe(
  v.array(ProviderId, `providers must be a list of ${providerIds.join(", ")}`),
  v.minLength(1, "providers must name at least one provider"),
  v.check((ids) => new Set(ids).size === ids.length, "providers must not repeat a provider"),
);

const TrackerIterations = v.pipe(
  v.number("iterations must be a whole number from 1 to 100"),
  v.integer("iterations must be a whole number from 1 to 100"),
  v.minValue(1, "iterations must be a whole number from 1 to 100"),
  v.maxValue(MAX_ITERATIONS, "iterations must be a whole number from 1 to 100"),
);

const MonthlyBudget = v.pipe(
  v.number("monthlyBudgetUsd must be a number of US dollars"),
  v.minValue(0.01, "monthlyBudgetUsd must be above 0"),
  v.maxValue(100_000, "monthlyBudgetUsd must be at most 100000"),
);

export const MAX_ALERT_WINDOW = 10;
/** The shortest after window an alert tests: the latest `alertWindow` runs, and one more, against a baseline of the runs before them (ADR 050). */
const AlertWindow = v.pipe(
  v.number(`alertWindow must be a whole number of runs from 1 to ${MAX_ALERT_WINDOW}`),
  v.integer(`alertWindow must be a whole number of runs from 1 to ${MAX_ALERT_WINDOW}`),
  v.minValue(1, `alertWindow must be a whole number of runs from 1 to ${MAX_ALERT_WINDOW}`),
  v.maxValue(MAX_ALERT_WINDOW, `alertWindow must be a whole number of runs from 1 to ${MAX_ALERT_WINDOW}`),
);

export const webhookFormats = ["json", "slack"] as const;
/**
 * Where a tracker's events are posted: `alert`, `run.completed`, `run.failed`, `run.missed` (and
 * `test` when asked), signed with the tracker's webhook secret. `json` is our own body; `slack` is
 * `{ text, blocks }` (Block Kit, with `text` the plain fallback), which Slack's incoming webhooks
 * take; Discord's Slack-compatible ones (…/slack) show the `text`.
 */
export const WebhookInput = v.object(
  {
    url: v.pipe(
      v.string("webhook.url must be a URL"),
      v.trim(),
      v.maxLength(2000, "webhook.url must be at most 2000 characters"),
      v.url("webhook.url must be a URL"),
    ),
    format: v.optional(v.picklist(webhookFormats, `webhook.format must be ${webhookFormats.join(" or ")}`), "json"),
    /** A new secret, shown in this answer only; the old one stops signing at once. */
    rotateSecret: v.optional(v.boolean("webhook.rotateSecret must be true or false")),
  },
  "webhook must be an object with a url",
);

/** POST /api/trackers. `providers` defaults to every connected provider; `competitors` to none. */
export const CreateTracker = v.pipe(
  v.object(
    {
      name: TrackerName,
      queries: Queries,
      brand: BrandInput,
      competitors: v.optional(Competitors, []),
      providers: v.optional(Providers),
      iterations: v.optional(TrackerIterations, DEFAULT_TRACKER_ITERATIONS),
      location: v.optional(LocationInput),
      schedule: Schedule,
      /** The tracker's own spending cap for a calendar month (UTC); none when absent. */
      monthlyBudgetUsd: v.optional(MonthlyBudget),
      alertWindow: v.optional(AlertWindow, 1),
      webhook: v.optional(WebhookInput),
      /** A tag per question (ADR 068); none by default. */
      questionTags: v.optional(QuestionTags, {}),
      /** The workspace it belongs to (ADR 071), where the caller is an editor or above; the caller's personal workspace by default. */
      workspaceId: v.optional(v.pipe(v.string("workspaceId must be a workspace id"), v.uuid("workspaceId must be a workspace id"))),
    },
    "The body must be a JSON object with a name, queries, a brand and a schedule",
  ),
  v.forward(
    v.check(
      ({ questionTags, queries }) => untaggableQuestion(questionTags, queries) === undefined,
      (issue) => notAsked(issue.input.questionTags, issue.input.queries),
    ),
    ["questionTags"],
  ),
);
export type CreateTracker = v.InferOutput<typeof CreateTracker>;

/**
 * PATCH /api/trackers/{id}: any of the creation fields, and `paused`. A change of what is asked or
 * counted (queries, providers, iterations, location, brand, competitors, their aliases and
 * domains) starts a new series segment: the trend shows where, and alerts compare within it.
 */
export const UpdateTracker = v.object(
  {
    name: v.optional(TrackerName),
    queries: v.optional(Queries),
    brand: v.optional(BrandInput),
    competitors: v.optional(Competitors),
    providers: v.optional(Providers),
    iterations: v.optional(TrackerIterations),
    location: v.optional(v.nullable(LocationInput)),
    schedule: v.optional(Schedule),
    monthlyBudgetUsd: v.optional(v.nullable(MonthlyBudget)),
    alertWindow: v.optional(AlertWindow),
    /** null removes it. */
    webhook: v.optional(v.nullable(WebhookInput)),
    paused: v.optional(v.boolean("paused must be true or false")),
    /** Replaces the tags (ADR 068); with new `queries` and no tags, the questions kept keep theirs. Checked against the queries the tracker will have. */
    questionTags: v.optional(QuestionTags),
  },
  "The body must be a JSON object",
);
export type UpdateTracker = v.InferOutput<typeof UpdateTracker>;

export const TRACKER_RUN_STATUSES = ["queued", "running", "completed", "partial", "failed", "skipped"] as const;
export const TrackerRunStatus = v.picklist(TRACKER_RUN_STATUSES);
export type TrackerRunStatus = v.InferOutput<typeof TrackerRunStatus>;

/** A run's cost so far in USD; `null` while some answer's model has no price ("unknown"). */
const RunCost = v.object({ usd: v.nullable(v.number()), simulated: v.boolean() });

/** One query of a run: the saved search it produced (opens at /search/{searchId}, listed in history). */
export const TrackerRunQuery = v.object({
  query: v.string(),
  searchId: v.nullable(v.string()),
  /** Answers expected / saved / failed for this query (providers × iterations). */
  expected: v.number(),
  done: v.number(),
  failed: v.number(),
  /** Per provider, how often the answers named the brand, with its 95% interval (percent) for the tracker's rate on this question: widened by how much its runs vary (ADR 050). */
  brandMentions: v.optional(v.record(ProviderId, v.object({ count: v.number(), n: v.number(), percentage: v.number(), low: v.number(), high: v.number() }))),
});
export type TrackerRunQuery = v.InferOutput<typeof TrackerRunQuery>;

/** GET /api/trackers/{id}/runs/{runId}, and each of the list. */
export const TrackerRun = v.object({
  id: v.string(),
  trackerId: v.string(),
  status: TrackerRunStatus,
  /** Why a run was skipped or failed, in words (the spend limit, a lapsed subscription, every provider failing). */
  reason: v.optional(v.string()),
  /** "schedule" for a tick, "manual" for Run now. */
  trigger: v.picklist(["schedule", "manual"]),
  /** The series segment the run belongs to: it grows when what the tracker asks or counts changes (queries, providers, iterations, location, brand, competitors). */
  segment: v.number(),
  scheduledFor: v.string(),
  startedAt: v.nullable(v.string()),
  finishedAt: v.nullable(v.string()),
  answers: v.object({ expected: v.number(), done: v.number(), failed: v.number() }),
  cost: RunCost,
  queries: v.array(TrackerRunQuery),
});
export type TrackerRun = v.InferOutput<typeof TrackerRun>;

/** GET /api/trackers/{id}/runs: newest first, a page at a time. */
export const TrackerRunList = v.object({ runs: v.array(TrackerRun), nextBefore: v.optional(v.string()) });
export type TrackerRunList = v.InferOutput<typeof TrackerRunList>;

export const TrackerRunsQuery = v.object({
  /** A run id from the previous page's `nextBefore`. */
  before: v.optional(v.pipe(v.string(), v.uuid("before must be a run id"))),
  limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer("limit must be a whole number from 1 to 100"), v.minValue(1), v.maxValue(100)), "20"),
});

/**
 * What a run asks and counts, as its tracker stood when the run was made: an edit during the run
 * changes neither what it buys nor how it is counted.
 */
export const RunDefinition = v.object({
  queries: v.array(v.string()),
  providers: v.array(ProviderId),
  iterations: v.number(),
  location: v.optional(Location),
  brand: BrandEntry,
  competitors: v.array(BrandEntry),
});
export type RunDefinition = v.InferOutput<typeof RunDefinition>;

/** A whole number read from a query string's text, from `min` to `max`, named in its message. */
function WholeNumberParam(name: string, min: number, max: number) {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return v.pipe(v.string(), v.transform(Number), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** GET /api/trackers/estimate: the shape of a tracker, before it is saved. */
export const DetectabilityQuery = v.object({
  questions: WholeNumberParam("questions", 1, MAX_TRACKER_QUERIES),
  iterations: WholeNumberParam("iterations", 1, MAX_ITERATIONS),
  providers: v.optional(WholeNumberParam("providers", 1, providerIds.length)),
  competitors: v.optional(WholeNumberParam("competitors", 0, MAX_TRACKER_COMPETITORS)),
});
export type DetectabilityQuery = v.InferInput<typeof DetectabilityQuery>;

/**
 * What change a tracker of this shape can tell (ADR 050), from the alert harness's
 * simulation of its rule under realistic run-to-run variance: the brand's mention rate on one
 * provider falling from `from`% on every question to `to`% (the smallest fall, in steps of 5
 * points, told within `withinRuns` runs in at least `power` of `trials` simulated trackers, after
 * `baselineRuns` steady runs); `to` null when not even a fall to 5% is. `sentence` says it in words.
 */
export const Detectability = v.object({
  questions: v.number(),
  iterations: v.number(),
  providers: v.number(),
  competitors: v.number(),
  from: v.number(),
  to: v.nullable(v.number()),
  power: v.number(),
  withinRuns: v.number(),
  baselineRuns: v.number(),
  trials: v.number(),
  sentence: v.string(),
});
export type Detectability = v.InferOutput<typeof Detectability>;

/**
 * Why a tracker's schedule looks stalled (ADR 057): a due run that did not happen (`missed`, more than
 * 15 minutes after it was due, or the last run skipped as missed), or a run `queued` for more than
 * 15 minutes or `running` for longer than a run of it can take. None while it is paused.
 */
export const TrackerStall = v.variant("kind", [
  v.object({ kind: v.literal("missed"), dueAt: v.string() }),
  v.object({ kind: v.literal("queued"), since: v.string() }),
  v.object({ kind: v.literal("running"), since: v.string() }),
]);
export type TrackerStall = v.InferOutput<typeof TrackerStall>;

/** A tracker as its owner reads it. */
export const Tracker = v.object({
  id: v.string(),
  /** The workspace it belongs to (ADR 071). */
  workspaceId: v.string(),
  name: v.string(),
  queries: v.array(v.string()),
  /** Each tagged question's tag (ADR 068): `trend?tag=` pools the questions of a tag. */
  questionTags: v.optional(v.record(v.string(), v.string())),
  brand: BrandEntry,
  competitors: v.array(BrandEntry),
  providers: v.array(ProviderId),
  iterations: v.number(),
  location: v.optional(Location),
  schedule: KeptSchedule,
  /** The schedule in words ("Every Monday at 09:00 (Europe/Berlin)"). */
  scheduleText: v.string(),
  monthlyBudgetUsd: v.optional(v.number()),
  /** The shortest after window an alert tests, in runs (1: the latest run, and the latest two, against the runs before them; ADR 050). */
  alertWindow: v.number(),
  /** Its webhook; `secret` only in the answer that made it (creation, or a rotation): keep it then. */
  webhook: v.optional(v.object({ url: v.string(), format: v.picklist(webhookFormats), secret: v.optional(v.string()) })),
  paused: v.boolean(),
  /** Why it is paused when the owner did not pause it (a lapsed subscription). */
  pausedReason: v.optional(v.string()),
  segment: v.number(),
  /** The schedule's next occurrence from now; null while paused, or for a schedule that never fires again. */
  nextRunAt: v.nullable(v.string()),
  /** The newest run, with how it ended (`finishedAt`, `status`, `reason`) or that it has not. */
  lastRun: v.nullable(TrackerRun),
  /** Whether its schedule looks stalled, and how; null when it does not. */
  stall: v.nullable(TrackerStall),
  /**
   * The cost of one run at today's prices, and of a month of runs on this schedule ("unknown" as
   * null); `simulated` when a provider it asks is simulated here, which costs nothing.
   */
  estimate: v.object({ perRunUsd: v.nullable(v.number()), perMonthUsd: v.nullable(v.number()), simulated: v.boolean() }),
  /** What change it can tell (ADR 050), for its questions, iterations, providers and competitors. */
  detectability: v.optional(Detectability),
  /** How many saved searches of the history its runs made: what deleting it deletes, unless they are kept. */
  savedSearches: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
});
export type Tracker = v.InferOutput<typeof Tracker>;

export const TrackerList = v.object({ trackers: v.array(Tracker) });

/** DELETE /api/trackers/{id}: `keepSearches=false` deletes its saved searches with it; by default they stay in the history, as the owner's own. */
export const DeleteTrackerQuery = v.object({
  keepSearches: v.optional(
    v.pipe(
      v.picklist(["true", "false"], "keepSearches must be true or false"),
      v.transform((text) => text === "true"),
    ),
  ),
});
export type DeleteTrackerQuery = v.InferInput<typeof DeleteTrackerQuery>;
export type TrackerList = v.InferOutput<typeof TrackerList>;

/**
 * POST /api/trackers/{id}/webhook/test: a `test` event posted to the tracker's webhook at once, as
 * deliveries are (signed, to a checked address, no redirect followed), and what came of it:
 * `status` when the endpoint answered (delivered when 2xx), `error` in words when it did not or
 * was refused.
 */
export const WebhookTestResult = v.object({
  delivered: v.boolean(),
  status: v.optional(v.number()),
  error: v.optional(v.string()),
});
export type WebhookTestResult = v.InferOutput<typeof WebhookTestResult>;

/** POST /api/trackers/{id}/runs answers 202 with the run queued; 409 names the run already queued or running. */
export const StartedRun = v.object({ run: TrackerRun });
