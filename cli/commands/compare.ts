import * as v from "valibot";
import type { CompareReport } from "#src/contract/compare.ts";
import { SearchQuery } from "#src/contract/search-request.ts";
import { visibleText } from "#src/core/display-text.ts";
import { sourceLabel } from "#src/core/urls.ts";
import { action, defineCommand, parseOptions, repeatable } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { CliError } from "#cli/lib/exit.ts";
import { note, print, printJson, table } from "#cli/lib/output.ts";

const Options = v.object({ variant: v.optional(v.array(SearchQuery)) });

export const compare = defineCommand("compare", "compare a query's saved search with its variants' (Pro)")
  .argument("<query>", "the original query")
  .option("--variant <query>", "a variant to compare (repeat it); default: the variants of your latest batch for the query", repeatable)
  .action(
    action<typeof Options, [string]>(Options, async ({ context, options, args: [rawQuery] }) => {
      const query = parseOptions(SearchQuery, rawQuery);
      const api = signedIn(context);
      const variants = options.variant ?? (await api.latestBatch(query)).batch?.items.map((item) => item.query) ?? [];
      if (variants.length === 0) throw new CliError("usage", `no variants: give --variant, or run aisc variants "${query}" --run first`);
      const report = await api.compare({ query, variants });
      if (context.json) return printJson(report);
      print(compareText(report));
      if (report.missing.length) note(context.quiet, `No saved search for: ${report.missing.map((q) => `"${visibleText(q)}"`).join(", ")}`);
    }),
  );

/** The searches compared, the top items and the significant differences. */
function compareText(report: CompareReport): string {
  const queryOf = new Map(report.searches.map((s) => [s.id, visibleText(s.query)]));
  const { summary } = report;
  const top = (items: Array<{ name: string; searches: number }>, name = (item: { name: string }) => visibleText(item.name)) =>
    items.map((item) => `${name(item)} (${item.searches})`).join("\n") || "—";
  const differences = [...report.products, ...report.companies].flatMap((item) =>
    Object.entries(item.difference)
      .filter(([, d]) => d.significant)
      .map(([id, d]) => [visibleText(item.name), queryOf.get(id) ?? id, d.pValue.toPrecision(2)]),
  );
  return [
    table(
      ["Role", "Query", "Iterations", "Date (UTC)", "ID"],
      report.searches.map((s) => [s.role, visibleText(s.query), String(s.iterationCount), s.createdAt.slice(0, 16).replace("T", " "), s.id]),
    ),
    table(
      [`Products (${summary.uniqueProducts})`, `Companies (${summary.uniqueCompanies})`, `Sources (${summary.uniqueSources})`],
      [[top(summary.topProducts), top(summary.topCompanies), top(summary.topSources, (item) => visibleText(sourceLabel({ url: item.name })))]],
    ),
    differences.length
      ? table(["Significant difference", "Variant", "p"], differences)
      : "No significant differences from the original (Fisher's exact test, α = 0.05).",
  ].join("\n");
}
