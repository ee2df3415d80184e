/* The saved searches: the history's list and its filters, renaming and deleting a search. */
import * as v from "valibot";

import { QUERY_MAX_LENGTH } from "./constants.ts";
import { providerIds } from "./providers.ts";
import { Iterations } from "./search-request.ts";
import { SearchStatus } from "./search-result.ts";
import { visibleOnly } from "./visible-input.ts";

export const SavedSearchListItem = v.object({
  id: v.string(),
  query: v.string(),
  /** The name its owner gave it (shown instead of the query); absent until renamed. */
  title: v.optional(v.string()),
  timestamp: v.string(),
  totalProducts: v.number(),
  totalCompanies: v.number(),
  totalLinks: v.number(),
  iterationCount: v.number(),
  status: SearchStatus,
  /** Some provider's answers in it came from its simulator (each result says which). */
  simulated: v.boolean(),
  /** What it cost in USD (ADR 041); null when unknown (a model without a price, or saved before costs were kept). */
  costUsd: v.nullable(v.number()),
  /** The tracker whose run asked it; absent for a search someone ran, or once its tracker is deleted. */
  tracker: v.optional(v.object({ id: v.string(), name: v.string() })),
});
export type SavedSearchListItem = v.InferOutput<typeof SavedSearchListItem>;

export const SavedSearchList = v.object({
  searches: v.array(SavedSearchListItem),
  /** Pass as `before` to get the next page; absent on the last page. */
  nextCursor: v.optional(v.string()),
});
export type SavedSearchList = v.InferOutput<typeof SavedSearchList>;

/**
 * Whether an ISO timestamp names a moment a Date can hold. valibot's format check passes
 * "…T00:00:00+05", "…-23" offsets, 30 February and year 0000, which the database refuses.
 */
export function isRealTimestamp(text: string): boolean {
  const [, year, month, day] = /^(\d{4})-(\d{2})-(\d{2})/.exec(text) ?? [];
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  return y >= 1 && days !== undefined && d >= 1 && d <= days && !Number.isNaN(new Date(text).getTime());
}

/** A day (YYYY-MM-DD, in UTC) or a moment (ISO timestamp), for the history's date range. */
export const HistoryDate = (name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => (v.ISO_DATE_REGEX.test(text) || v.ISO_TIMESTAMP_REGEX.test(text)) && isRealTimestamp(text),
      `${name} must be a date (YYYY-MM-DD) or an ISO timestamp`,
    ),
  );

/** The history's list parameters, one by one (the CLI's flags take theirs from here). */
export const SavedSearchListFields = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, "limit must be a whole number"),
      v.transform(Number),
      v.minValue(1, "limit must be at least 1"),
      v.maxValue(100, "limit must be at most 100"),
    ),
  ),
  before: v.optional(v.pipe(v.string(), v.isoTimestamp("before must be an ISO timestamp"), v.check(isRealTimestamp, "before must be an ISO timestamp"))),
  /** Only the searches of this query text, in any letter case (spec §5). */
  query: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.minLength(1, "query must not be empty"),
      v.maxLength(QUERY_MAX_LENGTH, `query must be at most ${QUERY_MAX_LENGTH} characters`),
    ),
  ),
  /** Searches whose query or title contains this text, in any letter case. */
  q: v.optional(
    v.pipe(v.string(), v.trim(), v.minLength(1, "q must not be empty"), v.maxLength(QUERY_MAX_LENGTH, `q must be at most ${QUERY_MAX_LENGTH} characters`)),
  ),
  /** Searches in which this provider answered. */
  provider: v.optional(v.picklist(providerIds, `provider must be one of ${providerIds.join(", ")}`)),
  /** Searches of this many iterations. */
  iterations: v.optional(Iterations),
  /** Searches made from this day (its start, UTC) or moment on. */
  from: v.optional(HistoryDate("from")),
  /** Searches made up to this day (its end, UTC) or moment. */
  to: v.optional(HistoryDate("to")),
  /** The searches trackers' runs made: listed (`show`, the default) or left out (`hide`). */
  trackers: v.optional(v.picklist(["show", "hide"], "trackers must be show or hide")),
});

/** A date range's rule, for every query with `from` and `to` (the history, a tracker's trend and sources). */
export const FROM_AFTER_TO = "from must not be after to";
/** GET /api/user/searches: a page of the history, filtered; every filter keeps `before` paging as it does. */
export const SavedSearchListQuery = v.pipe(
  SavedSearchListFields,
  v.forward(
    v.check(({ from, to }) => inOrder({ from, to }), FROM_AFTER_TO),
    ["from"],
  ),
);

/** Whether `from` is not after `to` (either may be absent). */
export function inOrder({ from, to }: { from?: string | undefined; to?: string | undefined }): boolean {
  const range = historyRange({ from, to });
  return !range.from || !range.until || range.from < range.until;
}
export type SavedSearchListQuery = v.InferInput<typeof SavedSearchListQuery>;

/** The moments a history range covers: from `from` (a day's start, UTC) to before `until` (the day after `to`, or just after its moment). */
export function historyRange({ from, to }: { from?: string | undefined; to?: string | undefined }): { from?: Date; until?: Date } {
  const dayOnly = (text: string) => v.ISO_DATE_REGEX.test(text);
  return {
    ...(from ? { from: new Date(dayOnly(from) ? `${from}T00:00:00Z` : from) } : {}),
    ...(to ? { until: new Date(new Date(dayOnly(to) ? `${to}T00:00:00Z` : to).getTime() + (dayOnly(to) ? 86_400_000 : 1)) } : {}),
  };
}

/** PATCH /api/search/{id}: a name for a saved search, shown instead of its query; empty or null gives the query back. */
export const RenameSearch = v.object(
  {
    title: v.nullable(v.pipe(v.string("title must be text or null"), v.trim(), v.maxLength(200, "title must be at most 200 characters"), visibleOnly("title"))),
  },
  "The body must be a JSON object with a title",
);

/** The answers of PATCH and DELETE /api/search/{id}. */
export const RenamedSearch = v.object({ id: v.string(), title: v.nullable(v.string()) });
export const DeletedSearch = v.object({ success: v.literal(true) });
