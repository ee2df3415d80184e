import { resolve } from "node:path";
import * as v from "valibot";
import { exportFilename } from "#src/core/export.ts";
import { action, defineCommand } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { note, printJson, writeDocument } from "#cli/lib/output.ts";
import { BrandName, brandOption, exportText, formatOfFile, lensOf, OutFile } from "#cli/lib/results.ts";

const Options = v.object({
  format: v.optional(v.picklist(["json", "csv"], "--format must be json or csv")),
  out: OutFile,
  brand: BrandName,
});

export const exportCommand = defineCommand("export", "write a saved search to a file, as the web's download does")
  .argument("<id>", "the search's id (aisc history)")
  .option("--format <format>", "json or csv (default: csv when -o names a .csv file, else json)")
  .option("-o, --out <file>", "the file (- for stdout); default search-results-<query>-<date>.<format> here")
  .addOption(brandOption())
  .action(
    action<typeof Options, [string]>(Options, async ({ context, options, args: [id] }) => {
      const api = signedIn(context);
      const result = await api.getSearch(id);
      const format = options.format ?? (options.out ? formatOfFile(options.out) : "json");
      const file = options.out ?? exportFilename(result.query, new Date(), format);
      writeDocument(file, exportText(result, format, await lensOf(api, id, options.brand)));
      if (file === "-") return;
      if (context.json) printJson({ id, format, file: resolve(file) });
      else note(context.quiet, `Wrote ${file}`);
    }),
  );
