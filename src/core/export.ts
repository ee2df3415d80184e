import type { LensReport, Rate } from "#src/contract/lens.ts";
import { providerCatalogue, providerIds } from "#src/contract/providers.ts";
import { modelOf, providersOf, type Frequency, type SearchResult } from "#src/contract/search-result.ts";
import { toWireResult } from "#src/contract/search-wire.ts";
import { providerItems } from "./aggregate.ts";
import { locationLabel } from "./location.ts";
import { usdField } from "./cost.ts";
import { visibleJson, visibleText } from "./display-text.ts";

/**
 * Spec §7 "Client-side exports": the result as JSON or CSV, and the download file name. Pure
 * (no DOM, no clock): the browser wraps the text in a Blob, a CLI can write it to a file.
 */

/** What an export may add to the result: the brand lens on it (Pro). */
export type ExportExtras = { lens?: LensReport };

/**
 * The whole result in the API's (spec §3) JSON, pretty-printed (2 spaces), with a final newline;
 * with a lens, under a last `lens` key. An invisible character in its text is written as its
 * escape (visibleJson): the same value when read, seen when printed.
 */
export function resultToJson(result: SearchResult, extras: ExportExtras = {}): string {
  const wire = toWireResult(result);
  return `${visibleJson(JSON.stringify(extras.lens ? { ...wire, lens: extras.lens } : wire, null, 2))}\n`;
}

/** Excel reads a CSV as UTF-8 only when it starts with a byte-order mark. */
export const UTF8_BOM = "\uFEFF";

/** The CSV export as its file holds it, wherever it is written (the web's download, the CLI): the byte-order mark, then resultToCsv. */
export function resultToCsvFile(result: SearchResult, extras: ExportExtras = {}): string {
  return UTF8_BOM + resultToCsv(result, extras);
}

const CRLF = "\r\n";
export type Cell = string | number | boolean | null | undefined;

/**
 * The result as CSV (RFC 4180: CRLF line ends, a field holding a comma, quote, CR or LF is
 * quoted with its quotes doubled — see docs/decisions/004-csv-quoting.md). Sections, each a
 * title row, a header row, data rows and a blank line: Search (with where it was asked from, when
 * it had a location), Providers (last, whether that location reached its search), Products (per model:
 * its answer's, or over several iterations every one it returned, most often first, as the
 * result lists them: ADR 028), Companies (the same), Common Sources (Yes/No per provider), Frequency Analysis (one row per
 * provider, type and name), and with a lens Brand Lens (see lensCsvRows). A simulated provider is marked Yes in every section's Simulated
 * column. Text cells are shown as visibleText shows them (one line, an invisible character named),
 * and those a spreadsheet would run as a formula are prefixed with an apostrophe (csvField).
 */
export function resultToCsv(result: SearchResult, extras: ExportExtras = {}): string {
  const providers = providersOf(result);
  const rows: Cell[][] = [];
  const section = (title: string, header: string[], body: Cell[][]) => {
    if (rows.length > 0) rows.push([]);
    rows.push([title], header, ...body);
  };

  section(
    "Search",
    ["Field", "Value"],
    [
      ["Query", result.query],
      ["Search Time (s)", (Math.max(0, result.executionTimeMs) / 1000).toFixed(1)],
      ["Iterations", result.iterationCount],
      ["Total Links", result.totalLinks],
      ["Total Products", result.totalProducts],
      ["Total Companies", result.totalCompanies],
      ...(result.createdAt ? [["Date", result.createdAt] as Cell[]] : []),
      ...(result.options?.location ? [["Location", locationLabel(result.options.location)] as Cell[]] : []),
      ["Cost (USD)", costCell(result.cost?.total.usd)],
    ],
  );

  section(
    "Providers",
    // Location, then the costs: whether the search's location reached this provider's search (ADR 042), what its answers cost (ADR 041).
    ["Provider", "Model", "Model Version", "Status", "Simulated", "Searched the Web", "Error", "Location", ...COST_COLUMNS],
    providers.map((id) => {
      const model = modelOf(result, id);
      const cost = result.cost?.providers[id];
      return [
        providerCatalogue[id].column,
        providerCatalogue[id].model,
        model.modelVersion,
        model.status,
        yesNo(model.simulated),
        yesNo(model.searched),
        model.error ?? "",
        model.location ?? "",
        costCell(cost?.usd),
        costCell(cost?.searchTokensUsd),
        costCell(cost?.searchesUsd),
        costCell(cost?.readingUsd),
      ];
    }),
  );

  section(
    "Products",
    ["Provider", "Simulated", "Position", "Rank", "Product", "Details"],
    providers.flatMap((id) => {
      const model = modelOf(result, id);
      return providerItems(result, id, "products").map((product, index) => [
        providerCatalogue[id].column,
        yesNo(model.simulated),
        index + 1,
        product.rank ?? "",
        product.name,
        product.details ?? "",
      ]);
    }),
  );

  section(
    "Companies",
    ["Provider", "Simulated", "Company", "Products"],
    providers.flatMap((id) => {
      const model = modelOf(result, id);
      return providerItems(result, id, "companies").map((company) => [
        providerCatalogue[id].column,
        yesNo(model.simulated),
        company.name,
        (company.products ?? []).join("; "),
      ]);
    }),
  );

  section(
    "Common Sources",
    ["URL", ...providers.map((id) => providerCatalogue[id].column)],
    result.commonSources.map((source) => [source.url, ...providers.map((id) => yesNo(source.models.includes(id)))]),
  );

  section(
    "Frequency Analysis",
    ["Provider", "Type", "Name", "Count", "Percentage", "Low", "High", "Simulated"],
    providers.flatMap((id) => {
      const stats = result.stats[id];
      if (!stats) return [];
      const simulated = yesNo(modelOf(result, id).simulated);
      const row =
        (type: string) =>
        (f: Frequency): Cell[] => [providerCatalogue[id].column, type, f.name, f.count, f.percentage, f.low, f.high, simulated];
      return [...stats.productFrequencies.map(row("Product")), ...stats.companyFrequencies.map(row("Company")), ...stats.sourceFrequencies.map(row("Source"))];
    }),
  );

  if (extras.lens) section("Brand Lens", [...LENS_CSV_HEADER], lensCsvRows(extras.lens));

  return csvText(rows);
}

/** Rows as CSV text: each field by csvField, CRLF after every row (RFC 4180). */
export function csvText(rows: readonly Cell[][]): string {
  return rows.map((row) => row.map(csvField).join(",")).join(CRLF) + CRLF;
}

export const LENS_CSV_HEADER = ["Provider", "Brand", "Metric", "Value", "Low", "High", "N"] as const;

/**
 * The lens as CSV rows (LENS_CSV_HEADER), per provider in catalogue order: the brand's mention
 * rate and domain citations (percent, with the Wilson bounds, of N iterations); each named
 * brand's mentions (of N iterations) and share of voice (percent of N mentions in all); how
 * often the brand stood at each position among the products, and was not among them (of N).
 */
export function lensCsvRows(lens: LensReport): Cell[][] {
  return providerIds.flatMap((id) => {
    const view = lens.providers[id];
    if (!view) return [];
    const provider = providerCatalogue[id].column;
    const brand = lens.brand.name;
    const n = view.mentionRate.n;
    const total = view.shareOfVoice.reduce((sum, entry) => sum + entry.mentions, 0);
    const rateRow = (metric: string, value: Rate): Cell[] => [provider, brand, metric, value.percentage, value.low, value.high, value.n];
    return [
      rateRow("Mention rate (%)", view.mentionRate),
      rateRow("Domain cited (%)", view.domainCited),
      ...view.shareOfVoice.flatMap((entry): Cell[][] => [
        [provider, entry.name, "Mentions", entry.mentions, "", "", n],
        [provider, entry.name, "Share of voice (%)", entry.share, "", "", total],
      ]),
      ...view.positions.map(({ position, count }): Cell[] => [provider, brand, `Position ${position}`, count, "", "", n]),
      [provider, brand, "Not recommended", view.notRecommended, "", "", n],
    ];
  });
}

/**
 * One CSV field (ADR 004). Numbers and booleans as written; text as visibleText shows it (on one
 * line, an invisible character named: "⟨U+202E⟩"), with a leading apostrophe when a spreadsheet
 * would run it as a formula (startsLikeFormula), so that it shows it instead; then RFC 4180
 * quoting for a comma, quote, CR or LF.
 */
export function csvField(value: Cell): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return yesNo(value);
  const shown = visibleText(value);
  const text = startsLikeFormula(shown) ? `'${shown}` : shown;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Whether a spreadsheet would read a cell as a formula: it starts with a tab or CR, or its first
 * character after any blanks is =, +, - or @ in any form that folds to one of them (NFKC): the
 * full-width ＝ ＋ － ＠, which Excel takes as typed with an East Asian input method and Apple
 * Numbers folds on import, the small ﹦ ﹢ ﹣ ﹫, the super- and subscript ⁺ ⁼ ₊ ₌. OWASP's list
 * (= + - @, tab, CR) is the ASCII part; the folded forms are csv-stringify's `escape_formulas`
 * set and its kin; the blanks, because LibreOffice and Sheets may trim them before they read.
 */
function startsLikeFormula(text: string): boolean {
  if (/^[\t\r]/.test(text)) return true;
  const first = String.fromCodePoint(text.trimStart().codePointAt(0) ?? 0x20);
  return /^[=+\-@]/.test(first.normalize("NFKC"));
}

/**
 * `search-results-{query-slug}-{YYYY-MM-DD}.{ext}` (spec §7). The slug is the query lower-cased,
 * accents dropped, every run of other characters turned into one hyphen, trimmed of hyphens, at
 * most 60 characters, or "search" when nothing is left. The date is the caller's local day.
 */
export function exportFilename(query: string, date: Date, ext: string): string {
  return `search-results-${querySlug(query)}-${localIsoDay(date)}.${ext.replace(/^\.+/, "")}`;
}

export const SLUG_MAX_LENGTH = 60;

export function querySlug(query: string): string {
  const slug = query
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, "");
  return slug || "search";
}

/** The Providers section's cost columns (ADR 041), after the spec's: every iteration of the provider, in USD. */
export const COST_COLUMNS = ["Cost (USD)", "Search Tokens (USD)", "Web Searches (USD)", "Reading (USD)"] as const;

/** An amount in USD, or "unknown" (a model without a price, or a result saved before costs were kept): never a $0 it did not cost. */
function costCell(usd: number | null | undefined): string {
  return usd === null || usd === undefined ? "unknown" : usdField(usd);
}

function yesNo(value: boolean): string {
  return value ? "Yes" : "No";
}

function localIsoDay(date: Date): string {
  const valid = Number.isNaN(date.getTime()) ? new Date(0) : date;
  const month = String(valid.getMonth() + 1).padStart(2, "0");
  const day = String(valid.getDate()).padStart(2, "0");
  return `${valid.getFullYear()}-${month}-${day}`;
}
