import * as v from "valibot";
import { Iterations, SearchQuery } from "#src/contract/search-request.ts";
import { action, defineCommand, Flag, parseOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { locationOf } from "#cli/lib/location.ts";
import { note } from "#cli/lib/output.ts";
import { startProgress } from "#cli/lib/progress.ts";
import { BrandName, brandOption, emitResult, lensOf, OutFile } from "#cli/lib/results.ts";
import { streamSearch } from "#cli/lib/stream.ts";

const Options = v.object({
  iterations: v.optional(Iterations),
  json: Flag,
  csv: Flag,
  out: OutFile,
  brand: BrandName,
  country: v.optional(v.string()),
  region: v.optional(v.string()),
  city: v.optional(v.string()),
  timezone: v.optional(v.string()),
});

export const search = defineCommand("search", "ask every provider, with web search on, and show what each returned")
  .argument("<query>", "the question, as a person would ask it (quote it)")
  .option("-n, --iterations <n>", "ask each provider N times and show how often each item comes back (Pro: 5, 10, 25, 50 or 100)")
  .option("--csv", "print the CSV export instead of a table")
  .option("-o, --out <file>", "write the JSON (or, for a .csv name or with --csv, the CSV) to FILE")
  .option("--country <code>", "ask from this country (ISO 3166-1 code, e.g. DE): the providers whose web search takes a location search as from there")
  .option("--region <name>", "with --country: the region, state or province (e.g. Bavaria)")
  .option("--city <name>", "with --country: the city (e.g. Berlin)")
  .option("--timezone <zone>", "with --country: the IANA time zone (e.g. Europe/Berlin)")
  .addOption(brandOption())
  .action(
    action<typeof Options, [string]>(Options, async ({ context, options, args: [rawQuery] }) => {
      const query = parseOptions(SearchQuery, rawQuery);
      if (context.json && options.csv) throw new CliError("usage", "choose --json or --csv, not both");
      const location = locationOf(options, "--region, --city and --timezone");
      const api = signedIn(context);
      const progress = startProgress(`Searching "${query}"`, context);
      const request = { query, ...(options.iterations ? { iterations: options.iterations } : {}), ...(location ? { options: { location } } : {}) };
      const { result, remainingSearches } = await streamSearch(api, request, progress);
      const lens = await lensOf(api, result.id, options.brand);
      emitResult(context, result, { csv: options.csv, out: options.out, lens });
      if (remainingSearches !== undefined) note(context.quiet, `${remainingSearches} free ${remainingSearches === 1 ? "search" : "searches"} left today`);
    }),
  );
