import type { BrandEntry } from "#src/contract/lens.ts";
import { splitList } from "#web/lib/workbench.ts";

/*
 * A competitor as a form's row holds it (its lists as comma-separated text), and back: the
 * profile's brand lens and the tracker form keep the same fields, so the lens a saved search shows
 * and a tracker's count the same names and domains.
 */

export type CompetitorRow = { key: number; name: string; aliases: string; domains: string };

let rows = 0;

/** A row for an entry, with a key no other row on the page has. */
export function competitorRow(entry: Pick<BrandEntry, "name" | "aliases" | "domains">): CompetitorRow {
  return { key: ++rows, name: entry.name, aliases: entry.aliases.join(", "), domains: entry.domains.join(", ") };
}

export function emptyCompetitorRow(): CompetitorRow {
  return competitorRow({ name: "", aliases: [], domains: [] });
}

/** The rows anything was written in, as entries (names as written: the contract trims and checks them). */
export function competitorEntries(rows: CompetitorRow[]): BrandEntry[] {
  return rows
    .filter((row) => row.name.trim() || row.aliases.trim() || row.domains.trim())
    .map((row) => ({ name: row.name, aliases: splitList(row.aliases), domains: splitList(row.domains) }));
}
