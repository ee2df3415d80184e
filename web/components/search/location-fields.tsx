import { useId, useState } from "react";
import { COMMON_COUNTRIES, PLACE_MAX_LENGTH } from "#src/contract/countries.ts";
import type { Location } from "#src/contract/location.ts";
import { InfoTip, Input, NativeSelect, NativeSelectOption } from "#web/shared-chunk.ts";

/** Where the search is asked from, as the fields hold it: a country code ("" for anywhere), and free text. */
type Place = { country: string; region: string; city: string };

const ANYWHERE: Place = { country: "", region: "", city: "" };

/**
 * The search form's and the tracker form's "Ask from": a country among the common ones, then a region and a city, free text,
 * once a country is chosen (ADR 042). Loaded when the person asks from a place, not with the
 * first page (ADR 006). Free, as asking from a place costs the providers nothing more.
 */
export function LocationFields({
  onChange,
  disabled = false,
  initial,
}: {
  onChange: (location: Location | undefined) => void;
  disabled?: boolean;
  /** Where it was asked from before (a tracker's edit form). */
  initial?: Location | undefined;
}) {
  const id = useId();
  const [place, setPlace] = useState<Place>(initial ? { country: initial.country, region: initial.region ?? "", city: initial.city ?? "" } : ANYWHERE);
  const change = (next: Place) => {
    setPlace(next);
    onChange(locationOf(next));
  };
  const text = (field: "region" | "city", label: string) => (
    <Input
      aria-label={label}
      placeholder={`${label} (optional)`}
      value={place[field]}
      maxLength={PLACE_MAX_LENGTH}
      onChange={(event) => change({ ...place, [field]: event.target.value })}
      disabled={disabled}
      className="sm:w-40"
    />
  );
  return (
    <div className="space-y-2">
      <div className="flex items-center gap-1.5">
        <span id={`${id}-label`} className="text-sm font-medium">
          Ask from
        </span>
        <InfoTip label="About asking from a place">
          ChatGPT, Claude and Perplexity search the web as if you were there. Gemini&apos;s search does not take a location: its answer is not localised.
        </InfoTip>
      </div>
      <div className="flex flex-col gap-2 sm:flex-row">
        <NativeSelect
          aria-labelledby={`${id}-label`}
          value={place.country}
          onChange={(event) => change(event.target.value ? { ...place, country: event.target.value } : ANYWHERE)}
          disabled={disabled}
          wrapperClassName="w-full sm:w-56"
          className="w-full"
        >
          <NativeSelectOption value="">Anywhere (no location)</NativeSelectOption>
          {COMMON_COUNTRIES.map(([code, name]) => (
            <NativeSelectOption key={code} value={code}>
              {name}
            </NativeSelectOption>
          ))}
        </NativeSelect>
        {place.country ? (
          <>
            {text("region", "Region")}
            {text("city", "City")}
          </>
        ) : null}
      </div>
    </div>
  );
}

/** What the form asks for: no location without a country; a blank region or city left out. */
function locationOf(place: Place): Location | undefined {
  if (!place.country) return undefined;
  const region = place.region.trim();
  const city = place.city.trim();
  return { country: place.country, ...(region ? { region } : {}), ...(city ? { city } : {}) };
}
