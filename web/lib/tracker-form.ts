import * as v from "valibot";
import { MAX_ITERATIONS } from "#src/contract/constants.ts";
import type { BrandLensSettings } from "#src/contract/lens.ts";
import type { Location } from "#src/contract/location.ts";
import { providerIds, type ProviderId } from "#src/contract/providers.ts";
import {
  CreateTracker,
  DEFAULT_TRACKER_ITERATIONS,
  MAX_TRACKER_COMPETITORS,
  MAX_TRACKER_QUERIES,
  TRACKER_NAME_MAX_LENGTH,
  type Tracker,
  type UpdateTracker,
  type webhookFormats,
} from "#src/contract/trackers.ts";
import type { TrackerPrefill } from "#web/lib/tracker-prefill.ts";
import { choiceOf, cronOf, DEFAULT_SCHEDULE, type ScheduleChoice } from "#web/lib/trackers.ts";
import { splitList } from "#web/lib/workbench.ts";
import { competitorEntries, competitorRow as rowOf, emptyCompetitorRow, type CompetitorRow } from "#web/lib/brand-rows.ts";

/*
 * The tracker form's values as the fields hold them (text, rows, choices), how they become the
 * contract's CreateTracker (which checks them, as the server will), and back from a saved tracker.
 */

export type { CompetitorRow };

export type TrackerDraft = {
  name: string;
  /** One question per line. */
  queries: string;
  /** A tag per question, keyed by the question as its line reads (trimmed); a question no longer on a line loses its tag when sent. */
  questionTags: Record<string, string>;
  brandName: string;
  brandAliases: string;
  brandDomains: string;
  competitors: CompetitorRow[];
  providers: ProviderId[];
  iterations: string;
  location: Location | undefined;
  schedule: ScheduleChoice;
  timezone: string;
  /** Blank for none. */
  monthlyBudgetUsd: string;
  /** Runs per alert window. */
  alertWindow: string;
  /** Blank for none (an edit's blank removes the saved one). */
  webhookUrl: string;
  webhookFormat: (typeof webhookFormats)[number];
  /** A new signing secret on save (edit, with a webhook saved). */
  rotateSecret: boolean;
};

/** The questions of the text box: one a line, blank lines left out. */
export function queryLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/** What GET /api/trackers/estimate takes: the shape of a tracker, before it is saved. */
export type TrackerShape = { questions: number; iterations: number; providers: number; competitors: number };

/**
 * The draft's shape, for what it can see: its questions, iterations, providers and named
 * competitors; null while one is missing or out of range (the form says which).
 */
export function draftShape(draft: TrackerDraft): TrackerShape | null {
  const questions = queryLines(draft.queries).length;
  const iterations = Number(draft.iterations);
  const providers = draft.providers.length;
  const competitors = draft.competitors.filter((row) => row.name.trim()).length;
  const fits = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max;
  if (
    !fits(questions, MAX_TRACKER_QUERIES) ||
    !fits(iterations, MAX_ITERATIONS) ||
    !fits(providers, providerIds.length) ||
    competitors > MAX_TRACKER_COMPETITORS
  )
    return null;
  return { questions, iterations, providers, competitors };
}

/** "10/5/3/1": a shape as one value (a query's key, the debounce's). */
export function shapeKey(shape: TrackerShape | null): string {
  return shape ? `${shape.questions}/${shape.iterations}/${shape.providers}/${shape.competitors}` : "";
}

/** The words of the form's "What it can see": while the server works it out, without a shape, and why more questions help. */
export const detectabilityWords = {
  loading: "Working out what it can see…",
  missing: "Add questions, iterations and a provider to see what change it can tell.",
  failed: "Could not work out what it can see; saving works all the same.",
  hint: "Once runs vary, more questions help more than more answers: the answers of one run move together.",
} as const;

/** How the sentence is worked out, from the server's figures: a simulation, not a promise. */
export function detectabilityMethod(found: { trials: number; withinRuns: number; baselineRuns: number }): string {
  return `Simulated: ${found.trials} trackers of this shape, their answers varying from run to run as real assistants' do, run through the alerts' rule; the fall named is the smallest (in steps of 5 points) told within ${found.withinRuns} runs in at least 80% of them, after ${found.baselineRuns} steady runs.`;
}

/** What the form sends, as the contract reads it. */
export function draftToInput(draft: TrackerDraft): v.InferInput<typeof CreateTracker> {
  const budget = draft.monthlyBudgetUsd.trim();
  return {
    name: draft.name,
    queries: queryLines(draft.queries),
    questionTags: tagsFor(queryLines(draft.queries), draft.questionTags),
    brand: { name: draft.brandName, aliases: splitList(draft.brandAliases), domains: splitList(draft.brandDomains) },
    competitors: competitorEntries(draft.competitors),
    providers: draft.providers,
    // A blank or unreadable number is NaN, which the contract names.
    iterations: draft.iterations.trim() ? Number(draft.iterations) : Number.NaN,
    ...(draft.location ? { location: draft.location } : {}),
    schedule: { cron: cronOf(draft.schedule), timezone: draft.timezone },
    ...(budget ? { monthlyBudgetUsd: Number(budget) } : {}),
    alertWindow: draft.alertWindow.trim() ? Number(draft.alertWindow) : Number.NaN,
    ...(draft.webhookUrl.trim()
      ? { webhook: { url: draft.webhookUrl, format: draft.webhookFormat, ...(draft.rotateSecret ? { rotateSecret: true } : {}) } }
      : {}),
  };
}

/** The tags of the questions asked, in their order (a blank tag is none). */
export function tagsFor(queries: readonly string[], tags: Record<string, string>): Record<string, string> {
  return Object.fromEntries(queries.flatMap((query) => (tags[query]?.trim() ? [[query, tags[query].trim()]] : [])));
}

/** The form checked by the contract's own schema: its output is what POST /api/trackers takes. */
export const TrackerForm = v.pipe(
  v.custom<TrackerDraft>(() => true),
  v.transform(draftToInput),
  CreateTracker,
);

/** The field an API refusal is about, when the form has one: a refused webhook address ("webhook.url: … is a private …"). */
export function fieldOfRefusal(message: string): "webhookUrl" | null {
  return message.startsWith("webhook.url") ? "webhookUrl" : null;
}

/** Where each of the contract's issues shows in the form, in the form's words. */
export function placeIssue(path: string, message: string): [field: string, message: string] {
  const [head, index] = path.split(".");
  if (head === "queries" && index !== undefined) return ["queries", `Question ${Number(index) + 1}: ${message}`];
  if (head === "brand") return [{ name: "brandName", aliases: "brandAliases", domains: "brandDomains" }[index ?? ""] ?? "brandName", message];
  if (head === "competitors" && index !== undefined) return [`competitors.${index}`, message];
  if (head === "schedule") return [index === "timezone" ? "timezone" : "schedule", message];
  if (head === "webhook") return [index === "format" ? "webhookFormat" : "webhookUrl", message];
  return [head ?? path, message];
}

/** A new tracker's form: the profile's brand lens (up to 10 competitors), every connected provider, 5 iterations, weekly on Monday at 09:00. */
export function newDraft(lens: BrandLensSettings | undefined, connected: ProviderId[], timezone: string): TrackerDraft {
  return {
    name: "",
    queries: "",
    questionTags: {},
    brandName: lens?.brand?.name ?? "",
    brandAliases: lens?.brand?.aliases.join(", ") ?? "",
    brandDomains: lens?.brand?.domains.join(", ") ?? "",
    competitors: (lens?.competitors ?? []).slice(0, MAX_TRACKER_COMPETITORS).map(rowOf),
    providers: connected,
    iterations: String(DEFAULT_TRACKER_ITERATIONS),
    location: undefined,
    schedule: DEFAULT_SCHEDULE,
    timezone,
    monthlyBudgetUsd: "",
    alertWindow: "1",
    webhookUrl: "",
    webhookFormat: "json",
    rotateSecret: false,
  };
}

/**
 * A new tracker's draft with a finished search's prefill in it (named after its first question). A
 * brand or competitor the profile's lens also names keeps the lens's aliases and domains (they are
 * how answers are counted); another starts with none. A search's lens replaces the profile's competitors.
 */
export function prefilledDraft(draft: TrackerDraft, prefill: TrackerPrefill, lens: BrandLensSettings | undefined): TrackerDraft {
  const known = [...(lens?.brand ? [lens.brand] : []), ...(lens?.competitors ?? [])];
  const entryOf = (name: string) => known.find((entry) => entry.name.toLowerCase() === name.toLowerCase()) ?? { name, aliases: [], domains: [] };
  const brand = prefill.brand ? entryOf(prefill.brand) : undefined;
  const first = prefill.queries[0];
  return {
    ...draft,
    name: first ? first.slice(0, TRACKER_NAME_MAX_LENGTH).trim() : draft.name,
    queries: prefill.queries.length > 0 ? prefill.queries.join("\n") : draft.queries,
    ...(brand ? { brandName: brand.name, brandAliases: brand.aliases.join(", "), brandDomains: brand.domains.join(", ") } : {}),
    competitors: brand || prefill.competitors.length > 0 ? prefill.competitors.map((name) => rowOf(entryOf(name))) : draft.competitors,
  };
}

/** A saved tracker, as the edit form holds it. */
export function draftOf(tracker: Tracker): TrackerDraft {
  return {
    name: tracker.name,
    queries: tracker.queries.join("\n"),
    questionTags: tracker.questionTags ?? {},
    brandName: tracker.brand.name,
    brandAliases: tracker.brand.aliases.join(", "),
    brandDomains: tracker.brand.domains.join(", "),
    competitors: tracker.competitors.map(rowOf),
    providers: tracker.providers,
    iterations: String(tracker.iterations),
    location: tracker.location,
    schedule: choiceOf(tracker.schedule.cron),
    timezone: tracker.schedule.timezone,
    monthlyBudgetUsd: tracker.monthlyBudgetUsd === undefined ? "" : String(tracker.monthlyBudgetUsd),
    alertWindow: String(tracker.alertWindow),
    webhookUrl: tracker.webhook?.url ?? "",
    webhookFormat: tracker.webhook?.format ?? "json",
    rotateSecret: false,
  };
}

export const emptyRow = emptyCompetitorRow;

/**
 * The fields an edit changed, for PATCH: a change of queries or providers starts a new series
 * segment, so what did not change is not sent. A removed location, budget or webhook is sent as null.
 */
export function changesOf(tracker: Tracker, next: CreateTracker): v.InferInput<typeof UpdateTracker> {
  const before: Record<string, unknown> = {
    name: tracker.name,
    queries: tracker.queries,
    // Kept as the server's JSON keeps them (its own key order): compared by their questions' order.
    questionTags: tagsFor(tracker.queries, tracker.questionTags ?? {}),
    brand: tracker.brand,
    competitors: tracker.competitors,
    providers: tracker.providers,
    iterations: tracker.iterations,
    location: tracker.location ?? null,
    schedule: tracker.schedule,
    monthlyBudgetUsd: tracker.monthlyBudgetUsd ?? null,
    alertWindow: tracker.alertWindow,
    webhook: tracker.webhook ? { url: tracker.webhook.url, format: tracker.webhook.format } : null,
  };
  const after: Record<string, unknown> = {
    ...next,
    providers: next.providers ?? tracker.providers,
    questionTags: tagsFor(next.queries, next.questionTags),
    location: next.location ?? null,
    monthlyBudgetUsd: next.monthlyBudgetUsd ?? null,
    webhook: next.webhook ?? null,
  };
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

/** The draft's questions and tags with `added` appended (each new question a line of its own, its tag kept). */
export function withQuestions(draft: Pick<TrackerDraft, "queries" | "questionTags">, added: ReadonlyArray<{ question: string; tag?: string }>) {
  const lines = [...queryLines(draft.queries), ...added.map((row) => row.question)];
  const questionTags = { ...draft.questionTags };
  for (const row of added) if (row.tag) questionTags[row.question] = row.tag;
  return { queries: lines.join("\n"), questionTags };
}

/** Why an imported row was skipped, in the form's words. */
export const skipWords = { empty: "empty", duplicate: "already a question", "over-limit": `over the ${MAX_TRACKER_QUERIES}-question limit` } as const;
