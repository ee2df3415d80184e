import { COMMON_COUNTRIES } from "#src/contract/countries.ts";
import type { Location, LocationApplied } from "#src/contract/location.ts";
import { providerCatalogue, type ProviderId } from "#src/contract/providers.ts";

/*
 * Where a search was asked from, in words: the result's header, the exports, the CLI and MCP say
 * it the same way (ADR 042). No valibot here: the first page reads it.
 */

const COMMON = new Map(COMMON_COUNTRIES);

/** "DE" → "Germany": the form's own names first, so server and browser render the same words; else the runtime's; else the code. */
export function countryName(code: string): string {
  const common = COMMON.get(code);
  if (common) return common;
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** "Germany, Bavaria, Munich": the country, then the region and city given, from the widest; a repeated name once ("Germany, Berlin"). */
export function locationLabel(location: Pick<Location, "country" | "region" | "city">): string {
  const parts: string[] = [];
  for (const part of [countryName(location.country), location.region, location.city]) {
    if (part && !parts.some((seen) => seen.toLowerCase() === part.toLowerCase())) parts.push(part);
  }
  return parts.join(", ");
}

/** What a card says when the search had a location: sent to the provider's search, or not taken by it. */
export function locationNote(provider: ProviderId, applied: LocationApplied): string {
  const name = providerCatalogue[provider].model;
  return applied === "applied"
    ? `${name}'s web search was given the location as the person's approximate location.`
    : `${name}'s search does not take a location: its answer is not localised.`;
}
