import type { Location } from "#src/contract/location.ts";

/**
 * The `user_location` that OpenAI's and Anthropic's `web_search` tools take (the same shape in
 * both): the search's location as an approximate one, spread into the tool; nothing without one,
 * so the tool keeps its provider's default (OpenAI's is the United States). ADR 042.
 */
export function userLocation(location: Location | undefined) {
  if (!location) return {};
  const { country, region, city, timezone } = location;
  return {
    user_location: { type: "approximate" as const, country, ...(region ? { region } : {}), ...(city ? { city } : {}), ...(timezone ? { timezone } : {}) },
  };
}
