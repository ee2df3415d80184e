import { Option } from "commander";
import * as v from "valibot";
import type { ApiClient } from "#src/client/api.ts";
import { ApiError } from "#src/client/errors.ts";
import { LensQuery, type LensReport } from "#src/contract/lens.ts";
import type { SavedSearchResult } from "#src/contract/search-result.ts";
import { resultToCsvFile, resultToJson } from "#src/core/export.ts";
import type { Context } from "./context.ts";
import { note, print, writeDocument } from "./output.ts";
import { lensTable, resultTable } from "./render.ts";

export type Format = "json" | "csv";

/** `--brand <name>` (search, show, export): the brand lens for another brand than the saved one, as the web's "Try another brand". */
export const brandOption = () =>
  new Option(
    "--brand <name>",
    "the brand lens for NAME instead of your saved brand, against your saved competitors (Pro; without it, Pro results show your saved lens as the web does)",
  );
export const BrandName = LensQuery.entries.brand;
/** `-o, --out <file>`. */
export const OutFile = v.optional(v.pipe(v.string(), v.minLength(1, "a file name is required")));

/**
 * The brand lens on a saved search, as the server computes it for the web: for `brand` (an
 * override, Pro), else the saved brand for a Pro user who named one, else none.
 */
export async function lensOf(api: ApiClient, id: string, brand: string | undefined): Promise<LensReport | undefined> {
  try {
    return (await api.searchLens(id, brand ? { name: brand } : undefined)).lens ?? undefined;
  } catch (error) {
    // Unasked, the saved lens is a Pro extra: a free account simply has none (one call, not a Pro check first).
    if (!brand && error instanceof ApiError && error.code === "PRO_REQUIRED") return undefined;
    throw error;
  }
}

/** The result as the web's download writes it (src/core/export.ts), the CSV with its byte-order mark. */
export function exportText(result: SavedSearchResult, format: Format, lens?: LensReport): string {
  return format === "json" ? resultToJson(result, { lens }) : resultToCsvFile(result, { lens });
}

/** A file's format by its extension: .csv is CSV, anything else (stdout's "-" too) JSON. */
export function formatOfFile(file: string): Format {
  return /\.csv$/i.test(file) ? "csv" : "json";
}

/**
 * How `search` and `show` print a result: `--json` or `--csv` print that document (to `--out`
 * when given); otherwise a table, and `--out` also writes the file in its extension's format.
 */
export function emitResult(context: Context, result: SavedSearchResult, options: { csv: boolean; out?: string; lens?: LensReport }): void {
  const chosen: Format | undefined = context.json ? "json" : options.csv ? "csv" : undefined;
  if (options.out) {
    writeDocument(options.out, exportText(result, chosen ?? formatOfFile(options.out), options.lens));
    if (options.out !== "-") note(context.quiet, `Wrote ${options.out}`);
    if (chosen || options.out === "-") return;
  } else if (chosen) {
    process.stdout.write(exportText(result, chosen, options.lens));
    return;
  }
  print(resultTable(result));
  if (options.lens) print(lensTable(options.lens));
  note(context.quiet, `Saved as ${result.id}: aisc show ${result.id} · aisc export ${result.id} --format csv`);
}
