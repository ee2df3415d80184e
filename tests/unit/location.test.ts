import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { COMMON_COUNTRIES, COUNTRY_CODES } from "#src/contract/countries.ts";
import { Location, locationApplied } from "#src/contract/location.ts";
import { countryName, locationLabel, locationNote } from "#src/core/location.ts";

/* ADR 042: the one Location shape and how a place reads, wherever it is shown. */

describe("Location", () => {
  test("takes a country code in either case and an IANA zone in any spelling, keeping the canonical forms the providers take", () => {
    expect(v.parse(Location, { country: " de ", region: " Bavaria ", city: "Munich", timezone: "europe/berlin" })).toEqual({
      country: "DE",
      region: "Bavaria",
      city: "Munich",
      timezone: "Europe/Berlin",
    });
  });

  test("refuses a name, an unassigned code, a blank place and an unknown zone, each naming its field", () => {
    const message = (input: unknown) => v.safeParse(Location, input).issues?.[0]?.message;
    expect(message({ country: "Germany" })).toBe('location.country must be a two-letter ISO 3166-1 country code, such as DE, not "Germany"');
    expect(message({ country: "UK" })).toBe('location.country "UK" is not an ISO 3166-1 country code');
    expect(message({ country: "DE", city: " " })).toBe("location.city must not be blank (leave it out instead)");
    expect(message({ country: "DE", timezone: "CET+1" })).toStartWith("location.timezone must be an IANA time zone");
    expect(message({})).toStartWith("location.country is required");
  });

  test("the form's countries are assigned codes, each listed once", () => {
    expect(COUNTRY_CODES.size).toBe(249);
    const codes = COMMON_COUNTRIES.map(([code]) => code);
    expect(codes.filter((code) => !COUNTRY_CODES.has(code))).toEqual([]);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe("a place in words", () => {
  test("widest first, a name repeated once; a country the form does not list is named by the runtime", () => {
    expect(locationLabel({ country: "DE", region: "Berlin", city: "Berlin" })).toBe("Germany, Berlin");
    expect(locationLabel({ country: "US", region: "California", city: "San Francisco" })).toBe("United States, California, San Francisco");
    expect(countryName("IS")).toBe("Iceland");
  });

  test("a card says whether its provider's search took the location", () => {
    expect(locationApplied("gemini")).toBe("not supported");
    expect(locationNote("gemini", "not supported")).toBe("Gemini's search does not take a location: its answer is not localised.");
    expect(locationApplied("openai")).toBe("applied");
  });
});
