import * as v from "valibot";
import { action, defineCommand, Flag } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { BrandName, brandOption, emitResult, lensOf } from "#cli/lib/results.ts";

const Options = v.object({ csv: Flag, json: Flag, brand: BrandName });

export const show = defineCommand("show", "show a saved search")
  .argument("<id>", "the search's id (aisc history)")
  .option("--csv", "print the CSV export instead of a table")
  .addOption(brandOption())
  .action(
    action<typeof Options, [string]>(Options, async ({ context, options, args: [id] }) => {
      if (options.json && options.csv) throw new CliError("usage", "choose --json or --csv, not both");
      const api = signedIn(context);
      const result = await api.getSearch(id);
      emitResult(context, result, { csv: options.csv, lens: await lensOf(api, id, options.brand) });
    }),
  );
