import * as v from "valibot";
import { SavedSearchListQuery } from "#src/contract/search.ts";
import { action, defineCommand } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { fitTable, type FitColumn } from "#cli/lib/fit-table.ts";
import { note, print, printJson } from "#cli/lib/output.ts";

const { limit, before, query } = SavedSearchListQuery.entries;
const Options = v.object({ limit, before, query });

// On a narrow screen the counts go first, then the date; the id and the query always show.
const HISTORY_COLUMNS: FitColumn[] = [
  { head: "ID" },
  { head: "Date (UTC)", droppable: true },
  { head: "Query", flexible: true },
  ...["Iterations", "Products", "Companies", "Links"].map((head) => ({ head, droppable: true })),
];

export const history = defineCommand("history", "list your saved searches, newest first")
  .option("--limit <n>", "how many (1–100, default 20)")
  .option("--query <text>", "only the searches of this query (any letter case)")
  .option("--before <cursor>", "the page after the one that printed this cursor")
  .action(
    action(Options, async ({ context, options }) => {
      const list = await signedIn(context).listSearches(options);
      if (context.json) return printJson(list);
      if (list.searches.length === 0) return print("No saved searches yet: aisc search \"…\"");
      const rows = list.searches.map((s) => [s.id, s.timestamp.slice(0, 16).replace("T", " "), s.query, String(s.iterationCount), String(s.totalProducts), String(s.totalCompanies), String(s.totalLinks)]);
      print(fitTable(HISTORY_COLUMNS, rows));
      if (list.nextCursor) note(context.quiet, `More: aisc history --before ${list.nextCursor}`);
    }),
  );
