import * as v from "valibot";
import { RenameSearch, SavedSearchListFields } from "#src/contract/history.ts";
import { providerIds } from "#src/contract/providers.ts";
import { visibleText } from "#src/core/display-text.ts";
import { action, defineCommand, Flag, parseOptions } from "#cli/lib/command.ts";
import { signedIn } from "#cli/lib/context.ts";
import { fitTable, type FitColumn } from "#cli/lib/fit-table.ts";
import { note, print, printJson } from "#cli/lib/output.ts";
import { confirmDeletion } from "#cli/lib/prompt.ts";

const { limit, before, query, q, provider, iterations, from, to } = SavedSearchListFields.entries;
// --search is the API's `q`: the flag says what it does.
const Options = v.object({ limit, before, query, search: q, provider, iterations, from, to });
const YesOptions = v.object({ yes: Flag });
const NoFlags = v.object({});

// On a narrow screen the counts go first, then the date; the id and the query always show.
const HISTORY_COLUMNS: FitColumn[] = [
  { head: "ID" },
  { head: "Date (UTC)", droppable: true },
  { head: "Query", flexible: true },
  ...["Iterations", "Products", "Companies", "Links"].map((head) => ({ head, droppable: true })),
];

const remove = defineCommand("delete", "delete a saved search for good (asks first on a terminal; --yes for scripts)")
  .argument("<id>", "the search's id (aisc history)")
  .option("-y, --yes", "do not ask")
  .action(
    action<typeof YesOptions, [string]>(YesOptions, async ({ context, options, args: [id] }) => {
      const api = signedIn(context);
      const question = async () => `Delete the search "${visibleText((await api.getSearch(id)).query)}" (${id})?`;
      if (!(await confirmDeletion(options.yes, "a search", question))) return note(context.quiet, "Nothing deleted.");
      const deleted = await api.deleteSearch(id);
      if (context.json) return printJson(deleted);
      print(`Deleted ${id}.`);
    }),
  );

const rename = defineCommand("rename", 'name a saved search: the history shows the title beside its query ("" removes it)')
  .argument("<id>", "the search's id (aisc history)")
  .argument("<title>", "the new title (up to 200 characters)")
  .action(
    action<typeof NoFlags, [string, string]>(NoFlags, async ({ context, args: [id, text] }) => {
      const { title } = parseOptions(RenameSearch, { title: text });
      const renamed = await signedIn(context).renameSearch(id, title || null);
      if (context.json) return printJson(renamed);
      print(renamed.title ? `Renamed ${id}: "${visibleText(renamed.title)}"` : `${id} shows its query again.`);
    }),
  );

export const history = defineCommand("history", "list your saved searches, newest first; search and filter them; delete or rename one")
  .option("--limit <n>", "how many (1–100, default 20)")
  .option("--query <text>", "only the searches of this query (any letter case)")
  .option("--search <text>", "only searches whose query or title contains this text (any letter case)")
  .option("--provider <id>", `only searches this provider answered (${providerIds.join(", ")})`)
  .option("--iterations <n>", "only searches of this many iterations")
  .option("--from <date>", "only searches made from this day on (YYYY-MM-DD, UTC, or an ISO timestamp)")
  .option("--to <date>", "only searches made up to this day (YYYY-MM-DD, UTC, included, or an ISO timestamp)")
  .option("--before <cursor>", "the page after the one that printed this cursor (with the same filters)")
  .addCommand(remove)
  .addCommand(rename)
  .action(
    action(Options, async ({ context, options }) => {
      const { search, before: _, ...filters } = options;
      const list = await signedIn(context).listSearches({
        ...filters,
        ...(options.before ? { before: options.before } : {}),
        ...(search ? { q: search } : {}),
      });
      if (context.json) return printJson(list);
      const asked = flagsOf({ ...filters, search });
      if (list.searches.length === 0) return print(asked === "" ? 'No saved searches yet: aisc search "…"' : "No saved searches match.");
      const rows = list.searches.map((s) => [
        s.id,
        s.timestamp.slice(0, 16).replace("T", " "),
        s.title ? `${visibleText(s.title)}\n(${visibleText(s.query)})` : visibleText(s.query),
        String(s.iterationCount),
        String(s.totalProducts),
        String(s.totalCompanies),
        String(s.totalLinks),
      ]);
      print(fitTable(HISTORY_COLUMNS, rows));
      if (list.nextCursor) note(context.quiet, `More: aisc history ${asked}${asked ? " " : ""}--before ${list.nextCursor}`);
    }),
  );

/** The options as flags again ("--search crm --provider openai"), for the next page's command. */
function flagsOf(options: Record<string, string | number | undefined>): string {
  return Object.entries(options)
    .flatMap(([name, value]) => (value === undefined ? [] : [`--${name} ${/^[\w:.+-]+$/.test(String(value)) ? value : JSON.stringify(String(value))}`]))
    .join(" ");
}
