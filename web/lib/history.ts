import type { ProviderId } from "#src/contract/providers.ts";
import type { HistoryFilters } from "#web/lib/queries.ts";

/*
 * The history's filter form as the person fills it, and the API's filters it stands for. Pure:
 * no React, no I/O.
 */

/**
 * The form's fields as typed: "" is "any". Dates are the browser's `YYYY-MM-DD`, in the person's
 * own time zone. `hideTrackers` leaves out the searches trackers' runs made.
 */
export type HistoryForm = { q: string; provider: ProviderId | ""; iterations: string; from: string; to: string; hideTrackers: boolean };

export const EMPTY_HISTORY_FORM: HistoryForm = { q: "", provider: "", iterations: "", from: "", to: "", hideTrackers: false };

/**
 * The API's filters for a form: blank fields left out, and each date taken as the whole day
 * where the person is (its first and last moment, as ISO timestamps), not the UTC day.
 */
export function historyFilters(form: HistoryForm): HistoryFilters {
  const q = form.q.trim();
  const iterations = Number(form.iterations);
  const from = localDay(form.from, "T00:00:00");
  const to = localDay(form.to, "T23:59:59.999");
  return {
    ...(q ? { q } : {}),
    ...(form.provider ? { provider: form.provider } : {}),
    ...(Number.isInteger(iterations) && iterations > 0 ? { iterations } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(form.hideTrackers ? { trackers: "hide" as const } : {}),
  };
}

/** Whether any filter narrows the list. */
export function isFiltered(form: HistoryForm): boolean {
  return Object.keys(historyFilters(form)).length > 0;
}

/** What a search is called in the history: its title once renamed, else its query. */
export function searchName(search: { query: string; title?: string | undefined }): string {
  return search.title ?? search.query;
}

function localDay(day: string, time: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const moment = new Date(`${day}${time}`);
  return Number.isNaN(moment.getTime()) ? undefined : moment.toISOString();
}
