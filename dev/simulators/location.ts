/**
 * The approximate user location as each provider's wire format carries it (ADR 042): OpenAI's
 * and Anthropic's `web_search` tools take `user_location: { type: "approximate", country, region,
 * city, timezone }`; Gemini takes coordinates only (`toolConfig.retrievalConfig.latLng`, for
 * Google Maps results), which the product never sends. An answer asked from somewhere says so in
 * a sentence, with the local currency where it is known; a malformed location is refused as the
 * real API refuses it.
 */
import { isTimeZone } from "#src/contract/location.ts";
import { isObject, type JsonObject } from "./http.ts";

export type AskedFrom = { country?: string; region?: string; city?: string; timezone?: string };

/** The tool's `user_location`, or why the real API would refuse it (`invalid`, its message). */
export function readUserLocation(tool: JsonObject | undefined): { location?: AskedFrom; invalid?: string } {
  const raw = tool?.user_location;
  if (raw === undefined || raw === null) return {};
  if (!isObject(raw)) return { invalid: "user_location: Input should be a valid dictionary" };
  if (raw.type !== "approximate") return { invalid: "user_location.type: Input should be 'approximate'" };
  const location: AskedFrom = {};
  for (const field of ["country", "region", "city", "timezone"] as const) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") return { invalid: `user_location.${field}: Input should be a valid string` };
    location[field] = value;
  }
  if (location.country !== undefined && !/^[A-Z]{2}$/.test(location.country))
    return { invalid: `user_location.country: String should be a two-letter ISO 3166-1 alpha-2 code, got ${JSON.stringify(location.country)}` };
  if (location.timezone !== undefined && !isTimeZone(location.timezone)) return { invalid: `user_location.timezone: Invalid timezone: ${location.timezone}` };
  return { location };
}

/** Gemini's coordinates, refused out of range as the real API refuses them. */
export function invalidLatLng(body: JsonObject): string | undefined {
  const retrieval = isObject(body.toolConfig) && isObject(body.toolConfig.retrievalConfig) ? body.toolConfig.retrievalConfig : undefined;
  const latLng = retrieval?.latLng;
  if (latLng === undefined) return undefined;
  const ok = isObject(latLng) && inRange(latLng.latitude, 90) && inRange(latLng.longitude, 180);
  return ok ? undefined : "* GenerateContentRequest.tool_config.retrieval_config.lat_lng: latitude must be in [-90, 90] and longitude in [-180, 180]\n";
}

/** The sentence a localised answer carries: where it was asked from, and the currency it would quote. */
export function localNote(location: AskedFrom | undefined): string | undefined {
  if (!location?.country && !location?.city && !location?.region) return undefined;
  const country = location.country ? (new Intl.DisplayNames(["en"], { type: "region" }).of(location.country) ?? location.country) : undefined;
  const place = [...new Set([location.city, location.region, country].filter(Boolean))].join(", ");
  const currency = location.country ? CURRENCIES[location.country] : undefined;
  return `\n\nAvailability here is as seen from ${place}${currency ? `; prices in ${currency}` : ""}.`;
}

const EURO = ["AT", "BE", "DE", "EE", "ES", "FI", "FR", "GR", "HR", "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PT", "SI", "SK", "CY"];
const CURRENCIES: Record<string, string> = {
  ...Object.fromEntries(EURO.map((code) => [code, "EUR"])),
  AU: "AUD",
  BR: "BRL",
  CA: "CAD",
  CH: "CHF",
  GB: "GBP",
  IN: "INR",
  JP: "JPY",
  MX: "MXN",
  SE: "SEK",
  US: "USD",
};

function inRange(value: unknown, limit: number): boolean {
  return typeof value === "number" && value >= -limit && value <= limit;
}
