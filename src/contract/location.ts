/*
 * Where a search is asked from (ADR 042): the approximate location each provider's web search
 * tool takes, as the person gives it. One shape, for a search's options and, later, a tracker's.
 */
import * as v from "valibot";

import { COUNTRY_CODES, PLACE_MAX_LENGTH } from "./countries.ts";
import type { ProviderId } from "./providers.ts";
import { visibleOnly } from "./visible-input.ts";

const COUNTRY_HINT = "location.country must be a two-letter ISO 3166-1 country code, such as DE";

/** ISO 3166-1 alpha-2, in either case ("de" is DE); "Germany", "GER" and unassigned codes ("XX") are refused. */
export const Country = v.pipe(
  v.string(COUNTRY_HINT),
  v.trim(),
  v.regex(/^[A-Za-z]{2}$/, (issue) => `${COUNTRY_HINT}, not ${JSON.stringify(issue.input)}`),
  v.toUpperCase(),
  v.check(
    (code) => COUNTRY_CODES.has(code),
    (issue) => `location.country ${JSON.stringify(issue.input)} is not an ISO 3166-1 country code`,
  ),
);

const place = (field: "region" | "city") =>
  v.pipe(
    v.string(`location.${field} must be text`),
    v.trim(),
    v.minLength(1, `location.${field} must not be blank (leave it out instead)`),
    v.maxLength(PLACE_MAX_LENGTH, `location.${field} must be at most ${PLACE_MAX_LENGTH} characters`),
  );

/** An IANA time zone ("Europe/Berlin"), kept in its canonical spelling. */
export const TimeZone = v.pipe(
  v.string("location.timezone must be an IANA time zone, such as Europe/Berlin"),
  v.trim(),
  v.check(isTimeZone, (issue) => `location.timezone must be an IANA time zone, such as Europe/Berlin, not ${JSON.stringify(issue.input)}`),
  v.transform((zone) => new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone),
);

export const Location = v.object(
  {
    country: Country,
    /** A state, province or region, as people write it ("Bavaria", "California"). */
    region: v.optional(place("region")),
    city: v.optional(place("city")),
    timezone: v.optional(TimeZone),
  },
  'location.country is required: location must be an object such as { "country": "DE", "city": "Berlin" }',
);
export type Location = v.InferOutput<typeof Location>;

/**
 * A location as a request writes it (a search's options, a tracker): as Location, and its region
 * and city without an invisible character (src/contract/visible-text.ts). One read back keeps
 * Location: a place stored before the rule is shown visibly, never dropped.
 */
export const LocationInput = v.object(
  {
    ...Location.entries,
    region: v.optional(v.pipe(place("region"), visibleOnly("location.region"))),
    city: v.optional(v.pipe(place("city"), visibleOnly("location.city"))),
  },
  Location.message,
);

/**
 * Whether each provider's web search takes the location (ADR 042). OpenAI's `web_search` and
 * Anthropic's `web_search` tools take all of it as `user_location`, Perplexity's `web_search` its
 * country, region and city (ADR 059); Gemini's Google Search
 * grounding takes none of it (its only location, `toolConfig.retrievalConfig.latLng`, is
 * coordinates for Google Maps results). A provider that took only part of it would need a third
 * value on the card.
 */
export const locationSupport: { readonly [P in ProviderId]: boolean } = {
  openai: true,
  anthropic: true,
  gemini: false,
  perplexity: true,
};

/** What a card says about the search's location: sent to the provider's search, or not supported by it. */
export const LocationApplied = v.picklist(["applied", "not supported"]);
export type LocationApplied = v.InferOutput<typeof LocationApplied>;

export function locationApplied(provider: ProviderId): LocationApplied {
  return locationSupport[provider] ? "applied" : "not supported";
}

/** Whether the runtime knows the IANA time zone (in any letter case; "" is none). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone !== "";
  } catch {
    return false;
  }
}
