import { LocationInput, type Location } from "#src/contract/location.ts";
import { parseOptions } from "./command.ts";
import { CliError } from "./exit.ts";

export type LocationFlags = { country?: string; region?: string; city?: string; timezone?: string };

/**
 * The flags' location (`--country`, `--region`, `--city`, and `--timezone` where it is the
 * location's), checked as the API checks it (ADR 042); none without --country. `placeFlags` names
 * the command's flags that need --country, for the message.
 */
export function locationOf({ country, region, city, timezone }: LocationFlags, placeFlags: string): Location | undefined {
  if (country === undefined) {
    if (region !== undefined || city !== undefined || timezone !== undefined) throw new CliError("usage", `${placeFlags} need --country`);
    return undefined;
  }
  return parseOptions(LocationInput, { country, region, city, timezone });
}
