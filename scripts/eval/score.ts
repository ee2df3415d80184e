import type { ModelResult } from "#src/contract/search-result.ts";
import { nameKey } from "#src/core/names.ts";
import { normalizeUrl } from "#src/core/urls.ts";
import { EXTRACTOR_ERROR_KINDS, type AnswerFixture, type ExtractorErrorKind } from "./fixtures.ts";
import type { ReplayLog } from "./replay.ts";

/**
 * The bar `bun run eval` holds the pipeline to (natural answers read by an extractor
 * that makes mistakes); below it the run fails. No name the answer never gives may be kept.
 */
export const GOAL = { productsF1: 0.95, companiesF1: 0.95, rowF1: 0.8, citedRecall: 1, inventedKept: 0 } as const;

/** The extractor's mistakes that name something the answer never names: grounding must drop every one. */
export const NOT_IN_ANSWER: readonly ExtractorErrorKind[] = ["invented", "unnamed-company"];

export type ItemScore = { tp: number; fp: number; fn: number; missed: string[]; extra: string[] };

/** One answer × provider, scored against its truth. */
export type RowScore = {
  fixture: AnswerFixture;
  products: ItemScore;
  companies: ItemScore;
  /** F1 over products and companies together. */
  f1: number;
  cited: { total: number; missing: string[] };
  invented: string[];
  keptCategories: string[];
  keptNotFound: string[];
  /** Whether the result says the answer was cut, where the truth says it was (or was not). */
  cutRecorded: boolean;
  /** Kept items with a saved first mention, and those whose mention is not their name. */
  positions: { items: number; located: number; wrong: string[] };
  /** The extractor's labelled mistakes still in the result (the same name, kept). */
  errorsKept: { name: string; kind: ExtractorErrorKind }[];
  /** Names the result says it dropped because the answer does not contain them. */
  ungrounded: number;
  /** Anything else that went wrong: an error card, a call the fixture did not expect. */
  problems: string[];
};

/** What is scored: a search result, with the grounding count the new pipeline adds (ModelResult.ungrounded). */
export type Scored = ModelResult & { ungrounded?: number };

export function scoreRow(fixture: AnswerFixture, result: Scored, log: ReplayLog): RowScore {
  const { truth } = fixture;
  const ignored = [...truth.optional];
  const flagged = (names: string[]) => names.filter((name) => [...truth.categories, ...truth.notFound].some((bad) => sameName(bad, name)));
  const products = matchNames(
    truth.products,
    result.products.map((p) => p.name),
    ignored,
  );
  const companies = matchNames(
    truth.companies,
    result.companies.map((c) => c.name),
    ignored,
  );
  const kept = [...result.products.map((p) => p.name), ...result.companies.map((c) => c.name)];

  const citedKept = new Set(result.sources.filter((s) => s.cited).map((s) => normalizeUrl(s.url)));
  const known = new Set([...truth.cited, ...truth.retrieved].map(normalizeUrl));
  const problems = [...log.unexpected];
  if (result.status !== "ok") problems.push(`status ${result.status}: ${result.error ?? ""}`);
  // The person's question goes to the provider exactly as typed: nothing added to it.
  const notAsTyped = log.searchPrompts.filter((prompt) => prompt !== fixture.query);
  if (notAsTyped.length > 0) problems.push(`the search call was not sent the query as typed: ${JSON.stringify(notAsTyped[0]?.slice(0, 120))}`);
  if (log.extractions > 0 && !log.extractionPrompts.some((prompt) => prompt.includes(result.rawResponse?.slice(0, 200) ?? "\u0000"))) {
    problems.push("the extraction call was not given the answer's text");
  }

  return {
    fixture,
    products,
    companies,
    f1: f1(products.tp + companies.tp, products.fp + companies.fp, products.fn + companies.fn),
    cited: { total: new Set(truth.cited.map(normalizeUrl)).size, missing: [...new Set(truth.cited.map(normalizeUrl))].filter((url) => !citedKept.has(url)) },
    invented: [...new Set(result.sources.map((s) => normalizeUrl(s.url)))].filter((url) => !known.has(url)),
    keptCategories: flagged(kept).filter((name) => truth.categories.some((bad) => sameName(bad, name))),
    keptNotFound: flagged(kept).filter((name) => truth.notFound.some((bad) => sameName(bad, name))),
    cutRecorded: Boolean(result.truncated) === truth.truncated,
    positions: positionsOf(result),
    // A maker given as a product is still right as a company: only kept as a product is it kept.
    errorsKept: fixture.extractorErrors.filter((error) =>
      (error.kind === "company-as-product" ? result.products.map((p) => p.name) : kept).some((name) => sameName(name, error.name)),
    ),
    ungrounded: result.ungrounded ?? 0,
    problems,
  };
}

type Figures = { tp: number; fp: number; fn: number; precision: number; recall: number; f1: number };

/** Micro-averaged figures over every row, and what falls short of the goal. */
export type Summary = {
  rows: number;
  products: Figures;
  companies: Figures;
  citedRecall: number;
  citedTotal: number;
  invented: number;
  rowsBelow: string[];
  keptCategories: number;
  keptNotFound: number;
  cutNotRecorded: string[];
  positions: { items: number; located: number; wrong: number };
  /** Per kind of extractor mistake: how many the set holds, how many were kept. */
  errors: Record<ExtractorErrorKind, { total: number; kept: number }>;
  /** Kept names the answer never gives (kinds in NOT_IN_ANSWER). */
  inventedKept: string[];
  ungrounded: number;
  problems: number;
  failures: string[];
};

/** Micro-averaged figures over every row. */
export function summarize(rows: RowScore[]): Summary {
  const sum = (pick: (row: RowScore) => ItemScore) =>
    rows.reduce((acc, row) => ({ tp: acc.tp + pick(row).tp, fp: acc.fp + pick(row).fp, fn: acc.fn + pick(row).fn }), { tp: 0, fp: 0, fn: 0 });
  const figures = (s: { tp: number; fp: number; fn: number }): Figures => ({
    ...s,
    precision: ratio(s.tp, s.tp + s.fp),
    recall: ratio(s.tp, s.tp + s.fn),
    f1: f1(s.tp, s.fp, s.fn),
  });
  const citedTotal = rows.reduce((n, row) => n + row.cited.total, 0);
  const citedMissing = rows.reduce((n, row) => n + row.cited.missing.length, 0);
  const summary: Omit<Summary, "failures"> = {
    rows: rows.length,
    products: figures(sum((row) => row.products)),
    companies: figures(sum((row) => row.companies)),
    citedRecall: ratio(citedTotal - citedMissing, citedTotal),
    citedTotal,
    invented: rows.reduce((n, row) => n + row.invented.length, 0),
    rowsBelow: rows.filter((row) => row.f1 < GOAL.rowF1).map((row) => row.fixture.id),
    keptCategories: rows.reduce((n, row) => n + row.keptCategories.length, 0),
    keptNotFound: rows.reduce((n, row) => n + row.keptNotFound.length, 0),
    cutNotRecorded: rows.filter((row) => !row.cutRecorded).map((row) => row.fixture.id),
    positions: {
      items: rows.reduce((n, row) => n + row.positions.items, 0),
      located: rows.reduce((n, row) => n + row.positions.located, 0),
      wrong: rows.reduce((n, row) => n + row.positions.wrong.length, 0),
    },
    errors: Object.fromEntries(
      EXTRACTOR_ERROR_KINDS.map((kind) => [
        kind,
        {
          total: rows.reduce((n, row) => n + row.fixture.extractorErrors.filter((error) => error.kind === kind).length, 0),
          kept: rows.reduce((n, row) => n + row.errorsKept.filter((error) => error.kind === kind).length, 0),
        },
      ]),
    ) as Summary["errors"],
    inventedKept: rows.flatMap((row) =>
      row.errorsKept.filter((error) => NOT_IN_ANSWER.includes(error.kind)).map((error) => `${error.name} (${row.fixture.id})`),
    ),
    ungrounded: rows.reduce((n, row) => n + row.ungrounded, 0),
    problems: rows.reduce((n, row) => n + row.problems.length, 0),
  };
  return { ...summary, failures: failures(summary) };
}

function failures(s: Omit<Summary, "failures">): string[] {
  const out: string[] = [];
  if (s.products.f1 < GOAL.productsF1) out.push(`products F1 ${s.products.f1.toFixed(3)} < ${GOAL.productsF1}`);
  if (s.companies.f1 < GOAL.companiesF1) out.push(`companies F1 ${s.companies.f1.toFixed(3)} < ${GOAL.companiesF1}`);
  if (s.rowsBelow.length > 0) out.push(`${s.rowsBelow.length} rows below F1 ${GOAL.rowF1}`);
  if (s.inventedKept.length > GOAL.inventedKept) out.push(`${s.inventedKept.length} names the answer never gives kept`);
  if (s.citedRecall < GOAL.citedRecall) out.push(`cited-URL recall ${s.citedRecall.toFixed(3)} < 1`);
  if (s.invented > 0) out.push(`${s.invented} invented URLs`);
  if (s.keptCategories > 0) out.push(`${s.keptCategories} categories kept`);
  if (s.keptNotFound > 0) out.push(`${s.keptNotFound} not-found names kept`);
  if (s.cutNotRecorded.length > 0) out.push(`${s.cutNotRecorded.length} rows with the cut flag wrong`);
  if (s.positions.wrong > 0) out.push(`${s.positions.wrong} mention positions not at their name`);
  if (s.problems > 0) out.push(`${s.problems} replay problems`);
  return out;
}

// Each truth entry and each kept name is matched at most once; optional names count neither way.
function matchNames(truth: (string | string[])[], kept: string[], optional: string[]): ItemScore {
  const open = truth.map((entry) => (typeof entry === "string" ? [entry] : entry));
  const extra: string[] = [];
  for (const name of kept) {
    const index = open.findIndex((aliases) => aliases.some((alias) => sameName(alias, name)));
    if (index !== -1) open.splice(index, 1);
    else if (!optional.some((alias) => sameName(alias, name))) extra.push(name);
  }
  const missed = open.map((aliases) => aliases[0] ?? "");
  return { tp: truth.length - missed.length, fp: extra.length, fn: missed.length, missed, extra };
}

// Case, spacing, typographic apostrophes and dashes, and ™/® never make two names different.
function sameName(a: string, b: string): boolean {
  return matchKey(a) === matchKey(b);
}

function matchKey(name: string): string {
  return nameKey(name.replace(/[™®©]/g, "").replace(/[‐‑‒–—−]/g, "-")).replace(/[.,;:]+$/, "");
}

// A saved mention must point at the name: every word it covers is one of the name's (a brand may be left out).
function positionsOf(result: ModelResult) {
  const text = result.rawResponse ?? "";
  const items = [...result.products, ...result.companies];
  const wrong: string[] = [];
  let located = 0;
  for (const item of items) {
    if (!item.mention) continue;
    located++;
    const words = wordsOf(text.slice(item.mention.start, item.mention.end));
    const own = new Set(wordsOf(item.name));
    if (words.length === 0 || !words.every((word) => own.has(word)))
      wrong.push(`${item.name} @${item.mention.start}: "${text.slice(item.mention.start, item.mention.end)}"`);
  }
  return { items: items.length, located, wrong };
}

function wordsOf(text: string): string[] {
  return nameKey(text.replace(/['’]s\b/g, ""))
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function f1(tp: number, fp: number, fn: number): number {
  return tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn);
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 1 : part / whole;
}
