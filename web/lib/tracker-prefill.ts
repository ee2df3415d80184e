import * as v from "valibot";
import { NameInput } from "#src/contract/lens.ts";
import { SearchQuery } from "#src/contract/search-request.ts";
import { MAX_TRACKER_COMPETITORS, MAX_TRACKER_QUERIES } from "#src/contract/trackers.ts";

/*
 * A new tracker's form started from a finished search: /trackers/new?query=..&brand=..&competitor=..
 * Anyone can write such a link, so each value goes through the contract's own schema and what does
 * not pass is dropped rather than refused: the form still opens, and says what is missing when saved.
 */

export type TrackerPrefill = { queries: string[]; brand: string | undefined; competitors: string[] };

/** The link to a new tracker asking `queries`, with the lens's brand and competitors when the search had one. */
export function trackerPrefillHref(prefill: TrackerPrefill): string {
  const params = new URLSearchParams();
  for (const query of prefill.queries) params.append("query", query);
  if (prefill.brand) params.set("brand", prefill.brand);
  for (const competitor of prefill.competitors) params.append("competitor", competitor);
  const search = params.toString();
  return search ? `/trackers/new?${search}` : "/trackers/new";
}

/** The prefill a URL's query string asks for: valid, distinct values only, at most what a tracker holds; null when it asks for nothing. */
export function readTrackerPrefill(params: URLSearchParams): TrackerPrefill | null {
  const queries = distinct(params.getAll("query"), SearchQuery, MAX_TRACKER_QUERIES);
  const brand = distinct(params.getAll("brand").slice(0, 1), NameInput("brand"), 1)[0];
  // The brand is not its own competitor; left out before the count, so it takes no competitor's place.
  const competitors = distinct(params.getAll("competitor"), NameInput("competitor"), MAX_TRACKER_COMPETITORS, brand);
  if (queries.length === 0 && !brand && competitors.length === 0) return null;
  return { queries, brand, competitors };
}

/** The values `schema` accepts, each once (case aside) and none equal to `except`, at most `max`. */
function distinct(values: string[], schema: v.GenericSchema<unknown, string>, max: number, except?: string): string[] {
  const kept: string[] = [];
  const seen = new Set<string>(except ? [except.toLowerCase()] : []);
  for (const value of values) {
    if (kept.length >= max) break;
    const parsed = v.safeParse(schema, value);
    if (!parsed.success || seen.has(parsed.output.toLowerCase())) continue;
    seen.add(parsed.output.toLowerCase());
    kept.push(parsed.output);
  }
  return kept;
}
